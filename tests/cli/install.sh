#!/usr/bin/env bash
# An installed td plays with its installed files only: `cmake --install`
# of this build into a temporary prefix, then from an empty directory (no
# maps/, no scripts/, TD_DATA_DIR unset) the installed td plays whole games
# by the built-in player to the same end as the build tree's, its menu
# opens, and what it loads is the prefix's (a broken installed mod is the
# one it names). Also td --version, and the installed layout (README.md,
# "Install"; cmake/install.cmake).
set -u
source "$(dirname "$0")/harness.bash"
# the bundled maps' files: Tiled's .tmx when the tree has them, else the Lua export
ext=lua
[ -f "$src/maps/01-crossroads.tmx" ] && ext=tmx
build=$(dirname "$td")
[ -f "$build/cmake_install.cmake" ] || { echo "SKIP: $build is not a CMake build directory"; exit 0; }
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy XDG_CONFIG_HOME="$tmp/config"
unset TD_DATA_DIR XDG_DATA_HOME
export HOME="$tmp/home" XDG_DATA_DIRS="$tmp/none"
prefix="$tmp/prefix"

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1
check $? "cmake --install: $(tail -3 "$tmp/install.log")"
for f in bin/td share/td/maps/01-crossroads.$ext share/td/scripts/base/mod.lua share/td/scripts/tutorial/mod.lua \
         share/td/scripts/types/td.lua share/td/assets/atlas.png share/td/assets/atlas.txt \
         share/doc/td/README.md share/doc/td/docs/cli.md share/doc/td/docs/img/game-crossroads.png \
         share/doc/td/copyright share/man/man6/td.6.gz share/applications/td.desktop \
         share/icons/hicolor/64x64/apps/td.png; do
  [ -f "$prefix/$f" ]; check $? "installed: $f"
done
[ -z "$(find "$prefix" -name 'gen_maps.py' -o -name 'atlas.c' -o -name '*.o')" ]; check $? "no generators or objects installed"
zcat "$prefix/share/man/man6/td.6.gz" | grep -q '^\.TH TD 6'; check $? "the manual page"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$prefix/share/applications/td.desktop"; check $? "desktop-file-validate"
fi

itd="$prefix/bin/td"
mkdir -p "$tmp/empty" && cd "$tmp/empty" || exit 1
"$itd" --version >"$tmp/out" 2>"$tmp/err"
check $? "--version: $(cat "$tmp/err")"
grep -qE '^td [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{7}(-dirty)?|unknown)\)$' "$tmp/out"
check $? "--version prints 'td X.Y.Z (commit abc1234)': $(cat "$tmp/out")"
[ "$(cat "$tmp/out")" = "$("$td" --version)" ]; check $? "the installed td is this build's"

# whole games from an empty directory, the map given as the bundled path;
# the same game as the build tree's td plays from the source tree
for map in 01-crossroads 02-grid; do
  expect "installed $map" 0 "" -- "$itd" sim --map "maps/$map.$ext" --auto --json
  grep -q '"result":"won"' "$tmp/out"; check $? "$map: won by --auto: $(head -c 200 "$tmp/out")"
  got=$(grep -o '"checksum":"[0-9a-f]*"' "$tmp/out" | tail -1)
  want=$(cd "$src" && "$td" sim --map "maps/$map.$ext" --auto --json | grep -o '"checksum":"[0-9a-f]*"' | tail -1)
  [ -n "$got" ] && [ "$got" = "$want" ]; check $? "$map: the installed game ends as the build tree's ($got, $want)"
done
# the default mod by name, a replay recorded and played back here
expect "record" 0 "" -- "$itd" sim --map maps/03-serpent.$ext --mod tutorial --idle --ticks 600 --record r.replay --quiet
expect "replay" 0 "" -- "$itd" sim --replay r.replay --quiet
# the game's menu opens (assets, maps, the base mod) and starts a map
printf 'wait 2\nexpect drawn Crossroads\nclick button Crossroads\nwait 1\nclick button Start\nwait 3\nexpect state playing\n' >"$tmp/menu.txt"
"$itd" play --software --script "$tmp/menu.txt" >"$tmp/out" 2>"$tmp/err"
check $? "installed td play: $(cat "$tmp/err")"
[ -z "$(ls -A "$tmp/empty" | grep -v '^r.replay$')" ]; check $? "nothing written where td ran: $(ls -A "$tmp/empty")"

# what it loads is the prefix's: a broken installed base mod is named
echo 'this is not lua' >>"$prefix/share/td/scripts/base/mod.lua"
expect "the installed mod is the one loaded" 2 "$prefix/share/td/scripts/base" \
  -- "$itd" sim --map maps/01-crossroads.$ext --auto --quiet
# and TD_DATA_DIR overrides it (here: the source tree)
TD_DATA_DIR="$src" "$itd" sim --map maps/01-crossroads.$ext --idle --ticks 60 --quiet >/dev/null 2>"$tmp/err"
check $? "TD_DATA_DIR: $(cat "$tmp/err")"

# installed under ~/.local, the data directory's maps/ is where the
# player's go: the menu lists the bundled maps once, none as a user map
cmake --install "$build" --prefix "$HOME/.local" >"$tmp/install.log" 2>&1
check $? "cmake --install to ~/.local: $(tail -3 "$tmp/install.log")"
printf 'wait 2\nexpect drawn Crossroads\nexpect not_drawn user map\n' >"$tmp/once.txt"
"$HOME/.local/bin/td" play --software --script "$tmp/once.txt" >"$tmp/out" 2>"$tmp/err"
check $? "installed in ~/.local: the bundled maps are no user maps: $(cat "$tmp/err")"

finish
