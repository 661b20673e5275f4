"""Measure what each Skill Level is worth in Elo: Quadbit at a level against Debian's Stockfish
limited to a calibrated strength (UCI_LimitStrength, UCI_Elo: anchored to CCRL 40/4 by the
Stockfish team), so that a level's Elo is the anchor plus the measured difference. The table this
prints is what src/skill.cpp's MEASURED and UCI_Elo's range come from (docs/results/endgames.md).

Usage: scripts/lab games skill --fastchess PATH [--levels 0:1350,5:1500,...] [--games 40] [--tc 2+0.02]
Each entry LEVEL:ANCHOR plays that level against Stockfish at UCI_Elo=ANCHOR (1350..2850); pick
anchors near the level's strength, where the measurement is most precise.
"""
import argparse
import sys

from . import match
from .core import elo_with_error, results



def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fastchess", required=True)
    ap.add_argument("--levels", default="0:1350,5:1600,10:1900,15:2300,19:2700")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--engine", default=None)
    args = ap.parse_args(argv)
    rows = []
    for entry in args.levels.split(","):
        level, anchor = (int(x) for x in entry.split(":"))
        played = ["--fastchess", args.fastchess, "--opponent", "stockfish", "--games", str(args.games), "--tc", args.tc,
                  "--option", f"Skill Level={level}",
                  "--opponent-option", "UCI_LimitStrength=true", "--opponent-option", f"UCI_Elo={anchor}"]
        out, pgn, _ = match.play(match.parser().parse_args(played + (["--engine", args.engine] if args.engine else [])))
        w, l, d = results(pgn, "quadbit")
        n = w + l + d
        if not n:
            print(out, file=sys.stderr)
            raise SystemExit(f"level {level}: no result from the match")
        diff, error = elo_with_error(w, l, d)
        estimate = anchor + diff
        rows.append((level, anchor, n, w, l, d, diff, error, estimate))
        print(f"level {level}: vs UCI_Elo {anchor}: +{w} -{l} ={d} of {n}, {diff:.0f} +/- {error:.0f} -> {estimate:.0f}",
              flush=True)
    print("\n| Skill Level | Stockfish UCI_Elo | games | W | L | D | Elo difference | Elo |")
    print("|---|---|---|---|---|---|---|---|")
    for level, anchor, n, w, l, d, diff, error, estimate in rows:
        print(f"| {level} | {anchor} | {n} | {w} | {l} | {d} | {diff:.0f} +/- {error:.0f} | {estimate:.0f} |")

