#!/usr/bin/env bash
# The player's own maps and mods ($XDG_DATA_HOME/td/maps and .../mods,
# else ~/.local/share/td; engine/game/datadir.h): the main menu lists a
# user map after the bundled ones, marked "user map", and starts it; --map
# finds it by its path under the user directory; a bare --mod NAME is the
# user's mod of that name, else the bundled scripts/NAME; and the bundled
# files are found from any working directory (docs/cli.md, "Where td finds
# its files"); the main menu lists the user's mods as toggles ("Your mods")
# and loads the ones turned on when a map starts (docs/game.md).
set -u
source "$(dirname "$0")/harness.bash"
# the bundled maps' files: Tiled's .tmx when the tree has them, else the Lua export
ext=lua
[ -f "$src/maps/01-crossroads.tmx" ] && ext=tmx
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy XDG_CONFIG_HOME="$tmp/config"
unset TD_DATA_DIR XDG_DATA_HOME
export HOME="$tmp/home"
user="$HOME/.local/share/td"
mkdir -p "$user/maps" "$user/mods" "$tmp/elsewhere"
cd "$tmp/elsewhere" || exit 1

# the menu without user maps: no mark
printf 'wait 2\nexpect not_drawn user map\nexpect drawn Crossroads\n' >"$tmp/none.txt"
"$td" play --software --script "$tmp/none.txt" >"$tmp/out" 2>"$tmp/err"
check $? "menu without user maps: $(cat "$tmp/err")"

# a user map (the first bundled one under another title), shown after the
# bundled ones and marked; it starts from the menu
sed -e 's/\["title"\] = "Crossroads"/["title"] = "Backyard"/' -e 's/\["order"\] = 4/["order"] = 1/' \
  -e 's/\(name="title"[^>]*value=\)"Crossroads"/\1"Backyard"/' \
  -e 's/\(name="order"[^>]*value=\)"4"/\1"1"/' \
  "$src/maps/01-crossroads.$ext" >"$user/maps/07-backyard.$ext"
