#!/usr/bin/env bash
# td sweep (docs/sweep.md): the same spec gives a byte-identical sweep.csv
# however it is run (serially, --jobs 2, GNU parallel, 4 shards merged,
# resumed after a cut); bad specs get one-line errors naming file:line;
# report --check; rule overrides (td sim --set/--scale) and their replays.
set -u
source "$(dirname "$0")/harness.bash"

cat >"$tmp/s.lua" <<'LUA'
-- two maps, two difficulties, three seeds, a rule at two values: 24 games
sweep {
  maps = {"01-crossroads", "02-grid"},
  difficulties = {"easy", "normal"},
  seeds = range(1, 3),
  overrides = {
    {param = "tower.cannon.cost", scale = {0.9, 1.1}},
  },
  ticks = 20000,
}
LUA
s=$tmp/s.lua

expect "plan" 0 "" -- "$td" sweep plan "$s"
[ "$(wc -l <"$tmp/out")" -eq 24 ]; check $? "plan: not 24 jobs"
grep -q -- "--scale tower.cannon.cost=1.1 --json --tag" "$tmp/out"; check $? "plan: no override in a job"
cp "$tmp/out" "$tmp/plan"
for i in 1 2 3 4; do "$td" sweep plan "$s" --shard $i/4; done >"$tmp/shards"
[ "$(sort "$tmp/shards" | md5sum)" = "$(sort "$tmp/plan" | md5sum)" ]; check $? "4 shards are not the plan"
"$td" sweep plan "$s" --shard 2/4 | head -1 | cmp -s - <(sed -n 2p "$tmp/plan"); check $? "shards do not interleave"

# one job prints exactly one JSON line
bash -c "$(head -1 "$tmp/plan")" >"$tmp/one" 2>/dev/null
[ "$(wc -l <"$tmp/one")" -eq 1 ]; check $? "a job does not print one line"
grep -q '"tag":"01-crossroads easy auto default seed=1 tower.cannon.cost\*0.9"' "$tmp/one"; check $? "a job's line lacks its tag"

# serially
"$td" sweep run "$s" --jobs 1 --out "$tmp/serial" 2>"$tmp/err"; check $? "run --jobs 1: $(tail -3 "$tmp/err")"
TD_GNUPLOT=/nonexistent/gnuplot "$td" sweep report "$tmp/serial" 2>"$tmp/err"; check $? "report: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/serial/sweep.csv")" -eq 25 ]; check $? "serial: not 24 rows"
grep -q "Charts skipped" "$tmp/serial/report.md"; check $? "report without gnuplot does not say charts were skipped"
head -1 "$tmp/serial/sweep.csv" | grep -q "^map,difficulty,player,strategy,tower.cannon.cost\*,seed,result,"; check $? "csv header: $(head -1 "$tmp/serial/sweep.csv")"

# --jobs 2
"$td" sweep run "$s" --jobs 2 --out "$tmp/two" 2>/dev/null; check $? "run --jobs 2"
"$td" sweep report "$tmp/two" 2>"$tmp/err"; check $? "report two: $(cat "$tmp/err")"
cmp -s "$tmp/serial/sweep.csv" "$tmp/two/sweep.csv"; check $? "--jobs 2 gives another CSV"
if command -v gnuplot >/dev/null; then
  ls "$tmp/two/charts/winrate."* >/dev/null 2>&1; check $? "no win-rate chart"
  grep -q "](charts/param1\." "$tmp/two/report.md"; check $? "report.md lacks the override chart"
  "$td" sweep report "$tmp/two" --md "$tmp/elsewhere.md" 2>/dev/null; check $? "report --md"
  grep -q "](two/charts/winrate\." "$tmp/elsewhere.md"; check $? "--md: links not relative to the file"
  cmp -s "$tmp/serial/sweep.csv" "$tmp/two/sweep.csv"; check $? "charts changed the CSV"
fi
# --spec keeps the spec's record columns only
sed 's/ticks = 20000,/ticks = 20000, record = {"result", "wave_lives"},/' "$s" >"$tmp/rec.lua"
TD_GNUPLOT=/nonexistent "$td" sweep report "$tmp/two" --spec "$tmp/rec.lua" 2>/dev/null; check $? "report --spec"
head -1 "$tmp/two/sweep.csv" | grep -q ",upgrades,wave_lives$"; check $? "--spec record: $(head -1 "$tmp/two/sweep.csv")"

