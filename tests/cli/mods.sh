#!/usr/bin/env bash
# Several mods (issue 18): --mod A --mod B loads both in order into one
# game: B's tower is added, its replace = true enemy takes A's place, its
# td.rules changes only what it gives, handlers run A's first, each mod's
# include resolves in its own directory. A plain duplicate name is refused
# naming both mods, a missing or misplaced dependency naming both; a replay
# records the list and is refused with another one; a save likewise. A
# later mod replaces a soldier type and keeps another in its barracks.
set -u
source "$(dirname "$0")/harness.bash"
map=$src/maps/01-crossroads.tmx
m=$src/tests/data/mods/several
two=(--mod "$m/base" --mod "$m/extra")

"$td" sim --map "$map" "${two[@]}" --auto --seed 3 --json >"$tmp/out" 2>"$tmp/err"
check $? "two mods: exit $? ($(head -c 300 "$tmp/err"))"
python3 - "$tmp/out" "$m" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = sys.argv[2]
assert d["mods"] == [m + "/base", m + "/extra"], d["mods"]
assert d["waves"] == 3, d["waves"]            # extra's wave appended
log = d["log"]
# handlers in load order: base's before extra's, for each wave
assert log[:2] == ["base: wave 1 starts", "extra: wave 1 starts"], log[:4]
assert "extra: grunt spawned with 60 health" in log, log   # the replaced enemy
PY
check $? "two mods: json: $(head -c 300 "$tmp/out")"

"$td" sim --map "$map" --mod "$m/base" --auto --seed 3 --json >"$tmp/one" 2>"$tmp/err"
check $? "base alone: exit $?"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['waves']==2 and d['mods']==[sys.argv[2]] and not any(l.startswith('extra') for l in d['log']), d" \
  "$tmp/one" "$m/base"
check $? "base alone: $(head -c 300 "$tmp/one")"

# extra's td.rules { start_gold = 300 } keeps base's start_lives = 10
"$td" sim --map "$map" "${two[@]}" --idle --ticks 1 --json >"$tmp/out" 2>"$tmp/err"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert (d['gold'],d['start_lives'])==(300,10), d" "$tmp/out"
check $? "rules merged: $(head -c 300 "$tmp/out")"

expect "duplicate" 2 "enemy 'grunt': declared twice: mod 'base' declared it at $m/base/mod.lua:4; to change it, mod 'dup' declares it with replace = true" \
  -- "$td" sim --map "$map" --mod "$m/base" --mod "$m/dup" --auto
grep -qF "$m/dup/mod.lua:4:" "$tmp/err"; check $? "duplicate: no file:line of dup"
expect "missing dependency" 2 "mod 'needs' depends on mod 'base', which is not loaded" \
  -- "$td" sim --map "$map" --mod "$m/needs" --auto
expect "dependency after" 2 "mod 'needs' depends on mod 'base', which comes after it in the list" \
  -- "$td" sim --map "$map" --mod "$m/needs" --mod "$m/base" --auto
expect "twice in the list" 2 "mod 'base' is in the list twice" \
  -- "$td" sim --map "$map" --mod "$m/base" --mod "$m/base" --auto

# soldiers across mods: a later mod replaces a soldier type, keeps another
# in a barracks of its own; without replace = true it is refused naming both
s=$src/tests/data/mods
"$td" sim --map "$map" --mod "$s/soldiers" --mod "$s/soldiers_plus" --idle --ticks 1 --json \
  >"$tmp/out" 2>"$tmp/err"
check $? "soldiers_plus: exit $? ($(head -c 300 "$tmp/err"))"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['waves']==4, d" "$tmp/out"
check $? "soldiers_plus: $(head -c 300 "$tmp/out")"
mkdir -p "$tmp/twice"
printf 'api_version = 1\ntd.soldier { name = "footman", health = 1, damage = 1, rate = 1, speed = 1 }\n' \
  >"$tmp/twice/mod.lua"
expect "soldier twice" 2 "$tmp/twice/mod.lua:2: soldier 'footman': declared twice: mod 'soldiers' declared it at $s/soldiers/mod.lua:11; to change it, mod 'twice' declares it with replace = true" \
  -- "$td" sim --map "$map" --mod "$s/soldiers" --mod "$tmp/twice" --auto

