#!/usr/bin/env bash
# Enemies keep to the road (issue 16), where users look at it: whole games.
# Every --auto game of the bundled maps 01..05 on every difficulty (and
# --idle on normal) ends, and no ground enemy's disc ever leaves the walkable
# area (off_road 0: the road, a grid's open cells, less blocking towers).
# 06-expanse (256x256, minutes a game) plays its first ten waves here.
# td sim waves start on the map: a trace of a wave five abreast on the
# one-tile serpent never has a body outside the map or off the road.
set -u
source "$(dirname "$0")/harness.bash"

game() { # NAME ARGS...: one game, JSON in $tmp/$NAME.json
  local name=$1
  shift
  "$td" sim "$@" --json >"$tmp/$name.json" 2>"$tmp/$name.err"
  echo $? >"$tmp/$name.rc"
}

jobs=()
for m in 01-crossroads 02-grid 03-serpent 04-foundry 05-twin; do
  for d in easy normal hard; do
    jobs+=("$m-$d-auto --map $src/maps/$m.tmx --auto --difficulty $d")
  done
  jobs+=("$m-normal-idle --map $src/maps/$m.tmx --idle")
done
jobs+=("06-expanse-normal-auto --map $src/maps/06-expanse.tmx --auto --ticks $(((20 + 35 * 10) * 60))")

# two at a time (the machine has two cores)
running=0
for j in "${jobs[@]}"; do
  # shellcheck disable=SC2086
  game $j &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

for j in "${jobs[@]}"; do
  name=${j%% *}
  [ "$(cat "$tmp/$name.rc")" = 0 ]; check $? "$name: exit $(cat "$tmp/$name.rc") ($(head -c 200 "$tmp/$name.err"))"
  grep -q '"off_road":0,"off_road_depth":0,' "$tmp/$name.json"
  check $? "$name: off the road: $(grep -o '"off_road":[0-9]*,"off_road_depth":[0-9.e+-]*' "$tmp/$name.json")"
  case $name in
    06-*) grep -q '"result":"playing"' "$tmp/$name.json"; check $? "$name: ended early" ;;
    *) grep -qE '"result":"(won|lost)"' "$tmp/$name.json"; check $? "$name: did not end: $(grep -o '"result":"[a-z]*","ticks":[0-9]*' "$tmp/$name.json")" ;;
  esac
done
# the built-in player still wins every map on normal
for m in 01-crossroads 02-grid 03-serpent 04-foundry 05-twin; do
  grep -q '"result":"won"' "$tmp/$m-normal-auto.json"; check $? "$m: --auto does not win on normal"
done

# a wave five abreast on the one-tile serpent: it enters at the spawn, row by
# row and then one by one; no trace row outside the map (24 x 21 tiles of 32)
"$td" sim --map "$src/maps/03-serpent.tmx" --spawn count=30,per_row=5,width=2t \
  --trace "$tmp/t.csv" >"$tmp/out" 2>"$tmp/err"
check $? "serpent wave: exit ($(cat "$tmp/err"))"
grep -q "^off_road  *0 agent-ticks" "$tmp/out"; check $? "serpent wave: $(grep off_road "$tmp/out")"
grep -q "^agents  *30 spawned, 30 leaked" "$tmp/out"; check $? "serpent wave: $(grep agents "$tmp/out")"
w=$(grep -o '<map [^>]* width="[0-9]*"' "$src/maps/03-serpent.tmx" | grep -o 'width="[0-9]*"' | grep -o '[0-9]*')
h=$(grep -o '<map [^>]* height="[0-9]*"' "$src/maps/03-serpent.tmx" | grep -o 'height="[0-9]*"' | grep -o '[0-9]*')
[ "$w" = 24 ] && [ "$h" = 21 ]; check $? "serpent: the map's size read as ${w}x${h}"
awk -F, -v W=$((w * 32)) -v H=$((h * 32)) 'NR > 1 && $8 != "waiting" && ($4 < 0 || $4 > W || $5 < 0 || $5 > H) { bad++ } END { exit bad > 0 }' "$tmp/t.csv"
check $? "serpent wave: a body outside the map in the trace"
grep -q ',waiting$' "$tmp/t.csv"; check $? "serpent wave: nobody waited at the gate"

finish
