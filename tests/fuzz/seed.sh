#!/usr/bin/env bash
# seed.sh: makes the seed inputs of the fuzz harnesses from the project's own
# files (docs/hardening.md, "Fuzzing").
#
#   tests/fuzz/seed.sh OUT_DIR TD_BIN
#
# Writes OUT_DIR/map (tests/data/maps/*.lua), OUT_DIR/tmx and OUT_DIR/tmj
# (maps/*.tmx up to 64 KB, tests/data/maps/tiled/*.tmx, *.tmj),
# OUT_DIR/replay (tests/data/replays/*), OUT_DIR/save (games saved by
# `td sim --save-at` on tests/fuzz/data/map.lua with tests/fuzz/data/mod, whole
# and as the world's part alone) and OUT_DIR/mod (each mod of scripts/,
# tests/data/mods and tests/scenarios/mods with its includes inlined into one
# mod.lua). run.sh reads them next to the committed corpus
# (tests/fuzz/corpus/<target>); `run.sh TARGET merge` keeps only what adds
# coverage.
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 OUT_DIR TD_BIN" >&2
  exit 2
fi
out=$1
td=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"/{map,tmx,tmj,replay,save,mod}

# (larger maps are left out: the corpus stays small and the fuzzer fast)
for f in "$src"/tests/data/maps/*.lua; do
  if [[ $(stat -c %s "$f") -le 65536 ]]; then
    cp "$f" "$out/map/seed-$(basename "$f")"
  fi
done
for f in "$src"/maps/*.tmx; do
  if [[ $(stat -c %s "$f") -le 65536 ]]; then
    cp "$f" "$out/tmx/seed-$(basename "$f")"
  fi
done

# Tiled's own maps: the fixtures, with their external files flat (the
# harnesses write them beside the input: fuzz_tmx.c, fuzz_tmj.c)
for f in "$src"/tests/data/maps/tiled/*.tmx "$src"/tests/data/maps/tiled/*.tmj; do
  sed 's#tpl/##g' "$f" > "$out/${f##*.}/seed-$(basename "$f")"
done

for f in "$src"/tests/data/replays/*; do
  cp "$f" "$out/replay/seed-$(basename "$f")"
done

# Saves, on the map and mod fuzz_save loads them with. The world's part of a
# save starts with "TDWS" after the header and the commands, behind its u64
# length (game/game.c).
save() { # NAME TD_SIM_ARGS...
  local name=$1
  shift
  (cd "$src" && "$td" sim --map tests/fuzz/data/map.lua --mod tests/fuzz/data/mod --quiet "$@" \
    --save "$out/save/seed-$name.tds") > /dev/null
  python3 -c '
import struct, sys
data = open(sys.argv[1], "rb").read()
at = data.index(b"TDWS", 8)
wlen = struct.unpack_from("<Q", data, at - 8)[0]
open(sys.argv[2], "wb").write(data[at : at + wlen])
' "$out/save/seed-$name.tds" "$out/save/seed-$name.world"
}
save idle-1 --idle --ticks 2 --save-at 1
save idle-2400 --idle --seed 5 --ticks 2401 --save-at 2400
save auto-2400 --auto --ticks 2401 --save-at 2400
save auto-3000 --auto --seed 7 --ticks 3001 --save-at 3000
save endless-6000 --auto --endless --seed 3 --ticks 6001 --save-at 6000

# A mod as one file: every include "x.lua" becomes (function() ... end)(),
# recursively (x.lua's result is the include's value).
flatten() { # DIR
  python3 -c '
import os, re, sys
d = sys.argv[1]
pat = re.compile(r"include\s*\(?\s*\"([A-Za-z0-9_./-]+)\"\s*\)?")
def expand(name, depth):
    text = open(os.path.join(d, name)).read()
    def sub(m):
        inc = m.group(1)
        if depth > 8 or not os.path.isfile(os.path.join(d, inc)):
            return m.group(0)
        start = m.string.rfind("\n", 0, m.start()) + 1
        lead = ";" if m.string[start:m.start()].strip() == "" else ""
        return lead + "(function()\n" + expand(inc, depth + 1) + "\nend)()"
    return pat.sub(sub, text)
sys.stdout.write(expand("mod.lua", 0))
' "$1"
}
for d in "$src"/scripts/*/ "$src"/tests/data/mods/*/ "$src"/tests/scenarios/mods/*/; do
  d=${d%/}
  [[ -f $d/mod.lua ]] || continue
  flatten "$d" > "$out/mod/seed-$(basename "$d").lua"
done