# a replay records both mods, in order, and plays back; with one it is refused
"$td" sim --map "$map" "${two[@]}" --auto --seed 3 --record "$tmp/r.replay" >/dev/null 2>&1
check $? "record: exit $?"
[ "$(grep -c '^mod ' "$tmp/r.replay")" -eq 2 ] && grep -q "^mod .*/base [0-9a-f]\{16\}$" "$tmp/r.replay" &&
  [ "$(grep '^mod ' "$tmp/r.replay" | tail -1 | cut -d' ' -f2)" = "$m/extra" ]
check $? "record: mod lines: $(grep '^mod ' "$tmp/r.replay")"
head -1 "$tmp/r.replay" | grep -qx "td-replay 3"; check $? "record: not version 3"
"$td" sim --replay "$tmp/r.replay" >"$tmp/out" 2>"$tmp/err"
check $? "replay: exit $? ($(head -c 300 "$tmp/err"))"
expect "replay with one mod" 2 "made with 2 mods, this game has 1: mod $m/extra (extra) is missing" \
  -- "$td" sim --replay "$tmp/r.replay" --mod "$m/base"
cp -r "$m/extra" "$tmp/other"
cp -r "$m/extra" "$tmp/extra" && echo "-- changed" >>"$tmp/extra/handlers.lua"
expect "replay with another mod" 2 "mod 2 of the list is $m/extra, this game has $tmp/other there" \
  -- "$td" sim --replay "$tmp/r.replay" --mod "$m/base" --mod "$tmp/other"
expect "replay with a changed mod" 2 "made with other scripts than $tmp/extra has now" \
  -- "$td" sim --replay "$tmp/r.replay" --mod "$m/base" --mod "$tmp/extra"

# version 2 (one mod line) is still read; a list needs version 3
sed '1s/^td-replay 3$/td-replay 2/' "$src/tests/data/replays/crossroads-auto.replay" >"$tmp/v2.replay"
(cd "$src" && "$td" sim --replay "$tmp/v2.replay" --quiet) >"$tmp/out" 2>"$tmp/err"
check $? "version 2: $(head -c 300 "$tmp/err")"
sed '1s/^td-replay 3$/td-replay 2/' "$tmp/r.replay" >"$tmp/v2two.replay"
expect "version 2 with two mods" 2 "v2two.replay:4: 'mod' given twice" -- "$td" sim --replay "$tmp/v2two.replay"

# a save records the list: loaded with both it continues, with one it is refused
"$td" sim --map "$map" "${two[@]}" --auto --seed 3 --save-at 600 --save "$tmp/s.save" >/dev/null 2>&1
check $? "save: exit $?"
"$td" sim --map "$map" "${two[@]}" --load "$tmp/s.save" --auto >/dev/null 2>"$tmp/err"
check $? "load with both: $(head -c 300 "$tmp/err")"
expect "load with one" 2 "made with the mods base+extra, this game has base" \
  -- "$td" sim --map "$map" --mod "$m/base" --load "$tmp/s.save" --auto
expect "load with a changed mod" 2 "made with other scripts than those in $tmp/extra now (mod 'extra')" \
  -- "$td" sim --map "$map" --mod "$m/base" --mod "$tmp/extra" --load "$tmp/s.save" --auto

# td check: mod = { ... } loads a list, a string one mod
cat >"$tmp/s.lua" <<LUA
scenario { name = "two", map = "$map", mod = { "$m/base", "$m/extra" }, ticks = 3600,
           expect = { wave = "== 3", script_errors = 0 } }
scenario { name = "one", map = "$map", mod = "$m/base", ticks = 3600, expect = { wave = "== 2" } }
LUA
"$td" check "$tmp/s.lua" >"$tmp/out" 2>"$tmp/err"
check $? "check: $(cat "$tmp/out" "$tmp/err" | head -c 400)"
grep -qx "scenario 'two': print: extra: wave 3 starts" "$tmp/err"; check $? "check: extra's handler"

# td shot plays the replay's mods
"$td" shot --replay "$tmp/r.replay" --tick 300 "$tmp/r.png" >"$tmp/out" 2>"$tmp/err"
check $? "shot: $(head -c 300 "$tmp/err")"
expect "shot with one mod" 2 "made with 2 mods, this game has 1" \
  -- "$td" shot --replay "$tmp/r.replay" --mod "$m/base" --tick 300 "$tmp/r.png"

finish
