#!/usr/bin/env bash
# tests/eval-scale.sh DIR ENGINE NETWORK: scripts/eval-scale measures the network against the
# hand-written evaluation: the same network with its file's output SCALE halved (quadbit net scale)
# measures half as large on the same positions, and a file the engine cannot read is refused with
# the engine's reason.
set -euo pipefail
dir=$1 engine=$2 network=$3
scripts=$(dirname "$0")/../scripts
rm -rf "$dir" && mkdir -p "$dir"
"$engine" datagen out "$dir/games.bin" games 8 nodes 400 threads 1 seed 5 >/dev/null 2>&1
# `quadbit net scale` rewrites the SCALE only: the same weights (the payload's checksum) and a note
# of this change, the old SCALE and its half (a copy of a file that was scaled before carries an
# older note, which does not count).
scaled=$("$engine" net scale "$network" x0.5 "$dir/half.nnue")
read -r old new < <(sed -n 's/.*SCALE \([0-9]*\) -> \([0-9]*\),.*/\1 \2/p' <<<"$scaled")
((old > 1 && 2 * new - old >= -1 && 2 * new - old <= 1)) || { echo "net scale: $scaled"; exit 1; }
# The engine's answers when it loads a file, read whole (grep -q would stop at its match and the
# engine's SIGPIPE would fail the pipeline under pipefail).
loading() { printf 'setoption name EvalFile value %s\nisready\nquit\n' "$1" | "$engine"; }
halved=$(loading "$dir/half.nnue")
[[ $(loading "$network" | grep -o 'checksum [0-9a-f]*') == $(grep -o 'checksum [0-9a-f]*' <<<"$halved") ]] ||
  { echo "net scale changed the weights"; exit 1; }
grep "output SCALE $old -> $new" <<<"$halved" >/dev/null || { echo "net scale: no note of $old -> $new in the description"; exit 1; }
# Scaled again and again, whatever its description's length to begin with, a file's description
# reaches its 4,096 bytes: the oldest text gives way, the engine still reads the file, and the
# last note is whole at its end.
cp "$dir/half.nnue" "$dir/rescaled.nnue"
for scale in $(seq 101 245); do "$engine" net scale "$dir/rescaled.nnue" "$scale" "$dir/rescaled.nnue" >/dev/null; done
grep -E '\.\.\..*output SCALE 244 -> 245"?$' <(loading "$dir/rescaled.nnue" | grep 'info string NNUE') >/dev/null ||
  { echo "net scale: a full description lost the last note: $(loading "$dir/rescaled.nnue")"; exit 1; }
if "$engine" net scale "$network" x0 "$dir/zero.nnue" >/dev/null || [[ -e $dir/zero.nnue ]]; then
  echo "net scale wrote a network of SCALE 0"; exit 1
fi
# The least-squares scale of a network file on the hand-written evaluation.
scale_of() {
  "$scripts/eval-scale" "$dir/games.bin" --limit 100000 --sample 200 --option "EvalFile=$1" "$engine" |
    sed -n 's/.*least squares \([0-9.]*\) (network on.*/\1/p'
}
full=$(scale_of "$network")
half=$(scale_of "$dir/half.nnue")
python3 -c "import sys; f, h = float('$full'), float('$half'); sys.exit(0 if f > 0.5 and abs(h / f - 0.5) < 0.03 else 1)" ||
  { echo "eval-scale: $full with the network, $half with its SCALE halved"; exit 1; }
head -c 100 "$dir/games.bin" >"$dir/cut.bin"
if "$scripts/eval-scale" "$dir/cut.bin" "$engine" 2>"$dir/err"; then echo "a file too small was measured"; exit 1; fi
grep -q "eval-scale: .*cut short" "$dir/err"
echo "eval-scale: $full with the network, $half with its output SCALE halved"
