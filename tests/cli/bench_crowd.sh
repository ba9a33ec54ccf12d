#!/usr/bin/env bash
# td bench crowd: JSON lines with every metric, the text table, and usage errors.
set -u
source "$(dirname "$0")/harness.bash"

"$td" bench crowd --case 1k-sep --json >"$tmp/out" 2>"$tmp/err"
rc=$?
check $rc "json run exits 0 ($(cat "$tmp/err"))"
for m in agents waypoints separation road_width metrics_timed ticks ms_per_tick p90_ms \
         ns_per_agent floor_ms over_floor min_gap lane_error off_road; do
  grep -qE "^\{\"bench\":\"crowd\",\"case\":\"1k-sep\",\"metric\":\"$m\",\"value\":[0-9.e+-]+\}$" "$tmp/out"
  check $? "json metric $m"
done
[ "$(wc -l <"$tmp/out")" -eq 14 ]; check $? "one line per metric (no target at 1k)"
grep -q '"metric":"agents","value":1000}' "$tmp/out"; check $? "1000 agents"
grep -q '"metric":"separation","value":1}' "$tmp/out"; check $? "separation on"
grep -q '"metric":"road_width","value":10}' "$tmp/out"; check $? "on a road 10 wide"
grep -q '"metric":"off_road","value":0}' "$tmp/out"; check $? "no agent off the road"
# with separation no two agents overlap: min_gap > 0
gap=$(sed -n 's/.*"metric":"min_gap","value":\([0-9.e+-]*\)}/\1/p' "$tmp/out")
awk -v g="$gap" 'BEGIN { exit !(g > 0) }'
rc=$?
check $rc "min_gap > 0 (got $gap)"
over=$(sed -n 's/.*"metric":"over_floor","value":\([0-9.e+-]*\)}/\1/p' "$tmp/out")
awk -v r="$over" 'BEGIN { exit !(r > 1) }'
rc=$?
check $rc "slower than the floor (ratio $over)"

"$td" bench crowd --case 1k-nosep >"$tmp/out" 2>"$tmp/err"
check $? "text run exits 0"
grep -qE "^1k-nosep +1000 +[0-9]+ +off " "$tmp/out"; check $? "text row for 1k-nosep"
grep -q "x floor = crowd time" "$tmp/out"; check $? "text legend"
[ "$(grep -c '^1k' "$tmp/out")" -eq 1 ]; check $? "only the case asked for"

# the narrow corridor (in --quick): the waves file through, none leaves the road
"$td" bench crowd --case 1k-narrow --json >"$tmp/out" 2>"$tmp/err"
check $? "narrow run exits 0 ($(cat "$tmp/err"))"
grep -q '"metric":"road_width","value":2.2}' "$tmp/out"; check $? "narrow: a road 2.2 wide"
grep -q '"metric":"off_road","value":0}' "$tmp/out"; check $? "narrow: off_road 0"
gap=$(sed -n 's/.*"metric":"min_gap","value":\([0-9.e+-]*\)}/\1/p' "$tmp/out")
awk -v g="$gap" 'BEGIN { exit !(g > 0) }'
rc=$?
check $rc "narrow: min_gap > 0 (got $gap)"

expect_fail() { # status message args...
  local want=$1 msg=$2
  shift 2
  "$td" "$@" >"$tmp/out" 2>"$tmp/err"
  [ $? -eq "$want" ]; check $? "$* exits $want"
  grep -qF -- "$msg" "$tmp/err"
  local rc=$?
  check $rc "$* says '$msg' (got: $(cat "$tmp/err"))"
}
expect_fail 2 "td: bench crowd: no case named '2k-sep'" bench crowd --case 2k-sep
expect_fail 2 ": route, path, crowd, render or sim (see td bench --help)" bench nope
expect_fail 2 "bench: --seed: 'x' is not a whole number (0 .. 18446744073709551615)" bench crowd --seed x
expect_fail 2 "bench: --case needs a value" bench crowd --case
"$td" bench --help | grep -q "crowd   1k to 1M agents"; check $? "help lists crowd"

finish