# GNU parallel
if command -v parallel >/dev/null; then
  mkdir "$tmp/par"
  "$td" sweep plan "$s" | parallel -j2 >"$tmp/par/results.jsonl" 2>/dev/null; check $? "parallel"
  "$td" sweep report "$tmp/par" 2>/dev/null; check $? "report par"
  cmp -s "$tmp/serial/sweep.csv" "$tmp/par/sweep.csv"; check $? "GNU parallel gives another CSV"
else
  echo "SKIP: GNU parallel is not installed (.ci/deps installs it)"
fi

# 4 shards run apart, their outputs merged
mkdir "$tmp/merged"
for i in 1 2 3 4; do
  "$td" sweep run "$s" --shard $i/4 --jobs 1 --out "$tmp/shard$i" 2>/dev/null; check $? "shard $i"
done
cat "$tmp"/shard4/results.jsonl "$tmp"/shard2/results.jsonl "$tmp"/shard1/results.jsonl \
    "$tmp"/shard3/results.jsonl >"$tmp/merged/results.jsonl"
"$td" sweep report "$tmp/merged" 2>/dev/null; check $? "report merged"
cmp -s "$tmp/serial/sweep.csv" "$tmp/merged/sweep.csv"; check $? "4 merged shards give another CSV"

# resume: a run cut after 10 games, the last line half written
mkdir "$tmp/cut"
head -10 "$tmp/two/results.jsonl" >"$tmp/cut/results.jsonl"
sed -n 11p "$tmp/two/results.jsonl" | head -c 200 >>"$tmp/cut/results.jsonl"
"$td" sweep run "$s" --jobs 2 --out "$tmp/cut" 2>"$tmp/err"; check $? "resume"
grep -q "10 of 24 games already" "$tmp/err"; check $? "resume did not skip 10 games: $(head -2 "$tmp/err")"
grep -q "14 games played" "$tmp/err"; check $? "resume did not play 14 games: $(tail -1 "$tmp/err")"
[ "$(wc -l <"$tmp/cut/results.jsonl")" -eq 24 ]; check $? "resume: not 24 lines"
"$td" sweep report "$tmp/cut" 2>/dev/null; check $? "report cut"
cmp -s "$tmp/serial/sweep.csv" "$tmp/cut/sweep.csv"; check $? "a resumed run gives another CSV"
"$td" sweep run "$s" --jobs 2 --out "$tmp/cut" 2>"$tmp/err"; check $? "rerun"
grep -q "0 games played" "$tmp/err"; check $? "a finished run played again"

# a failing child: reported with its command, the run exits 1
mkdir "$tmp/f"
echo 'this is not a map' >"$tmp/f/broken.lua"
echo 'sweep { maps = {"01-crossroads", "broken.lua"} }' >"$tmp/f/fail.lua"
"$td" sweep run "$tmp/f/fail.lua" --jobs 2 --out "$tmp/f/out" 2>"$tmp/err"
[ $? -eq 1 ]; check $? "a failing game did not make the run exit 1"
grep -q "td: sweep: job 2 failed (exit 2): .*td sim --map .*broken.lua" "$tmp/err"; check $? "the failure lacks its command: $(cat "$tmp/err")"
grep -q "broken.lua:1:" "$tmp/err"; check $? "the failure lacks the child's stderr"
[ "$(wc -l <"$tmp/f/out/results.jsonl")" -eq 1 ]; check $? "the good game was not kept"

# report --check: auto must win on normal, idle lose
mkdir "$tmp/chk"
echo '{"tag":"a","map":"m/x.lua","player":"auto","difficulty":"normal","seed":1,"result":"lost","wave":3,"waves":9}' >"$tmp/chk/r.jsonl"
echo '{"tag":"b","map":"m/x.lua","player":"idle","difficulty":"normal","seed":1,"result":"lost","wave":2,"waves":9}' >>"$tmp/chk/r.jsonl"
TD_GNUPLOT=/nonexistent "$td" sweep report "$tmp/chk" --check 2>"$tmp/err"
[ $? -eq 1 ]; check $? "--check passed a lost auto game"
grep -q "x: --auto lost at wave 3 of 9" "$tmp/err"; check $? "--check message: $(cat "$tmp/err")"

