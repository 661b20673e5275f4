"""Can Quadbit, with Syzygy tables, convert table wins against a defender that has none?

Usage: scripts/lab games tb-conversion --fastchess PATH [--positions 20] [--seed 1] [--st 0.1]
                             [--min-dtz 10] [--syzygy ../shared/data/syzygy] [--engine PATH]
                             [--signatures KBNvK,KRvK,KQvKR,KBPvKN] [--concurrency 2]

For each signature it draws random legal positions (seeded) with the strong side (White) to
move, keeps those the tables call a win (WDL 2, so within the fifty-move rule) at least
--min-dtz plies from the next zeroing move, and plays each once: Quadbit (SyzygyPath set) as
White against Debian's stockfish (no tables) as Black, --st seconds a move, with fastchess
(github.com/Disservin/fastchess, built outside this repository: pass its binary) applying the
fifty-move rule and no adjudication. A conversion is a win; a draw by the fifty-move rule or a
repetition is a failure, listed with its FEN. The tables' WDL and DTZ come from Quadbit's own
prober (`d`), which tests/test_syzygy.cpp checks against an independent one.
"""
import argparse
import collections
import os
import random
import re
import sys
import tempfile

from .core import ENGINE, SHARED, Uci, ensure, fastchess_command, pgn_games, run_fastchess


def verdict(oracle, fen):
    """(wdl, dtz) of a legal position the tables cover, by Quadbit's `d`; else None."""
    lines = oracle.ask(f"position fen {fen}", "d")
    if any(l.startswith("info string error") for l in lines):
        return None
    found = dict(re.findall(r"^Tablebases (WDL|DTZ): (-?\d+)$", "\n".join(lines), re.M))
    return (int(found["WDL"]), int(found["DTZ"])) if len(found) == 2 else None


def random_fen(signature, rng):
    """White has the pieces before the 'v', Black those after; White to move."""
    strong, weak = signature.split("v")
    squares = rng.sample(range(64), len(strong) + len(weak))
    board = [None] * 64
    for piece, sq in zip(strong + weak.lower(), squares):
        if piece in "Pp" and not 8 <= sq < 56:
            return None  # a pawn on its first or last rank
        board[sq] = piece
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            p = board[rank * 8 + f]
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + p
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " w - - 0 1"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fastchess", required=True)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--st", type=float, default=0.1, help="seconds a move")
    ap.add_argument("--min-dtz", type=int, default=10, help="plies to the next zeroing move, at least")
    ap.add_argument("--syzygy", default=os.path.join(SHARED, "data", "syzygy"))
    ap.add_argument("--engine", default=ENGINE)
    ap.add_argument("--signatures", default="KBNvK,KRvK,KQvKR,KBPvKN")
    ap.add_argument("--concurrency", type=int, default=2)
    args = ap.parse_args(argv)
    syzygy = os.path.abspath(args.syzygy)
    engine = os.path.abspath(args.engine)
    stockfish = ensure("stockfish")

    oracle = Uci([engine]).start({"SyzygyPath": syzygy})
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="quadbit-tb-conversion-")
    chosen = []  # (signature, fen, dtz)
    for signature in args.signatures.split(","):
        found, tries = 0, 0
        while found < args.positions:
            tries += 1
            if tries > 200000:
                sys.exit(f"{signature}: too few won positions with DTZ >= {args.min_dtz}")
            fen = random_fen(signature, rng)
            v = fen and verdict(oracle, fen)
            if v and v[0] == 2 and v[1] >= args.min_dtz:
                chosen.append((signature, fen, v[1]))
                found += 1
    epd = os.path.join(work, "positions.epd")
    with open(epd, "w") as f:
        for signature, fen, dtz in chosen:
            f.write(" ".join(fen.split()[:4]) + f' id "{signature}"; c0 "dtz {dtz}";\n')

    pgn = os.path.join(work, "games.pgn")
    cmd = fastchess_command(
        args.fastchess, [[f"cmd={engine}", "name=quadbit", f"option.SyzygyPath={syzygy}"],
                         [f"cmd={stockfish}", "name=stockfish"]],
        [f"st={args.st}", "timemargin=100", "option.Hash=16", "option.Threads=1"], len(chosen),
        concurrency=args.concurrency, openings=epd, order="sequential", both_colours=False, pgn=pgn)
    run_fastchess(cmd, work)

    oracle.close()
    games = {}
    for game in pgn_games(pgn):
        plies = len(re.findall(r"(?<![.\w])(?:[KQRBN][a-h1-8x]*[a-h][1-8]|[a-h]x?[a-h]?[1-8](?:=[QRBN])?|O-O(?:-O)?)[+#]?",
                               game.movetext))
        games[" ".join(game.tags["FEN"].split()[:4])] = (game.tags.get("Result"), game.tags.get("Termination", ""),
                                                         plies)

    wins, plies = collections.Counter(), collections.defaultdict(list)
    print("| signature | positions | converted | moves to mate (median, max) | DTZ of the start (median) |")
    print("|---|---|---|---|---|")
    failures = []
    for signature in args.signatures.split(","):
        rows = [(fen, dtz) for s, fen, dtz in chosen if s == signature]
        for fen, dtz in rows:
            result, term, n = games.get(" ".join(fen.split()[:4]), ("missing", "", 0))
            if result == "1-0":
                wins[signature] += 1
                plies[signature].append(n)
            else:
                failures.append(f"{signature} {fen}: {result} {term}")
        p = sorted(plies[signature]) or [0]
        d = sorted(dtz for _, dtz in rows)
        print(f"| {signature} | {len(rows)} | {wins[signature]} | {(p[len(p) // 2] + 1) // 2}, {(p[-1] + 1) // 2} "
              f"| {d[len(d) // 2]} |")
    for f in failures:
        print("not converted:", f)
    print(f"converted: {sum(wins.values())}/{len(chosen)}   PGN: {pgn}")

