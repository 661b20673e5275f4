#!/usr/bin/env bash
# tests/eval-scale.sh DIR ENGINE NETWORK: scripts/eval-scale measures the network against the
# hand-written evaluation: the same network with its file's output SCALE halved measures half as
# large on the same positions, and a file the engine cannot read is refused with the engine's reason.
set -euo pipefail
dir=$1 engine=$2 network=$3
rm -rf "$dir" && mkdir -p "$dir"
"$engine" datagen out "$dir/games.bin" games 8 nodes 400 threads 1 seed 5 >/dev/null 2>&1
python3 - "$network" "$dir/half.nnue" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
version = struct.unpack_from("<I", b, 4)[0]
at = 32 + (4 + 64 if version >= 4 else 0) + 8  # the i32 SCALE after QA and QB
struct.pack_into("<i", b, at, struct.unpack_from("<i", b, at)[0] // 2)
open(sys.argv[2], "wb").write(b)
PY
measure() { "$(dirname "$0")/../scripts/eval-scale" "$dir/games.bin" --limit 100000 --sample 200 "$@" "$engine"; }
full=$(measure --option "EvalFile=$network" | sed -n 's/.*least squares \([0-9.]*\) (network on.*/\1/p')
half=$(measure --option "EvalFile=$dir/half.nnue" | sed -n 's/.*least squares \([0-9.]*\) (network on.*/\1/p')
python3 -c "import sys; f, h = float('$full'), float('$half'); sys.exit(0 if f > 0.5 and abs(h / f - 0.5) < 0.03 else 1)" ||
  { echo "eval-scale: $full with the network, $half with its SCALE halved"; exit 1; }
head -c 100 "$dir/games.bin" >"$dir/cut.bin"
if "$(dirname "$0")/../scripts/eval-scale" "$dir/cut.bin" "$engine" 2>"$dir/err"; then echo "a file too small was measured"; exit 1; fi
grep -q "eval-scale: .*cut short" "$dir/err"
echo "eval-scale: $full with the network, $half with its output SCALE halved"
