#!/usr/bin/env bash
# What td says when something is wrong (issue 17): a usage error is one
# "td:" line pointing at --help, never the whole usage; a limit is reported
# as a limit (the range), not as a malformed number; control characters
# from a path (or anything else) are escaped; output lost to a full or
# closed stdout is an error (exit 2), never silent.
set -u
source "$(dirname "$0")/harness.bash"
cd "$src" || exit 1
map=maps/01-crossroads.tmx
mod=tests/data/mods/game_api

# ---- usage errors: one line, with the way to the help ----------------------
expect "no command" 2 "td: no command given (see td --help)" -- "$td"
expect "bench without area" 2 "bench: no area given: route, path, crowd, render or sim (see td bench --help)" -- "$td" bench
expect "shot without OUT" 2 "shot: OUT.png is required (see td shot --help)" -- "$td" shot --map $map
expect "shot without map" 2 "shot: --map FILE is required (see td shot --help)" -- "$td" shot "$tmp/x.png"
expect "shot: two outputs" 2 "shot: unexpected argument 'b.png' (see td shot --help)" -- "$td" shot --map $map a.png b.png
expect "check without file" 2 "check: no scenario file given (see td check --help)" -- "$td" check
expect "api: unknown" 2 "api: unknown argument '--html' (see td api --help)" -- "$td" api --html
for c in "" bench "shot --map $map"; do
  "$td" $c >/dev/null 2>"$tmp/err"
  ! grep -q "usage:" "$tmp/err"; check $? "td $c: no usage text on stderr: $(head -3 "$tmp/err")"
done

# ---- limits: the range, and which side of it -------------------------------
expect "ticks too large" 2 "--ticks: '1000000000000000000' is out of range (1 .. 1099511627776)" -- \
  "$td" sim --map $map --spawn count=3 --ticks 1000000000000000000
expect "ticks 1e18" 2 "--ticks: '1e18' is not a whole number (1 .. 1099511627776)" -- \
  "$td" sim --map $map --spawn count=3 --ticks 1e18
expect "speed 1e30" 2 "speed: '1e30' is out of range (-1e+09 .. 1e+09)" -- \
  "$td" sim --map $map --spawn count=3,speed=1e30
expect "speed 1e999" 2 "speed: '1e999' is out of range" -- "$td" sim --map $map --spawn count=3,speed=1e999
expect "speed nan" 2 "speed: 'nan' is not a number" -- "$td" sim --map $map --spawn count=3,speed=nan
expect "spec tick" 2 "tick: '99999999999999999' is out of range (at most 1099511627776)" -- \
  "$td" sim --map $map --spawn count=3,tick=99999999999999999
expect "event tick" 2 "--tower 9@99999999999999999: tick '99999999999999999' is out of range" -- \
  "$td" sim --map $map --spawn count=3 --tower 9@99999999999999999
expect "shot tick" 2 "shot: --tick: '20000000' is out of range (0 .. 10000000)" -- \
  "$td" shot --map $map --tick 20000000 "$tmp/x.png"
expect "shot seed" 2 "shot: --seed: '18446744073709551616' is out of range (0 .. 18446744073709551615)" -- \
  "$td" shot --map $map --seed 18446744073709551616 "$tmp/x.png"
expect "bench placements" 2 "bench: --placements: '20000000' is out of range (0 .. 10000000)" -- \
  "$td" bench route --placements 20000000

# ---- control characters are escaped, the message stays one line -----------
esc=$(printf '\033')
bad=$(printf '%s/\033[31mred\nline\177\302\233x' "$tmp")
expect "escape: route" 2 '\x1b[31mred\x0aline\x7f\xc2\x9bx: cannot open' -- "$td" route --map "$bad"
! grep -q "$esc" "$tmp/err"; check $? "escape: no ESC byte reaches stderr"
expect "escape: sim" 2 '\x1b[31mred' -- "$td" sim --map "$bad" --spawn count=3
expect "escape: game" 2 '\x1b[31mred' -- "$td" sim --map "$bad" --idle
expect "escape: unknown option" 2 "sim: unknown argument '--x\\x1b]0;pwned\\x07'" -- \
  "$td" sim --map $map --spawn count=3 "--x$(printf '\033]0;pwned\007')"
expect "escape: save" 2 '\x1b[31mred' -- "$td" sim --map $map --mod $mod --idle --ticks 700 --save-at 600 --save "$bad/g.tds" --quiet

# ---- stdout: a full disk or a closed stdout is an error --------------------
if [ -w /dev/full ]; then
  full="td: stdout: write failed: No space left on device"
  for args in "sim --map $map --mod $mod --idle --json" "sim --map $map --mod $mod --idle --quiet" \
              "sim --map $map --spawn count=3 --json" "route --map $map --json" "route --map $map" \
              "api --markdown" "--help" "sim --help"; do
    "$td" $args >/dev/full 2>"$tmp/err"
    st=$?
    [ $st -eq 2 ]; check $? "td $args > /dev/full: exit $st, expected 2"
    [ "$(cat "$tmp/err")" = "$full" ]; check $? "td $args > /dev/full: says '$(cat "$tmp/err")'"
  done
fi
"$td" route --map $map >&- 2>"$tmp/err"
[ $? -eq 2 ]; check $? "closed stdout: exit 2"
grep -q "^td: stdout: write failed" "$tmp/err"; check $? "closed stdout: named: $(cat "$tmp/err")"

finish
