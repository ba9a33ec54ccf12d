#!/usr/bin/env bash
# td play end to end: the real game loop under SDL's dummy video driver
# (software renderer) and dummy audio driver, driven by a script of clicks
# and keys, checked by the world's state, the pixels of the frames and the
# sounds started on the audio device.
set -u
source "$(dirname "$0")/harness.bash"
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
# td play keeps its settings, progress and saves here: the test's own
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"

cat >"$tmp/session.txt" <<SCRIPT
# the first map, at rest
wait 3
expect tick > 0
mark start
expect towers == 0
# pick the first tower type (key 1), hover base 9: the ghost
key 1
move base 9
wait 2
shot $tmp/ghost.png
mark ghost
expect changed start base 9
# build it: gold goes down, a tower stands, the HUD's gold changes
click base 9
wait 3
expect towers == 1
expect gold < 200
expect sounds:build == 1
move 5 300
wait 2
mark built
expect changed start gold
expect changed start base 9
# the tower's panel: click it, upgrade it
click base 9
wait 2
expect changed built panel
shot $tmp/panel.png
key u
wait 2
# call the first wave early (N): the bonus, a wave, enemies on the road
mark before_wave
key n
wait 90
expect wave == 1
expect enemies > 0
expect sounds:wave == 1
expect changed before_wave wave
expect changed before_wave 100,60,1080,560
# speed 4x, then pause with Space: the tick still counts but nothing moves
key f
key f
wait 60
key Space
wait 2
mark paused
wait 30
expect same paused 0,60,1280,560
key Space
# M mutes and unmutes, in the game too
key M
expect muted == 1
expect toast Sound off
key M
expect muted == 0
expect volume == 80
# Esc closes the tower's panel, a second Esc opens the pause menu; Resume closes it
key Escape
key Escape
wait 2
shot $tmp/pausemenu.png
click button Resume
wait 2
# a refused placement shows why: base 11 closes the way where base 9 stands
key 2
click base 14
wait 2
# sell the first tower
click base 9
wait 2
click button Sell
wait 3
expect towers >= 0
# overlays F1..F9 draw without trouble
key F1
key F2
key F3
key F4
key F6
key F7
key F8
key F9
wait 10
shot $tmp/overlays.png
expect state playing
SCRIPT

"$td" play --map "$src/maps/01-crossroads.tmx" --window 1280x720 --software \
  --script "$tmp/session.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
check $rc "scripted session passes (status $rc): $(cat "$tmp/err") $(tail -3 "$tmp/out")"
grep -q "0 expectation(s) failed" "$tmp/out"; check $? "session summary: $(tail -1 "$tmp/out")"
for f in ghost panel pausemenu overlays; do
  [ "$(head -c 4 "$tmp/$f.png" | od -An -c | tr -d ' ')" = "211PNG" ]; check $? "$f.png is a PNG"
done

# a failing expectation fails the run with status 1, a bad line with 2
printf 'wait 2\nexpect towers == 5\n' >"$tmp/fail.txt"
"$td" play --map "$src/maps/01-crossroads.tmx" --software --script "$tmp/fail.txt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ]; check $? "failed expectation exits 1"
grep -q "expect towers == 5 failed: 0" "$tmp/err"; check $? "says what failed: $(cat "$tmp/err")"
printf 'jump 3\n' >"$tmp/bad.txt"
expect "bad script line" 2 "bad script line 'jump 3'" -- \
  "$td" play --map "$src/maps/01-crossroads.tmx" --software --script "$tmp/bad.txt"

# the main menu: no --map; Start begins the map picked, Quit quits
cat >"$tmp/menu.txt" <<SCRIPT
wait 2
shot $tmp/menu.png
click button Start
wait 5
expect tick > 0
expect state playing
SCRIPT
"$td" play --software --script "$tmp/menu.txt" >"$tmp/out" 2>"$tmp/err"
check $? "menu session: $(cat "$tmp/err")"

