#!/usr/bin/env bash
# td sim: a wave arrives in its lanes, runs are deterministic, a mid-run
# block or tower changes the run and everyone still arrives, mixed speeds
# overtake, flyers, the grid map, the trace and the picture, and every error
# path (exit status and message).
set -u
source "$(dirname "$0")/harness.bash"
map=$src/maps/01-crossroads.tmx

# field FILE KEY: a top-level scalar of the JSON in FILE (the first match)
field() { grep -o "\"$2\":[^,}]*" "$1" | head -n 1 | cut -d: -f2 | tr -d '"'; }
positive() { awk -v v="$1" 'BEGIN { exit !(v + 0 > 0) }'; }

# a wave of 20 arrives, apart and in its lanes
expect "wave" 0 "" -- "$td" sim --map "$map" --spawn count=20 --json
cp "$tmp/out" "$tmp/wave.json"
[ "$(field "$tmp/wave.json" leaks)" = 20 ]; check $? "wave: leaks 20 ($(field "$tmp/wave.json" leaks))"
[ "$(field "$tmp/wave.json" spawned)" = 20 ]; check $? "wave: spawned 20"
[ "$(field "$tmp/wave.json" ended)" = arrived ]; check $? "wave: ended arrived"
positive "$(field "$tmp/wave.json" min_gap)"; check $? "wave: min_gap > 0 ($(field "$tmp/wave.json" min_gap))"
[ "$(field "$tmp/wave.json" lane_swaps)" = 0 ]; check $? "wave: lane_swaps 0"
[ "$(grep -oE '"time_to_goal":[0-9.]+' "$tmp/wave.json" | wc -l)" -eq 20 ]
check $? "wave: a time_to_goal per agent"
grep -qE '"checksum":"[0-9a-f]{16}"' "$tmp/wave.json"; check $? "wave: checksum"
ticks=$(field "$tmp/wave.json" ticks)
[ "$ticks" -gt 600 ] && [ "$ticks" -lt 3000 ]; check $? "wave: ticks $ticks plausible"

# the same run twice: the same checksum; a mid-run block: another one
expect "again" 0 "" -- "$td" sim --map "$map" --spawn count=20 --json
[ "$(field "$tmp/out" checksum)" = "$(field "$tmp/wave.json" checksum)" ]
check $? "again: same checksum"
expect "block" 0 "" -- "$td" sim --map "$map" --spawn count=20 --block-edge 3,4@360 --json
[ "$(field "$tmp/out" checksum)" != "$(field "$tmp/wave.json" checksum)" ]
check $? "block: different checksum"
[ "$(field "$tmp/out" leaks)" = 20 ]; check $? "block: everyone still arrives"
[ "$(field "$tmp/out" ticks)" -gt "$ticks" ]; check $? "block: the detour takes longer"
grep -q '"events":\[{"kind":"block_edge","tick":360,"nodes":\[3,4\],"applied":true}\]' "$tmp/out"
check $? "block: event listed"

# the text report: aligned, with the checksum of the JSON run
expect "text" 0 "" -- "$td" sim --map "$map" --spawn count=20
grep -qE "^agents +20 spawned, 20 leaked, 0 stranded, 0 still out$" "$tmp/out"; check $? "text: agents"
grep -qE "^lane_swaps +0$" "$tmp/out"; check $? "text: lane_swaps"
grep -qE "^time_to_goal +mean [0-9.]+ s, max [0-9.]+ s$" "$tmp/out"; check $? "text: time_to_goal"
grep -qE "^checksum +$(field "$tmp/wave.json" checksum)$" "$tmp/out"; check $? "text: checksum"

