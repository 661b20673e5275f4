"""Do the engines of a match win the games in which they announced a forced mate?

Usage: scripts/lab pgn mates [--player NAME] PGN...

Reads the PGN files fastchess writes (each move's comment starts with the score, `+M5/12` for a
mate in 5 found at depth 12) and, per player, counts the games in which that player announced a
mate first (a mate for itself or against itself), and how many of those ended as announced. A
change that acts only once the root score is a mate (the mate window of the aspiration loop, say)
can change a game's result only where the side that saw the mate did not convert; the games that
did not are listed.
"""
import argparse
import collections
import re

from .core import pgn_games

MATE = re.compile(r"\s*([+-])M(\d+)")


def first_mate(tags, comments):
    """(player, the winner it announced 'w'/'b', ply) of the first mate score in the game, or None."""
    first = tags.get("FEN", "x w").split()[1]
    for ply, comment in enumerate(comments):
        m = MATE.match(comment)
        if not m:
            continue
        mover = first if ply % 2 == 0 else ("b" if first == "w" else "w")
        winner = mover if m.group(1) == "+" else ("b" if mover == "w" else "w")
        return tags["White" if mover == "w" else "Black"], winner, ply
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--player", default=None, help="count only the mates this player announced")
    args = ap.parse_args(argv)

    total = 0
    announced = collections.Counter()
    converted = collections.Counter()
    failures = []
    for path in args.pgn:
        for tags, comments, _ in pgn_games(path):
            total += 1
            found = first_mate(tags, comments)
            if not found or (args.player and found[0] != args.player):
                continue
            player, winner, ply = found
            announced[player] += 1
            if tags.get("Result") == ("1-0" if winner == "w" else "0-1"):
                converted[player] += 1
            else:
                failures.append((path, tags.get("Round", "?"), tags.get("White"), tags.get("Black"), ply,
                                 tags.get("Result")))

    print(f"games: {total}")
    for player in sorted(announced):
        print(f"{player}: announced the first mate in {announced[player]} games, "
              f"{converted[player]} ended as announced")
    for path, rnd, white, black, ply, result in failures:
        print(f"not as announced: {path} round {rnd} ({white} - {black}), mate seen at ply {ply}, result {result}")
    return 0

