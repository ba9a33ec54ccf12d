#!/usr/bin/env bash
# Enemy sprites match their collision discs: the opaque body of an enemy is
# 2 x radius across on screen, at any zoom, for a 32-pixel sprite and a
# boss's 48-pixel one (render/scene.c, td_sprite.body in render/atlas.h).
#
# tests/data/maps/sprite_road.lua is a straight 12 x 5 tile road; the mod
# tests/data/mods/sprite sends a grunt (radius 0.5 tiles) and 5 s later a
# juggernaut (0.65), and tests/data/mods/sprite_none is the same mod whose
# waves never come. Both are shot at the same tick with --idle (no towers, so
# no health bars; --no-cards: no enemy cards over the road): the pixels that
# differ are the two enemies. The zoom is
# the fitted one, set by the picture's size: the viewport is W wide and
# H - 48 - 68 high, the map 384 x 160 units plus a 32-unit margin, so
# W = 416 z (the width decides) gives zoom z exactly.
set -u
source "$(dirname "$0")/harness.bash"
map="$src/tests/data/maps/sprite_road.lua"

for z in 1 2; do
  size="$((416 * z))x$((116 + 300 * z))"
  for mod in sprite sprite_none; do
    "$td" shot --map "$map" --mod "$src/tests/data/mods/$mod" --idle --no-cards --tick 510 --size "$size" \
      "$tmp/$mod-$z.png" >/dev/null 2>"$tmp/err"
    check $? "shot $mod at zoom $z: $(cat "$tmp/err")"
  done
done

cat >"$tmp/body.py" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from png import read_png

tmp = sys.argv[2]
def report(ok, what):
    print(("ok " if ok else "FAIL ") + what)

for z in (1, 2):
    a, w, h = read_png("%s/sprite-%d.png" % (tmp, z))
    b, _, _ = read_png("%s/sprite_none-%d.png" % (tmp, z))
    vh = h - 48 - 68
    def screen(x, y):  # map units -> pixel (the camera centred on the map)
        return int(w / 2 + (x - 192) * z), int(48 + vh / 2 + (y - 80) * z)
    (x0, y0), (x1, y1) = screen(0, 0), screen(384, 160)
    # a body pixel differs from the background by 40 or more in a channel
    # (the half-transparent antialiased rim of a body does less)
    on = set((x, y) for y in range(y0, y1) for x in range(x0, x1)
             if max(abs(p - q) for p, q in zip(a(x, y), b(x, y))) >= 40)
    blobs, seen = [], set()
    for s in sorted(on):
        if s in seen: continue
        stack, blob = [s], []
        seen.add(s)
        while stack:
            x, y = stack.pop()
            blob.append((x, y))
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in on and n not in seen:
                    seen.add(n)
                    stack.append(n)
        blobs.append(blob)
    blobs = sorted(sorted(blobs, key=len)[-2:], key=min)  # the two biggest, west to east
    report(len(blobs) == 2, "zoom %d: two enemies on the road (%d blobs)" % (z, len(blobs)))
    for blob, name, radius in zip(blobs, ("juggernaut", "grunt"), (0.65, 0.5)):
        xs, ys = [p[0] for p in blob], [p[1] for p in blob]
        bw, bh, want = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1, 2 * radius * 32 * z
        report(abs(bw - want) <= 2 and abs(bh - want) <= 2,
               "zoom %d: the %s's body is %d x %d pixels, its disc %.1f across" % (z, name, bw, bh, want))
PY
python3 "$tmp/body.py" "$(dirname "$0")" "$tmp" >"$tmp/px" 2>&1
check $? "pixel reader: $(tail -3 "$tmp/px")"
while read -r verdict what; do
  [ "$verdict" = ok ]; check $? "$what"
done <"$tmp/px"
[ "$(grep -c '' "$tmp/px")" -eq 6 ]; check $? "6 checks ran: $(cat "$tmp/px")"
finish
