#!/bin/bash
# OpenBench's way: `make EXE=NAME` in the repository builds an engine whose `bench` prints the
# node count and speed in the lines OpenBench's client reads (its patterns, below), with the
# signature of tests/bench.expected.
#   openbench.sh SOURCE_DIR SCRATCH_DIR [BUILD_DIR ARCH CXX]
# With a build folder (and the level and compiler it was configured with, so that CMake keeps its
# cache), make works in it; without, in a fresh folder of SCRATCH_DIR (a whole release build).
set -eu
src=$1 work=$2 build=${3:-$2/build} arch=${4:-native} cxx=${5:-g++}
rm -rf "$work" && mkdir -p "$work"
make -C "$src" EXE="$work/quadbit-test" BUILD="$build" ARCH="$arch" CXX="$cxx" >"$work/make.log" 2>&1 ||
  { tail -20 "$work/make.log"; exit 1; }
grep -q "Linking CXX executable" "$work/make.log" && echo "make relinked the engine: the build folder was out of date"
"$work/quadbit-test" bench >"$work/bench.txt" 2>&1
python3 - "$work/bench.txt" "$src/tests/bench.expected" <<'PY'
import re, sys
nps = bench = None
for line in open(sys.argv[1]).read().strip().split("\n")[::-1]:
    line = re.sub(r"[^a-zA-Z0-9 ]+", " ", line)
    n = re.search(r"(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)", line, re.IGNORECASE)
    b = re.search(r"(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)", line, re.IGNORECASE)
    nps = nps or (n and int(re.search(r"\d+", n.group()).group()))
    bench = bench or (b and int(re.search(r"\d+", b.group()).group()))
expected = int(open(sys.argv[2]).read())
print(f"OpenBench reads bench {bench}, nps {nps}; expected bench {expected}")
sys.exit(0 if bench == expected and nps else 1)
PY
