#!/usr/bin/env bash
# td route: output, blocks, tower placement and refusal, and every error
# path (exit status and message).
set -u
source "$(dirname "$0")/harness.bash"
map=$src/maps/01-crossroads.tmx

# the plain route: the spawn walks the straight road, 864 units
expect "plain" 0 "" -- "$td" route --map "$map"
grep -q "route from spawn 0 (object 7, node 0): 0 -> 1 -> 2 -> 3 -> 4 -> 5 -> 6  (length 864.0000)" "$tmp/out"
check $? "plain: route line"
grep -qE "^ +6 +912.00 +336.00 +0.0000 +goal$" "$tmp/out"; check $? "plain: goal row"

# JSON has every node, null-free when everything is reachable
expect "json" 0 "" -- "$td" route --map "$map" --json
[ "$(grep -o '"id":' "$tmp/out" | wc -l)" -eq 13 ]; check $? "json: 13 nodes"
grep -q '"routes":\[{"spawn":0,"path":\[0,1,2,3,4,5,6\],"length":864}\]' "$tmp/out"; check $? "json: routes"
grep -q '"goals":\[6\]' "$tmp/out"; check $? "json: goals"

# blocking the road 2-3 detours through the northern or southern branch
expect "block" 0 "" -- "$td" route --map "$map" --block-edge 2,3 --json
grep -q '"path":\[0,1,7,8,9,5,6\]' "$tmp/out"; check $? "block: detour"

# cutting every way out leaves the spawn unreachable: null dist and next
expect "cut" 0 "" -- "$td" route --map "$map" --block-edge 0,1 --json
grep -q '{"id":0,"x":48,"y":336,"dist":null,"next":null}' "$tmp/out"; check $? "cut: null"
grep -q '"path":\[\],"length":null' "$tmp/out"; check $? "cut: empty route"

# a tower on base 9 closes the road; all towers at once are refused
expect "tower" 0 "" -- "$td" route --map "$map" --tower 9
grep -q "0 -> 1 -> 7 -> 8 -> 9 -> 5 -> 6  (length 1101.3251)" "$tmp/out"; check $? "tower: detour"
args=(); for t in 9 10 11 12 13 14 15 16 17; do args+=(--tower "$t"); done
expect "refused" 1 "object 12 (tower_base): refused: it would cut spawn object 7 (node 0) off from every goal" \
  -- "$td" route --map "$map" "${args[@]}"
[ ! -s "$tmp/out" ]; check $? "refused: nothing printed on stdout"

# bad usage and bad input
expect "no map" 2 "route: --map FILE is required" -- "$td" route
expect "missing value" 2 "route: --map needs a value" -- "$td" route --map
expect "unknown arg" 2 "route: unknown argument '--frobnicate'" -- "$td" route --map "$map" --frobnicate
expect "missing file" 2 "nope.lua: cannot open" -- "$td" route --map "$tmp/nope.lua"
expect "bad pair" 2 "--block-edge 1-2: expected two node ids, I,J" -- "$td" route --map "$map" --block-edge 1-2
expect "unknown node" 2 "--block-edge 1,99: unknown node 99 (the map has 13 nodes)" -- "$td" route --map "$map" --block-edge 1,99
expect "no edge" 2 "--block-edge 0,6: no edge joins nodes 0 and 6" -- "$td" route --map "$map" --block-edge 0,6
expect "unknown tower" 2 "--tower 4: $map has no tower_base with that object id" -- "$td" route --map "$map" --tower 4
expect "negative node" 2 "--block-edge -1,2: expected two node ids, I,J" -- "$td" route --map "$map" --block-edge -1,2
expect "self loop" 2 "--block-edge 3,3: no edge joins nodes 3 and 3" -- "$td" route --map "$map" --block-edge 3,3
expect "bad tower" 2 "--tower x: expected a tower_base object id" -- "$td" route --map "$map" --tower x

printf 'return {' >"$tmp/broken.lua"
expect "syntax error" 2 "broken.lua" -- "$td" route --map "$tmp/broken.lua"
printf 'return { orientation = "orthogonal", width = 4, height = 4, tilewidth = 32, tileheight = 32, layers = { { type = "objectgroup", name = "g", objects = { { id = 1, type = "path", shape = "polyline", x = 0, y = 0, polyline = { { x = 0, y = 0 }, { x = 64, y = 0 } } }, { id = 2, type = "spawn", shape = "point", x = 0, y = 0 } } } } }' >"$tmp/nogoal.lua"
expect "no goal" 2 "goal" -- "$td" route --map "$tmp/nogoal.lua"

expect "unreachable spawn" 2 "bad_unreachable.lua: object 5 (spawn): cannot reach any goal" \
  -- "$td" route --map "$src/tests/data/maps/bad_unreachable.lua"
expect "spawn off the paths" 2 "bad_spawn_off.lua: object 2 (spawn): not on any path vertex" \
  -- "$td" route --map "$src/tests/data/maps/bad_spawn_off.lua"
expect "grid map" 0 "" -- "$td" route --map "$src/maps/02-grid.tmx"
grep -q "(grid)" "$tmp/out"; check $? "grid map: says grid"
grep -q "route from spawn 0" "$tmp/out" && ! grep -q "unreachable" "$tmp/out"; check $? "grid map: spawn routed"

expect "help" 0 "" -- "$td" route --help
grep -q "usage: td route --map FILE" "$tmp/out"; check $? "help: usage on stdout"
expect "unknown command" 2 "unknown command 'rout'" -- "$td" rout

finish
