#!/usr/bin/env bash
# td check: the example scenarios in tests/scenarios pass (one line per
# expectation, the closing count, exit 0) from any working directory and
# run the same every time; a failing expectation prints FAIL with the
# measured value and exits 1; broken scenario files exit 2 with one line
# "td: file:line: ..." naming what is wrong.
set -u
source "$(dirname "$0")/harness.bash"
scen=$src/tests/scenarios
map=$src/maps/01-crossroads.tmx
mod=$scen/mods/lanes

# ---- the examples pass --------------------------------------------------------
cd "$tmp" || exit 1   # paths in scenarios are relative to their file, not to here
expect "examples" 0 "" -- "$td" check "$scen"/*.lua
cp "$tmp/out" "$tmp/examples.out"
grep -qE '^[0-9]+ passed, 0 failed$' "$tmp/examples.out"; check $? "examples: closing line: $(tail -n 1 "$tmp/examples.out")"
! grep -q '^FAIL' "$tmp/examples.out"; check $? "examples: a FAIL: $(grep '^FAIL' "$tmp/examples.out" | head -n 3)"
lines=$(grep -c '^PASS  ' "$tmp/examples.out")
[ "$(tail -n 1 "$tmp/examples.out" | cut -d' ' -f1)" = "$lines" ]; check $? "examples: one line per expectation"
[ "$(wc -l <"$tmp/examples.out")" -eq $((lines + 1)) ]; check $? "examples: nothing but the lines and the count"
[ "$lines" -ge 30 ]; check $? "examples: $lines expectations"
for name in "three lanes through two corners" "sixty in formation on a winding course" \
  "a tower mid-wave: the wave detours, all arrive" "three bolts defend the crossroads" \
  "the bundled game without towers is lost" "a barracks on the gate holds the wave" \
  "sappers blow up an unguarded wall: the shortcut opens" \
  "a guard kills the sappers: the wall stands, the long way"; do
  grep -q "^PASS  $name: " "$tmp/examples.out"; check $? "examples: '$name' ran"
done
grep -qE '^PASS  three lanes through two corners: min_gap > 0 \(got [0-9.]+\)$' "$tmp/examples.out"
check $? "examples: the line shows the measured value"
grep -q '^PASS  three bolts defend the crossroads: result == won (got won)$' "$tmp/examples.out"
check $? "examples: result line"

# the same again, and with --verbose (a summary line before each scenario's)
expect "again" 0 "" -- "$td" check "$scen"/*.lua
cmp -s "$tmp/out" "$tmp/examples.out"; check $? "again: the same output"
expect "verbose" 0 "" -- "$td" check --verbose "$scen/lanes.lua"
grep -qE '^# three lanes through two corners \(.*lanes.lua:[0-9]+\): result won .* min_gap [0-9.]+ ' "$tmp/out"
check $? "verbose: the measure line: $(head -n 1 "$tmp/out")"
expect "verbose soldiers" 0 "" -- "$td" check --verbose "$scen/soldiers.lua"
grep -qE '^# a barracks on the gate holds the wave \(.*soldiers.lua:[0-9]+\): .* first_leak [0-9.]+ held [0-9.]+ engaged [0-9]+ soldier_deaths [0-9]+ towers_destroyed 0 route_updates 1$' "$tmp/out"
check $? "verbose: the soldiers' measures: $(grep '^# a barracks' "$tmp/out")"

# docs/check.md quotes a scenario of soldiers.lua: the same lines, in the file
sed -n '/^<!-- the scenario as in tests\/scenarios\/soldiers.lua/,/^```$/p' "$src/docs/check.md" |
  sed '1,2d;$d' >"$tmp/quoted.lua"
quoted=$(cat "$tmp/quoted.lua")
[ -n "$quoted" ] && [[ "$(cat "$scen/soldiers.lua")" == *"$quoted"* ]]
check $? "docs/check.md's soldiers scenario differs from tests/scenarios/soldiers.lua"

# ---- a failing expectation: FAIL, the value, exit 1 -------------------------------
cat >"$tmp/fail.lua" <<EOF
scenario {
  name = "expects too much",
  map = "$src/tests/scenarios/maps/two-corners.lua",
  mod = "$mod",
  expect = { leaks = "== 3", lane_swaps = ">= 1", lives = { ">= 1", "> 99" } },
}
EOF
expect "fail" 1 "" -- "$td" check "$tmp/fail.lua"
grep -qF "FAIL  expects too much: lane_swaps >= 1 (got 0)  at $tmp/fail.lua:1" "$tmp/out"
check $? "fail: FAIL line with the value and the place: $(cat "$tmp/out")"
grep -qF "FAIL  expects too much: lives > 99 (got 7)" "$tmp/out"; check $? "fail: second condition of a list"
grep -qF "PASS  expects too much: leaks == 3 (got 3)" "$tmp/out"; check $? "fail: the others still pass"
[ "$(tail -n 1 "$tmp/out")" = "2 passed, 2 failed" ]; check $? "fail: count: $(tail -n 1 "$tmp/out")"

# stop = "ticks" runs every tick; the default stops when the game ends
cat >"$tmp/stop.lua" <<EOF
scenario { name = "every tick", map = "$src/tests/scenarios/maps/two-corners.lua", mod = "$mod",
  ticks = 2000, stop = "ticks", expect = { ticks = "== 2000", result = "won" } }
scenario { name = "to the end", map = "$src/tests/scenarios/maps/two-corners.lua", mod = "$mod",
  ticks = 2000, expect = { ticks = "< 2000", result = "won" } }
scenario { name = "out of ticks", map = "$src/tests/scenarios/maps/two-corners.lua", mod = "$mod",
  ticks = 100, expect = { ticks = "== 100", result = "playing" } }
EOF
expect "stop" 0 "" -- "$td" check "$tmp/stop.lua"
[ "$(tail -n 1 "$tmp/out")" = "6 passed, 0 failed" ]; check $? "stop: $(cat "$tmp/out")"

# ---- usage --------------------------------------------------------------------------
expect "help" 0 "" -- "$td" check --help
grep -q '^usage: td check' "$tmp/out"; check $? "help: usage"
expect "no file" 2 "no scenario file" -- "$td" check
expect "bad option" 2 "unknown option '--frobnicate'" -- "$td" check --frobnicate "$scen/lanes.lua"
expect "missing file" 2 "nowhere.lua: cannot open" -- "$td" check "$tmp/nowhere.lua"

# ---- broken files: exit 2, one line with file:line ------------------------------------
# bad NAME MESSAGE: $tmp/NAME.lua (written before) exits 2 with MESSAGE on stderr
bad() { expect "bad $1" 2 "$2" -- "$td" check "$scen/lanes.lua" "$tmp/$1.lua"; }
head3="name = \"b\", map = \"$map\", mod = \"$mod\","

printf 'scenario {\n  %s\n  expect = { leaks = 0 }\n  ticks = 5,\n}\n' "$head3" >"$tmp/syntax.lua"
bad syntax "$tmp/syntax.lua:4: '}' expected (to close '{' at line 1) near 'ticks'"
printf 'local n = 0\nwhile true do\n  n = n + 1\nend\n' >"$tmp/runaway.lua"
bad runaway "$tmp/runaway.lua:3: instruction limit exceeded"
printf 'local t = {}\nfor i = 1, 1e9 do t[i] = { i, i } end\n' >"$tmp/hungry.lua"
bad hungry "$tmp/hungry.lua:2: memory limit exceeded"
printf 'os.exit(1)\n' >"$tmp/escape.lua"
bad escape "$tmp/escape.lua:1: attempt to index a nil value (global 'os')"
printf -- '-- nothing here\n' >"$tmp/empty.lua"
bad empty "$tmp/empty.lua: no scenario"
printf 'scenario { name = "a", map = "%s", mod = "%s", expect = { leaks = 0 } }\n\nscenario {\n  %s\n  sed = 2, expect = { leaks = 0 } }\n' \
  "$map" "$mod" "$head3" >"$tmp/field.lua"
bad field "$tmp/field.lua:3: scenario 'b': unknown field 'sed' (did you mean 'seed'?)"
printf 'scenario { %s stop = "ned", expect = { leaks = 0 } }\n' "$head3" >"$tmp/stop.lua"
bad stop "$tmp/stop.lua:1: scenario 'b': stop: 'ned' is neither \"end\" (won or lost) nor \"ticks\" (every tick) (did you mean 'end'?)"
printf 'scenario { %s expect = { min_gapp = "> 0" } }\n' "$head3" >"$tmp/metric.lua"
bad metric "$tmp/metric.lua:1: scenario 'b': expect: unknown field 'min_gapp' (did you mean 'min_gap'?)"
printf 'scenario { %s expect = { leaks = "=< 3" } }\n' "$head3" >"$tmp/op.lua"
bad op "$tmp/op.lua:1: scenario 'b': expect.leaks: '=< 3': expected an operator"
printf 'scenario { %s expect = { result = "win" } }\n' "$head3" >"$tmp/result.lua"
bad result "$tmp/result.lua:1: scenario 'b': expect.result: 'win': expected playing, won or lost"
printf 'scenario { %s expect = { leaks = 0 },\n  towers = { { base = 9, tower = "postt" } } }\n' "$head3" >"$tmp/tower.lua"
bad tower "$tmp/tower.lua:1: scenario 'b': towers[1]: unknown tower 'postt' (did you mean 'post'?)"
printf 'scenario { %s expect = { leaks = 0 },\n  towers = { { base = 9, tower = "post" }, { tick = 9, sell = 99 } } }\n' "$head3" >"$tmp/base.lua"
bad base "$tmp/base.lua:1: scenario 'b': towers[2]: no tower base with object id 99"
printf 'scenario { %s expect = { leaks = 0 },\n  towers = { { bse = 9, tower = "post" } } }\n' "$head3" >"$tmp/entry.lua"
bad entry "$tmp/entry.lua:1: scenario 'b': towers[1]: unknown field 'bse' (did you mean 'base'?)"
printf 'scenario { %s expect = { leaks = 0 },\n  towers = { tick = 0, base = 9, tower = "post" } }\n' "$head3" >"$tmp/flat.lua"
bad flat "$tmp/flat.lua:1: scenario 'b': towers: expected a list"
printf 'scenario { %s expect = { leaks = 0 },\n  towers = { { target = 9, mode = "strongst" } } }\n' "$head3" >"$tmp/mode.lua"
bad mode "$tmp/mode.lua:1: scenario 'b': towers[1]: mode: unknown targeting mode 'strongst' (did you mean 'strongest'?)"
printf 'scenario { %s expect = { leaks = 0 },\n  towers = { { sell = 9, tick = -5 } } }\n' "$head3" >"$tmp/tick.lua"
bad tick "$tmp/tick.lua:1: scenario 'b': towers[1]: tick: -5 is out of range"
printf 'scenario { name = "b", map = "no/such/map.lua", mod = "%s", expect = { leaks = 0 } }\n' "$mod" >"$tmp/map.lua"
bad map "$tmp/map.lua:1: scenario 'b': $tmp/no/such/map.lua: cannot open"
printf 'scenario { %s expect = { leaks = 0 } }\nscenario { %s expect = { leaks = 1 } }\n' "$head3" "$head3" >"$tmp/twice.lua"
bad twice "$tmp/twice.lua:2: scenario 'b': a second scenario of that name (the first is at line 1)"
# a broken file stops everything before anything runs
[ ! -s "$tmp/out" ]; check $? "broken: nothing ran: $(head -c 200 "$tmp/out")"

# pairs() order must not matter: of two unknown fields the smallest name is
# reported, every time (Lua seeds its string hash per run)
printf 'scenario { %s expect = { leaks = 0 }, zzz = 1, yyy = 2, aaa = 3, mmm = 4 }\n' "$head3" >"$tmp/order.lua"
for i in 1 2 3 4 5 6; do bad order "$tmp/order.lua:1: scenario 'b': unknown field 'aaa'"; done

finish
