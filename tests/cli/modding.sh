#!/usr/bin/env bash
# docs/modding.md: every quoted snippet matches its file (the lines between
# "-- [name]" and "-- [/name]"), the error it shows is the one td gives,
# and the tutorial mod (scripts/tutorial) loads and plays: won by --auto,
# lost by --idle.
set -u
source "$(dirname "$0")/harness.bash"
doc=$src/docs/modding.md

# region FILE NAME: the lines between the markers
region() {
  awk -v a="-- [$2]" -v b="-- [/$2]" '$0 == b { on = 0 } on { print } $0 == a { on = 1 }' "$1"
}

# every <!-- quote: FILE#NAME --> is followed by a ```lua block equal to the region
quotes=0
while IFS= read -r line; do
  spec=${line#<!-- quote: }
  spec=${spec% -->}
  file=${spec%%#*}
  name=${spec#*#}
  [ -f "$src/$file" ]; check $? "quote $spec: no file $file"
  region "$src/$file" "$name" >"$tmp/want"
  [ -s "$tmp/want" ]; check $? "quote $spec: no region '$name' in $file"
  awk -v q="$line" 'found == 1 && /^```/ { if (inside) exit; inside = 1; next }
                    inside { print } $0 == q { found = 1 }' "$doc" >"$tmp/got"
  diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"
  check $? "quote $spec differs from $file: $(head -c 600 "$tmp/diff")"
  quotes=$((quotes + 1))
done < <(grep '^<!-- quote: ' "$doc")
[ "$quotes" -ge 8 ]; check $? "only $quotes quotes found in docs/modding.md"

# the error shown in the tutorial is the one a typo gives (run from the
# source directory so the path reads as in the doc)
mkdir -p "$tmp/scripts/tutorial"
cp "$src"/scripts/tutorial/*.lua "$tmp/scripts/tutorial/"
sed -i 's/splash = 1.2 },/splah = 1.2 },/' "$tmp/scripts/tutorial/towers.lua"
want=$(grep "unknown field 'splah'" "$doc")
(cd "$tmp" && "$td" sim --map "$src/maps/03-serpent.tmx" --mod scripts/tutorial --idle \
  >"$tmp/out" 2>"$tmp/err")
[ $? -eq 2 ]; check $? "typo: exit status is not 2"
[ "$(cat "$tmp/err")" = "$want" ]; check $? "typo: td says '$(cat "$tmp/err")', the doc '$want'"

# the same for section 6's example (tests/data/mods/soldiers): the message
# of an unknown soldier type
mkdir -p "$tmp/tests/data/mods/soldiers"
cp "$src/tests/data/mods/soldiers/mod.lua" "$tmp/tests/data/mods/soldiers/"
sed -i 's/soldier = "footman", soldiers = 3 },/soldier = "fotman", soldiers = 3 },/' \
  "$tmp/tests/data/mods/soldiers/mod.lua"
want=$(grep "unknown soldier 'fotman'" "$doc")
(cd "$tmp" && "$td" sim --map "$src/maps/01-crossroads.tmx" --mod tests/data/mods/soldiers --idle \
  >"$tmp/out" 2>"$tmp/err")
[ $? -eq 2 ]; check $? "fotman: exit status is not 2"
[ -n "$want" ] && [ "$(cat "$tmp/err")" = "$want" ]
check $? "fotman: td says '$(cat "$tmp/err")', the doc '$want'"
# and it plays to its end with its handlers quiet (no script error)
expect "soldiers auto" 0 "" -- "$td" sim --map "$src/maps/01-crossroads.tmx" \
  --mod "$src/tests/data/mods/soldiers" --auto --json
grep -q '"result":"\(won\|lost\)"' "$tmp/out"; check $? "soldiers: no end: $(head -c 300 "$tmp/out")"
grep -q '"script_errors":\[\]' "$tmp/out"
check $? "soldiers: script errors: $(grep -o '"script_errors":.*' "$tmp/out" | head -c 600)"
grep -q '"wave_end: 3: ' "$tmp/out"; check $? "soldiers: no wave_end line in the log"

# the mod plays: the built-in player wins, nobody loses
map=$src/maps/03-serpent.tmx
expect "tutorial auto" 0 "" -- "$td" sim --map "$map" --mod "$src/scripts/tutorial" --auto --json
grep -q '"result":"won"' "$tmp/out"; check $? "tutorial: --auto does not win: $(head -c 300 "$tmp/out")"
expect "tutorial idle" 0 "" -- "$td" sim --map "$map" --mod "$src/scripts/tutorial" --idle --json
grep -q '"result":"lost"' "$tmp/out"; check $? "tutorial: --idle does not lose: $(head -c 300 "$tmp/out")"

finish
