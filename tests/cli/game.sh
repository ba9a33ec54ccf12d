#!/usr/bin/env bash
# td sim with a player: whole games headless (--auto, --idle), replays
# recorded and played back to the same checksums, golden replays, saves
# continued, and every refusal with its file:line.
set -u
source "$(dirname "$0")/harness.bash"
cd "$src" || exit 1
map=maps/01-crossroads.tmx
mod=tests/data/mods/game_api

# a whole game by the built-in player, recorded
expect "auto" 0 "" -- "$td" sim --map $map --mod $mod --auto --record "$tmp/a.replay"
grep -q '^game: maps/01-crossroads.tmx, mod tests/data/mods/game_api, seed 1, normal, player auto$' "$tmp/out"
check $? "auto: header line: $(head -1 "$tmp/out")"
grep -qE '^result: (won|lost) at tick [0-9]+ ' "$tmp/out"; check $? "auto: result line"
grep -qE '^tick +600  wave +[0-9]+  gold +[0-9]+  lives +[0-9]+  enemies +[0-9]+  towers +[0-9]+  checksum [0-9a-f]{16}$' "$tmp/out"
check $? "auto: checksum lines"
grep -qE '^cmd 0 place [0-9]+ arrow$' "$tmp/a.replay"; check $? "auto: the replay holds its first placement"
grep -qE '^end [0-9]+ (won|lost) [0-9]+ -?[0-9]+ [0-9a-f]{16} [0-9a-f]{16}$' "$tmp/a.replay"; check $? "auto: the replay's end"
final=$(grep '^checksum' "$tmp/out")

# played back: same checksums, same end
expect "replay" 0 "" -- "$td" sim --replay "$tmp/a.replay"
grep -q "^replay: [0-9]* commands, [0-9]* checksums and the end match$" "$tmp/out"; check $? "replay: verdict"
[ "$(grep '^checksum' "$tmp/out")" = "$final" ]; check $? "replay: final checksum"

# another seed: the game parts from the recording at the first check, exit 1
sed 's/^seed 1$/seed 2/' "$tmp/a.replay" >"$tmp/b.replay"
expect "parted" 1 "b.replay: tick 600: checksum" -- "$td" sim --replay "$tmp/b.replay" --quiet
grep -q "the replay says $(grep '^check 600 ' "$tmp/a.replay" | cut -d' ' -f3): the game has parted from the recording" "$tmp/err"
check $? "parted: names the recorded checksum: $(cat "$tmp/err")"

# a checksum changed or a command removed: the end's records hash no longer
# matches the lines, refused before the game plays (tests/cli/replay.sh has more)
sed '0,/^check 1200 .*/s//check 1200 00000000000000ff/' "$tmp/a.replay" >"$tmp/b.replay"
expect "tampered" 2 "b.replay:$(wc -l <"$tmp/a.replay"): the end's records hash" -- "$td" sim --replay "$tmp/b.replay"
grep -v '^cmd 0 ' "$tmp/a.replay" >"$tmp/c.replay"
expect "missing command" 2 "a line was changed, moved or removed" -- "$td" sim --replay "$tmp/c.replay"

