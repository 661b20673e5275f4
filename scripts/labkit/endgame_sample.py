"""Fresh tablebase-labelled endgame positions, to check endgame knowledge on positions it was not
fitted to.

Usage: scripts/lab data endgame-sample SIGNATURE [--count 1000] [--seed 1] [--syzygy DIR] [--engine PATH]

../shared/data/endgames/dev.epd is one sample, and a rule tuned until it scores well there may have
learnt the sample rather than the ending. This draws another: uniformly random placements of the
signature's pieces (SIGNATURE as Syzygy names its table, e.g. KRvKN or KBPvKN; the first-named
side White or Black, either side to move, pawns on ranks 2-7), kept when legal, labelled with
the table's WDL as Quadbit's `d` reads it (the engine refuses an illegal position, and the label
comes from the table or the position is not kept), and written to standard output in dev.epd's
format (`FEN; wdl W;`, the side to move's view) for ../shared/tools/endgame-score. Positions
with no legal move are left out, as in dev.epd. The same seed draws the same positions.
Unlike dev.epd, which balances wins, draws and losses, this sample is as the table is: random
positions of a rook against a knight are mostly draws, and tactics (a piece left hanging) are
as common as chance makes them.
"""
import argparse
import os
import random

from .core import ENGINE, SHARED, Uci, searched

PIECES = "KQRBNP"


def parse_signature(text):
    sides = text.split("v")
    if len(sides) != 2 or any(not s or s[0] != "K" or s.count("K") != 1 or set(s) - set(PIECES) for s in sides):
        raise SystemExit(f"endgame-sample: '{text}' is not a signature such as KRvKN")
    return sides


def fen_of(board, white_to_move):
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            piece = board.get((file, rank))
            if piece:
                row += (str(empty) if empty else "") + piece
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if white_to_move else " b") + " - - 0 1"


def random_position(rng, sides):
    """A FEN of the signature's pieces on distinct squares; legality is the engine's to judge."""
    first_white = rng.random() < 0.5
    board = {}
    for white, pieces in ((first_white, sides[0]), (not first_white, sides[1])):
        for piece in pieces:
            while True:
                square = (rng.randrange(8), rng.randrange(1, 7) if piece == "P" else rng.randrange(8))
                if square not in board:
                    break
            board[square] = piece if white else piece.lower()
    return fen_of(board, rng.random() < 0.5)


def table_wdl(engine, fen):
    """The table's WDL of `fen` (side to move's view), or None if the engine refused the position."""
    lines = engine.ask(f"position fen {fen}", "d")
    shown = next((line[len("Fen: "):] for line in lines if line.startswith("Fen: ")), None)
    if shown != fen:
        return None
    wdl = next((line.split(":")[1].strip() for line in lines if line.startswith("Tablebases WDL:")), None)
    if wdl is None:
        raise SystemExit(f"endgame-sample: the tables do not cover {fen}")
    return int(wdl)


def has_moves(engine, fen):
    return searched(engine.search(f"fen {fen}", "depth 1"))[0] is not None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("signature")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--syzygy", default=os.path.join(SHARED, "data", "syzygy"))
    ap.add_argument("--engine", default=ENGINE)
    args = ap.parse_args(argv)
    sides = parse_signature(args.signature)
    if not os.path.exists(os.path.join(args.syzygy, args.signature + ".rtbw")):
        raise SystemExit(f"endgame-sample: no table {args.signature}.rtbw in {args.syzygy}")
    rng = random.Random(f"{args.signature}/{args.seed}")
    engine = Uci([args.engine]).start({"SyzygyPath": os.path.abspath(args.syzygy)})
    try:
        made = 0
        while made < args.count:
            fen = random_position(rng, sides)
            wdl = table_wdl(engine, fen)
            if wdl is None or not has_moves(engine, fen):
                continue
            print(f"{fen}; wdl {wdl};")
            made += 1
    finally:
        engine.close()

