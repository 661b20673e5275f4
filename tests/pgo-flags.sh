#!/bin/bash
# scripts/build --pgo's two passes are CMake's QUADBIT_PGO: `generate` compiles and links the
# engine instrumented, `use` with the profile (and says so in `quadbit compiler`), empty with
# neither, anything else is refused. Only configured here (a profiled build from scratch is two
# LTO builds, minutes on 2 cores; the script checks its own result: the profiled engine's bench
# must search as many nodes as the instrumented one).
#   pgo-flags.sh SOURCE_DIR SCRATCH_DIR CXX
set -eu
src=$1 work=$2 cxx=$3
rm -rf "$work" && mkdir -p "$work"
flags_of() {  # the compile command of search.cpp and the engine's link command
  cmake -S "$src" -B "$work/$1" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DQUADBIT_PGO="$1" >/dev/null
  grep -F 'src/search.cpp.o -c' "$work/$1/compile_commands.json" | head -1
  cat "$work/$1/CMakeFiles/quadbit.dir/link.txt"
}
check() {  # pass, flag that must appear (compile and link), flags that must not
  local out
  out=$(flags_of "$1")
  if [[ -n "$2" ]]; then
    [[ $(grep -c -- "$2" <<<"$out") -ge 2 ]] || { echo "QUADBIT_PGO=$1: $2 missing from compile or link"; exit 1; }
  fi
  for f in "${@:3}"; do
    if grep -q -- "$f" <<<"$out"; then echo "QUADBIT_PGO=$1: unexpected $f"; exit 1; fi
  done
}
check generate -fprofile-generate -fprofile-use
check use -fprofile-use -fprofile-generate
grep -F 'src/search.cpp.o -c' "$work/use/compile_commands.json" | grep -q -- -DQUADBIT_PROFILE_GUIDED ||
  { echo "QUADBIT_PGO=use: the build does not say so (quadbit compiler)"; exit 1; }
check "" "" -fprofile-generate -fprofile-use -DQUADBIT_PROFILE_GUIDED
if cmake -S "$src" -B "$work/bad" -DQUADBIT_PGO=sometimes >"$work/bad.log" 2>&1; then
  echo "QUADBIT_PGO=sometimes was accepted"
  exit 1
fi
grep -q "QUADBIT_PGO must be empty, generate or use" "$work/bad.log" || { cat "$work/bad.log"; exit 1; }
echo "QUADBIT_PGO: generate, use and empty configure as they should; an unknown pass is refused"
