#!/usr/bin/env bash
# td path: solves MovingAI scenarios; exit 0 when every length matches, 1 on
# a mismatch, 2 on bad usage or input, with one-line errors on stderr.
set -euo pipefail
: "${TD_BIN:?TD_BIN must name the td executable}"
: "${TD_SOURCE_DIR:?TD_SOURCE_DIR must name the source tree}"
data="$TD_SOURCE_DIR/tests/data"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# run EXPECTED_STATUS ARGS...: runs td, keeps stdout/stderr in $tmp/out, $tmp/err
run() {
  local want=$1; shift
  local got=0
  "$TD_BIN" "$@" >"$tmp/out" 2>"$tmp/err" || got=$?
  [ "$got" = "$want" ] || fail "td $* exited $got, expected $want: $(cat "$tmp/err")"
}
has() { grep -qF -- "$2" "$tmp/$1" || fail "$1 lacks '$2': $(cat "$tmp/$1")"; }

# good scenarios: one line per query, then the totals
run 0 path --movingai "$data/path8.map" --scen "$data/path8.scen"
[ "$(wc -l <"$tmp/out")" = 6 ] || fail "expected 6 lines: $(cat "$tmp/out")"
has out "   12.00000000    12.00000000"
has out "   13.41421356    13.41421356"
has out "scenarios: 5, mismatches: 0"
[ ! -s "$tmp/err" ] || fail "stderr not empty: $(cat "$tmp/err")"

run 0 path --movingai "$data/path32.map" --scen "$data/path32.scen"
has out "scenarios: 24, mismatches: 0"

# JPS (the default) and A* print the same lengths; their expansions differ
for m in path8 path32; do
  run 0 path --movingai "$data/$m.map" --scen "$data/$m.scen" --algo astar
  cp "$tmp/out" "$tmp/astar.txt"
  run 0 path --movingai "$data/$m.map" --scen "$data/$m.scen" --algo jps
  cmp -s "$tmp/out" "$tmp/astar.txt" || fail "$m: jps and astar print different lengths"
  run 0 path --movingai "$data/$m.map" --scen "$data/$m.scen" --algo astar --json
  sed 's/"expansions":[0-9]*,//' "$tmp/out" >"$tmp/astar.json"
  grep -o '"expansions":[0-9]*' "$tmp/out" | cut -d: -f2 >"$tmp/astar.exp"
  run 0 path --movingai "$data/$m.map" --scen "$data/$m.scen" --json
  sed 's/"expansions":[0-9]*,//' "$tmp/out" >"$tmp/jps.json"
  grep -o '"expansions":[0-9]*' "$tmp/out" | cut -d: -f2 >"$tmp/jps.exp"
  cmp -s "$tmp/jps.json" "$tmp/astar.json" || fail "$m: jps and astar JSON differ beyond expansions"
  paste "$tmp/jps.exp" "$tmp/astar.exp" | awk '$1 > $2 { bad = 1 } END { exit bad }' ||
    fail "$m: jps expanded more than A* on a query"
done

# JSON: one object per query and one with the totals
run 0 path --json --movingai "$data/path8.map" --scen "$data/path8.scen"
[ "$(grep -c '^{"line":' "$tmp/out")" = 5 ] || fail "expected 5 query objects"
has out '"start":[3,4],"goal":[3,6],"expected":12,"computed":12,'
has out '{"scenarios":5,"mismatches":0}'

# a wrong expected length is a failed check
run 1 path --movingai "$data/path8.map" --scen "$data/path8_wrong.scen"
has out "   11.00000000    12.00000000  mismatch (${data}/path8_wrong.scen:3)"
has out "scenarios: 5, mismatches: 1"
run 1 path --movingai "$data/path8.map" --scen "$data/path8_wrong.scen" --json
has out '"expected":11,"computed":12,'
has out '"mismatch":true}'

# bad input: exit 2, one line on stderr, nothing on stdout
bad() {
  local want=$1; shift
  run 2 "$@"
  [ "$(wc -l <"$tmp/err")" = 1 ] || fail "td $*: expected one error line: $(cat "$tmp/err")"
  has err "td: "
  has err "$want"
  [ ! -s "$tmp/out" ] || fail "td $*: stdout not empty: $(cat "$tmp/out")"
}
bad "$data/missing.map: cannot open" path --movingai "$data/missing.map" --scen "$data/path8.scen"
bad "$data/missing.scen: cannot open" path --movingai "$data/path8.map" --scen "$data/missing.scen"
bad "bad_row.map:7: row 2 has 7 cells, expected 8" \
  path --movingai "$data/bad_row.map" --scen "$data/path8.scen"
bad "bad_truncated.map:7: file ends after 3 of 8 rows" \
  path --movingai "$data/bad_truncated.map" --scen "$data/path8.scen"
bad "bad_fields.scen:2: 8 fields, expected 9" \
  path --movingai "$data/path8.map" --scen "$data/bad_fields.scen"
bad "path8_size.scen:2: query is for a 9x8 map, but $data/path8.map is 8x8" \
  path --movingai "$data/path8.map" --scen "$data/path8_size.scen"
bad "td: path: unknown option '--fast'" path --fast
bad "td: path: --movingai MAP and --scen SCEN are both required" path --movingai "$data/path8.map"
bad "td: path: --scen needs a file name" path --movingai "$data/path8.map" --scen
bad "td: path: --algo 'dijkstra': jps or astar" path --movingai "$data/path8.map" --scen "$data/path8.scen" --algo dijkstra
bad "td: path: --algo needs jps or astar" path --movingai "$data/path8.map" --scen "$data/path8.scen" --algo

# help: usage on stdout, exit 0
run 0 path --help
has out "usage: td path --movingai MAP --scen SCEN [--algo jps|astar] [--json]"
echo "cli path: ok"
