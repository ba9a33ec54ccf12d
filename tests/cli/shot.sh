#!/usr/bin/env bash
# td shot: a frame of the game without a window; overlays, ghost, panel; errors.
set -u
source "$(dirname "$0")/harness.bash"
map="$src/maps/01-crossroads.lua"
png_size() { # prints "W H" of a PNG (IHDR)
  od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}'
}

"$td" shot --map "$map" --tick 900 "$tmp/a.png" >"$tmp/out" 2>"$tmp/err"
check $? "shot at tick 900: $(cat "$tmp/err")"
grep -q "a.png: 1280x720, tick 900" "$tmp/out"; check $? "reports size and tick: $(cat "$tmp/out")"
[ "$(png_size "$tmp/a.png")" = "1280 720" ]; check $? "1280x720 PNG ($(png_size "$tmp/a.png"))"

"$td" shot --map "$map" --tick 900 "$tmp/b.png" >/dev/null 2>&1
cmp -s "$tmp/a.png" "$tmp/b.png"; check $? "same arguments, same picture"

"$td" shot --map "$map" --tick 900 --overlay graph --overlay lanes --size 800x600 "$tmp/c.png" >/dev/null 2>"$tmp/err"
check $? "overlays: $(cat "$tmp/err")"
[ "$(png_size "$tmp/c.png")" = "800 600" ]; check $? "--size"
"$td" shot --map "$map" --idle --build arrow --hover 9 "$tmp/d.png" >/dev/null 2>"$tmp/err"
check $? "ghost: $(cat "$tmp/err")"
"$td" shot --map "$map" --idle --build arrow --hover 9 "$tmp/e.png" >/dev/null 2>&1
"$td" shot --map "$map" --idle "$tmp/f.png" >/dev/null 2>&1
! cmp -s "$tmp/e.png" "$tmp/f.png"; check $? "the ghost changes the picture"

expect "bad overlay" 2 "shot: --overlay: no overlay 'nope'" -- "$td" shot --map "$map" --overlay nope "$tmp/x.png"
expect "bad base" 2 "shot: no tower base with object id 999" -- "$td" shot --map "$map" --select 999 "$tmp/x.png"
expect "bad type" 2 "shot: --build: no tower type 'laser'" -- "$td" shot --map "$map" --build laser --hover 9 "$tmp/x.png"
expect "bad map" 2 "nope.lua" -- "$td" shot --map "$tmp/nope.lua" "$tmp/x.png"
expect "bad tick" 2 "shot: --tick: 'x' is not a tick" -- "$td" shot --map "$map" --tick x "$tmp/x.png"
"$td" shot --map "$map" >/dev/null 2>&1
[ $? -eq 2 ]; check $? "no output file: usage, exit 2"
"$td" shot --help | grep -q "usage: td shot"; check $? "help"

finish
