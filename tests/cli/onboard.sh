#!/usr/bin/env bash
# A new player's first minutes (docs/game.md, "Onboarding"): wave 1 waits
# for the player; the first map's tutorial advances on the game's own
# events (picking, placing, calling, killing), is skippable (Skip, Esc) and
# does not come back once finished or skipped; the controls screen (H, ?,
# the HUD's "?") opens, closes, stops the clock and lays out at 960x600 and
# 1920x1080. All in td play --script under SDL's dummy drivers.
set -u
source "$(dirname "$0")/harness.bash"
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy XDG_CONFIG_HOME="$tmp/config"
grid="$src/maps/02-grid.tmx"    # the menu's first map: the tutorial's
cross="$src/maps/01-crossroads.tmx"

play() { # play NAME DATA SCRIPT [td play options]: the session must pass
  local name=$1 data=$2 script=$3
  shift 3
  XDG_DATA_HOME="$data" "$td" play --software --script "$script" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  check $rc "$name (status $rc): $(cat "$tmp/err") $(tail -1 "$tmp/out")"
}

# ---- wave 1 waits: 20 s and nothing comes; a tower starts the countdown ----
cat >"$tmp/waits.txt" <<'SCRIPT'
wait 1200
expect tick >= 1200
expect wave == 0
expect enemies == 0
expect text wave waits: build, or N
key 1
click base 9
wait 3
expect towers == 1
expect text wave next in
expect wave == 0
wait 600
expect wave == 1
wait 120
expect enemies > 0
SCRIPT
play "wave 1 waits, then a tower starts it" "$tmp/d0" "$tmp/waits.txt" --map "$cross"
# calling with N starts it at once, without a tower
printf 'wait 300\nexpect wave == 0\nkey n\nwait 2\nexpect wave == 1\nwait 120\nexpect enemies > 0\nexpect towers == 0\n' >"$tmp/call.txt"
play "N calls wave 1 at once" "$tmp/d0" "$tmp/call.txt" --map "$cross"

# ---- the tutorial, step by step, on events ---------------------------------
data="$tmp/d1"
cat >"$tmp/tutorial.txt" <<SCRIPT
wait 5
expect shown tutorial
expect text tutorial Tutorial 1/5
expect drawn The enemies' route
expect no_raw_ids
expect layout
click button Next
wait 2
expect text tutorial Tutorial 2/5: Build a tower here
# placing a tower elsewhere than the ring still advances it; here, the ring's
# pad (base 10, in the maze's middle wall) changes the route
key 1
wait 2
expect text tutorial Tutorial 2/5
mark before
click base 10
wait 3
expect towers == 1
expect text tutorial Tutorial 3/5: A tower changes the route
expect colour 90,230,255 0,48,1280,604 > 300
shot $tmp/changed.png
wait 250
expect text tutorial Tutorial 4/5: Call the first wave
expect hidden intro
key n
wait 2
expect wave == 1
expect hidden tutorial
wait 900
expect text tutorial Tutorial 5/5: Well done
click button Next
wait 2
expect hidden tutorial
SCRIPT
play "tutorial steps" "$data" "$tmp/tutorial.txt" --map "$grid" --window 1280x720
grep -qx "tutorial done" "$data/td/progress"; check $? "tutorial done not kept: $(cat "$data/td/progress" 2>&1)"
[ "$(head -c 4 "$tmp/changed.png" | od -An -c | tr -d ' ')" = "211PNG" ]; check $? "changed.png is a PNG"
# the next game: no tutorial
printf 'wait 600\nexpect hidden tutorial\nkey 1\nclick base 10\nwait 30\nexpect hidden tutorial\n' >"$tmp/again.txt"
play "a finished tutorial does not come back" "$data" "$tmp/again.txt" --map "$grid"

# waiting: the route step gives way to "build here" by itself (8 s), or
# when a tower type is picked
printf 'wait 400\nexpect text tutorial Tutorial 1/5\nwait 100\nexpect text tutorial Tutorial 2/5\n' >"$tmp/time.txt"
play "the route step ends in time" "$tmp/d2" "$tmp/time.txt" --map "$grid"
printf 'wait 5\nkey 2\nwait 1\nexpect text tutorial Tutorial 2/5\n' >"$tmp/pick.txt"
play "picking a tower ends the route step" "$tmp/d3" "$tmp/pick.txt" --map "$grid"

# skipped with Esc (not the pause menu), and it stays skipped
cat >"$tmp/esc.txt" <<'SCRIPT'
wait 5
expect shown tutorial
key Escape
wait 2
expect hidden tutorial
expect toast Tutorial skipped
expect not_drawn Save game
key Escape
wait 2
expect drawn Save game
SCRIPT
play "Esc skips the tutorial" "$tmp/d4" "$tmp/esc.txt" --map "$grid"
grep -qx "tutorial done" "$tmp/d4/td/progress"; check $? "a skip is kept: $(cat "$tmp/d4/td/progress" 2>&1)"
printf 'wait 5\nexpect hidden tutorial\n' >"$tmp/gone.txt"
play "a skipped tutorial does not come back" "$tmp/d4" "$tmp/gone.txt" --map "$grid"
# the Skip button, from the menu's Start (the first map is chosen)
printf 'wait 2\nclick button Start\nwait 5\nexpect shown tutorial\nclick button Skip tutorial\nwait 2\nexpect hidden tutorial\nexpect state playing\n' >"$tmp/skip.txt"
play "Skip tutorial" "$tmp/d5" "$tmp/skip.txt"
grep -qx "tutorial done" "$tmp/d5/td/progress"; check $? "Skip is kept: $(cat "$tmp/d5/td/progress" 2>&1)"
# not on the other maps
printf 'wait 5\nexpect hidden tutorial\n' >"$tmp/other.txt"
play "no tutorial on another map" "$tmp/d6" "$tmp/other.txt" --map "$cross"

# ---- the controls screen --------------------------------------------------------
cat >"$tmp/help.txt" <<SCRIPT
wait 3
expect hidden help
key h
wait 2
expect shown help
expect drawn Controls
expect drawn barracks: set where its soldiers stand
expect drawn repair a damaged tower
expect layout
checksum open
wait 60
expect checksum open
key Escape
wait 2
expect hidden help
expect not_drawn Save game
key ?
wait 2
expect shown help
key h
wait 2
expect hidden help
click button ?
wait 2
expect shown help
click button Close
wait 2
expect hidden help
expect state playing
SCRIPT
for size in 960x600 1920x1080; do
  play "controls screen at $size" "$tmp/d7" "$tmp/help.txt" --map "$cross" --window "$size"
  [ "$(grep -c '^ok: layout' "$tmp/out")" -eq 1 ]; check $? "controls layout at $size: $(grep layout "$tmp/out")"
done
# with the tutorial's panel, the HUD still lays out at the smallest size
printf 'wait 5\nexpect shown tutorial\nexpect layout\nkey h\nwait 2\nexpect hidden tutorial\nexpect layout\n' >"$tmp/small.txt"
play "tutorial at 960x600" "$tmp/d8" "$tmp/small.txt" --map "$grid" --window 960x600

finish