# a tower mid-run is placed and the wave detours; towers that would cut the
# spawn off are refused, reported, and the run goes on
expect "tower" 0 "" -- "$td" sim --map "$map" --spawn count=20 --tower 9@120 --json
grep -q '{"kind":"tower","tick":120,"id":9,"placed":true}' "$tmp/out"; check $? "tower: placed"
[ "$(field "$tmp/out" leaks)" = 20 ]; check $? "tower: everyone arrives"
args=(); for t in 9 10 11 12 13 14 15 16 17; do args+=(--tower "$t@0"); done
"$td" sim --map "$map" --spawn count=5 "${args[@]}" --json >"$tmp/out" 2>"$tmp/err"
check $? "refused: exit $?"
grep -q "td: $map: object 12 (tower_base): refused at tick 0: it would cut spawn object 7 (node 0) off from every goal" "$tmp/err"
check $? "refused: stderr names base 12: $(head -n 1 "$tmp/err")"
grep -q '"id":12,"placed":false,"cut_node":0,"cut_spawn":7' "$tmp/out"; check $? "refused: in JSON"
[ "$(field "$tmp/out" leaks)" = 5 ]; check $? "refused: the run goes on"

# --seed jitters speeds: reproducible, and another run than without it
expect "seed" 0 "" -- "$td" sim --map "$map" --spawn count=20 --seed 7 --json
s7=$(field "$tmp/out" checksum)
[ "$(field "$tmp/out" leaks)" = 20 ]; check $? "seed: everyone arrives"
expect "seed again" 0 "" -- "$td" sim --map "$map" --spawn count=20 --seed 7 --json
[ "$(field "$tmp/out" checksum)" = "$s7" ]; check $? "seed: same seed, same checksum"
[ "$s7" != "$(field "$tmp/wave.json" checksum)" ]; check $? "seed: differs from seed 0"

# trace: header, one row per live agent per tick, up to the last tick
expect "trace" 0 "" -- "$td" sim --map "$map" --spawn count=20 --trace "$tmp/t.csv" --json
[ "$(head -n 1 "$tmp/t.csv")" = "tick,agent,group,x,y,vx,vy,state" ]; check $? "trace: header"
rows=$(($(wc -l <"$tmp/t.csv") - 1))
[ "$rows" -gt "$((20 * 600))" ]; check $? "trace: $rows rows"
[ "$(awk -F, '$1 == 1' "$tmp/t.csv" | wc -l)" -eq 20 ]; check $? "trace: 20 agents at tick 1"
[ "$(tail -n 1 "$tmp/t.csv" | cut -d, -f1)" = "$(field "$tmp/out" ticks)" ]; check $? "trace: last tick"
[ "$(grep -c ',leaked$' "$tmp/t.csv")" -eq 20 ]; check $? "trace: 20 leak rows"

