#!/usr/bin/env bash
# td bench path (issue 23): JPS against A* on generated and bundled grid
# maps; the quick run's JSON metrics, the text table, the project's maps
# read from the source tree, usage errors. (Speed is not asserted here; the
# bench itself exits 1 when JPS and A* disagree on a length.)
set -u
source "$(dirname "$0")/harness.bash"

"$td" bench path --quick --json >"$tmp/out" 2>"$tmp/err"
check $? "quick json run exits 0 ($(cat "$tmp/err"))"
for c in open random-20 rooms-16 maze-4 maze-32 path8 path32 02-grid 04-foundry; do
  for m in queries astar_expansions jps_expansions astar_ms jps_ms speedup; do
    grep -qE "^\{\"bench\":\"path\",\"case\":\"$c\",\"metric\":\"$m\",\"value\":[0-9.e+-]+\}$" "$tmp/out"
    check $? "json: $c $m"
  done
  grep -q "\"case\":\"$c\",\"metric\":\"queries\",\"value\":20}" "$tmp/out"
  check $? "json: $c ran 20 queries"
done
[ "$(wc -l <"$tmp/out")" -eq 54 ]; check $? "one line per case and metric"
# JPS expands fewer nodes than A* on the open map and the mazes
python3 - "$tmp/out" <<'PY'
import json, sys
m = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    m[d["case"], d["metric"]] = d["value"]
bad = [c for c in ("open", "rooms-16", "maze-4", "maze-32")
       if not m[c, "jps_expansions"] < m[c, "astar_expansions"]]
sys.exit(1 if bad else 0)
PY
check $? "JPS expands fewer than A* on open, rooms and mazes"

"$td" bench path --case path32 >"$tmp/out" 2>"$tmp/err"
check $? "text run exits 0"
grep -qE "^path32 +32x32 +300 " "$tmp/out"; check $? "text row for path32: $(cat "$tmp/out")"
grep -q "published" "$tmp/out"; check $? "the published figures follow the table"

TD_SOURCE_DIR=$tmp/none "$td" bench path --case path8 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ]; check $? "a missing map file: exit 2"
grep -q "bench path: case .path8.: its file is missing" "$tmp/err"; check $? "missing file message: $(cat "$tmp/err")"
grep -q "path8 *skipped: tests/data/path8.map not found" "$tmp/out"; check $? "skipped note: $(cat "$tmp/out")"

"$td" bench path --case nope >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ]; check $? "unknown case: exit 2"
[ ! -s "$tmp/out" ]; check $? "unknown case: nothing on stdout"
grep -q "bench path: no case 'nope'" "$tmp/err"; check $? "unknown case message: $(cat "$tmp/err")"

finish