grep -q '"Backyard"' "$user/maps/07-backyard.$ext"; check $? "the test map has its title"
cat >"$tmp/menu.txt" <<'SCRIPT'
wait 2
expect drawn Backyard
expect drawn user map
expect layout
click button Backyard
wait 1
click button Start
wait 3
expect state playing
SCRIPT
"$td" play --software --script "$tmp/menu.txt" >"$tmp/out" 2>"$tmp/err"
check $? "menu with a user map: $(cat "$tmp/err") $(grep -v '^ok' "$tmp/out" | head -5)"
# listed after every bundled map although its order (1) is the lowest:
# with the selection on the last row, the details panel names it
nb=$(ls "$src"/maps/*."$ext" | wc -l)
{ echo "wait 2"; for _ in $(seq "$nb"); do echo "key Down"; done; echo "wait 1"; echo "expect drawn Backyard"; } >"$tmp/last.txt"
"$td" play --software --script "$tmp/last.txt" >"$tmp/out" 2>"$tmp/err"
check $? "the user map is the last row: $(cat "$tmp/err")"

# --map finds it under the user directory, from anywhere
expect "user map by path" 0 "" -- "$td" sim --map maps/07-backyard.$ext --idle --ticks 60 --quiet
# and the bundled maps and mod from here, where there is no maps/ or scripts/
expect "bundled map from elsewhere" 0 "" -- "$td" sim --map maps/02-grid.$ext --idle --ticks 60 --quiet

# a bare --mod NAME: the user's mod, else the bundled scripts/NAME
mkdir -p "$user/mods/broken"
echo 'this is not lua' >"$user/mods/broken/mod.lua"
expect "user mod by name" 2 "$user/mods/broken" -- "$td" sim --map maps/01-crossroads.$ext --mod broken --idle --ticks 60
cp -r "$src/scripts/tutorial" "$user/mods/mine"
expect "a user mod plays" 0 "" -- "$td" sim --map maps/03-serpent.$ext --mod mine --idle --ticks 60 --quiet
"$td" sim --map maps/03-serpent.$ext --mod mine --idle --ticks 60 --record "$tmp/r.replay" >/dev/null 2>&1
grep -q "^mod $user/mods/mine" "$tmp/r.replay"; check $? "the replay names the user's mod: $(grep '^mod' "$tmp/r.replay")"
expect "a bundled mod by name" 0 "" -- "$td" sim --map maps/03-serpent.$ext --mod tutorial --idle --ticks 60 --quiet
expect "an unknown mod" 2 "nosuchmod" -- "$td" sim --map maps/01-crossroads.$ext --mod nosuchmod --idle --ticks 60

# XDG_DATA_HOME moves the user directory
mkdir -p "$tmp/xdg/td/maps"
mv "$user/maps/07-backyard.$ext" "$tmp/xdg/td/maps/"
XDG_DATA_HOME="$tmp/xdg" "$td" play --software --script "$tmp/menu.txt" >"$tmp/out" 2>"$tmp/err"
check $? "menu with a user map in XDG_DATA_HOME: $(cat "$tmp/err")"
"$td" play --software --script "$tmp/menu.txt" >"$tmp/out" 2>"$tmp/err"
[ $? -ne 0 ]; check $? "the map left ~/.local/share/td/maps: not listed any more"

# the player's mods in the main menu: a "Your mods" row of toggles, all
# off at start; an enabled one loads after the game's mods when a map
# starts from the menu; a broken one shows its error there
rm -rf "$tmp/xdg/td/maps"
mkdir -p "$tmp/xdg/td/mods/tinymod" "$tmp/xdg/td/mods/broken" "$tmp/xdg/td/mods/notamod"
printf 'api_version = 1\ntd.rules { start_gold = 777 }\n' >"$tmp/xdg/td/mods/tinymod/mod.lua"
printf 'api_version = 1\ntd.rules { start_gold =\n' >"$tmp/xdg/td/mods/broken/mod.lua"
echo 'no mod.lua here' >"$tmp/xdg/td/mods/notamod/readme.txt"
cat >"$tmp/mods.txt" <<'SCRIPT'
wait 2
expect drawn Your mods
expect drawn tinymod
expect drawn broken
expect not_drawn notamod
expect layout
click button tinymod
wait 1
expect layout
click button Start
wait 3
expect state playing
expect gold == 777
SCRIPT
rm -f "$XDG_CONFIG_HOME/td/settings.txt"
XDG_DATA_HOME="$tmp/xdg" "$td" play --software --script "$tmp/mods.txt" >"$tmp/out" 2>"$tmp/err"
check $? "a user mod toggled on in the menu: $(cat "$tmp/err") $(grep -v '^ok' "$tmp/out" | head -5)"
# the toggles are kept in the settings: on at the next start
grep -qx 'mods tinymod' "$XDG_CONFIG_HOME/td/settings.txt"; check $? "the settings keep the mod on: $(cat "$XDG_CONFIG_HOME/td/settings.txt")"
printf 'wait 2\nclick button Start\nwait 3\nexpect gold == 777\nkey Escape\nkey Escape\nwait 1\nclick button Main menu\nwait 1\nclick button Main menu\nwait 1\nexpect drawn Your mods\nclick button tinymod\nwait 1\n' >"$tmp/kept.txt"
XDG_DATA_HOME="$tmp/xdg" "$td" play --software --script "$tmp/kept.txt" >"$tmp/out" 2>"$tmp/err"
check $? "the kept mod is on at the next start: $(cat "$tmp/err")"
grep -qx 'mods' "$XDG_CONFIG_HOME/td/settings.txt"; check $? "turned off, kept off: $(cat "$XDG_CONFIG_HOME/td/settings.txt")"
printf 'wait 2\nclick button Start\nwait 3\nexpect state playing\nexpect gold != 777\n' >"$tmp/nomod.txt"
rm -f "$XDG_CONFIG_HOME/td/settings.txt"
XDG_DATA_HOME="$tmp/xdg" "$td" play --software --script "$tmp/nomod.txt" >"$tmp/out" 2>"$tmp/err"
check $? "a user mod left off does not load: $(cat "$tmp/err")"
for size in 960x600 1920x1080; do
  rm -f "$XDG_CONFIG_HOME/td/settings.txt"
  XDG_DATA_HOME="$tmp/xdg" "$td" play --software --window "$size" --script "$tmp/mods.txt" >"$tmp/out" 2>"$tmp/err"
  check $? "the mods' row at $size: $(cat "$tmp/err")"
done
cat >"$tmp/broken.txt" <<'SCRIPT'
wait 2
click button broken
wait 1
click button Start
wait 2
expect drawn broken/mod.lua:3
expect drawn Your mods
click button broken
click button tinymod
wait 1
click button Start
wait 3
expect state playing
expect gold == 777
SCRIPT
rm -f "$XDG_CONFIG_HOME/td/settings.txt"
XDG_DATA_HOME="$tmp/xdg" "$td" play --software --script "$tmp/broken.txt" >"$tmp/out" 2>"$tmp/err"
check $? "a broken user mod: its error in the menu, which stays usable: $(cat "$tmp/err") $(grep -v '^ok' "$tmp/out" | head -5)"

finish
