#!/usr/bin/env bash
# td bench render: a smoke run (--quick: the 1k case, 10 frames), JSON and text,
# and the saved frame (TD_BENCH_RENDER_PNG).
set -u
source "$(dirname "$0")/harness.bash"

"$td" bench render --quick --json >"$tmp/out" 2>"$tmp/err"
check $? "json run exits 0 ($(cat "$tmp/err"))"
for m in enemies towers shots drawn frames_cached frames_made frame_ms p95_ms min_ms baseline_ms over_baseline; do
  grep -qE "^\{\"bench\":\"render\",\"case\":\"1k\",\"metric\":\"$m\",\"value\":[0-9.e+-]+\}$" "$tmp/out"
  check $? "json metric $m"
done
grep -q '"metric":"enemies","value":1000}' "$tmp/out"; check $? "1000 enemies"
# every sprite and shape of the case is on screen: 1000 enemies (sprite and two
# bars), 50 towers (platform, turret, pips), 100 shots, the tiles and the clear
# are not counted: at least 3000 + 100 + 100
drawn=$(sed -n 's/.*"metric":"drawn","value":\([0-9]*\)}/\1/p' "$tmp/out")
[ "${drawn:-0}" -ge 3200 ]; check $? "drawn counts the sprites and shapes ($drawn)"
"$td" bench render --quick >"$tmp/out" 2>"$tmp/err"
check $? "text run exits 0"
grep -qE "^1k +1000 +50 +100 " "$tmp/out"; check $? "text row for 1k"
grep -q "x_base = frame_ms / baseline_ms" "$tmp/out"; check $? "legend"
TD_BENCH_RENDER_PNG="$tmp/frame.png" "$td" bench render --quick >/dev/null 2>"$tmp/err"
check $? "saves a frame: $(cat "$tmp/err")"
[ "$(od -An -tx1 -j1 -N3 "$tmp/frame.png" 2>/dev/null | tr -d ' ')" = "504e47" ]; check $? "the frame is a PNG"
"$td" bench render --case 9k >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ]; check $? "unknown case exits 2"
grep -q "td: bench render: no case named '9k'" "$tmp/err"; check $? "unknown case message"
"$td" bench --help | grep -q "render  the game's renderer"; check $? "help lists render"

finish