# the difficulty in the settings: hard gives the menu's first map (02-grid,
# ordered first by its order property) half its 20 lives
cat >"$tmp/hard.txt" <<SCRIPT
wait 2
click button Settings
wait 1
click button Difficulty: normal
wait 1
shot $tmp/settings.png
click button Back
wait 1
click button Start
wait 5
expect lives == 10
expect state playing
SCRIPT
"$td" play --software --script "$tmp/hard.txt" >"$tmp/out" 2>"$tmp/err"
check $? "hard from the settings: $(cat "$tmp/err")"
# the difficulty is kept with the other settings; --difficulty wins over it for one run
grep -qx 'difficulty hard' "$tmp/config/td/settings.txt"
check $? "difficulty kept: $(cat "$tmp/config/td/settings.txt" 2>&1)"
printf 'wait 2\nclick button Start\nwait 5\nexpect lives == 10\n' >"$tmp/kept.txt"
"$td" play --software --script "$tmp/kept.txt" >"$tmp/out" 2>"$tmp/err"
check $? "the kept difficulty is read back: $(cat "$tmp/err") $(tail -3 "$tmp/out")"
printf 'wait 2\nclick button Start\nwait 5\nexpect lives == 20\n' >"$tmp/kept.txt"
"$td" play --software --difficulty normal --script "$tmp/kept.txt" >"$tmp/out" 2>"$tmp/err"
check $? "--difficulty wins over the kept one: $(cat "$tmp/err") $(tail -3 "$tmp/out")"
grep -qx 'difficulty hard' "$tmp/config/td/settings.txt" # the option is for that run only
check $? "difficulty kept over --difficulty: $(cat "$tmp/config/td/settings.txt" 2>&1)"
# a window the player resized keeps its size when another setting changes;
# choosing a size in the settings sets it
cat >"$tmp/resize.txt" <<SCRIPT
wait 2
expect window_w == 1280
resize 1000x700
expect window_w == 1000
click button Settings
wait 1
click button VSync: off
wait 1
expect window_w == 1000
expect window_h == 700
click button Window: 1280x720
wait 1
expect window_w == 1600
expect window_h == 900
SCRIPT
"$td" play --software --script "$tmp/resize.txt" >"$tmp/out" 2>"$tmp/err"
check $? "resized window kept over a vsync toggle: $(cat "$tmp/err") $(tail -3 "$tmp/out")"
rm -f "$tmp/config/td/settings.txt" # the next sessions start from the defaults
# the volume: --volume, then the settings' - [slider] + and Sound (mute),
# checked on the audio device; M mutes on the settings screen too
cat >"$tmp/volume.txt" <<SCRIPT
wait 2
expect volume == 50
expect muted == 0
click button Settings
wait 1
click button +
wait 1
expect volume == 60
click button -
click button -
click button -
wait 1
expect volume == 30
key Right
expect volume == 40
mark vol40
# the slider's middle is 50 %: its bar changes
click button Volume
wait 1
expect volume == 50
expect changed vol40 440,414,400,40
click button Sound
wait 1
expect muted == 1
shot $tmp/settings-volume.png
key M
expect muted == 0
expect sounds:click >= 1
click button Back
wait 1
click button Start
wait 5
expect volume == 50
expect state playing
SCRIPT
"$td" play --software --volume 50 --script "$tmp/volume.txt" >"$tmp/out" 2>"$tmp/err"
check $? "volume in the settings: $(cat "$tmp/err") $(tail -3 "$tmp/out")"
# the settings are kept: written when td play ends, read at the next start
conf="$tmp/config/td/settings.txt"
grep -qx 'volume 50' "$conf"; check $? "settings kept: $(cat "$conf" 2>&1)"
grep -qx 'window 1280x720' "$conf"; check $? "settings kept the window: $(cat "$conf" 2>&1)"
printf 'wait 2\nexpect volume == 50\nexpect muted == 0\n' >"$tmp/kept.txt"
"$td" play --software --script "$tmp/kept.txt" >"$tmp/out" 2>"$tmp/err"
check $? "the kept volume is read back: $(cat "$tmp/err") $(tail -3 "$tmp/out")"
printf '# by hand\nvolume 20\nmuted 1\n' >"$conf"
printf 'wait 2\nexpect volume == 20\nexpect muted == 1\n' >"$tmp/kept.txt"
"$td" play --software --script "$tmp/kept.txt" >"$tmp/out" 2>"$tmp/err"
check $? "a hand-written settings file: $(cat "$tmp/err") $(tail -3 "$tmp/out")"
printf 'wait 2\nexpect volume == 70\nexpect muted == 0\n' >"$tmp/kept.txt"
"$td" play --software --volume 70 --script "$tmp/kept.txt" >"$tmp/out" 2>"$tmp/err"
check $? "--volume wins over the kept settings: $(cat "$tmp/err") $(tail -3 "$tmp/out")"
# a bad line is named and skipped; the rest is taken, the game runs
printf 'volume 40\nvolume loud\nwindow 10x10\n' >"$conf"
printf 'wait 2\nexpect volume == 40\n' >"$tmp/kept.txt"
"$td" play --software --script "$tmp/kept.txt" >"$tmp/out" 2>"$tmp/err"
check $? "bad settings lines: the game runs: $(cat "$tmp/err") $(tail -3 "$tmp/out")"
grep -qF "settings.txt:2: 'volume loud' is not a setting" "$tmp/err"; check $? "bad line 2 named: $(cat "$tmp/err")"
grep -qF "settings.txt:3: 'window 10x10' is not a setting" "$tmp/err"; check $? "bad line 3 named: $(cat "$tmp/err")"
grep -qx 'volume 40' "$conf" && ! grep -q loud "$conf"; check $? "rewritten clean: $(cat "$conf")"
# a settings directory that cannot be written: a warning, the game runs
mkdir -p "$tmp/ro" && printf 'x' >"$tmp/ro/td" # a file where the directory should be
XDG_CONFIG_HOME="$tmp/ro" "$td" play --software --frames 2 >"$tmp/out" 2>"$tmp/err"
check $? "unwritable settings: the game still ends well: $(cat "$tmp/err")"
grep -qF "cannot save the settings: $tmp/ro/td/settings.txt: cannot write" "$tmp/err"; check $? "unwritable settings named: $(cat "$tmp/err")"
printf 'wait 2\nexpect sounds:nope > 0\n' >"$tmp/badsound.txt"
expect "bad sound name" 2 "unknown value 'sounds:nope'" -- \
  "$td" play --software --script "$tmp/badsound.txt"
expect "bad volume" 2 "play: --volume: '150' is out of range (0 .. 100)" -- "$td" play --volume 150

expect "bad difficulty" 2 "play: --difficulty: expected normal, easy or hard, got 'nope'" -- \
  "$td" play --difficulty nope

# usage errors
expect "bad window" 2 "play: --window: 'big' is not WxH" -- "$td" play --window big
expect "bad option" 2 "play: unknown argument '--nope'" -- "$td" play --nope
expect "missing map" 2 "nope.lua" -- "$td" play --software --frames 1 --map "$tmp/nope.lua"
"$td" play --help | grep -q "usage: td play"; check $? "help"

finish
