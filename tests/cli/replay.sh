#!/usr/bin/env bash
# td sim --replay proves the whole game (issue 17): every cut of a replay, at
# a line or at a byte, is refused as a cut; the end is compared in full; the
# records hash binds every cmd and check line; the map's name is part of the
# map; options a replay or a save fixes are refused when they disagree; an
# unreachable --save-at is refused or reported; paths with blanks are
# recorded and read back.
set -u
source "$(dirname "$0")/harness.bash"
cd "$src" || exit 1
map=maps/01-crossroads.tmx
mod=tests/data/mods/game_api

expect "record" 0 "" -- "$td" sim --map $map --mod $mod --auto --record "$tmp/a.replay" --quiet
lines=$(wc -l <"$tmp/a.replay")
bytes=$(wc -c <"$tmp/a.replay")
grep -qE '^end 1946 won 8 851 [0-9a-f]{16} [0-9a-f]{16}$' "$tmp/a.replay"
check $? "record: the end record: $(grep '^end' "$tmp/a.replay")"

# every line cut: refused, naming the file and the last line read
for ((k = 0; k < lines; k++)); do
  head -n $k "$tmp/a.replay" >"$tmp/cut.replay"
  if [ $k -eq 0 ]; then want="cut.replay: empty"; else want="cut.replay:$k: no 'end' record"; fi
  expect "line cut $k" 2 "$want" -- "$td" sim --replay "$tmp/cut.replay"
