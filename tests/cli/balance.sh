#!/usr/bin/env bash
# The bundled content's balance (docs/balance.md): on every map the
# built-in player (td sim --auto) wins and nobody (--idle) loses.
# tools/balance.py --check plays 01..05 in full. The large map
# (06-expanse, 256x256 cells, 30 waves) takes minutes with --auto, so here
# it gets the shorter check: --idle loses, and --auto holds the first ten
# waves without losing a life (tools/balance.py plays it in full when it
# regenerates docs/balance.md).
set -u
source "$(dirname "$0")/harness.bash"

python3 "$src/tools/balance.py" --td "$td" --check --jobs 2 \
  --maps 01-crossroads,02-grid,03-serpent,04-foundry,05-twin >"$tmp/out" 2>"$tmp/err"
check $? "balance: $(cat "$tmp/err") $(cat "$tmp/out")"

big=$src/maps/06-expanse.tmx
expect "expanse idle" 0 "" -- "$td" sim --map "$big" --idle --json
grep -q '"result":"lost"' "$tmp/out"; check $? "expanse: --idle does not lose"
# ten waves: the first starts after 20 s, one every 35 s after
expect "expanse auto" 0 "" -- "$td" sim --map "$big" --auto --json --ticks $(((20 + 35 * 10) * 60))
grep -q '"result":"playing"' "$tmp/out"; check $? "expanse: --auto did not last ten waves"
grep -q '"lives":30,' "$tmp/out"; check $? "expanse: --auto lost lives in ten waves: $(grep -o '"lives":[0-9]*' "$tmp/out")"

finish
