#!/usr/bin/env bash
# Tiled's own map files (issue 21; tmx.sh, beside tiled.sh's real-Tiled round trip): every bundled map, written as .tmx in
# each tile data encoding (CSV, XML <tile>, base64, zlib, gzip, zstd) and as
# .tmj, with its tilesets external (.tsx/.tsj) and its spawns, goals and
# bases from templates (.tx/.tj), with the class in `type` (Tiled 1.8) or
# `class` (1.9), gives td route --json the very output of its Lua export
# (tests/cli/lua2tiled.py writes them). A whole game (td sim --auto) on a
# .tmx plays as on the .lua, and a replay notices a changed template. Refusals: a renamed file, a tileset behind a symbolic link
# out of the map's folder, a bad file name a one-line error.
set -u
source "$(dirname "$0")/harness.bash"

conv="$src/tests/cli/lua2tiled.py"
have_zstd=1
command -v zstd >/dev/null || { echo "SKIP zstd variants: no zstd program"; have_zstd=0; }
command -v lua5.4 >/dev/null || { echo "SKIP: lua2tiled.py needs lua5.4"; echo "0 passed, 0 failed"; exit 0; }

# the Lua exports of the bundled maps, as the generator writes them
mkdir -p "$tmp/lua" && python3 "$src/maps/gen_maps.py" --lua "$tmp/lua" >/dev/null
check $? "gen_maps.py --lua"
for lua in "$tmp"/lua/*.lua; do
  b=$(basename "$lua" .lua)
  "$td" route --map "$lua" --json >"$tmp/$b.ref.json"
  check $? "$b: td route on the Lua export"
  variants=("tmx csv" "tmx xml" "tmx base64" "tmx zlib" "tmx gzip" "tmj csv" "tmj zlib"
            "tmx zlib --external --templates" "tmj base64 --external --templates"
            "tmx csv --class --templates" "tmj gzip --class")
  [ $have_zstd -eq 1 ] && variants+=("tmx zstd" "tmj zstd --external")
  n=0
  for v in "${variants[@]}"; do
    read -r ext data rest <<<"$v"
    n=$((n + 1))
    d="$tmp/$b-$n"
    mkdir -p "$d"
    # shellcheck disable=SC2086
    python3 "$conv" "$lua" "$d/$b.$ext" --data "$data" $rest
    check $? "$b ($v): lua2tiled.py"
    "$td" route --map "$d/$b.$ext" --json >"$tmp/out.json" 2>"$tmp/err"
    check $? "$b ($v): td route: $(head -c 300 "$tmp/err")"
    cmp -s "$tmp/out.json" "$tmp/$b.ref.json"
    check $? "$b ($v): td route --json differs from the Lua export's"
  done
done

# A whole game on a .tmx: the same as on the .lua; the map hash is the
# file's (a .tmx has other bytes) and its external files count in it.
map=01-crossroads
python3 "$conv" "$tmp/lua/01-crossroads.lua" "$tmp/$map.tmx" --data zlib
mkdir -p "$tmp/ext" && python3 "$conv" "$tmp/lua/01-crossroads.lua" "$tmp/ext/$map.tmx" --external --templates
for m in "$tmp/lua/01-crossroads.lua" "$tmp/$map.tmx" "$tmp/ext/$map.tmx"; do
  (cd "$src" && "$td" sim --map "$m" --auto --quiet --json --ticks 3000) >"$tmp/game-$(basename "$(dirname "$m")")-$(basename "$m").json" 2>"$tmp/err"
  check $? "td sim --auto on $m: $(head -c 300 "$tmp/err")"
done
python3 - "$tmp/game-lua-$map.lua.json" "$tmp/game-$(basename "$tmp")-$map.tmx.json" \
  "$tmp/game-ext-$map.tmx.json" <<'PY'
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:4])
for k in ("ticks", "result", "kills", "leaks", "lives", "gold", "built"):
    assert a[k] == b[k] == c[k], "%s: %r %r %r" % (k, a[k], b[k], c[k])
PY
check $? "td sim --auto: the .tmx games differ from the .lua's"
# a replay on the map with templates: refused once a template changes (the
# external files are part of the map's hash), played again when restored
cd "$src" || exit 1 # the bundled mod, by its relative path
(cd "$src" && "$td" sim --map "$tmp/ext/$map.tmx" --auto --quiet --ticks 600 --record "$tmp/ext.rpl") >/dev/null
check $? "td sim --record on the map with templates"
tpl=$(ls "$tmp/ext/"*tower_base*.tx | head -1)
cp "$tpl" "$tmp/tpl.bak"
sed -i 's/<template>/<template>\n<!-- changed -->/' "$tpl"
expect "replay after a template changed" 2 "made with another $tmp/ext/$map.tmx (hash" -- \
  "$td" sim --replay "$tmp/ext.rpl" --quiet
cp "$tmp/tpl.bak" "$tpl"
expect "replay with the template restored" 0 "" -- "$td" sim --replay "$tmp/ext.rpl" --quiet

# Renamed files and refusals: one line, naming the file.
cp "$tmp/lua/01-crossroads.lua" "$tmp/x.tmx"
expect "lua named .tmx" 2 "x.tmx: the name ends in .tmx, but the file does not start with '<'" -- \
  "$td" route --map "$tmp/x.tmx"
cp "$tmp/$map.tmx" "$tmp/y.lua"
expect "tmx named .lua" 2 "y.lua: looks like a Tiled XML map (.tmx), but the name ends in .lua: rename it" -- \
  "$td" route --map "$tmp/y.lua"
cp "$tmp/$map.tmx" "$tmp/z.map"
expect "tmx named .map (sniffed)" 0 "" -- "$td" route --map "$tmp/z.map"
# a symbolic link in the map's folder to a tileset outside it
mkdir -p "$tmp/in" "$tmp/away"
python3 "$conv" "$tmp/lua/01-crossroads.lua" "$tmp/away/$map.tmx" --external
mv "$tmp/away/$map.tmx" "$tmp/in/$map.tmx"
ln -s "$tmp/away/$map-tileset0.tsx" "$tmp/in/$map-tileset0.tsx"
expect "tileset behind a symlink" 2 "tileset '$map-tileset0.tsx' is outside the map's folder" -- \
  "$td" route --map "$tmp/in/$map.tmx"
printf '<map>\n<layer>\n</map>\n' >"$tmp/bad.tmx"
expect "bad XML" 2 "bad.tmx:3: mismatched tag" -- "$td" route --map "$tmp/bad.tmx"
printf '{\n "width": 3,\n oops\n}\n' >"$tmp/bad.tmj"
expect "bad JSON" 2 "bad.tmj:3: JSON syntax error near 'oops" -- "$td" route --map "$tmp/bad.tmj"
expect "td sim on a bad .tmx" 2 "bad.tmx:3: mismatched tag" -- \
  "$td" sim --map "$tmp/bad.tmx" --auto --quiet --ticks 10

finish
