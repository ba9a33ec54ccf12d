#!/usr/bin/env bash
# Rules that change the map's costs (issue 18): a mod lays mud on the road
# enemies walk (td.set_cost{path = ...}) in the middle of a wave, and they
# re-route round it, those on the road included; a game saved after the
# change (and one saved before it) loads and goes on with the checksums of
# the uninterrupted game; the change is in the checksum; a grid map's
# tiles take costs too; bad calls stop their handler with a clear error.
set -u
source "$(dirname "$0")/harness.bash"
map=$src/maps/01-crossroads.tmx

# 01-crossroads: the trunk (path object 1) runs straight from the gate to the
# core at y = 336; the north road (y = 144) and the south road (y = 528) go
# round it, joined to it by a link in the middle (x = 496). With the trunk
# at factor 4 the north is the cheapest way (it ties with the south, and
# the route takes the smaller node id).
mud=$tmp/mud
cp -r "$src/scripts/base" "$mud"
# the waves on the bundled clock: wave 1 at 8 s, as the ticks below expect
sed -i "s/first_wave_waits = true/first_wave_waits = false/" "$mud/mod.lua"
cat >>"$mud/mod.lua" <<'LUA'
td.state.cost = { seen = {}, last = {}, turned = {} }
td.every(10, function(t)
  local S = td.state.cost
  if t == 2750 then -- wave 2's two grunts are on the trunk, before the link
    td.set_cost { path = 1, factor = 4 }
    print(("tick %d: mud on the trunk, factor %g"):format(t, td.cost { path = 1 }))
  end
  for _, h in ipairs(td.enemies()) do
    local e = td.enemy_info(h)
    local where = e.y < 250 and "north" or e.y > 420 and "south"
      or (e.x > 350 and e.x < 650 and e.y > 300 and e.y < 372) and "trunk" or nil
    if where then
      local k = where .. e.wave
      S.seen[k] = (S.seen[k] or 0) + 1
      if S.last[h] == "trunk" and where == "north" and not S.turned[h] then
        S.turned[h] = true
        print(("tick %d: enemy %d of wave %d left the trunk for the north"):format(t, h, e.wave))
      end
      S.last[h] = where
    end
  end
end)
td.on("wave_end", function(e)
  local S = td.state.cost.seen
  print(("wave %d: trunk %d north %d south %d"):format(e.wave, S["trunk" .. e.wave] or 0,
    S["north" .. e.wave] or 0, S["south" .. e.wave] or 0))
end)
LUA

# nobody builds: the route is the map's, then the mud's
expect "idle" 0 "" -- "$td" sim --map "$map" --mod "$mud" --idle --ticks 7300 --json
python3 - "$tmp/out" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
log = d["log"]
assert d["script_errors"] == [], d["script_errors"]
assert "tick 2750: mud on the trunk, factor 4" in log, log
waves = {}
for line in log:
    m = re.match(r"wave (\d+): trunk (\d+) north (\d+) south (\d+)$", line)
    if m:
        waves[int(m[1])] = tuple(int(x) for x in m.groups()[1:])
assert waves[1][0] > 0 and waves[1][1] == 0 and waves[1][2] == 0, waves  # the trunk
assert waves[2][0] > 0 and waves[2][1] > 0, waves                        # on it, then round it
assert waves[3][0] == 0 and waves[3][1] > 0 and waves[3][2] == 0, waves  # the north road only
turned = [l for l in log if "left the trunk for the north" in l and "of wave 2" in l]
assert len(turned) == 2, log                                             # both grunts, in flight
PY
check $? "idle: the enemies did not re-route round the mud: $(head -c 600 "$tmp/out")"

# the change is in the checksum: the same game without it parts at the change
plain=$tmp/plain
cp -r "$mud" "$plain"
sed -i 's/    td.set_cost { path = 1, factor = 4 }/    -- no mud/' "$plain/mod.lua"
"$td" sim --map "$map" --mod "$plain" --idle --ticks 7300 --json >"$tmp/plain.json" 2>/dev/null
check $? "plain: the game failed"
python3 - "$tmp/out" "$tmp/plain.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ca = {c["tick"]: c["checksum"] for c in a["checksums"]}
cb = {c["tick"]: c["checksum"] for c in b["checksums"]}
assert all(ca[t] == cb[t] for t in ca if t < 2750), "parted before the change"
assert all(ca[t] != cb[t] for t in ca if t > 2750), "the change is not in the checksum"
PY
check $? "plain: the checksums do not part at the change"

