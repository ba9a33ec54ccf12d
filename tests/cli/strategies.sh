#!/usr/bin/env bash
# The built-in player's strategies (td sim --strategy; docs/cli.md#auto) and
# the per-game records of td sim --json a balance sweep aggregates: each
# strategy plays 01-crossroads and 02-grid to the end; the records agree
# with the totals (kills by tower type sum to the kills, leaks by enemy
# type to the leaks, the curves end at the end's gold and lives, one
# sample every curve_every ticks); a bad name is refused with the list; a
# save of the default player made before strategies existed still loads.
set -u
source "$(dirname "$0")/harness.bash"

map1=$src/maps/01-crossroads.tmx
expect "bad name" 2 "sim: unknown strategy 'bogus' (default, maze, economy, random)" -- \
  "$td" sim --map "$map1" --strategy bogus
expect "bad name with --auto" 2 "unknown strategy 'Maze'" -- "$td" sim --map "$map1" --auto --strategy Maze
expect "no name" 2 "sim: --strategy needs a value" -- "$td" sim --map "$map1" --auto --strategy
expect "strategy and idle" 2 "choose one player" -- "$td" sim --map "$map1" --idle --strategy maze
expect "strategy and replay" 2 "choose one player" -- \
  "$td" sim --strategy maze --replay "$src/tests/data/replays/crossroads-auto.replay"

# records NAME FILE STRATEGY: the JSON's records agree with its totals
records() {
  python3 - "$2" "$3" "$src" <<'PY'
import json, sys
raw = open(sys.argv[1]).read()
assert raw.count("\n") == 1, "not one line"
d = json.loads(raw)
assert d["strategy"] == sys.argv[2], d["strategy"]
assert d["result"] in ("won", "lost"), d["result"]
every = d["curve_every"]
assert every == 600 and d["curve_from"] == 0, (every, d["curve_from"])
n = d["ticks"] // every + 1 + (d["ticks"] % every != 0)
for c in ("gold_curve", "lives_curve"):
    assert len(d[c]) == n, "%s: %d samples, expected %d" % (c, len(d[c]), n)
    assert all(isinstance(v, int) and v >= 0 for v in d[c]), c
assert d["gold_curve"][-1] == d["gold"] and d["lives_curve"][-1] == d["lives"]
assert d["lives_curve"][0] == d["start_lives"]
k = d["kills_by_tower"]
assert list(k)[-1] == "none", list(k)
assert sum(k.values()) == d["kills"], (k, d["kills"])
assert sum(d["leaks_by_enemy"].values()) == d["leaks"], (d["leaks_by_enemy"], d["leaks"])
# the rules' order: the bundled mod declares arrow before cannon, runner first
assert list(k)[:2] == ["arrow", "cannon"], list(k)
assert list(d["leaks_by_enemy"])[0] == "runner", list(d["leaks_by_enemy"])
assert d["kills"] > 0 and d["built"] > 0
PY
  check $? "$1: the records disagree with the game"
}

for map in 01-crossroads 02-grid; do
  for s in default maze economy random; do
    expect "$map $s" 0 "" -- "$td" sim --map "$src/maps/$map.tmx" --strategy "$s" --json
    cp "$tmp/out" "$tmp/$map-$s.json"
    records "$map $s" "$tmp/$map-$s.json" "$s"
  done
  # --auto alone is the default strategy, and --strategy default is --auto
  expect "$map auto" 0 "" -- "$td" sim --map "$src/maps/$map.tmx" --auto --json
  cmp -s "$tmp/out" "$tmp/$map-default.json"; check $? "$map: --auto differs from --strategy default"
  # the strategies play differently (their gold curves differ)
  python3 - "$tmp/$map-default.json" "$tmp/$map-economy.json" "$tmp/$map-random.json" <<'PY'
import json, sys
c = [json.load(open(p))["gold_curve"] for p in sys.argv[1:]]
assert c[0] != c[1] and c[0] != c[2] and c[1] != c[2], "two strategies have the same gold curve"
PY
  check $? "$map: strategies with the same gold curve"
done
python3 - "$tmp/02-grid-default.json" "$tmp/02-grid-maze.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["checksum"] != b["checksum"], "maze plays 02-grid as the default does"
PY
check $? "02-grid: maze plays as default"

# the text report names a strategy other than the default
expect "text" 0 "" -- "$td" sim --map "$map1" --strategy economy --ticks 600
grep -q '^game: .*player auto (economy)' "$tmp/out"; check $? "text: $(head -1 "$tmp/out")"

# a save made by the default player before strategies (memory version 1):
# the fuzz corpus's seed-auto-3000.tds of then, kept under its SHA-1
old=$src/tests/fuzz/corpus/save/ed11702ff3f3f69aa8231d887b2e5aa964c0905b
fz="--map $src/tests/fuzz/data/map.lua --mod $src/tests/fuzz/data/mod --load $old --ticks 3000 --json"
expect "old save" 0 "" -- "$td" sim $fz --auto
cp "$tmp/out" "$tmp/old-auto.json"
grep -q '"strategy":"default"' "$tmp/out"; check $? "old save: not the default player"
expect "old save, default" 0 "" -- "$td" sim $fz --strategy default
cmp -s "$tmp/out" "$tmp/old-auto.json"; check $? "old save: --strategy default differs from --auto"
# its memory names no strategy: the one given plays on
expect "old save, maze" 0 "" -- "$td" sim $fz --strategy economy
grep -q '"strategy":"economy"' "$tmp/out"; check $? "old save: --strategy economy not taken"

# a new save names its strategy, which wins over the command line's
expect "save random" 0 "" -- "$td" sim --map "$map1" --strategy random --ticks 1201 --save-at 1200 \
  --save "$tmp/r.tds" --quiet
expect "load random" 0 "" -- "$td" sim --map "$map1" --load "$tmp/r.tds" --strategy maze --ticks 600 --json
grep -q '"strategy":"random"' "$tmp/out"; check $? "load: the saved strategy did not win"

finish