# picture: a PNG of plausible size
expect "png" 0 "" -- "$td" sim --map "$map" --spawn count=20 --tower 9@120 --png "$tmp/p.png"
[ "$(head -c 8 "$tmp/p.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
check $? "png: signature"
size=$(wc -c <"$tmp/p.png")
[ "$size" -gt 10000 ] && [ "$size" -lt 3000000 ]; check $? "png: size $size"

# mixed speeds: the fast wave, spawned later, overtakes and arrives first
expect "mixed" 0 "" -- "$td" sim --map "$map" --spawn count=6,speed=1.5t --spawn count=6,speed=80,tick=120 --json
[ "$(field "$tmp/out" leaks)" = 12 ]; check $? "mixed: leaks 12"
positive "$(field "$tmp/out" min_gap)"; check $? "mixed: min_gap > 0 ($(field "$tmp/out" min_gap))"
grep -o '"wave":[0-9]*,[^}]*"spawn_tick":[0-9]*,"time_to_goal":[0-9.]*' "$tmp/out" |
  sed -E 's/"wave":([0-9]+),.*"spawn_tick":([0-9]+),"time_to_goal":([0-9.]+)/\1 \2 \3/' |
  awk '{ t = $2 / 60 + $3; if ($1 == 0 && (s == "" || t < s)) s = t; if ($1 == 1 && t > f) f = t }
       END { exit !(NR == 12 && f < s) }'
check $? "mixed: the fast wave arrives first"

# flyers cross the map around a tower and arrive
expect "flyers" 0 "" -- "$td" sim --map "$map" --spawn count=5,fly=1 --tower 9@0 --json
[ "$(field "$tmp/out" leaks)" = 5 ]; check $? "flyers: leaks 5"
grep -q '"fly":true' "$tmp/out"; check $? "flyers: marked"
expect "flyers text" 0 "" -- "$td" sim --map "$map" --spawn count=4,fly=1 --spawn count=6 --png "$tmp/f.png"
grep -qE "^agents +10 spawned, 10 leaked" "$tmp/out"; check $? "flyers and walkers: all arrive"

# the grid map
expect "grid" 0 "" -- "$td" sim --map "$src/maps/02-grid.tmx" --spawn count=20 --json
[ "$(field "$tmp/out" leaks)" = 20 ]; check $? "grid: leaks 20"
positive "$(field "$tmp/out" min_gap)"; check $? "grid: min_gap > 0"

# units: tiles with a t suffix are tile_w map units (32 on this map)
expect "tiles" 0 "" -- "$td" sim --map "$map" --spawn count=1,speed=2t --json
a=$(field "$tmp/out" ticks)
expect "pixels" 0 "" -- "$td" sim --map "$map" --spawn count=1,speed=64 --json
[ "$(field "$tmp/out" ticks)" = "$a" ]; check $? "tiles: 2t = 64 units"

# a wave spawned where no route leads (events apply before waves spawn, so
# the only way out is blocked when it comes) waits, stranded; with nothing
# pending the run ends at once
expect "stranded" 0 "" -- "$td" sim --map "$map" --spawn count=3 --block-edge 0,1@0 --json
[ "$(field "$tmp/out" ended)" = stranded ]; check $? "stranded: ended"
[ "$(field "$tmp/out" stranded)" = 3 ]; check $? "stranded: 3"
[ "$(field "$tmp/out" ticks)" -lt 600 ]; check $? "stranded: stops early"

# the tick limit
expect "limit" 0 "" -- "$td" sim --map "$map" --spawn count=20 --ticks 100 --json
[ "$(field "$tmp/out" ticks)" = 100 ] && [ "$(field "$tmp/out" ended)" = tick_limit ]
check $? "limit: 100 ticks"

# bad usage and bad input
expect "no spawn" 2 "sim: at least one --spawn SPEC is required" -- "$td" sim --map "$map"
expect "no map" 2 "sim: --map FILE is required" -- "$td" sim --spawn count=3
expect "bad key" 2 "--spawn count=20,foo=1: unknown key 'foo' (keys: count," -- "$td" sim --map "$map" --spawn count=20,foo=1
expect "count 0" 2 "--spawn count=0: count must be 1 to" -- "$td" sim --map "$map" --spawn count=0
expect "no count" 2 "--spawn per_row=2: count is required" -- "$td" sim --map "$map" --spawn per_row=2
expect "bad number" 2 "--spawn count=5,speed=fast: speed: 'fast' is not a number" -- "$td" sim --map "$map" --spawn count=5,speed=fast
expect "negative" 2 "--spawn count=5,radius=-1: radius must be positive" -- "$td" sim --map "$map" --spawn count=5,radius=-1
expect "no value" 2 "--spawn count: expected key=value, got 'count'" -- "$td" sim --map "$map" --spawn count
expect "twice" 2 "count given twice" -- "$td" sim --map "$map" --spawn count=5,count=3
expect "bad fly" 2 "fly: '2' must be 0 or 1" -- "$td" sim --map "$map" --spawn count=5,fly=2
expect "bad spawn" 2 "--spawn count=5,spawn=3: spawn 3: $map has 1 spawn (0 to 0)" -- "$td" sim --map "$map" --spawn count=5,spawn=3
expect "unknown node" 2 "--block-edge 1,99@10: unknown node 99 (the map has 13 nodes)" -- "$td" sim --map "$map" --spawn count=5 --block-edge 1,99@10
expect "no edge" 2 "--block-edge 0,6@4: no edge joins nodes 0 and 6" -- "$td" sim --map "$map" --spawn count=5 --block-edge 0,6@4
expect "bad pair" 2 "--block-edge 1-2@4: expected two node ids and a tick, I,J@TICK" -- "$td" sim --map "$map" --spawn count=5 --block-edge 1-2@4
expect "bad tick" 2 "--block-edge 1,2@soon: bad tick 'soon'" -- "$td" sim --map "$map" --spawn count=5 --block-edge 1,2@soon
expect "negative tick" 2 "--tower 9@-1: bad tick '-1'" -- "$td" sim --map "$map" --spawn count=5 --tower 9@-1
expect "unknown tower" 2 "--tower 4@10: $map has no tower_base with that object id" -- "$td" sim --map "$map" --spawn count=5 --tower 4@10
expect "tower twice" 2 "--tower 9@20: base 9 already gets a tower (--tower 9@10)" -- "$td" sim --map "$map" --spawn count=5 --tower 9@10 --tower 9@20
expect "missing file" 2 "nope.lua: cannot open" -- "$td" sim --map "$tmp/nope.lua" --spawn count=5
expect "bad ticks" 2 "--ticks: '0' is out of range (1 .. 1099511627776)" -- "$td" sim --map "$map" --spawn count=5 --ticks 0
expect "unknown arg" 2 "sim: unknown argument '--frobnicate'" -- "$td" sim --map "$map" --spawn count=5 --frobnicate
expect "missing value" 2 "sim: --spawn needs a value" -- "$td" sim --map "$map" --spawn
expect "bad trace" 2 "$tmp/no/t.csv: cannot write" -- "$td" sim --map "$map" --spawn count=5 --trace "$tmp/no/t.csv"
expect "bad png" 2 "$tmp/no/p.png: cannot write" -- "$td" sim --map "$map" --spawn count=5 --png "$tmp/no/p.png"

expect "help" 0 "" -- "$td" sim --help
grep -q "usage: td sim --map FILE --spawn SPEC" "$tmp/out"; check $? "help: usage on stdout"
grep -q "per_row=N" "$tmp/out"; check $? "help: documents the SPEC keys"
expect "listed" 0 "" -- "$td" --help
grep -qE "^  sim " "$tmp/out"; check $? "td --help lists sim"

# regressions: mid-wave blocks where agents turn back and meet wave-mates
# head-on at a junction (they once stopped each other for good)
for ev in "--block-edge 3,4@240" "--block-edge 2,3@240" "--block-edge 1,2@240" "--tower 9@240"; do
  "$td" sim --map "$map" --spawn count=20 $ev --json >"$tmp/out" 2>"$tmp/err"
  check $? "regression $ev: exit 0 ($(cat "$tmp/err"))"
  grep -q '"ended":"arrived","spawned":20,"leaks":20' "$tmp/out"; check $? "regression $ev: all 20 arrive"
  grep -qE '"min_gap":[0-9]' "$tmp/out"; check $? "regression $ev: min_gap > 0"
done
# a wave that spawns after tick 0 (the first ticks have no agent at all)
"$td" sim --map "$map" --spawn count=3,tick=10 --json >"$tmp/out" 2>"$tmp/err"
check $? "late wave: exit 0 ($(cat "$tmp/err"))"
grep -q '"leaks":3' "$tmp/out"; check $? "late wave: 3 arrive"
# the spawn cut off mid-wave: agents on the blocked edge wait, never walk through
"$td" sim --map "$map" --spawn count=10 --block-edge 0,1@60 >"$tmp/out" 2>"$tmp/err"
check $? "cut off: exit 0 ($(cat "$tmp/err"))"
grep -qE "^agents +10 spawned, 0 leaked, 10 stranded, 0 still out" "$tmp/out"; check $? "cut off: 10 stranded ($(grep agents "$tmp/out"))"

finish
