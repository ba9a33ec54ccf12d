#!/usr/bin/env bash
# The bugs a new player met in the game's first hour (issue 20), each
# checked: on the map data, on the pixels the real game draws (td play
# --script under SDL's dummy drivers), or on what the game counts.
set -u
source "$(dirname "$0")/harness.bash"
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
export XDG_CONFIG_HOME="$tmp/config"

play() { # play SCRIPT [td play options]: runs the script, passes when it does
  local name=$1
  shift
  "$td" play --software "$@" --script "$tmp/$name.txt" >"$tmp/$name.out" 2>"$tmp/$name.err"
  check $? "$name: $(cat "$tmp/$name.err") $(tail -2 "$tmp/$name.out")"
}

# ---- the maps: pads are where the bases are, and only there ----------------
# the bundled maps are what maps/gen_maps.py writes, and on every map a
# pad tile lies under a base covering that whole tile (no grey tile that
# looks like a pad and is not: 02-grid had 18), no base on the top or
# bottom row (under the HUD's centred labels: 03-serpent had two)
python3 "$src/maps/gen_maps.py" "$tmp/maps" && diff -r "$tmp/maps" "$src/maps" -x gen_maps.py -x __pycache__ >"$tmp/diff"
check $? "maps/*.lua are gen_maps.py's output: $(head -5 "$tmp/diff")"
python3 - "$src/maps" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[1])
import gen_maps as g
T = g.T
bad = []
for name, make in (("01-crossroads", g.crossroads), ("02-grid", g.grid_map), ("03-serpent", g.serpent),
                   ("04-foundry", g.foundry), ("05-twin", g.twin), ("06-expanse", g.expanse)):
    m = make()
    W, H = m["width"], m["height"]
    objs = [o for L in m["layers"] if L["type"] == "objectgroup" for o in L["objects"]]
    bases = [o for o in objs if (o.get("class") or o.get("type")) == "tower_base"]
    covered = set()
    for b in bases:
        if b["y"] < T or b["y"] + b["height"] > (H - 1) * T:
            bad.append("%s: base %d on the top or bottom row" % (name, b["id"]))
        for ty in range(H):
            for tx in range(W):
                if b["x"] <= tx * T and (tx + 1) * T <= b["x"] + b["width"] and \
                   b["y"] <= ty * T and (ty + 1) * T <= b["y"] + b["height"]:
                    covered.add((tx, ty))
    for L in m["layers"]:
        if L["type"] != "tilelayer":
            continue
        for i, gid in enumerate(int(v) for v in re.findall(r"\d+", L["data"].text)):
            if (gid & 0x0FFFFFFF) == 3 and (i % W, i // W) not in covered:
                bad.append("%s: a pad tile at %d,%d with no base on it" % (name, i % W, i // W))
print("\n".join(bad[:10]))
sys.exit(1 if bad else 0)
PY
check $? "pad tiles only under bases"
finish