# games whose tick limit ran out: listed by inputs, seeds as runs
mkdir "$tmp/on"
for s in 1 2 3 5; do
  echo '{"tag":"p'$s'","map":"m/x.tmx","player":"auto","strategy":"maze","difficulty":"hard","seed":'$s',"result":"playing","wave":'$((3 + s))',"waves":9,"lives":4,"start_lives":10,"ticks":500}' >>"$tmp/on/r.jsonl"
done
echo '{"tag":"w4","map":"m/x.tmx","player":"auto","strategy":"maze","difficulty":"hard","seed":4,"result":"won","wave":9,"waves":9,"lives":4,"start_lives":10,"ticks":300}' >>"$tmp/on/r.jsonl"
echo '{"tag":"i1","map":"m/x.tmx","player":"idle","difficulty":"hard","seed":1,"result":"lost","wave":2,"waves":9,"lives":0,"start_lives":10,"ticks":100}' >>"$tmp/on/r.jsonl"
TD_GNUPLOT=/nonexistent "$td" sweep report "$tmp/on" 2>/dev/null; check $? "report with unended games"
grep -q "^## Games still on at their tick limit" "$tmp/on/report.md"; check $? "no section for unended games"
grep -q "^4 games had not ended" "$tmp/on/report.md"; check $? "unended count: $(grep 'had not ended' "$tmp/on/report.md")"
grep -qF "| x | hard | auto maze | 1-3, 5 (4 of 5) | 4-8 of 9 | 4 of 10 | 500 |" "$tmp/on/report.md"
check $? "unended row: $(grep '| x | hard | auto maze | 1' "$tmp/on/report.md")"
[ "$(grep -c '^| x | hard |' "$tmp/on/report.md")" -eq 2 ]; check $? "an ended game listed as unended"
grep -q "Games still on" "$tmp/chk/report.md"; [ $? -ne 0 ]; check $? "a report with no unended game has the section"

# the fields td sim --json gains with strategies: in the CSV when present
mkdir "$tmp/opt"
echo '{"tag":"c","map":"x.lua","player":"auto","strategy":"maze","difficulty":"hard","seed":2,"result":"won","gold_curve":[5,7],"kills_by_tower":{"tesla":2,"arrow":9}}' >"$tmp/opt/r.jsonl"
TD_GNUPLOT=/nonexistent "$td" sweep report "$tmp/opt" 2>/dev/null; check $? "report with curves"
head -1 "$tmp/opt/sweep.csv" | grep -q ",upgrades,gold_curve,kills_by_tower$"; check $? "optional columns: $(head -1 "$tmp/opt/sweep.csv")"
grep -q "^x,hard,auto,maze,2,won,.*,5 7,arrow:9 tesla:2$" "$tmp/opt/sweep.csv"; check $? "optional values: $(tail -1 "$tmp/opt/sweep.csv")"

# mods relative to the spec, in every job
mkdir -p "$tmp/m/sub"
printf 'sweep { maps = {"01-crossroads"}, mods = {"%s/scripts/base"}, players = {"idle"} }\n' "$src" >"$tmp/m/sub/s.lua"
expect "mods" 0 "" -- "$td" sweep plan "$tmp/m/sub/s.lua"
grep -q -- "--idle --mod /.*scripts/base --difficulty normal --seed 1 --json" "$tmp/out"; check $? "mods: $(cat "$tmp/out")"

