# Shared by the CLI tests (tests/cli/*.sh source it; not a test itself).
# Needs TD_BIN and TD_SOURCE_DIR; sets td, src, tmp (removed on exit), and
# the counters that the closing line reports.
td=${TD_BIN:?TD_BIN not set}
src=${TD_SOURCE_DIR:?TD_SOURCE_DIR not set}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
pass=0

# check STATUS MESSAGE: the status comes first, so that $? is expanded before
# any $(...) in the message runs and resets it.
check() {
  if [ "$1" -eq 0 ]; then pass=$((pass + 1)); else echo "FAIL: $2"; fails=$((fails + 1)); fi
}

# expect NAME STATUS STDERR-SUBSTRING -- command...: runs the command (stdout
# to $tmp/out, stderr to $tmp/err), checks its exit status and, when a
# substring is given, that stderr is one line "td: ..." containing it.
expect() {
  local name=$1 want=$2 msg=$3
  shift 4
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [ "$got" -eq "$want" ]; check $? "$name: exit $got, expected $want ($(head -c 300 "$tmp/err"))"
  if [ -n "$msg" ]; then
    grep -qF -- "$msg" "$tmp/err"; check $? "$name: stderr lacks '$msg': $(cat "$tmp/err")"
    [ "$(wc -l <"$tmp/err")" -eq 1 ]; check $? "$name: error is not one line"
    grep -q '^td: ' "$tmp/err"; check $? "$name: error does not start with 'td: '"
  fi
}

# same_game NAME FULL.json LOADED.json [MIN]: a loaded game's td sim --json
# against the uninterrupted one's: every checksum both have agrees (at least
# MIN of them, 1 by default), and so do the ends.
same_game() {
  python3 - "$2" "$3" "${4:-1}" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ca = {c["tick"]: c["checksum"] for c in a["checksums"]}
cb = {c["tick"]: c["checksum"] for c in b["checksums"]}
common = sorted(t for t in cb if t in ca)
bad = [t for t in common if ca[t] != cb[t]]
assert len(common) >= int(sys.argv[3]), "too few checksums in common"
assert not bad, "parted at tick %d" % bad[0]
for k in ("checksum", "ticks", "result", "kills", "leaks", "lives", "gold", "built"):
    assert a[k] == b[k], "%s: %r, loaded %r" % (k, a[k], b[k])
PY
  check $? "$1: the loaded game parts from the uninterrupted one"
}

# skip REASON: the test cannot run here (a tool it drives is missing): one
# "SKIP: REASON" line, and exit status 77, which ctest counts as skipped
# (SKIP_RETURN_CODE in tests/CMakeLists.txt), not passed.
skip() {
  echo "SKIP: $*"
  exit 77
}

# The closing line, and the script's status.
finish() {
  echo "$pass passed, $fails failed"
  [ "$fails" -eq 0 ]
}
