#!/usr/bin/env bash
# Reach (docs/game.md): a whole session with a gamepad only, through SDL's
# virtual game controller (menus, a map started, a tower built, a wave
# called, the pause menu); the colour-blind safe palette (a refused ghost
# is not drawn in the standard red, and is in the standard palette); the
# music's channel following the screen and the wave; Music volume and
# Palette in the settings, kept in the settings file and read back.
set -u
source "$(dirname "$0")/harness.bash"
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"
cd "$src" || exit 1

# ---- the gamepad only: from the main menu to a wave ----
cat >"$tmp/pad.txt" <<SCRIPT
wait 2
expect music track == 1
# the d-pad walks the menu (the pointer starts mid-screen): down twice is
# Settings, A opens it, B comes back
pad button dpdown
pad button dpdown
pad button a
wait 2
expect drawn Palette
pad button b
wait 2
expect drawn choose a map
# up to Start, left onto the last map's row (Twin Rivers), A picks it
pad button dpup
pad button dpleft
pad button a
wait 2
expect drawn Twin Rivers
# Start starts the chosen map
pad button start
wait 3
expect state playing
expect towers == 0
expect music track == 2
expect music layer == 0
# X picks the first tower type; the stick, then the d-pad, put the pointer on a pad
pad button x
pad axis leftx 30000
wait 20
pad axis leftx 0
pad button dpup
pad button dpleft
wait 2
shot $tmp/pad-ghost.png
# A builds there
pad button a
wait 3
expect towers == 1
expect gold < 180
# Back calls the wave; the music's second layer comes in with the enemies
pad button back
wait 150
expect wave == 1
expect enemies > 0
expect music layer > 0
# the right shoulder: 2x; Start: the pause menu, B closes it
pad button rightshoulder
pad button start
wait 2
expect drawn Resume
pad button b
wait 2
expect not_drawn Resume
expect state playing
SCRIPT
"$td" play --software --script "$tmp/pad.txt" >"$tmp/out" 2>"$tmp/err"
check $? "gamepad session: $(cat "$tmp/err") $(tail -3 "$tmp/out")"
[ -s "$tmp/pad-ghost.png" ]; check $? "gamepad ghost picture"

printf 'wait 2\npad button nope\n' >"$tmp/badpad.txt"
expect "bad pad button" 2 "pad button|press|release NAME" -- \
  "$td" play --software --script "$tmp/badpad.txt"
printf 'wait 2\npad axis leftx 99999\n' >"$tmp/badaxis.txt"
expect "bad pad axis" 2 "bad axis 'leftx' or value '99999'" -- \
  "$td" play --software --script "$tmp/badaxis.txt"

# ---- the palette: a refused ghost (with towers on bases 9 and 15 of
# 01-crossroads, one on 16 would close the last way) in standard red, or not ----
ghost() { # PALETTE, then expectations on base 16
  { printf 'wait 3\nkey 1\nclick base 9\nwait 3\nkey 1\nclick base 15\nwait 3\nexpect towers == 2\n'
    printf 'key 1\nmove base 16\nwait 3\nexpect drawn It would block the last way\n'
    printf 'shot %s\n' "$tmp/ghost-$1.png"
    cat; } >"$tmp/ghost-$1.txt"
  "$td" play --software --map maps/01-crossroads.tmx --palette "$1" --script "$tmp/ghost-$1.txt" \
    >"$tmp/out" 2>"$tmp/err"
}
printf 'expect colour 255,70,60 base 16 > 40\nexpect colour 213,94,0 base 16 == 0\n' | ghost standard
check $? "standard palette: the refused ghost is red: $(cat "$tmp/err")"
printf 'expect colour 255,70,60 base 16 == 0\nexpect colour 213,94,0 base 16 > 40\n' | ghost safe
check $? "safe palette: the refused ghost is vermillion, not red: $(cat "$tmp/err")"
expect "bad palette" 2 "play: --palette: expected standard or safe, got 'pink'" -- \
  "$td" play --palette pink
expect "bad shot palette" 2 "shot: --palette: expected standard or safe, got 'pink'" -- \
  "$td" shot --map maps/01-crossroads.tmx --palette pink "$tmp/x.png"

# ---- Music volume and Palette in the settings, kept ----
cat >"$tmp/settings.txt" <<SCRIPT
wait 2
expect music volume == 60
click button Settings
wait 2
expect drawn Music: 60%
click button Palette
wait 2
expect drawn Palette: Colour-blind safe
click button Music:
wait 2
expect music volume == 50
key M
expect muted == 1
key M
SCRIPT
"$td" play --software --script "$tmp/settings.txt" >"$tmp/out" 2>"$tmp/err"
check $? "music and palette settings: $(cat "$tmp/err") $(tail -3 "$tmp/out")"
conf="$tmp/config/td/settings.txt"
grep -qx 'music 50' "$conf"; check $? "music kept: $(cat "$conf" 2>&1)"
grep -qx 'palette safe' "$conf"; check $? "palette kept: $(cat "$conf" 2>&1)"
printf 'wait 2\nexpect music volume == 50\nclick button Settings\nwait 2\nexpect drawn Palette: Colour-blind safe\n' \
  >"$tmp/again.txt"
"$td" play --software --script "$tmp/again.txt" >"$tmp/out" 2>"$tmp/err"
check $? "music and palette read back: $(cat "$tmp/err") $(tail -3 "$tmp/out")"
printf 'music loud\npalette pink\n' >"$conf"
"$td" play --software --frames 2 >"$tmp/out" 2>"$tmp/err"
check $? "bad music/palette lines: the game runs: $(cat "$tmp/err")"
grep -qF "'music loud' is not a setting" "$tmp/err"; check $? "bad music line named: $(cat "$tmp/err")"
grep -qF "'palette pink' is not a setting" "$tmp/err"; check $? "bad palette line named: $(cat "$tmp/err")"

finish
