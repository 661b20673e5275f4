"""How an engine spends its clock over a match, against its opponents, from a fastchess PGN.

Usage: scripts/lab pgn clock PGN [--name quadbit] [--after 10,20,30,40,60,80]

Each move's time is read from fastchess's comments (`{+0.35/17 0.185s}`) and the clock from the
game's TimeControl tag (base+increment; games without one are skipped): for each count of the
engine's own moves after the book, the median clock left to the engine (the player whose name
contains NAME) and to its opponent in the games that lasted that long. An engine that ends its
games with seconds to spare while the opponent has spent its own on the middlegame has thought
less where it mattered. PGN may be gzipped.
"""
import argparse
import re
import statistics
import sys

from .core import pgn_games


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn")
    ap.add_argument("--name", default="quadbit")
    ap.add_argument("--after", default="10,20,30,40,60,80")
    args = ap.parse_args(argv)
    after = [int(k) for k in args.after.split(",")]
    left = {k: [] for k in after}
    counted = 0
    for tags, comments, _ in pgn_games(args.pgn):
        tc = re.fullmatch(r"([\d.]+)\+([\d.]+)", tags.get("TimeControl", ""))
        white, black = tags.get("White", ""), tags.get("Black", "")
        if not tc or (args.name in white) == (args.name in black):
            continue
        base, inc = float(tc.group(1)), float(tc.group(2))
        times = [float(m.group(1)) for c in comments if (m := re.search(r"([\d.]+)s$", c.strip()))]
        # The side to move first after the book plays the even-numbered comments.
        white_first = tags.get("FEN", "startpos w").split()[1] == "w"
        first, second = times[0::2], times[1::2]
        mine, theirs = (first, second) if (args.name in white) == white_first else (second, first)
        counted += 1
        for k in after:
            if len(mine) >= k and len(theirs) >= k:
                left[k].append((base + inc * k - sum(mine[:k]), base + inc * k - sum(theirs[:k])))
    if not counted:
        sys.exit(f"pgn clock: no game of {args.name!r} with a TimeControl and move times in {args.pgn}")
    print(f"{counted} games of {args.name}; median clock left (s) after its own moves:")
    print("| moves | games | " + args.name + " | opponent |")
    print("|---|---|---|---|")
    for k in after:
        if left[k]:
            print(f"| {k} | {len(left[k])} | {statistics.median(a for a, _ in left[k]):.2f} | "
                  f"{statistics.median(b for _, b in left[k]):.2f} |")

