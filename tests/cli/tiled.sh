#!/usr/bin/env bash
# The bundled maps through the real Tiled (issue 21; Debian package tiled,
# run headless): Tiled writes every maps/*.tmx back unchanged; the .tmx, its
# Lua export and its JSON export load in td to the same graph and the same
# route (td route --json of the three agree) and play the same game (td sim
# --auto: equal checksums), and so does a Lua export with the classes'
# properties resolved from maps/objecttypes.xml (their defaults are td's);
# the properties the maps use are the ones the project declares
# (maps/objecttypes.xml, maps/td.tiled-project); and
# scripted edits (one vertex of a path moved), exported by Tiled, change the
# route as the geometry says: 03-serpent's one road grows by 128, 05-twin's
# north gate turns to the other goal. Skipped, with a SKIP line, without
# tiled.
set -u
source "$(dirname "$0")/harness.bash"
command -v tiled >/dev/null || skip "tiled (Debian package tiled) not installed"

# Tiled writes its settings under HOME (and wants a runtime dir): keep them
# in the test's temporary directory
export QT_QPA_PLATFORM=offscreen HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config \
  XDG_DATA_HOME=$tmp/home/.local/share XDG_CACHE_HOME=$tmp/home/.cache XDG_RUNTIME_DIR=$tmp/run
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"

# tiled_export FORMAT IN OUT [OPTION...]: Tiled's command-line export
# (lua, json or tmx)
tiled_export() {
  tiled "${@:4}" --export-map "$1" "$2" "$3" >"$tmp/tiled.out" 2>&1 && [ -s "$3" ]
  check $? "tiled --export-map $1 ${2##*/}: $(head -c 300 "$tmp/tiled.out")"
}

# Tiled 1.8 without a project reads its object types from its data folder:
# maps/objecttypes.xml there, an export with --resolve-types-and-properties
# writes every class's properties, defaults included
mkdir -p "$XDG_DATA_HOME/tiled"
cp "$src/maps/objecttypes.xml" "$XDG_DATA_HOME/tiled/"

# route NAME MAP: td route --json of MAP into $tmp/NAME.route
route() {
  "$td" route --map "$2" --json >"$tmp/$1.route" 2>"$tmp/$1.err"
  local got=$?
  check $got "td route ${2##*/}: $(head -c 300 "$tmp/$1.err")"
  return $got
}

# same NAME FILE...: the files are the same JSON object once the file names
# ("map") are left out; names the first key that differs
same() {
  local name=$1
  shift
  python3 - "$@" <<'PY'
import json, sys
docs = []
for p in sys.argv[1:]:
    d = json.load(open(p))
    d.pop("map", None)
    docs.append(d)
for p, d in zip(sys.argv[2:], docs[1:]):
    if d != docs[0]:
        keys = sorted(set(d) | set(docs[0]))
        k = next(k for k in keys if d.get(k) != docs[0].get(k))
        print("%s differs from %s at %r" % (p.rsplit("/", 1)[-1], sys.argv[1].rsplit("/", 1)[-1], k))
        sys.exit(1)
PY
  check $? "$name"
}

