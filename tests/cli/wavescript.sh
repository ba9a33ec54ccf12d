#!/usr/bin/env bash
# Wave scripts (issue 18; docs/modding.md "Wave scripts"): a wave written as
# a Lua function runs as a coroutine driven by the ticks: its spawns come at
# the waits it asks for, the wave lasts until the script ends and its
# enemies are gone, a runaway script is stopped and its wave let go, and
# td.wait outside a script is an error. Saves in the middle of a script:
# tests/cli/saves.sh.
set -u
source "$(dirname "$0")/harness.bash"
map=$src/maps/01-crossroads.tmx
mod=$src/tests/data/mods/script_waves

# the script runs from its wave's start; the wave ends after the script
"$td" sim --map "$map" --mod "$mod" --auto --json >"$tmp/out" 2>"$tmp/err"
check $? "script: td sim failed: $(head -c 300 "$tmp/err")"
python3 - "$tmp/out" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d["result"] == "won", d["result"]
assert not d["script_errors"], d["script_errors"]
log = d["log"]
done = [l for l in log if l.startswith("script of wave 2 done")]
end2 = [l for l in log if l.startswith("wave_end 2 ")]
assert done and end2, log
t_done = int(re.search(r"at tick (\d+)", done[0]).group(1))
t_end = int(re.search(r"at tick (\d+)", end2[0]).group(1))
start2 = [w["tick"] for w in d["wave_starts"] if w["wave"] == 2][0]
# the brute came 5 x 0.5 s + 3 s after the start, lived a while: the wave
# did not end before its script did
assert t_done > start2 + 330, (start2, t_done)
assert t_end >= t_done, (t_done, t_end)
PY
check $? "script: the wave's course is wrong: $(grep -o '"log":.*' "$tmp/out" | head -c 400)"

# a script that never waits: stopped by the instruction limit, its wave let go
bad=$tmp/runaway
mkdir -p "$bad"
sed 's/^  for i = 1, 5 do$/  while true do end\n  for i = 1, 5 do/' "$mod/mod.lua" >"$bad/mod.lua"
expect "runaway script" 0 "" -- "$td" sim --map "$map" --mod "$bad" --auto --json
grep -q "lua error: mod 'runaway', script of wave 2, tick 1919: $bad/mod.lua:13: instruction limit exceeded" "$tmp/err"
check $? "runaway script: no error naming the script's line: $(head -c 300 "$tmp/err")"
grep -q '"result":"won"' "$tmp/out"; check $? "runaway script: the game did not go on to its end"

# td.wait outside a wave script
w=$tmp/waiter
mkdir -p "$w"
cp "$mod/mod.lua" "$w/mod.lua"
echo 'td.on("wave_start", function(e) td.wait(1) end)' >>"$w/mod.lua"
expect "wait outside" 0 "" -- "$td" sim --map "$map" --mod "$w" --auto --ticks 200 --quiet
grep -q "td.wait: only in a wave script" "$tmp/err"; check $? "wait outside: $(head -c 300 "$tmp/err")"

finish
