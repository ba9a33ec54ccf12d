#!/usr/bin/env bash
# A mod's output headless (issue 18): a runaway handler's file:line and
# message reach td sim's stderr with its traceback, and its print lines;
# --json carries script_errors and log; --strict exits 1 on a script error
# (td sim and td check); a td.spawn flood is stopped with its error and the
# game goes on.
set -u
source "$(dirname "$0")/harness.bash"
map=$src/maps/01-crossroads.tmx

mod=$tmp/runaway
cp -r "$src/scripts/base" "$mod"
line=$(($(wc -l <"$mod/mod.lua") + 1))
cat >>"$mod/mod.lua" <<'LUA'
td.on("spawn", function(e) while true do end end)
td.every(600, function(t) print("hello at " .. t) end)
td.on("wave_start", function(e) print("\27[31mred\nline") end)
LUA

"$td" sim --map "$map" --mod "$mod" --auto --ticks 1300 >"$tmp/out" 2>"$tmp/err"
check $? "runaway: exit status $? without --strict"
grep -qF "lua error: mod 'runaway', on spawn #1, tick " "$tmp/err"
check $? "runaway: no error line on stderr: $(head -c 400 "$tmp/err")"
grep -qF "$mod/mod.lua:$line: instruction limit exceeded" "$tmp/err"
check $? "runaway: stderr lacks mod.lua:$line and the message: $(head -c 400 "$tmp/err")"
grep -q "^stack traceback:" "$tmp/err"; check $? "runaway: no traceback on stderr"
grep -qx "print: hello at 1200" "$tmp/err"; check $? "runaway: no print line on stderr"
grep -qxF 'print: \x1b[31mred\x0aline' "$tmp/err"; check $? "runaway: a print's control characters not escaped"
! grep -q "$(printf '\033')" "$tmp/err"; check $? "runaway: an ESC byte reached stderr"
grep -qx "script errors: 1 (on stderr)" "$tmp/out"; check $? "runaway: the report lacks the count"
# the error once, however many spawns failed after (the handler is disabled)
[ "$(grep -c "^lua error" "$tmp/err")" -eq 1 ]; check $? "runaway: error not reported once"

expect "strict" 1 "" -- "$td" sim --map "$map" --mod "$mod" --auto --ticks 1300 --strict --json
python3 - "$tmp/out" "$mod/mod.lua:$line" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = d["script_errors"]
assert len(e) == 1 and e[0]["where"] == sys.argv[2], e
assert e[0]["message"].endswith("instruction limit exceeded"), e
assert e[0]["handler"] == "on spawn #1" and e[0]["mod"] == "runaway", e
assert "hello at 1200" in d["log"], d["log"]
assert d["script_errors_dropped"] == 0
PY
check $? "strict --json: script_errors or log wrong"
expect "clean strict" 0 "" -- "$td" sim --map "$map" --auto --ticks 1300 --strict --json
grep -q '"script_errors":\[\],' "$tmp/out"; check $? "clean: script_errors not empty"

# td check: the error on stderr after the scenario's name; --strict fails it
cat >"$tmp/s.lua" <<LUA
scenario { name = "runaway", map = "$map", mod = "$mod", ticks = 700, call_wave = { 0 },
           expect = { leaks = ">= 0" } }
LUA
expect "check" 0 "" -- "$td" check "$tmp/s.lua"
grep -qF "scenario 'runaway': lua error: mod 'runaway', on spawn #1" "$tmp/err"
check $? "check: no error on stderr: $(head -c 400 "$tmp/err")"
grep -qF "scenario 'runaway': print: hello at 600" "$tmp/err"; check $? "check: no print line"
expect "check strict" 1 "" -- "$td" check --strict "$tmp/s.lua"
grep -qF "FAIL  runaway: no script errors (--strict) (got 1" "$tmp/out"
check $? "check --strict: no FAIL line: $(cat "$tmp/out")"

# a td.spawn flood inside pcall: stopped at 256 in the step, the game goes on
flood=$tmp/flood
cp -r "$src/scripts/base" "$flood"
cat >>"$flood/mod.lua" <<'LUA'
td.on("wave_start", function(e)
  pcall(function() for i = 1, 100000 do td.spawn("grunt") end end)
  print("swallowed")
end)
LUA
expect "flood" 0 "" -- "$td" sim --map "$map" --mod "$flood" --auto --ticks 3000 --json
grep -qF "td.spawn: more than 256 spawns in one step" "$tmp/err"
check $? "flood: no limit error: $(head -c 300 "$tmp/err")"
! grep -q "swallowed" "$tmp/err"; check $? "flood: the pcall swallowed the limit"
grep -q '"ticks":3000' "$tmp/out"; check $? "flood: the game did not go on: $(head -c 300 "$tmp/out")"

finish
