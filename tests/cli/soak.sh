#!/usr/bin/env bash
# td soak, the short form of the hour-long soak (docs/cli.md#td-soak): ten
# simulated minutes of endless mode under random commands, legal and
# illegal; the summary's invariants; the same seed gives the same summary;
# a mod whose handlers spawn enemies; bad options and a broken map.
set -u
source "$(dirname "$0")/harness.bash"
cd "$src" || exit 1

# the output without the wall time, the count of checks (--every) and the
# memory figures: the Lua state's tables grow with its string hashes, which
# Lua seeds per state from its address and the clock, so the bytes held
# differ by a few kilobytes from run to run (the game does not: checksums)
summary() {
  grep -v '^wall \|^checks \|^memory ' "$1" | sed -e 's/  wall .*//' -e 's/  live  *[0-9.]* MiB//' \
    -e 's/^quarters .* at /quarters at /' -e 's/; limit .*//'
}

# ten simulated minutes: the progress line, the summary, every invariant held
expect "soak" 0 "" -- "$td" soak --ticks 36000 --seed 1
cp "$tmp/out" "$tmp/a.txt"
grep -q '^soak: maps/01-crossroads.tmx, mod scripts/base, seed 1, 36000 ticks, endless$' "$tmp/a.txt"
check $? "soak: header line: $(head -1 "$tmp/a.txt")"
grep -qE '^tick   36000 \(0:10:00\)  game +[0-9]+  wave +[0-9]+  enemies +[0-9]+  towers +[0-9]+  live +[0-9.]+ MiB  wall +[0-9.]+ s$' "$tmp/a.txt"
check $? "soak: progress line"
grep -qE '^ticks +36000 \(0:10:00 simulated\), [0-9]+ games?, [0-9]+ restarts? after a lost game$' "$tmp/a.txt"
check $? "soak: ticks line: $(grep '^ticks' "$tmp/a.txt")"
grep -qE '^result +ok$' "$tmp/a.txt"; check $? "soak: result"
grep -qE '^memory .*, 0 bytes left after the last game$' "$tmp/a.txt"; check $? "soak: memory given back"

# every enemy accounted for: spawned = killed + leaked + alive + left in lost games
read -r s k l a x < <(sed -nE 's/^enemies +([0-9]+) spawned = ([0-9]+) killed \+ ([0-9]+) leaked \+ ([0-9]+) alive \+ ([0-9]+) left in lost games$/\1 \2 \3 \4 \5/p' "$tmp/a.txt")
[ -n "${s:-}" ] && [ "$s" -gt 0 ] && [ "$k" -gt 0 ] && [ "$s" -eq $((k + l + a + x)) ]
check $? "soak: enemies line: $(grep '^enemies' "$tmp/a.txt")"

# the random player gave every kind of command, and the world refused the
# illegal ones for their reasons
for kind in place upgrade sell target call_wave pause resume no_kind; do
  grep -qE "^commands .* $kind [1-9][0-9]*" "$tmp/a.txt"; check $? "soak: no '$kind' command issued"
done
for why in no_base occupied no_tower gold cuts_route no_upgrade bad_command; do
  grep -qE "^refused .* $why [1-9][0-9]*" "$tmp/a.txt"; check $? "soak: no '$why' refusal"
done

# the memory criterion was judged against a limit
grep -qE '^quarters +[0-9.]+ / [0-9.]+ / [0-9.]+ / [0-9.]+ MiB at [0-9]+ / [0-9]+ / [0-9]+ / [0-9]+ enemies; limit [0-9.]+ MiB$' "$tmp/a.txt"
check $? "soak: quarters line: $(grep '^quarters' "$tmp/a.txt")"

# the same seed: the same summary (memory figures included); another seed: another game
expect "soak again" 0 "" -- "$td" soak --ticks 36000 --seed 1 --every 45
[ "$(summary "$tmp/a.txt")" = "$(summary "$tmp/out")" ]
check $? "soak: seed 1 twice (and checked more often) gave two summaries"
expect "soak seed 2" 0 "" -- "$td" soak --ticks 36000 --seed 2 --quiet
[ "$(grep '^enemies' "$tmp/a.txt")" != "$(grep '^enemies' "$tmp/out")" ]
check $? "soak: seeds 1 and 2 gave the same game"
[ "$(grep -c '^tick ' "$tmp/out")" -eq 0 ]; check $? "soak: --quiet printed progress lines"

# JSON: one object, the same figures
expect "json" 0 "" -- "$td" soak --ticks 36000 --seed 1 --json
[ "$(wc -l <"$tmp/out")" -eq 1 ]; check $? "json: not one line"
grep -qE "^\{\"map\":\"maps/01-crossroads.tmx\",\"mod\":\"scripts/base\",\"seed\":1,\"ticks\":36000,.*\"enemies\":\{\"spawned\":$s,\"killed\":$k,\"leaked\":$l,\"alive\":$a,\"left_in_lost_games\":$x,.*\"result\":\"ok\",\"failure\":null,\"wall_s\":[0-9.]+\}$" "$tmp/out"
check $? "json: $(head -c 400 "$tmp/out")"

# a mod whose handlers hurt, pay and spawn enemies (td.spawn): still accounted for
expect "game_api mod" 0 "" -- "$td" soak --ticks 12000 --seed 5 --mod tests/data/mods/game_api --quiet
grep -qE '^result +ok$' "$tmp/out"; check $? "game_api mod: result"

# bad input: exit 2, one line
printf 'return {\n  orientation = "orthogonal",\n  width = = 3 }\n' >"$tmp/broken.lua"
expect "broken map" 2 "broken.lua:3:" -- "$td" soak --map "$tmp/broken.lua" --ticks 100
expect "no map" 2 "nope.lua: cannot open" -- "$td" soak --map "$tmp/nope.lua" --ticks 100
expect "no mod" 2 "mod.lua: cannot open" -- "$td" soak --mod "$tmp/nomod" --ticks 100
expect "zero ticks" 2 "soak: --ticks: expected a number 1 .. " -- "$td" soak --ticks 0
expect "bad seed" 2 "soak: --seed: expected a number 0 .. " -- "$td" soak --seed -1
expect "bad every" 2 "soak: --every: expected a number 1 .. " -- "$td" soak --every x
expect "no value" 2 "soak: --map needs a value" -- "$td" soak --map
expect "unknown" 2 "soak: unknown argument '--fast'" -- "$td" soak --fast
expect "help" 0 "" -- "$td" soak --help
grep -q '^usage: td soak \[--ticks N\] \[--seed N\] \[--map FILE\] \[--mod DIR\] \[--every N\]$' "$tmp/out"
check $? "help: usage"

finish
