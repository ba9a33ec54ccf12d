#!/usr/bin/env bash
# td bench render: a smoke run (--quick: the 1k case, 10 frames), JSON and text.
set -u
source "$(dirname "$0")/harness.bash"

"$td" bench render --quick --json >"$tmp/out" 2>"$tmp/err"
check $? "json run exits 0 ($(cat "$tmp/err"))"
for m in enemies towers shots quads frame_ms p90_ms baseline_ms over_baseline; do
  grep -qE "^\{\"bench\":\"render\",\"case\":\"1k\",\"metric\":\"$m\",\"value\":[0-9.e+-]+\}$" "$tmp/out"
  check $? "json metric $m"
done
grep -q '"metric":"enemies","value":1000}' "$tmp/out"; check $? "1000 enemies"
"$td" bench render --quick >"$tmp/out" 2>"$tmp/err"
check $? "text run exits 0"
grep -qE "^1k +1000 +50 +100 " "$tmp/out"; check $? "text row for 1k"
grep -q "x_base = frame_ms / baseline_ms" "$tmp/out"; check $? "legend"
"$td" bench render --case 9k >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ]; check $? "unknown case exits 2"
grep -q "td: bench render: no case named '9k'" "$tmp/err"; check $? "unknown case message"
"$td" bench --help | grep -q "render  the game's renderer"; check $? "help lists render"

finish