# saved before and after the change, loaded under --auto: the same game
"$td" sim --map "$map" --mod "$mud" --auto --ticks 9000 --json >"$tmp/full.json" 2>/dev/null
check $? "auto: the full game failed"
for at in 1500 4500; do
  "$td" sim --map "$map" --mod "$mud" --auto --ticks $((at + 1)) --save-at "$at" --save "$tmp/s.tds" \
    --quiet >/dev/null 2>&1
  check $? "auto: saving at $at failed"
  "$td" sim --map "$map" --mod "$mud" --load "$tmp/s.tds" --auto --ticks $((9000 - at)) --json \
    >"$tmp/load.json" 2>/dev/null
  check $? "auto: loading the save of $at failed"
  same_game "auto: the game saved at $at" "$tmp/full.json" "$tmp/load.json" 5
done

# the example of docs/modding.md ("Mud and bridges") plays as it says
doc=$tmp/doc
cp -r "$src/scripts/base" "$doc"
awk '/^### Mud and bridges/ { on = 1 } on && /^```lua/ { lua = 1; next }
     lua && /^```/ { exit } lua { print }' "$src/docs/modding.md" >>"$doc/mod.lua"
grep -q "td.set_cost { path = 1, factor = 4 }" "$doc/mod.lua"; check $? "doc: no example found"
expect "doc" 0 "" -- "$td" sim --map "$map" --mod "$doc" --idle --ticks 4500 --strict
grep -qx "print: wave 3: mud on the trunk (factor 4)" "$tmp/err"
check $? "doc: the example did not lay its mud: $(head -c 300 "$tmp/err")"

# a grid map: a tile's cost, named by column and row or by a point in it
grid=$tmp/grid
cp -r "$src/scripts/base" "$grid"
cat >>"$grid/mod.lua" <<'LUA'
td.on("spawn", function(e)
  if td.state.tile then return end
  local col, row = math.floor(e.x / td.tile()), math.floor(e.y / td.tile())
  td.set_cost { at = { e.x, e.y }, factor = 7 }
  td.state.tile = { col, row }
  print(("tile {%d, %d}: %g, at: %g, next: %g"):format(col, row, td.cost { tile = { col + 0.0, row } },
    td.cost { at = { e.x, e.y } }, td.cost { tile = { col + 1, row } }))
  td.set_cost { tile = { col, row }, factor = 0.5 }
  print(("then %g"):format(td.cost { tile = { col, row } }))
end)
LUA
expect "grid" 0 "" -- "$td" sim --map "$src/maps/02-grid.tmx" --mod "$grid" --idle --ticks 900 --strict
grep -qE "^print: tile \{[0-9]+, [0-9]+\}: 7, at: 7, next: 1$" "$tmp/err"
check $? "grid: a tile's cost not set or read: $(head -c 300 "$tmp/err")"
grep -qx "print: then 0.5" "$tmp/err"; check $? "grid: a tile's cost not changed again"

# bad calls: each stops its handler with what is wrong; the game goes on
bad=$tmp/bad
cp -r "$src/scripts/base" "$bad"
cat >>"$bad/mod.lua" <<'LUA'
td.every(600, function() td.set_cost { path = 99, factor = 2 } end)
td.every(600, function() td.set_cost { path = 1, factor = 0 } end)
td.every(600, function() td.set_cost { path = 1 } end)
td.every(600, function() td.set_cost { tile = { 1, 2 }, factor = 2 } end)
td.every(600, function() td.set_cost { path = 1, at = { 0, 0 }, factor = 2 } end)
td.every(600, function() td.set_cost { factor = 2 } end)
td.every(600, function() td.set_cost(3) end)
td.every(600, function() td.cost { at = { 1, "x" } } end)
td.every(600, function() for i = 1, 100 do td.set_cost { path = 5, factor = 1 + i } end end)
LUA
expect "bad" 1 "" -- "$td" sim --map "$map" --mod "$bad" --idle --ticks 700 --strict --json
python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
got = [e["message"].split(": ", 1)[1] for e in d["script_errors"]]
want = [
    "td.set_cost: no path object 99 on this map (its paths are objects 1, 2, 3, 4, 5, 6)",
    "td.set_cost: factor must be > 0 and <= 1000, is 0",
    "td.set_cost: factor: expected a number in (0, 1000], got nothing",
    "td.set_cost: tile: this is a waypoint map: name a path (path = object id) or a point (at = {x, y})",
    "td.set_cost: give one of path, tile and at, not both path and at",
    "td.set_cost: give one of path (a path object's id), tile = {col, row} or at = {x, y}",
    "td.set_cost: expected a table {path = id | tile = {col, row} | at = {x, y}, factor = number}, got number",
    "td.cost: at: expected {x, y} (numbers), item 2 is string",
    "td.set_cost: more than 64 cost changes in one step",
]
assert got == want, "\n".join(got)
assert d["ticks"] == 700, d["ticks"]
PY
check $? "bad: the errors are not the expected ones: $(head -c 1500 "$tmp/out")"

finish