# golden replays, committed: the engine still plays them bit for bit
# (regenerate after an intended change: docs/cli.md#replays)
for r in tests/data/replays/*.replay; do
  expect "golden $(basename "$r")" 0 "" -- "$td" sim --replay "$r" --quiet
done

# JSON
expect "json" 0 "" -- "$td" sim --map $map --mod $mod --idle --json
grep -qE '^\{"map":"maps/01-crossroads.tmx","mod":"tests/data/mods/game_api","mods":\["tests/data/mods/game_api"\],"seed":1,"difficulty":"normal","player":"idle",.*"result":"lost",.*"towers":0,.*"wave_starts":\[\{"wave":1,.*"checksum":"[0-9a-f]{16}"\}$' "$tmp/out"
check $? "json: $(head -c 300 "$tmp/out")"

# doing nothing loses
expect "idle" 0 "" -- "$td" sim --map $map --mod $mod --idle --quiet
grep -q '^result: lost ' "$tmp/out"; check $? "idle: lost"

# saved mid-game and continued: the same end as the game played through
expect "through" 0 "" -- "$td" sim --map $map --mod $mod --idle
through=$(grep '^checksum' "$tmp/out")
expect "save" 0 "" -- "$td" sim --map $map --mod $mod --idle --save-at 700 --save "$tmp/g.tds"
grep -q "^saved $tmp/g.tds at tick 700$" "$tmp/out"; check $? "save: line"
! ls "$tmp" | grep -q '\.tmp$'; check $? "save: no temporary left: $(ls "$tmp")"
expect "load" 0 "" -- "$td" sim --map $map --mod $mod --load "$tmp/g.tds"
[ "$(grep '^checksum' "$tmp/out")" = "$through" ]; check $? "load: the same end as played through"
head -c 200 "$tmp/g.tds" >"$tmp/cut.tds"
expect "cut save" 2 "cut.tds: corrupt or truncated" -- "$td" sim --map $map --mod $mod --load "$tmp/cut.tds"
expect "other mod" 2 "made with the mods game_api, this game has base" -- "$td" sim --map $map --load "$tmp/g.tds"
echo "not a save" >"$tmp/no.tds"
expect "not a save" 2 "no.tds: not a td save" -- "$td" sim --map $map --load "$tmp/no.tds"

# bad replays: file:line
printf 'td-replay 2\nmap %s 0000000000000000\nmod %s 0000000000000000\ncmd 5 plant 9 arrow\n' $map $mod >"$tmp/bad.replay"
expect "bad command" 2 "bad.replay:4: unknown command 'plant'" -- "$td" sim --replay "$tmp/bad.replay"
sed -E 's/^(map [^ ]+) [0-9a-f]+$/\1 0000000000000000/' "$tmp/a.replay" >"$tmp/hash.replay"
expect "other map" 2 "hash.replay: made with another maps/01-crossroads.tmx" -- "$td" sim --replay "$tmp/hash.replay"
expect "no replay" 2 "nope.replay: cannot open" -- "$td" sim --replay "$tmp/nope.replay"

# usage
expect "replay and load" 2 "sim: --replay and --load do not mix" -- "$td" sim --replay "$tmp/a.replay" --load "$tmp/g.tds"
expect "two players" 2 "sim: choose one player" -- "$td" sim --map $map --auto --idle
expect "save alone" 2 "sim: --save-at TICK and --save FILE go together" -- "$td" sim --map $map --auto --save "$tmp/x"
expect "bad ticks" 2 "sim: --ticks: expected a number" -- "$td" sim --map $map --auto --ticks -3
expect "help" 0 "" -- "$td" sim --auto --help
grep -q "^usage: td sim --map FILE (--auto | --idle | --replay FILE | --load SAVE)" "$tmp/out"
check $? "help: usage"

# the difficulty: recorded in the replay, played back, a mismatch refused
expect "hard" 0 "" -- "$td" sim --map maps/01-crossroads.tmx --auto --difficulty hard --ticks 4000 \
  --record "$tmp/hard.replay" --json
grep -q '"difficulty":"hard"' "$tmp/out"; check $? "hard: json says $(grep -o '"difficulty":"[a-z]*"' "$tmp/out")"
grep -q '"start_lives":15,' "$tmp/out"; check $? "hard: scripts/base gives 15 lives on hard"
grep -qx 'difficulty hard' "$tmp/hard.replay"; check $? "hard: the replay lacks 'difficulty hard'"
expect "hard replay" 0 "" -- "$td" sim --replay "$tmp/hard.replay" --quiet
expect "easy replay" 2 "hard.replay: played on hard, not easy" -- "$td" sim --replay "$tmp/hard.replay" --difficulty easy
expect "hard save" 0 "" -- "$td" sim --map maps/01-crossroads.tmx --idle --difficulty hard \
  --ticks 700 --save-at 600 --save "$tmp/hard.tds"
expect "load hard" 0 "" -- "$td" sim --map maps/01-crossroads.tmx --load "$tmp/hard.tds" --ticks 700 --json
grep -q '"difficulty":"hard"' "$tmp/out"; check $? "load: json says $(grep -o '"difficulty":"[a-z]*"' "$tmp/out")"
expect "easy load" 2 "hard.tds: saved on hard, not easy (a save keeps its difficulty)" -- \
  "$td" sim --map maps/01-crossroads.tmx --load "$tmp/hard.tds" --difficulty easy
expect "bad difficulty" 2 "td: sim: --difficulty: expected normal, easy or hard, got 'brutal'" -- \
  "$td" sim --map maps/01-crossroads.tmx --idle --difficulty brutal

finish
