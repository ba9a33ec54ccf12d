#!/usr/bin/env bash
# td bench: JSON lines with every metric, the text table, and usage errors.
set -u
source "$(dirname "$0")/harness.bash"

"$td" bench route --case grid8-100 --placements 50 --json >"$tmp/out" 2>"$tmp/err"
check $? "json run exits 0 ($(cat "$tmp/err"))"
for m in nodes edges build_ms full_ms baseline_ms baseline_over_full cache_order incr_p50_us \
         incr_p99_us incr_max_us full_over_incr_p50 placed refused fallbacks; do
  grep -qE "^\{\"bench\":\"route\",\"case\":\"grid8-100\",\"metric\":\"$m\",\"value\":[0-9.e+-]+\}$" "$tmp/out"
  check $? "json metric $m"
done
grep -q '"metric":"nodes","value":10000}' "$tmp/out"; check $? "100x100 grid has 10000 nodes"
grep -q '"metric":"cache_order","value":0}' "$tmp/out"; check $? "a grid keeps its row order"
[ "$(wc -l <"$tmp/out")" -eq 14 ]; check $? "one line per metric"

# a geometric graph: the route works in cache order, timed in the graph's order too
"$td" bench route --case rgg-10k --placements 20 --json >"$tmp/out" 2>"$tmp/err"
check $? "rgg json run exits 0 ($(cat "$tmp/err"))"
grep -q '"metric":"cache_order","value":1}' "$tmp/out"; check $? "rgg-10k in cache order"
for m in graph_order_full_ms graph_order_over_full; do
  grep -qE "^\{\"bench\":\"route\",\"case\":\"rgg-10k\",\"metric\":\"$m\",\"value\":[0-9.e+-]+\}$" "$tmp/out"
  check $? "rgg json metric $m"
done
[ "$(wc -l <"$tmp/out")" -eq 16 ]; check $? "rgg: one line per metric"

"$td" bench route --case maze-100 --placements 20 >"$tmp/out" 2>"$tmp/err"
check $? "text run exits 0"
grep -qE "^maze-100 +5047 " "$tmp/out"; check $? "text row for maze-100"
grep -q "speedup = base / full" "$tmp/out"; check $? "text legend"

expect_fail() { # status message args...
  local want=$1 msg=$2
  shift 2
  "$td" "$@" >"$tmp/out" 2>"$tmp/err"
  [ $? -eq "$want" ]; check $? "$* exits $want"
  grep -qF -- "$msg" "$tmp/err"; check $? "$* says '$msg' (got: $(cat "$tmp/err"))"
}
expect_fail 2 "bench: unknown area 'nope'" bench nope
expect_fail 2 "bench route: no case named 'grid9'" bench route --case grid9
expect_fail 2 "bench: --seed needs a value" bench route --seed
expect_fail 2 "bench: --placements: '-3' is not a whole number (0 .. 10000000)" bench route --placements -3
expect_fail 2 "bench: unknown option '--fast'" bench route --fast
"$td" bench --help | grep -q "usage: td bench <area>"; check $? "help"

finish
