#!/usr/bin/env bash
# td shot: a frame of the game without a window; overlays (the grid overlay's
# A* checked by its pixels), ghost, panel; errors.
set -u
source "$(dirname "$0")/harness.bash"
map="$src/maps/01-crossroads.tmx"
png_size() { # prints "W H" of a PNG (IHDR)
  od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}'
}

"$td" shot --map "$map" --tick 900 "$tmp/a.png" >"$tmp/out" 2>"$tmp/err"
check $? "shot at tick 900: $(cat "$tmp/err")"
grep -q "a.png: 1280x720, tick 900" "$tmp/out"; check $? "reports size and tick: $(cat "$tmp/out")"
[ "$(png_size "$tmp/a.png")" = "1280 720" ]; check $? "1280x720 PNG ($(png_size "$tmp/a.png"))"

"$td" shot --map "$map" --tick 900 "$tmp/b.png" >/dev/null 2>&1
cmp -s "$tmp/a.png" "$tmp/b.png"; check $? "same arguments, same picture"

"$td" shot --map "$map" --tick 900 --overlay graph --overlay lanes --size 800x600 "$tmp/c.png" >/dev/null 2>"$tmp/err"
check $? "overlays: $(cat "$tmp/err")"
[ "$(png_size "$tmp/c.png")" = "800 600" ]; check $? "--size"
"$td" shot --map "$map" --idle --build arrow --hover 9 "$tmp/d.png" >/dev/null 2>"$tmp/err"
check $? "ghost: $(cat "$tmp/err")"
"$td" shot --map "$map" --idle --build arrow --hover 9 "$tmp/e.png" >/dev/null 2>&1
"$td" shot --map "$map" --idle "$tmp/f.png" >/dev/null 2>&1
! cmp -s "$tmp/e.png" "$tmp/f.png"; check $? "the ghost changes the picture"

# The grid overlay on a grid map: A* from the spawn to the goal over the
# current graph (magenta), the cells it expanded tinted blue, and the route's
# steps that A* does not take (equal-cost ties) dashed in white. Pixels are
# read back from the PNGs (python3's zlib); the camera is the one td play
# fits to the map: 1280x720 with a 48-pixel HUD above and 68 below, zoom
# min(1280 / (mapw + 32), 604 / (maph + 32)), centred on the map.
grid="$src/maps/02-grid.tmx"
"$td" shot --map "$grid" --idle --overlay grid "$tmp/g.png" >/dev/null 2>"$tmp/err"
check $? "grid overlay on a grid map: $(cat "$tmp/err")"
"$td" shot --map "$grid" --idle --overlay grid "$tmp/g2.png" >/dev/null 2>&1
cmp -s "$tmp/g.png" "$tmp/g2.png"; check $? "grid overlay: same arguments, same picture"
"$td" shot --map "$grid" --idle "$tmp/n.png" >/dev/null 2>&1
"$td" shot --map "$grid" --idle --build cannon --hover 12 --overlay grid "$tmp/gg.png" >/dev/null 2>"$tmp/err"
check $? "grid overlay with a ghost: $(cat "$tmp/err")"
cat >"$tmp/px.py" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TD_SOURCE_DIR"], "tests", "cli"))
import png  # the PNG reader the CLI tests share

def read_png(path):  # (x, y) -> (r, g, b)
    return png.read_png(path)[0]

g, n, gg = (read_png(sys.argv[1] + "/" + f) for f in ("g.png", "n.png", "gg.png"))
zoom = min(1280 / (24 * 32 + 32), (720 - 48 - 68) / (16 * 32 + 32))
def screen(x, y):  # map units -> pixel
    return int(640 + (x - 384) * zoom), int(48 + 302 + (y - 256) * zoom)
def magenta(p): return p[0] > 200 and p[1] < 120 and p[2] > 180
def white(p): return min(p) > 215
def box(px, x0, y0, x1, y1, want):  # any pixel of the box (map units) passes
    (a, b), (c, d) = screen(x0, y0), screen(x1, y1)
    return any(want(px(x, y)) for x in range(min(a, c) - 2, max(a, c) + 3)
               for y in range(min(b, d) - 2, max(b, d) + 3))