# bad specs: one line naming file:line
bad() { # NAME LINE MESSAGE SPEC-TEXT
  printf '%s\n' "$4" >"$tmp/bad.lua"
  expect "$1" 2 "bad.lua:$2: $3" -- "$td" sweep plan "$tmp/bad.lua"
}
bad "unknown map" 3 "maps: no map 'nowhere'" 'sweep {
  maps = {"01-crossroads",
          "nowhere"},
}'
bad "unknown strategy" 3 "strategies: no strategy 'turtle' (default, maze, economy, random)" 'sweep {
  maps = {"01-crossroads"},
  strategies = {"default", "turtle"},
}'
bad "unknown parameter" 4 "overrides[1]: --scale tower.canon.cost: no tower type 'canon' (arrow, cannon," 'sweep {
  maps = {"01-crossroads"},
  overrides = {
    {param = "tower.canon.cost", scale = {0.9, 1.1}},
  },
}'
bad "unknown field" 3 "overrides[1]: --scale tower.cannon.price: no tower field 'price' (cost, range" 'sweep {
  maps = {"01-crossroads"},
  overrides = {{param = "tower.cannon.price", scale = {2}}},
}'
bad "refused value" 3 "overrides[1]: --set enemy.runner.speed=0: enemy 'runner': speed must be > 0" 'sweep {
  maps = {"01-crossroads"},
  overrides = {{param = "enemy.runner.speed", set = {1, 0}}},
}'
bad "empty range" 3 "range(5, 1): no values" 'sweep {
  maps = {"01-crossroads"},
  seeds = range(5, 1),
}'
bad "wrong type" 3 "seeds: expected a list" 'sweep {
  maps = {"01-crossroads"},
  seeds = "1-10",
}'
bad "unknown key" 2 "sweep: unknown key 'map'" 'sweep {
  map = {"01-crossroads"},
}'
echo 'x = 1' >"$tmp/bad.lua"
expect "no sweep call" 2 "bad.lua: no sweep{...} in the file" -- "$td" sweep plan "$tmp/bad.lua"
bad "sandbox" 1 "attempt to call a nil value (global 'require')" 'require("os")'
expect "bad shard" 2 "--shard: expected I/N" -- "$td" sweep plan "$s" --shard 5/4

# td sim --set/--scale: errors, the rules hash, and a replay that carries them
m=$src/maps/01-crossroads.tmx
expect "unknown tower" 2 "sim: --scale tower.canon.cost: no tower type 'canon' (arrow, cannon" -- \
  "$td" sim --map "$m" --auto --scale tower.canon.cost=1.1
expect "bad kind" 2 "sim: --set towers.cannon.cost: expected tower.NAME.FIELD" -- \
  "$td" sim --map "$m" --auto --set towers.cannon.cost=1
expect "bad value" 2 "sim: --set rules.start_gold: 'lots' is not a finite number" -- \
  "$td" sim --map "$m" --auto --set rules.start_gold=lots
expect "refused" 2 "sim: --set enemy.runner.speed=0: enemy 'runner': speed must be > 0" -- \
  "$td" sim --map "$m" --auto --set enemy.runner.speed=0
expect "plain" 0 "" -- "$td" sim --map "$m" --auto --json --ticks 6000
plain=$(grep -o '"checksum":"[0-9a-f]*"}$' "$tmp/out")
expect "scaled" 0 "" -- "$td" sim --map "$m" --auto --json --ticks 6000 --scale tower.arrow.cost=0.5 --set rules.start_gold=300
grep -q '"overrides":\[{"op":"scale","param":"tower.arrow.cost","value":0.5},{"op":"set","param":"rules.start_gold","value":300}\]' "$tmp/out"
check $? "--json lacks the overrides"
[ "$(grep -o '"checksum":"[0-9a-f]*"}$' "$tmp/out")" != "$plain" ]; check $? "overrides changed nothing"
expect "record" 0 "" -- "$td" sim --map "$m" --auto --quiet --ticks 6000 --scale tower.arrow.cost=0.5 --record "$tmp/o.replay"
head -1 "$tmp/o.replay" | grep -qx "td-replay 4"; check $? "a replay with overrides is not version 4"
grep -qx "override scale tower.arrow.cost 0.5" "$tmp/o.replay"; check $? "the replay lacks its override line"
expect "replay" 0 "" -- "$td" sim --replay "$tmp/o.replay" --quiet
expect "replay other" 2 "made with 1 rule override, this game has 1 other" -- \
  "$td" sim --replay "$tmp/o.replay" --quiet --scale tower.arrow.cost=0.6
sed '/^override/d' "$tmp/o.replay" >"$tmp/no.replay"
expect "replay without" 1 "" -- "$td" sim --replay "$tmp/no.replay" --quiet

finish
