"""Mate finding on a fixed random sample of a `bm #N` suite, one position at a time.

Usage: scripts/lab games mate-suite [--sample 300] [--nodes 2000000] [--seed 1] [--epd FILE]
                          [--option NAME=VALUE ...] [ENGINE...]

For each position the engine searches `go nodes N` from a fresh hash. Reported per position:
- exact: the last complete score is `mate N` exactly (N < 0: the side to move is mated);
- mating move (N > 0): the best move mates in one (N = 1), or after it the engine, searching the
  reply with the same node budget, reports `mate -(N-1)`;
- false claim: a final mate score that cannot be right: the wrong side mates, or a mate shorter
  than the known shortest one.
The engine defaults to build/quadbit.
"""
import argparse
import os
import random
import re

from .core import ENGINE, SHARED, Uci, last_score, searched


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--nodes", type=int, default=2_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--epd", default=os.path.join(SHARED, "data", "suites", "mates2000.epd"))
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a UCI option for the engine (repeatable), e.g. \"Use NNUE=false\"")
    ap.add_argument("engine", nargs="*", default=[ENGINE])
    args = ap.parse_args(argv)
    if not (os.path.isfile(args.engine[0]) and os.access(args.engine[0], os.X_OK)):
        ap.error(f"{args.engine[0]!r} is not an executable engine")
    others = [a for a in args.engine[1:] if os.path.isfile(a) and os.access(a, os.X_OK)]
    if others:
        ap.error(f"one engine per run: {args.engine[0]!r} would be started with {others[0]!r} as "
                 "its argument; run the command once for each engine")
    options = {"Hash": 64, "Threads": 1}
    for option in args.option:
        name, sep, value = option.partition("=")
        if not sep or not name:
            ap.error(f"--option wants NAME=VALUE, not {option!r}")
        options[name] = value

    lines = [l for l in open(args.epd) if "bm #" in l]
    sample = random.Random(args.seed).sample(lines, min(args.sample, len(lines)))
    engine = Uci(args.engine).start(options)
    exact = mating = mating_needed = false_claims = 0
    for line in sample:
        fields = line.split()
        fen = " ".join(fields[:4]) + " 0 1"
        n = int(re.search(r"bm #(-?\d+)", line).group(1))
        engine.ask("ucinewgame")
        out = engine.search(f"fen {fen}", f"nodes {args.nodes}")
        best = searched(out)[0]
        score = last_score(out)
        ok = score == ("mate", n)
        exact += ok
        if score and score[0] == "mate" and (score[1] * n <= 0 or abs(score[1]) < abs(n)):
            false_claims += 1
            print(f"FALSE CLAIM {fen}: want mate {n}, got mate {score[1]}")
        if n > 0:
            mating_needed += 1
            engine.ask("ucinewgame")
            reply = engine.search(f"fen {fen} moves {best}", f"nodes {args.nodes}")
            reply_score = last_score(reply)
            mates = reply_score == ("mate", -(n - 1)) or (n == 1 and reply_score == ("mate", 0))
            mating += mates
            if not mates:
                print(f"NOT MATING {fen}: {best} then {reply_score}")
        if not ok:
            print(f"MISS {fen}: want mate {n}, got {score}")
    engine.close()
    total = len(sample)
    print(f"exact mate N: {exact}/{total} ({100 * exact / total:.1f}%); mating move: {mating}/{mating_needed}; "
          f"false mate claims: {false_claims}")

