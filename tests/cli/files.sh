#!/usr/bin/env bash
# Files in and out (issue 17): what td reads must be a regular file (a FIFO
# is refused at once, never blocks); what td writes is whole or nothing: a
# planted FILE.tmp link is not followed, two writers do not mix, a full disk
# (/dev/full) is one error naming the file and exit 2, for saves, replays,
# pictures, traces and stdout.
set -u
source "$(dirname "$0")/harness.bash"
cd "$src" || exit 1
map=maps/01-crossroads.tmx
mod=tests/data/mods/game_api
t=timeout # a FIFO that blocks td fails the test instead of hanging it

# ---- reading: a FIFO (no writer ever comes), a directory -------------------
mkfifo "$tmp/fifo.lua"
expect "fifo map: route" 2 "fifo.lua: not a regular file (a FIFO)" -- $t 10 "$td" route --map "$tmp/fifo.lua"
expect "fifo map: sim" 2 "fifo.lua: not a regular file (a FIFO)" -- $t 10 "$td" sim --map "$tmp/fifo.lua" --spawn count=3
expect "fifo map: game" 2 "fifo.lua: not a regular file (a FIFO)" -- $t 10 "$td" sim --map "$tmp/fifo.lua" --auto
expect "fifo map: shot" 2 "fifo.lua: not a regular file (a FIFO)" -- $t 10 "$td" shot --map "$tmp/fifo.lua" "$tmp/x.png"
expect "fifo replay" 2 "fifo.lua: not a regular file (a FIFO)" -- $t 10 "$td" sim --replay "$tmp/fifo.lua"
expect "fifo save" 2 "fifo.lua: not a regular file (a FIFO)" -- $t 10 "$td" sim --map $map --load "$tmp/fifo.lua"
expect "fifo scenario" 2 "fifo.lua: not a regular file (a FIFO)" -- $t 10 "$td" check "$tmp/fifo.lua"
mkdir -p "$tmp/fifomod" && mkfifo "$tmp/fifomod/mod.lua"
expect "fifo mod file" 2 "mod.lua: not a regular file (a FIFO)" -- $t 10 "$td" sim --map $map --mod "$tmp/fifomod" --idle
# td play's settings a FIFO: not read, not written (neither blocks), the game runs
mkdir -p "$tmp/conf/td" && mkfifo "$tmp/conf/td/settings.txt"
XDG_CONFIG_HOME="$tmp/conf" XDG_DATA_HOME="$tmp/data" SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $t 20 "$td" play --software --frames 2 \
  >"$tmp/out" 2>"$tmp/err"
check $? "fifo settings: td play still ends well: $(cat "$tmp/err")"
grep -qF "settings.txt: not a regular file (a FIFO); settings not read" "$tmp/err"; check $? "fifo settings: not read, said: $(cat "$tmp/err")"
grep -qF "settings.txt: not a regular file; settings not saved" "$tmp/err"; check $? "fifo settings: not saved, said"
expect "directory map" 2 "maps: not a regular file (a directory)" -- $t 10 "$td" route --map maps
[ ! -e "$tmp/x.png" ]; check $? "fifo map: no picture left"

# ---- a planted FILE.tmp link: the file it names stays, the save is a file --
echo precious >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/g.tds.tmp"
ln -s "$tmp/victim" "$tmp/a.replay.tmp"
ln -s "$tmp/victim" "$tmp/p.png.tmp"
expect "planted: save, record" 0 "" -- "$td" sim --map $map --mod $mod --idle --ticks 900 --quiet \
  --save-at 600 --save "$tmp/g.tds" --record "$tmp/a.replay"
expect "planted: picture" 0 "" -- "$td" shot --map $map --mod $mod --idle "$tmp/p.png"
[ "$(cat "$tmp/victim")" = precious ]; check $? "planted: the victim untouched: $(head -c 80 "$tmp/victim")"
for f in g.tds a.replay p.png; do
  [ -f "$tmp/$f" ] && [ ! -L "$tmp/$f" ]; check $? "planted: $f is a regular file"
done
expect "planted: the save loads" 0 "" -- "$td" sim --map $map --mod $mod --load "$tmp/g.tds" --ticks 10 --quiet
expect "planted: the replay plays" 0 "" -- "$td" sim --replay "$tmp/a.replay" --quiet
rm "$tmp"/*.tmp
[ -z "$(ls "$tmp" | grep '\.tmp$')" ]; check $? "no temporaries left: $(ls "$tmp")"

# ---- two writers to one file at once: each its own temporary, one wins whole
for i in 1 2 3 4; do
  "$td" sim --map $map --mod $mod --idle --ticks $((600 * i)) --quiet --record "$tmp/both.replay" \
    >/dev/null 2>"$tmp/err$i" &
done
wait
for i in 1 2 3 4; do [ ! -s "$tmp/err$i" ]; check $? "writer $i: $(cat "$tmp/err$i")"; done
expect "two writers: the replay plays" 0 "" -- "$td" sim --replay "$tmp/both.replay" --quiet
[ -z "$(ls "$tmp" | grep '\.tmp$')" ]; check $? "two writers: no temporaries left"

# ---- a full disk: one line naming the file, exit 2 --------------------------
if [ -w /dev/full ]; then
  full="/dev/full: write failed: No space left on device"
  expect "full: save" 2 "$full" -- "$td" sim --map $map --mod $mod --idle --ticks 700 --quiet --save-at 600 --save /dev/full
  expect "full: record" 2 "$full" -- "$td" sim --map $map --mod $mod --idle --ticks 700 --quiet --record /dev/full
  expect "full: shot" 2 "$full" -- "$td" shot --map $map --mod $mod --idle /dev/full
  expect "full: sim --png" 2 "$full" -- "$td" sim --map $map --spawn count=3 --png /dev/full
  expect "full: sim --trace" 2 "$full" -- "$td" sim --map $map --spawn count=3 --trace /dev/full
fi
# a regular file on a full disk (a file size limit): the old file stays whole
cp "$tmp/p.png" "$tmp/keep.png"
(ulimit -f 4 && trap '' XFSZ && exec "$td" shot --map $map --mod $mod --idle "$tmp/p.png") >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ]; check $? "size limit: shot exits 2: $(cat "$tmp/err")"
grep -qF "p.png: write failed: File too large" "$tmp/err"; check $? "size limit: named: $(cat "$tmp/err")"
cmp -s "$tmp/p.png" "$tmp/keep.png"; check $? "size limit: the old picture intact"
[ -z "$(ls "$tmp" | grep '\.tmp$')" ]; check $? "size limit: no temporary left"

# ---- a device or FIFO as output is written in place ------------------------
"$td" shot --map $map --mod $mod --idle /dev/stdout 2>"$tmp/err" | head -c 8 | od -An -c | tr -d ' ' >"$tmp/sig"
grep -q 'PNG' "$tmp/sig"; check $? "shot to /dev/stdout: a PNG on the pipe: $(cat "$tmp/sig") $(cat "$tmp/err")"

finish
