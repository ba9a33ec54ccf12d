#!/usr/bin/env bash
# The player's progress, saves and the map menu, end to end in td play
# (docs/game.md, "Progress", "Save and continue"): a scripted win earns
# stars, kept in the progress file and shown in the menu; Next map; endless
# mode's best wave; a damaged progress file named and kept as .bad; a game
# saved from the pause menu, left, continued, that reaches the same world
# checksum as the same game played through; saves from another mod, a
# damaged one and one of another save version refused with the reason, and
# kept.
set -u
source "$(dirname "$0")/harness.bash"
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
# td play keeps its settings, progress and saves here: never the user's own
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"
data="$tmp/data/td"
cd "$src" || exit 2

play() { # play NAME SCRIPT [td play options...]: runs it, checks status 0
  local name=$1 script=$2
  shift 2
  "$td" play --software --script "$script" "$@" >"$tmp/out" 2>"$tmp/err"
  check $? "$name: $(grep -v '^tick ' "$tmp/err" | head -c 600)"
}

# ---- a win: stars in the file and in the menu, Next map -------------------
# tests/data/mods/game_api: two short waves, 8 lives; four arrows win it all
cat >"$tmp/win.txt" <<'SCRIPT'
wait 2
mark menu
click button Start
key 1
click base 14
key 1
click base 13
key 1
click base 10
key 1
click base 11
key F
key F
wait 600
expect state won
expect lives == 8
wait 100
click button Next map
wait 2
expect tick < 10
expect towers == 0
key Escape
click button Main menu
click button Main menu
key Up
wait 2
# the first row's stars (1280x720: the row of the first map, its right end)
expect changed menu 560,232,70,26
SCRIPT
play "win" "$tmp/win.txt" --mod tests/data/mods/game_api
grep -qx "td-progress 1" "$data/progress"; check $? "progress: no header: $(cat "$data/progress" 2>&1)"
grep -qx "stars 02-grid normal 3" "$data/progress"; check $? "progress: no 3 stars on 02-grid: $(cat "$data/progress" 2>&1)"
# the menu's first map had the tutorial (docs/game.md, Onboarding); the game won, it is done
grep -qx "tutorial done" "$data/progress"; check $? "progress: a won game did not end the tutorial: $(cat "$data/progress")"

# ---- endless: the best wave is kept ---------------------------------------
cat >"$tmp/endless.txt" <<'SCRIPT'
wait 2
click button Mode
click button Start endless
key N
wait 5
expect wave >= 1
key Escape
click button Main menu
click button Main menu
SCRIPT
play "endless" "$tmp/endless.txt"
grep -q "^wave 02-grid normal [1-9]" "$data/progress"; check $? "progress: no endless wave: $(cat "$data/progress")"
grep -qx "stars 02-grid normal 3" "$data/progress"; check $? "progress: the stars were lost"

# ---- a damaged progress file: named, kept as .bad, its good lines kept ----
printf 'td-progress 1\nstars 02-grid easy 2\nstars 02-grid normal nine\n' >"$data/progress"
printf 'wait 2\nexpect toast progress:3: expected\n' >"$tmp/damaged.txt"
play "damaged progress" "$tmp/damaged.txt"
cmp -s "$data/progress.bad" <(printf 'td-progress 1\nstars 02-grid easy 2\nstars 02-grid normal nine\n')
check $? "damaged progress: no exact .bad copy"

# the tutorial seen (the damaged file above lost the line): Esc is the pause menu's
echo "tutorial done" >>"$data/progress"
# (in a game, Main menu asks first: the second click is the dialog's)
# ---- save, leave, continue: the same game as one played through ----------
cat >"$tmp/save.txt" <<'SCRIPT'
wait 2
click button Start
key 1
click base 14
wait 100
key 1
click base 13
wait 50
key Escape
click button Save game
expect toast Game saved
expect tick == 155
click button Main menu
click button Main menu
wait 2
click button Continue
expect tick == 156
wait 300
checksum resumed
key Escape
click button Main menu
click button Main menu
click button Start
key 1
click base 14
wait 100
key 1
click base 13
wait 351
expect checksum resumed
SCRIPT
play "save and continue" "$tmp/save.txt"
grep -q "^ok: checksum resumed (tick 456 " "$tmp/out"; check $? "continue: checksum not compared: $(cat "$tmp/out")"
[ -f "$data/saves/02-grid.tds" ]; check $? "no save in $data/saves"

# ---- refused saves: the reason on the menu, the file kept -----------------
printf 'wait 2\nclick button Continue\nexpect toast %s\n' "made with the mods" >"$tmp/refuse.txt"
mkdir -p "$tmp/m" && cp -r scripts/base "$tmp/m/other"
play "another mod" "$tmp/refuse.txt" --mod "$tmp/m/other"
mkdir -p "$tmp/n" && cp -r scripts/base "$tmp/n/base" && echo "-- changed" >>"$tmp/n/base/mod.lua"
printf 'wait 2\nclick button Continue\nexpect toast %s\n' "made with other scripts" >"$tmp/refuse.txt"
play "changed mod" "$tmp/refuse.txt" --mod "$tmp/n/base"
cp "$data/saves/02-grid.tds" "$tmp/good.tds"
printf '\003' | dd of="$data/saves/02-grid.tds" bs=1 seek=4 conv=notrunc 2>/dev/null
printf 'wait 2\nclick button Continue\nexpect toast %s\n' "save version 3, this td reads version" >"$tmp/refuse.txt"
play "older save" "$tmp/refuse.txt"
head -c 300 "$tmp/good.tds" >"$data/saves/02-grid.tds"
printf 'wait 2\nclick button Continue\nexpect toast %s\n' "corrupt or truncated" >"$tmp/refuse.txt"
play "damaged save" "$tmp/refuse.txt"
[ "$(wc -c <"$data/saves/02-grid.tds")" -eq 300 ]; check $? "the refused save was not kept as it was"
# and the good one continues again
cp "$tmp/good.tds" "$data/saves/02-grid.tds"
printf 'wait 2\nclick button Continue\nexpect toast Continued at wave\nexpect tick == 156\n' >"$tmp/again.txt"
play "continue again" "$tmp/again.txt"
finish