# ---- every bundled map: the .tmx, its Lua export, its JSON export ---------
mkdir -p "$tmp/gen" && python3 "$src/maps/gen_maps.py" --lua "$tmp/gen" >/dev/null
check $? "gen_maps.py --lua"
maps=("$src"/maps/*.tmx)
[ ${#maps[@]} -ge 6 ]; check $? "the bundled maps are .tmx files: ${maps[*]}"
for tmx in "${maps[@]}"; do
  b=$(basename "$tmx" .tmx)
  tiled_export lua "$tmx" "$tmp/$b.lua"
  tiled_export json "$tmx" "$tmp/$b.tmj"
  # Tiled writes the file back as gen_maps.py wrote it, byte for byte, but
  # for the image paths (relative to where it writes): saving a bundled map
  # in Tiled changes nothing that was not edited
  tiled_export tmx "$tmx" "$tmp/$b.tmx"
  diff <(sed 's#source="[^"]*/#source="#' "$tmx") <(sed 's#source="[^"]*/#source="#' "$tmp/$b.tmx") >"$tmp/diff"
  check $? "$b: Tiled saves it otherwise: $(head -c 300 "$tmp/diff")"
  # Tiled 1.8 keeps an object's class in `type`: the exports say so
  grep -q 'type = "spawn"' "$tmp/$b.lua"; check $? "$b: the Lua export has no spawn"
  # with the types resolved, every path has its cost and road_width and
  # every base its blocking: the defaults of maps/objecttypes.xml, which
  # are td's (on 32 px tiles), so the route is the same. (Its own folder:
  # the base mod picks a map's waves by the file's name, up to the first dot)
  mkdir -p "$tmp/resolved"
  tiled_export lua "$tmx" "$tmp/resolved/$b.lua" --resolve-types-and-properties
  [ "$(grep -c 'type = "path"' "$tmp/resolved/$b.lua")" -eq "$(grep -c '\["cost"\] = ' "$tmp/resolved/$b.lua")" ] &&
    [ "$(grep -c 'type = "tower_base"' "$tmp/resolved/$b.lua")" -eq "$(grep -c '\["blocking"\] = ' "$tmp/resolved/$b.lua")" ] &&
    grep -q 'type = "tower_base"' "$tmp/resolved/$b.lua"
  check $? "$b: Tiled did not resolve the classes' properties from maps/objecttypes.xml"
  files=()
  route "$b-lua" "$tmp/$b.lua" && files+=("$tmp/$b-lua.route")
  route "$b-resolved" "$tmp/resolved/$b.lua" && files+=("$tmp/$b-resolved.route")
  route "$b-tmx" "$tmx" && files+=("$tmp/$b-tmx.route")
  route "$b-tmj" "$tmp/$b.tmj" && files+=("$tmp/$b-tmj.route")
  # and the generator's own Lua export of the same map (gen_maps.py --lua)
  route "$b-gen" "$tmp/gen/$b.lua" && files+=("$tmp/$b-gen.route")
  [ ${#files[@]} -eq 5 ]; check $? "$b: fewer than five routes to compare"
  [ ${#files[@]} -ge 2 ] && same "$b: td route --json of ${files[*]##*/}" "${files[@]}"
  # a game on each (every tower the built-in player builds is a base of the
  # file): the same checksums; 06-expanse's first waves only, it is big
  ticks=36000
  [ "$b" = 06-expanse ] && ticks=3000
  sims=()
  for f in "$tmp/$b.lua" "$tmp/resolved/$b.lua" "$tmx" "$tmp/$b.tmj" "$tmp/gen/$b.lua"; do
    out=$tmp/$b-sim${#sims[@]}.json
    "$td" sim --map "$f" --auto --ticks "$ticks" --json >"$out" 2>"$tmp/sim.err"
    got=$?
    check $got "td sim --auto ${f##*/}: $(head -c 300 "$tmp/sim.err")"
    [ "$got" -eq 0 ] && sims+=("$out")
  done
  [ ${#sims[@]} -ge 2 ]; check $? "$b: fewer than two games to compare"
  [ ${#sims[@]} -ge 2 ] && same "$b: td sim --auto --ticks $ticks of $(printf '%s ' "${sims[@]##*/}")" "${sims[@]}"
  echo "$b: ${#files[@]} routes, ${#sims[@]} games compared"
done

# ---- the properties the maps use are the ones the project declares -------
python3 - "$src/maps" <<'PY'
import glob, json, sys
import xml.etree.ElementTree as ET
folder = sys.argv[1]
declared = {}
for t in ET.parse(folder + "/objecttypes.xml").getroot():
    declared[t.get("name")] = {p.get("name"): p.get("type") for p in t}
project = json.load(open(folder + "/td.tiled-project"))
assert project["objectTypesFile"] == "objecttypes.xml", project["objectTypesFile"]
classes = {c["name"]: {m["name"]: m["type"] for m in c["members"]}
           for c in project["propertyTypes"] if c["type"] == "class"}
assert classes == declared, "td.tiled-project %r, objecttypes.xml %r" % (classes, declared)
assert set(declared) == {"path", "spawn", "goal", "tower_base", "tile"}, declared
bad = []
for path in sorted(glob.glob(folder + "/*.tmx")):
    root = ET.parse(path).getroot()
    for o in root.iter("object"):
        for p in o.iter("property"):
            want = declared.get(o.get("type"), {}).get(p.get("name"))
            if o.get("type") in declared and want != p.get("type", "string"):
                bad.append("%s: object %s (%s): property %s is %s, declared %s" % (
                    path, o.get("id"), o.get("type"), p.get("name"), p.get("type"), want))
    for tile in root.iter("tile"):
        for p in tile.iter("property"):
            if p.get("name") == "walkable" and p.get("type") != "bool":
                bad.append("%s: tile %s: walkable is %s" % (path, tile.get("id"), p.get("type")))
print("\n".join(bad[:10]))
sys.exit(1 if bad else 0)
PY
check $? "the maps' properties are the project's"

# ---- scripted edits: one vertex of a path moved, exported by Tiled ---------
mkdir -p "$tmp/edit"
ln -s "$src/assets" "$tmp/assets" # the copies' tileset images: ../assets/tiles/

# moved NAME MAP PATH INDEX X,Y X,Y: a copy of maps/MAP with vertex INDEX of
# the path named PATH moved from the first point to the second (both
# relative to the object's x, y, as the .tmx keeps them), exported by Tiled
# to Lua and JSON; sets `variants` to the files td reads (the .tmx and the
# JSON export)
moved() {
  local name=$1
  python3 - "$src/maps/$2" "$tmp/edit/$name.tmx" "$3" "$4" "$5" "$6" <<'PY'
import sys
import xml.etree.ElementTree as ET
src, out, name, index, old, new = sys.argv[1:]
tree = ET.parse(src)
road = next(o for o in tree.getroot().iter("object")
            if o.get("type") == "path" and o.get("name") == name)
line = road.find("polyline")
points = [p.split(",") for p in line.get("points").split()]
assert points[int(index)] == old.split(","), points[int(index)]
points[int(index)] = new.split(",")
line.set("points", " ".join(",".join(p) for p in points))
tree.write(out, encoding="UTF-8", xml_declaration=True)
PY
  check $? "moving a vertex of '$3' in a copy of $2"
  tiled_export lua "$tmp/edit/$name.tmx" "$tmp/edit/$name.lua"
  tiled_export json "$tmp/edit/$name.tmx" "$tmp/edit/$name.tmj"
  variants=("$tmp/edit/$name.lua")
  variants+=("$tmp/edit/$name.tmx" "$tmp/edit/$name.tmj")
}

# 03-serpent, the one fixed road: its second vertex (656,80), the first lane
# corner, moves 96 right to (752,80). The first edge grows from 608 to 704,
# and the second, from (656,80) to (656,208), becomes the hypotenuse of 96
# and 128: 160. So the one route, the same ten nodes, is 96 + 32 = 128
# longer: 3488, not 3360; the rest of the road keeps its distances.
tiled_export lua "$src/maps/03-serpent.tmx" "$tmp/serpent.lua"
route serpent "$tmp/serpent.lua"
moved serpent 03-serpent.tmx serpent 1 608,0 704,0
for f in "${variants[@]}"; do
  route serpent-moved "$f" || continue
  python3 - "$tmp/serpent.route" "$tmp/serpent-moved.route" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
ra, rb = a["routes"][0], b["routes"][0]
assert ra["length"] == 3360, "before: %r" % ra["length"]
assert rb["length"] == 3488, "after: %r, expected 3360 + 128 = 3488" % rb["length"]
assert ra["path"] == rb["path"] == list(range(10)), (ra["path"], rb["path"])
na, nb = a["nodes"], b["nodes"]
assert (na[1]["x"], na[1]["y"]) == (656, 80) and (nb[1]["x"], nb[1]["y"]) == (752, 80), (na[1], nb[1])
assert nb[0]["dist"] == 3488 and nb[1]["dist"] == 2784, (nb[0], nb[1])  # 2624 + 160
assert all(x["dist"] == y["dist"] for x, y in zip(na[2:], nb[2:])), "the rest of the road changed"
PY
  check $? "03-serpent, a lane corner moved, through ${f##*/}: the route grows by 128"
done

# 05-twin: the north gate's enemies take the north lane to the upper sluice,
# 39 tiles (1248). Its lane's last corner but one, (22,3) in tiles, moves
# west to (16,3): from the corner before it, (22,8), the lane now runs
# hypot(6,5) = 7.8 tiles back north-west, then 14 east to the sluice, 21.8
# where it ran 13; so the north gate's enemies go down a link to the lower
# sluice instead, 16 + 26 = 42 tiles (1344): the route ends at the other
# goal. The south gate's route does not change.
tiled_export lua "$src/maps/05-twin.tmx" "$tmp/twin.lua"
route twin "$tmp/twin.lua"
moved twin 05-twin.tmx "north lane" 6 672,0 480,0
for f in "${variants[@]}"; do
  route twin-moved "$f" || continue
  python3 - "$tmp/twin.route" "$tmp/twin-moved.route" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["spawns"] == b["spawns"] == [0, 8] and a["goals"] == b["goals"] == [7, 15], (a["spawns"], a["goals"])
(na, sa), (nb, sb) = a["routes"], b["routes"]
assert na == {"spawn": 0, "path": list(range(8)), "length": 1248}, na
assert (b["nodes"][6]["x"], b["nodes"][6]["y"]) == (528, 112), b["nodes"][6]
assert nb["length"] == 1344, "after: %r, expected 1344" % nb["length"]
assert nb["path"][:4] == [0, 1, 2, 3] and nb["path"][-1] == 15, nb["path"]
assert sa == sb == {"spawn": 8, "path": list(range(8, 16)), "length": 1248}, (sa, sb)
PY
  check $? "05-twin, a corner of the north lane moved, through ${f##*/}: the north gate's route turns to the lower sluice"
done

finish