done
# every byte cut: refused as a cut (a line without its newline, or no end)
bad=0
for ((n = 1; n < bytes; n++)); do
  head -c $n "$tmp/a.replay" >"$tmp/cut.replay"
  "$td" sim --replay "$tmp/cut.replay" >/dev/null 2>"$tmp/err"
  st=$?
  if [ $st -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
    ! grep -qE "^td: $tmp/cut.replay:[0-9]+: (cut short: the file ends inside line|no 'end' record)" "$tmp/err"; then
    bad=$((bad + 1))
    echo "byte cut $n: exit $st: $(cat "$tmp/err")"
  fi
done
[ $bad -eq 0 ]; check $? "byte cuts: $bad of $((bytes - 1)) not refused as cuts"
head -c $((bytes - 1)) "$tmp/a.replay" >"$tmp/nl.replay"
expect "no final newline" 2 "nl.replay:$lines: cut short: the file ends inside line $lines, without a newline" -- \
  "$td" sim --replay "$tmp/nl.replay"
head -c $((bytes - 12)) "$tmp/a.replay" >"$tmp/mid.replay"
expect "cut in the records hash" 2 "mid.replay:$lines: cut short" -- "$td" sim --replay "$tmp/mid.replay"

# lines removed or edited: the records hash (before anything plays), the end
grep -v '^check' "$tmp/a.replay" >"$tmp/nocheck.replay"
expect "no check lines" 2 "the end's records hash" -- "$td" sim --replay "$tmp/nocheck.replay"
sed '/^check 1200 /d' "$tmp/a.replay" >"$tmp/onecheck.replay"
expect "one check removed" 2 "a line was changed, moved or removed" -- "$td" sim --replay "$tmp/onecheck.replay"
grep -v '^end ' "$tmp/a.replay" >"$tmp/noend.replay"
expect "no end" 2 "noend.replay:$((lines - 1)): no 'end' record" -- "$td" sim --replay "$tmp/noend.replay"
grep -v '^check\|^end ' "$tmp/a.replay" >"$tmp/bare.replay"
expect "no check, no end" 2 "no 'end' record" -- "$td" sim --replay "$tmp/bare.replay"
sed 's/^cmd 840 upgrade 14 1$/cmd 841 upgrade 14 1/' "$tmp/a.replay" >"$tmp/moved.replay"
! cmp -s "$tmp/a.replay" "$tmp/moved.replay"; check $? "moved: the edit did not apply"
expect "command moved by one tick" 2 "moved.replay:$lines: the end's records hash" -- \
  "$td" sim --replay "$tmp/moved.replay"
sed -E 's/^end 1946 won 8 /end 1946 won 9 /' "$tmp/a.replay" >"$tmp/lives.replay"
expect "end lives edited" 1 "lives.replay:$lines: the game ended won at tick 1946 with 8 lives, 851 gold" -- \
  "$td" sim --replay "$tmp/lives.replay" --quiet
grep -q "the replay says won at tick 1946 with 9 lives" "$tmp/err"; check $? "lives: $(cat "$tmp/err")"
sed -E 's/^end 1946 won 8 851 /end 1946 won 8 850 /' "$tmp/a.replay" >"$tmp/gold.replay"
expect "end gold edited" 1 "the replay says won at tick 1946 with 8 lives, 850 gold" -- "$td" sim --replay "$tmp/gold.replay" --quiet
sed -E 's/^end 1946 won /end 1946 lost /' "$tmp/a.replay" >"$tmp/result.replay"
expect "end result edited" 1 "the replay says lost at tick 1946" -- "$td" sim --replay "$tmp/result.replay" --quiet
sed -E 's/^end 1946 /end 1947 /' "$tmp/a.replay" >"$tmp/tick.replay"
expect "end tick edited" 1 "the replay says won at tick 1947" -- "$td" sim --replay "$tmp/tick.replay" --quiet
printf 'td-replay 1\nmap %s 7c70d88be6001861\nmod %s 45b32e7f76f5224d\nend 1946 won 8 ee75e78cddd72235\n' \
  $map $mod >"$tmp/v1.replay"
expect "version 1" 2 "v1.replay:1: a version 1 replay: this td reads version 4" -- "$td" sim --replay "$tmp/v1.replay"

# the map's name: the bundled mod reads it (td.map_name), so a copy under
# another name plays another game, and is refused as another map
cp $map "$tmp/copy.tmx"
expect "bundled" 0 "" -- "$td" sim --map $map --auto --ticks 1200 --record "$tmp/base.replay" --json
orig=$(grep -o '"checksum":"[0-9a-f]*"}' "$tmp/out")
expect "bundled copy" 0 "" -- "$td" sim --map "$tmp/copy.tmx" --auto --ticks 1200 --json
[ "$(grep -o '"checksum":"[0-9a-f]*"}' "$tmp/out")" != "$orig" ]
check $? "copy: the bundled mod played the same game under another name"
expect "copy replay" 2 "base.replay: made with a map named '01-crossroads', not 'copy'" -- \
  "$td" sim --replay "$tmp/base.replay" --map "$tmp/copy.tmx"
expect "save original" 0 "" -- "$td" sim --map $map --idle --ticks 700 --save-at 600 --save "$tmp/o.tds"
expect "copy load" 2 "o.tds: made with another map than $tmp/copy.tmx (its content or its name 'copy'" -- \
  "$td" sim --map "$tmp/copy.tmx" --load "$tmp/o.tds"

# options a replay or a save fixes: refused when they disagree
expect "replay seed" 2 "a.replay: played with seed 1, not 5 (a replay keeps its seed)" -- \
  "$td" sim --replay "$tmp/a.replay" --seed 5
expect "replay same seed" 0 "" -- "$td" sim --replay "$tmp/a.replay" --seed 1 --quiet
expect "replay endless" 2 "a.replay: not played endless" -- "$td" sim --replay "$tmp/a.replay" --endless
expect "replay ticks" 2 "a.replay: --ticks 100 stops before the replay's end (tick 1946" -- \
  "$td" sim --replay "$tmp/a.replay" --ticks 100
expect "save" 0 "" -- "$td" sim --map $map --mod $mod --idle --save-at 700 --save "$tmp/g.tds" --quiet
expect "load seed" 2 "g.tds: saved with seed 1, not 4 (a save keeps its seed)" -- \
  "$td" sim --map $map --mod $mod --load "$tmp/g.tds" --seed 4
expect "load same seed" 0 "" -- "$td" sim --map $map --mod $mod --load "$tmp/g.tds" --seed 1 --quiet
expect "load endless" 2 "g.tds: not saved endless" -- "$td" sim --map $map --mod $mod --load "$tmp/g.tds" --endless

# --save-at a tick the game never reaches: refused up front, or reported
expect "save-at before the save" 2 "g.tds: saved at tick 700, after --save-at 600" -- \
  "$td" sim --map $map --mod $mod --load "$tmp/g.tds" --save-at 600 --save "$tmp/h.tds"
[ ! -s "$tmp/out" ]; check $? "save-at before the save: played anyway: $(head -c 200 "$tmp/out")"
expect "save-at beyond ticks" 2 "sim: --save-at 500: beyond the last tick the game may run, 100 (--ticks 100)" -- \
  "$td" sim --map $map --mod $mod --idle --ticks 100 --save-at 500 --save "$tmp/h.tds"
[ ! -s "$tmp/out" ]; check $? "save-at beyond ticks: played anyway"
expect "save-at beyond the replay" 2 "sim: --save-at 5000: the replay $tmp/a.replay ends at tick 1946" -- \
  "$td" sim --replay "$tmp/a.replay" --save-at 5000 --save "$tmp/h.tds"
expect "save-at after the end" 2 "sim: --save-at 99999: the game ended at tick 2235 before it; nothing was saved to $tmp/h.tds" -- \
  "$td" sim --map $map --mod $mod --idle --save-at 99999 --save "$tmp/h.tds" --quiet
grep -q '^result: lost at tick 2235 ' "$tmp/out"; check $? "save-at after the end: the report"
[ ! -e "$tmp/h.tds" ]; check $? "save-at: a file was written"
expect "save-at the last tick" 0 "" -- "$td" sim --map $map --mod $mod --idle --ticks 700 --save-at 700 --save "$tmp/h.tds"
grep -q "^saved $tmp/h.tds at tick 700$" "$tmp/out"; check $? "save-at the last tick: $(grep saved "$tmp/out")"

# a map path with blanks, '#' and '"': recorded quoted, read back exactly
odd="$tmp/my map #2 \"x\".tmx"
cp $map "$odd"
expect "odd path" 0 "" -- "$td" sim --map "$odd" --mod $mod --auto --record "$tmp/odd.replay" --quiet
grep -qxF "map \"$tmp/my map #2 \\\"x\\\".tmx\" $(grep '^map' "$tmp/odd.replay" | awk '{print $NF}')" "$tmp/odd.replay"
check $? "odd path: $(grep '^map' "$tmp/odd.replay")"
expect "odd path replay" 0 "" -- "$td" sim --replay "$tmp/odd.replay"
grep -q "^game: $tmp/my map #2 \"x\".tmx, " "$tmp/out"; check $? "odd path: $(head -1 "$tmp/out")"
# a control character cannot be written: refused before the game plays
ctl="$tmp/a$(printf '\001')b.tmx"
cp $map "$ctl"
expect "control character" 2 "cannot write" -- "$td" sim --map "$ctl" --mod $mod --auto --record "$tmp/ctl.replay"
[ ! -s "$tmp/out" ]; check $? "control character: played anyway: $(head -c 200 "$tmp/out")"

finish
