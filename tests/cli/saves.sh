#!/usr/bin/env bash
# Saves continue the game exactly (issue 18): on every bundled map, under
# --auto and --idle, a game saved at three points and loaded goes on with the same
# checksums, kills and leaks as the uninterrupted one (the built-in
# player's memory and the mod's td.state ride in the save); the same with
# the tutorial (its beetle counter pays gold) and with a mod whose bonus
# per kill grows in td.state. A td.state holding a function is refused
# with its path, and the previous save survives.
set -u
source "$(dirname "$0")/harness.bash"

# game NAME MAP MOD TICKS SAVE-POINTS... (the player: $player, --auto)
player=--auto
game() {
  local name="$1 $player" map=$2 mod=$3 ticks=$4
  shift 4
  "$td" sim --map "$map" --mod "$mod" $player --ticks "$ticks" --json >"$tmp/full.json" 2>/dev/null
  check $? "$name: the full game failed"
  for at in "$@"; do
    "$td" sim --map "$map" --mod "$mod" $player --ticks $((at + 1)) --save-at "$at" --save "$tmp/s.tds" \
      --quiet >/dev/null 2>&1
    check $? "$name: saving at $at failed"
    "$td" sim --map "$map" --mod "$mod" --load "$tmp/s.tds" $player --ticks $((ticks - at)) --json \
      >"$tmp/load.json" 2>/dev/null
    check $? "$name: loading the save of $at failed"
    same_game "$name saved at $at" "$tmp/full.json" "$tmp/load.json"
  done
}

for map in "$src"/maps/*.tmx; do
  game "$(basename "$map" .tmx)" "$map" "$src/scripts/base" 9000 1500 4500 7500
done
game tutorial "$src/maps/03-serpent.tmx" "$src/scripts/tutorial" 9000 1500 4500 7500
# nobody building: the same, on every map
player=--idle
for map in "$src"/maps/*.tmx; do
  game "$(basename "$map" .tmx)" "$map" "$src/scripts/base" 6000 1500 3000 4500
done
game tutorial "$src/maps/03-serpent.tmx" "$src/scripts/tutorial" 6000 1500 3000 4500
player=--auto

# a per-kill bonus that grows, kept in nested tables of td.state
mod=$tmp/bonus
cp -r "$src/scripts/base" "$mod"
cat >>"$mod/mod.lua" <<'LUA'
td.state.bonus = { per_kill = 1, paid = 0, by_wave = {} }
td.on("kill", function(e)
  local b = td.state.bonus
  td.give_gold(b.per_kill)
  b.paid = b.paid + b.per_kill
  b.per_kill = b.per_kill + 0.5
  local w = td.current_wave()
  b.by_wave[w] = (b.by_wave[w] or 0) + 1
end)
LUA
game bonus "$src/maps/01-crossroads.tmx" "$mod" 9000 1500 4500 7500

# a wave script saved while it runs (spawning, waiting, in its loop on the
# brute, math.random): replayed from its tape after the load, it goes on
# exactly as it was
waves=$src/tests/data/mods/script_waves
game "wave script" "$src/maps/01-crossroads.tmx" "$waves" 5000 1950 2100 2400 3000 4000
"$td" sim --map "$src/maps/01-crossroads.tmx" --mod "$waves" --auto --ticks 2401 --save-at 2400 \
  --save "$tmp/w.tds" --quiet >/dev/null 2>&1
"$td" sim --map "$src/maps/01-crossroads.tmx" --mod "$waves" --load "$tmp/w.tds" --auto --json \
  >"$tmp/w.json" 2>"$tmp/w.err"
check $? "wave script: the loaded game failed: $(head -c 300 "$tmp/w.err")"
grep -q '"log":\[[^]]*"script of wave 2 done at tick 4289: 14 escorts"' "$tmp/w.json"
check $? "wave script: the loaded game's script did not finish as the saved one's: $(grep -o '"log":.*' "$tmp/w.json" | head -c 300)"

# what cannot be saved: refused with its path; the previous save is intact
bad=$tmp/bad
cp -r "$src/scripts/base" "$bad"
cat >>"$bad/mod.lua" <<'LUA'
td.state.towers = { {}, {}, { fn = function() end } }
LUA
echo "previous" >"$tmp/keep.tds"
expect "function in td.state" 2 "td.state.towers[3].fn: a function cannot be saved" -- \
  "$td" sim --map "$src/maps/01-crossroads.tmx" --mod "$bad" --auto --ticks 700 --save-at 600 \
  --save "$tmp/keep.tds" --quiet
[ "$(cat "$tmp/keep.tds")" = previous ]; check $? "function in td.state: the previous save changed"

finish
