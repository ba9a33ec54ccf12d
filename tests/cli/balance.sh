#!/usr/bin/env bash
# The bundled content's balance (docs/balance.md): on every map the
# built-in player (td sim --auto) wins and nobody (--idle) loses, on
# normal. Run through td sweep (docs/sweep.md): 01..05 in full, checked by
# `td sweep report --check`. The large map (06-expanse, 256x256 cells, 30
# waves) takes minutes with --auto, so here it gets the shorter check:
# --idle loses, and --auto holds the first ten waves without losing a life
# (sweeps/balance.lua and sweeps/full.lua play it in full when
# docs/balance.md is regenerated).
set -u
source "$(dirname "$0")/harness.bash"

cat >"$tmp/check.lua" <<'LUA'
sweep {
  maps = {"01-crossroads", "02-grid", "03-serpent", "04-foundry", "05-twin"},
  difficulties = {"normal"},
  players = {"auto", "idle"},
}
LUA
"$td" sweep run "$tmp/check.lua" --jobs 2 --out "$tmp/bal" 2>"$tmp/err"
check $? "balance: sweep run: $(cat "$tmp/err")"
"$td" sweep report "$tmp/bal" --check 2>"$tmp/err"
check $? "balance: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/bal/sweep.csv")" -eq 11 ]; check $? "balance: not 10 games in sweep.csv"

big=$src/maps/06-expanse.tmx
expect "expanse idle" 0 "" -- "$td" sim --map "$big" --idle --json
grep -q '"result":"lost"' "$tmp/out"; check $? "expanse: --idle does not lose"
# ten waves: the first starts after 20 s, one every 35 s after
expect "expanse auto" 0 "" -- "$td" sim --map "$big" --auto --json --ticks $(((20 + 35 * 10) * 60))
grep -q '"result":"playing"' "$tmp/out"; check $? "expanse: --auto did not last ten waves"
grep -q '"lives":30,' "$tmp/out"; check $? "expanse: --auto lost lives in ten waves: $(grep -o '"lives":[0-9]*' "$tmp/out")"

finish
