"""How large the network's evaluations are against the hand-written evaluation's, on positions of
Quadbit's own games: the search's margins (futility, razoring, the null move's, quiescence's
capture values) were set with the hand-written evaluation, so a network that scores the same
positions 1.3 times as high prunes as if every margin were 1.3 times narrower.

Usage: scripts/lab data eval-scale DATA [--sample 600] [--seed 1] [--limit 800] [--option NAME=VALUE ...]
                          [ENGINE]

DATA is a datagen file (`quadbit datagen`). A seeded sample of its positions is evaluated
statically (`eval`, the seeds' knowledge included) with the network (the default, or the one
--option EvalFile=... names) and with `Use NNUE` false; positions either scores beyond --limit
centipawns are left out (decided games say little about margins). Reported: both least-squares
slopes (network on hand-written, and the inverse of hand-written on network; the true ratio lies
between them when both are noisy) and the ratio of the spreads. The engine defaults to
build/quadbit.
"""
import argparse
import os
import random
import re
import statistics
import sys
import tempfile

from .core import ENGINE, tool, uci_script



def slope(x, y):
    mx, my = statistics.fmean(x), statistics.fmean(y)
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / sum((a - mx) ** 2 for a in x)


def evaluations(engine, options, fens):
    """White's view, in centipawns, of each FEN's final static evaluation."""
    commands = ["uci"] + [f"setoption name {n} value {v}" for n, v in options.items()]
    for fen in fens:
        commands += [f"position fen {fen}", "eval"]
    out = uci_script(engine, commands).stdout
    values = [round(float(v) * 100) for v in re.findall(r"^Final evaluation: ([+-]?[\d.]+)", out, re.M)]
    errors = [l for l in out.splitlines() if l.startswith("info string") and "error" in l]
    if errors or len(values) != len(fens):
        sys.exit(f"eval-scale: {len(values)} evaluations for {len(fens)} positions; {errors[:1]}")
    return values


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("--sample", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=800)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("engine", nargs="*", default=[ENGINE])
    args = ap.parse_intermixed_args(argv)
    options = {}
    for option in args.option:
        name, sep, value = option.partition("=")
        if not sep or not name:
            ap.error(f"--option wants NAME=VALUE, not {option!r}")
        options[name] = value

    with tempfile.TemporaryDirectory() as tmp:
        text = os.path.join(tmp, "positions.txt")
        code, said = tool(args.engine + ["data", "text", args.data, text])
        if code != 0:
            sys.exit(f"eval-scale: {said.strip()}")
        positions = [line.split("|")[0].strip() for line in open(text)]
    if len(positions) < 10:
        sys.exit(f"eval-scale: {args.data} holds {len(positions)} positions, too few to measure")
    fens = random.Random(args.seed).sample(positions, min(args.sample, len(positions)))
    network = evaluations(args.engine, {**options, "Use NNUE": "true"}, fens)
    written = evaluations(args.engine, {**options, "Use NNUE": "false"}, fens)
    kept = [(n, h) for n, h in zip(network, written) if abs(n) <= args.limit and abs(h) <= args.limit]
    if len(kept) < 10 or len({h for _, h in kept}) < 2 or len({n for n, _ in kept}) < 2:
        sys.exit(f"eval-scale: {len(kept)} positions within {args.limit} cP, too few to measure")
    n, h = [k[0] for k in kept], [k[1] for k in kept]
    forward, inverse = slope(h, n), 1 / slope(n, h)
    spread = statistics.pstdev(n) / statistics.pstdev(h)
    print(f"positions: {len(kept)} of {len(fens)} within {args.limit} cP (seed {args.seed})")
    print(f"network / hand-written: least squares {forward:.3f} (network on hand-written), "
          f"{inverse:.3f} (inverse), spreads {spread:.3f}; correlation {statistics.correlation(n, h):.3f}")