def report(ok, what):
    print(("ok " if ok else "FAIL ") + what)

# A* leaves the route at (624, 432) and climbs the goal's column x = 688
# (the route climbs x = 624 first: the same cost, 4 other cells)
p = g(*screen(688, 320))
report(magenta(p), "A*'s path at (688, 320): %s" % (p,))
report(not magenta(n(*screen(688, 320))), "no A* path without the overlay")
report(magenta(gg(*screen(688, 320))), "a ghost leaves A* on the current graph")
# both go along row y = 336 from x = 272 to 464
report(magenta(g(*screen(368, 336))), "A*'s path at (368, 336): %s" % (g(*screen(368, 336)),))
# the route's own step (624, 400) -> (624, 368): white dashes
report(box(g, 624, 372, 624, 396, white), "the route's differing steps dashed in white")
report(not box(n, 624, 372, 624, 396, white), "no dashes without the overlay")
# (48, 368) was expanded and is on neither path: tinted blue; (80, 80) was not
a, b = g(*screen(48, 368)), n(*screen(48, 368))
report(a[2] > b[2] + 15 and a[0] < b[0], "closed cell tinted blue: %s over %s" % (a, b))
a, b = g(*screen(80, 80)), n(*screen(80, 80))
report(a == b, "a cell A* never expanded stays as it was: %s, %s" % (a, b))
PY
# python3 (as tests/cli/balance.sh): .ci/deps installs it
python3 "$tmp/px.py" "$tmp" >"$tmp/px" 2>&1
check $? "pixel reader: $(tail -3 "$tmp/px")"
while read -r verdict what; do
  [ "$verdict" = ok ]; check $? "grid overlay pixels: $what"
done <"$tmp/px"
[ "$(grep -c '' "$tmp/px")" -eq 8 ]; check $? "8 pixel checks ran: $(cat "$tmp/px")"
# The lanes overlay draws the walkable area's edges in cyan (docs/game.md):
# on 03-serpent the outline of the one-tile road (32 units wide, square-
# capped), on 02-grid the sides between open and closed cells. Idle at tick
# 0: no enemies, no towers, so nothing else of the overlay is drawn.
serp="$src/maps/03-serpent.tmx"
"$td" shot --map "$serp" --idle --overlay lanes "$tmp/l.png" >/dev/null 2>"$tmp/err"
check $? "lanes overlay on 03-serpent: $(cat "$tmp/err")"
"$td" shot --map "$serp" --idle "$tmp/l0.png" >/dev/null 2>&1
"$td" shot --map "$grid" --idle --overlay lanes "$tmp/lg.png" >/dev/null 2>"$tmp/err"
check $? "lanes overlay on 02-grid: $(cat "$tmp/err")"
sed -n '/^import os, sys/,/return png.read_png/p' "$tmp/px.py" >"$tmp/road.py"
cat >>"$tmp/road.py" <<'PY'

l, l0, lg, n = (read_png(sys.argv[1] + "/" + f) for f in ("l.png", "l0.png", "lg.png", "n.png"))
def camera(w, h):  # map units -> pixel, the camera td play fits to a w x h map
    zoom = min(1280 / (w + 32), (720 - 48 - 68) / (h + 32))
    return lambda x, y: (int(640 + (x - w / 2) * zoom), int(48 + 302 + (y - h / 2) * zoom))
def cyan(p): return p[0] < 170 and p[1] > 200 and p[2] > 200
def near(px, at, want):  # any pixel within 2 of the point
    x0, y0 = at
    return any(want(px(x, y)) for x in range(x0 - 2, x0 + 3) for y in range(y0 - 2, y0 + 3))
def report(ok, what):
    print(("ok " if ok else "FAIL ") + what)

s = camera(24 * 32, 21 * 32)
# the first edge, (48, 80) -> (656, 80): its sides at y = 64 and 96; the
# second, (656, 80) -> (656, 208): its right side at x = 672
for x, y in ((320, 64), (320, 96), (672, 144), (672, 72)):
    report(near(l, s(x, y), cyan), "road edge (%d, %d) outlined" % (x, y))
    report(not near(l0, s(x, y), cyan), "road edge (%d, %d): no outline without the overlay" % (x, y))
