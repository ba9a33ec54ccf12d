#!/usr/bin/env bash
# run.sh: builds one fuzz harness with clang (libFuzzer, ASan, UBSan) and runs it
# (docs/hardening.md, "Fuzzing").
#
#   tests/fuzz/run.sh TARGET SECONDS [LIBFUZZER_OPTION...]
#   tests/fuzz/run.sh TARGET merge [MORE_DIRS...]
#
# TARGET is map, tmx, tmj, replay, save or mod (tests/fuzz/fuzz_TARGET.c). The build goes
# to $TD_FUZZ_BUILD (default: build-fuzz-clang in the source tree). The fuzzer
# reads the committed corpus (tests/fuzz/corpus/TARGET) and the project's own
# files (seed.sh), writes what it finds to $TD_FUZZ_BUILD/work/TARGET, and
# crashes, leaks and timeouts to $TD_FUZZ_BUILD/artifacts/TARGET/. `merge` adds
# to the committed corpus only the inputs of the work corpus (and of MORE_DIRS)
# that cover an edge it does not, cut to 3 KB. Runs under nice; one fuzzer uses one core. The seed
# saves are made with td: $TD_BIN, or one built in $TD_FUZZ_BUILD.
set -euo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: $0 map|tmx|tmj|replay|save|mod SECONDS|merge [LIBFUZZER_OPTION...]" >&2
  exit 2
fi
target=$1 what=$2
shift 2
src=$(cd "$(dirname "$0")/../.." && pwd)
case $target in
  map | tmx | tmj | replay | save | mod) ;;
  *) echo "run.sh: unknown target '$target' (map, tmx, tmj, replay, save, mod)" >&2; exit 2 ;;
esac
if [[ $what != merge && ! $what =~ ^[0-9]+$ ]]; then
  echo "run.sh: SECONDS must be a number or 'merge', got '$what'" >&2
  exit 2
fi
build=${TD_FUZZ_BUILD:-$src/build-fuzz-clang}
corpus=$src/tests/fuzz/corpus/$target
work=$build/work/$target
artifacts=$build/artifacts/$target
mkdir -p "$build" "$work" "$artifacts" "$corpus"

generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S "$src" -B "$build" "${generator[@]}" -DCMAKE_C_COMPILER=clang \
    -DCMAKE_BUILD_TYPE=Sanitize -DTD_FUZZ=ON > "$build/configure.log"
fi
nice cmake --build "$build" --target "fuzz_$target" -j 2 > "$build/build-$target.log" ||
  { cat "$build/build-$target.log" >&2; exit 1; }
bin=$build/tests/fuzz_$target

export TD_SOURCE_DIR=$src
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

if [[ $what == merge ]]; then
  # edges only, inputs cut to 3 KB: the committed corpus stays a few hundred KB
  exec nice "$bin" -merge=1 -use_counters=0 -max_len=3072 -timeout=10 "$corpus" "$work" "$@"
fi

# the project's own files, fresh, next to the committed corpus
seeds=$build/seeds
if [[ ! -d $seeds/$target ]]; then
  td=${TD_BIN:-$build/td}
  if [[ -z ${TD_BIN:-} ]]; then
    nice cmake --build "$build" --target td -j 2 > "$build/build-td.log" 2>&1 || td=""
  fi
  if [[ -n $td ]]; then
    "$src/tests/fuzz/seed.sh" "$seeds" "$td"
  else # without td (no SDL?): no saves beyond the corpus
    mkdir -p "$seeds/$target"
  fi
fi
dict=()
[[ -f $src/tests/fuzz/$target.dict ]] && dict=(-dict="$src/tests/fuzz/$target.dict")
exec nice "$bin" -max_total_time="$what" -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 "${dict[@]}" "$@" \
  "$work" "$corpus" "$seeds/$target"
