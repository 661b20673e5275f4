#!/usr/bin/env bash
# tests/endgame-sample.sh DIR ENGINE SYZYGY: scripts/endgame-sample draws the same positions for
# the same seed, and labels them as chess has it: K+Q v K is won with the queen's side to move,
# and lost with the bare king to move unless it can take the queen (then drawn); K+N v K is
# always drawn. A signature without a table is refused.
set -euo pipefail
dir=$1 engine=$2 tables=$3
sample() { "$(dirname "$0")/../scripts/endgame-sample" "$@" --engine "$engine" --syzygy "$tables"; }
rm -rf "$dir" && mkdir -p "$dir"
sample KQvK --count 200 --seed 7 >"$dir/a.epd"
sample KQvK --count 200 --seed 7 >"$dir/b.epd"
cmp "$dir/a.epd" "$dir/b.epd"
python3 - "$dir/a.epd" <<'PY'
import sys
wins = losses = draws = 0
for line in open(sys.argv[1]):
    fen, rest = line.split(";", 1)
    board, stm = fen.split()[0], fen.split()[1]
    wdl = int(rest.split("wdl")[1].split(";")[0])
    queen_to_move = ("Q" in board) == (stm == "w")
    if queen_to_move:
        assert wdl == 2, line
        wins += 1
    else:
        assert wdl in (-2, 0), line
        losses += wdl == -2
        draws += wdl == 0
assert wins and losses and draws, (wins, losses, draws)
print(f"KQvK: {wins} won to move, {losses} lost and {draws} drawn (the queen taken) with the king to move")
PY
sample KNvK --count 50 --seed 7 >"$dir/kn.epd"
[ "$(grep -c "; wdl 0;$" "$dir/kn.epd")" = 50 ] || { echo "a K+N v K position not drawn"; exit 1; }
if sample KQRBNvK --count 1 2>"$dir/err"; then echo "a missing table was not refused"; exit 1; fi
grep -q "no table KQRBNvK.rtbw" "$dir/err"
echo "endgame-sample: the same positions for the same seed, labelled as the tables have them"