# inside the first corner: the first edge's side y = 96 runs on under the
# second edge (x 640..672) and the second's side x = 640 above y = 96: the
# union's inside, no line
report(not near(l, s(656, 97), cyan), "no line inside the corner at (656, 97)")
report(not near(l, s(641, 80), cyan), "no line inside the corner at (641, 80)")
report(l(*s(320, 80)) == l0(*s(320, 80)), "the road's middle as it was")
g = camera(24 * 32, 16 * 32)
# the left wall (column 0) against the floor (column 1) at row 4
report(near(lg, g(32, 144), cyan), "grid: wall/floor side (32, 144) outlined")
report(not near(n, g(32, 144), cyan), "grid: no outline without the overlay")
report(lg(*g(80, 144)) == n(*g(80, 144)), "grid: an open cell's middle as it was")
PY
python3 "$tmp/road.py" "$tmp" >"$tmp/road" 2>&1
check $? "road pixel reader: $(tail -3 "$tmp/road")"
while read -r verdict what; do
  [ "$verdict" = ok ]; check $? "lanes overlay pixels: $what"
done <"$tmp/road"
[ "$(grep -c '' "$tmp/road")" -eq 14 ]; check $? "14 road pixel checks ran: $(cat "$tmp/road")"
# a waypoint map: the grid overlay has nothing to show, and still renders
"$td" shot --map "$map" --tick 900 --overlay grid "$tmp/w.png" >/dev/null 2>"$tmp/err"
check $? "grid overlay on a waypoint map: $(cat "$tmp/err")"
[ "$(png_size "$tmp/w.png")" = "1280 720" ]; check $? "grid overlay on a waypoint map: a 1280x720 PNG"

expect "bad overlay" 2 "shot: --overlay: no overlay 'nope'" -- "$td" shot --map "$map" --overlay nope "$tmp/x.png"
expect "bad base" 2 "shot: no tower base with object id 999" -- "$td" shot --map "$map" --select 999 "$tmp/x.png"
expect "bad type" 2 "shot: --build: no tower type 'laser'" -- "$td" shot --map "$map" --build laser --hover 9 "$tmp/x.png"
expect "bad map" 2 "nope.lua" -- "$td" shot --map "$tmp/nope.lua" "$tmp/x.png"
expect "bad tick" 2 "shot: --tick: 'x' is not a whole number (0 .. 10000000)" -- "$td" shot --map "$map" --tick x "$tmp/x.png"
# what a replay fixes: --seed and --difficulty may repeat it, not change it
"$td" sim --map "$map" --auto --ticks 600 --seed 3 --difficulty hard --record "$tmp/r.replay" --quiet \
  >/dev/null 2>&1
check $? "shot: recording the replay failed"
expect "replay seed" 2 "r.replay: played with seed 3, not 4" -- \
  "$td" shot --replay "$tmp/r.replay" --seed 4 --tick 60 "$tmp/x.png"
expect "replay difficulty" 2 "r.replay: played on hard, not easy" -- \
  "$td" shot --replay "$tmp/r.replay" --difficulty easy --tick 60 "$tmp/x.png"
expect "replay same seed" 0 "" -- \
  "$td" shot --replay "$tmp/r.replay" --seed 3 --difficulty hard --tick 60 "$tmp/x.png"
"$td" shot --map "$map" >/dev/null 2>&1
[ $? -eq 2 ]; check $? "no output file: usage, exit 2"
"$td" shot --help | grep -q "usage: td shot"; check $? "help"

# a map without tower bases: the built-in player has nothing to do (it once
# passed NULL to memset there: UBSan in the Sanitize build), in td shot and
# in td sim --auto
road="$src/tests/data/maps/sprite_road.lua"
expect "no bases: shot" 0 "" -- "$td" shot --map "$road" --tick 900 "$tmp/road.png"
expect "no bases: sim --auto" 0 "" -- "$td" sim --map "$road" --auto --ticks 1800 --quiet
grep -q "^result: .* towers 0 (0 built, 0 upgrades)$" "$tmp/out"; check $? "no bases: nothing built: $(cat "$tmp/out")"

finish
