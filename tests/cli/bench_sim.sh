#!/usr/bin/env bash
# td bench sim: the smoke cases (--quick: 1k-40 and soldiers-200) as text and
# as JSON lines, the checksum agreement between runs, and usage errors.
set -u
source "$(dirname "$0")/harness.bash"
cd "$src" || exit 1 # the bench mod is tests/data/mods/bench

"$td" bench sim --quick >"$tmp/out" 2>"$tmp/err"
rc=$?
check $rc "quick run exits 0 ($(cat "$tmp/err"))"
grep -q "^td bench sim  (seed 1, 60 ticks/s" "$tmp/out"; check $? "text header"
grep -qE "^case +enemies +towers +map +ms/tick +p90 ms +ns/enemy +lua ms +lua +hits/t +kill/t +base ms +x base +checksum +target$" \
  "$tmp/out"
check $? "column heads"
row='^1k-40 +1000 +40 +[0-9]+x[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+% +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+x [0-9a-f]{16}  -$'
grep -qE "$row" "$tmp/out"; check $? "text row for 1k-40 ($(grep '^1k' "$tmp/out"))"
[ "$(grep -c '^10k' "$tmp/out")" -eq 0 ]; check $? "--quick leaves out 10k-200"
grep -q "^lua = time in the mod's hooks" "$tmp/out"; check $? "text legend"
# the soldiers' own table: 200 soldiers, half of them fighting at least a
# little, the ratio to the world without soldiers
grep -qE "^case +enemies +soldiers +fighting +ms/tick +p90 ms +base ms +x base +checksum$" "$tmp/out"
check $? "soldier column heads"
row='^soldiers-200 +2000 +200 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+x [0-9a-f]{16}$'
grep -qE "$row" "$tmp/out"; check $? "text row for soldiers-200 ($(grep '^soldiers' "$tmp/out"))"
grep -q "^fighting = soldiers in ENGAGE or ATTACK" "$tmp/out"; check $? "soldier legend"
sum1=$(awk '/^1k-40 /{print $14}' "$tmp/out")
ssum1=$(awk '/^soldiers-200 /{print $9}' "$tmp/out")

# a second process, same seed: the same checksum
"$td" bench sim --quick >"$tmp/out2" 2>"$tmp/err"
check $? "second run exits 0 ($(cat "$tmp/err"))"
sum2=$(awk '/^1k-40 /{print $14}' "$tmp/out2")
[ -n "$sum1" ] && [ "$sum1" = "$sum2" ]; check $? "two processes, same checksum ($sum1, $sum2)"
ssum2=$(awk '/^soldiers-200 /{print $9}' "$tmp/out2")
[ -n "$ssum1" ] && [ "$ssum1" = "$ssum2" ]; check $? "soldiers: two processes, same checksum ($ssum1, $ssum2)"

# JSON: every metric, once
"$td" bench sim --quick --json >"$tmp/json" 2>"$tmp/err"
check $? "json run exits 0 ($(cat "$tmp/err"))"
for m in enemies towers ticks ms_per_tick p90_ms ns_per_enemy lua_ms lua_share hits_per_tick \
         kills_per_tick base_ms over_base; do
  grep -qE "^\{\"bench\":\"sim\",\"case\":\"1k-40\",\"metric\":\"$m\",\"value\":[0-9.e+-]+\}$" "$tmp/json"
  check $? "json metric $m"
done
for m in enemies soldiers fighting ticks ms_per_tick p90_ms base_ms over_base; do
  grep -qE "^\{\"bench\":\"sim\",\"case\":\"soldiers-200\",\"metric\":\"$m\",\"value\":[0-9.e+-]+\}$" "$tmp/json"
  check $? "json metric soldiers-200 $m"
done
[ "$(wc -l <"$tmp/json")" -eq 20 ]; check $? "one line per metric (no target at 1k)"
grep -q '"case":"soldiers-200","metric":"soldiers","value":200}' "$tmp/json"; check $? "200 soldiers"
fighting=$(sed -n 's/.*"soldiers-200","metric":"fighting","value":\([0-9.e+-]*\)}/\1/p' "$tmp/json")
awk -v f="$fighting" 'BEGIN { exit !(f > 0 && f <= 200) }'; check $? "soldiers fought (got $fighting)"
grep -q '"metric":"enemies","value":1000}' "$tmp/json"; check $? "1000 enemies"
grep -q '"metric":"towers","value":40}' "$tmp/json"; check $? "40 towers"
# the Lua share is a share, and the towers fought (hits and kills each tick)
share=$(sed -n 's/.*"metric":"lua_share","value":\([0-9.e+-]*\)}/\1/p' "$tmp/json")
awk -v s="$share" 'BEGIN { exit !(s > 0 && s < 1) }'; check $? "0 < lua_share < 1 (got $share)"
hits=$(sed -n 's/.*"metric":"hits_per_tick","value":\([0-9.e+-]*\)}/\1/p' "$tmp/json")
awk -v h="$hits" 'BEGIN { exit !(h > 0) }'; check $? "towers hit (got $hits per tick)"

"$td" bench sim --case soldiers-200 >"$tmp/out" 2>"$tmp/err"
check $? "the soldier case alone ($(cat "$tmp/err"))"
[ "$(grep -c '^1k-40' "$tmp/out")" -eq 0 ] && grep -q '^soldiers-200 ' "$tmp/out"
check $? "--case soldiers-200 runs only it"
expect "unknown case" 2 "td: bench sim: no case named '2k'" -- "$td" bench sim --case 2k
"$td" bench --help | grep -q "sim     full game ticks"; check $? "help lists sim"

finish
