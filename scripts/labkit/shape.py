"""What a network's shape costs a search: the same tree searched at each width and with king buckets.

Usage: scripts/lab speed shape [--widths 512,1024] [--kingbuckets 4,8] [--rounds 5] [--depth 15]
                          [--callgrind] [--quick] ENGINE [ENGINE...]

Each ENGINE is a build of Quadbit (build/quadbit, build-generic/quadbit, ...). Its embedded
network is widened to each width with silent neurons: `train ... hidden N from <embedded> lr
1e-7` on a few games of its own gives the new neurons random input weights and no output weight
and moves no old weight by a quantisation step (net2net, src/nnue/trainer.h), so the wider
network evaluates every position as the embedded one does and `bench` searches the very same
tree; only the width's arithmetic differs. With --kingbuckets, the embedded network is also
given each number of king buckets at its own width (`train ... kingbuckets N from <embedded> lr
1e-7`: its inputs copied to every bucket), the same tree again: what differs is a king move to
another bucket recomputing its side's first layer, and the larger table of weights.

Every round runs `bench 16 1 DEPTH` once with the embedded network and once with each other
shape, engines and shapes interleaved, and takes the process's CPU seconds (user and system: on
a shared machine the wall clock also counts other guests' time). A run must report the embedded
run's node count, or the script stops with an error: a shape that searched another tree would
not be measuring the shape. The cost of a shape is its time over the embedded network's within
each round (the machine's speed moves between rounds), the median over the rounds, with their
range. --quick (a CTest test): depth 8, one round, 512 and 4 king buckets only.

--callgrind counts the work instead of timing it, for a machine too noisy to resolve a few per
cent: each bench runs once under `valgrind --tool=callgrind` (Debian's valgrind), and the
instructions of loading the same network and quitting are taken off, so that what is compared
is the search's. Deterministic, but blind to memory: a larger table of weights that misses the
caches more costs time that no instruction count shows. Some fifty times slower than the bench.
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import sys
import tempfile

from .core import tool, uci_script


def fail(message):
    sys.exit(f"shape-cost: {message}")


def shape(engine):
    """The embedded network's output buckets and king mirroring, as `eval` states its shape."""
    _, out = tool([engine, "eval"], timeout=60)
    m = re.search(r"\(768 -> (\d+)\) x 2 -> 1( of (\d+) buckets)?(, king mirroring)?", out)  # no king buckets
    if not m:
        fail(f"{engine} states no network shape in `eval`")
    return int(m.group(1)), int(m.group(3) or 1), bool(m.group(4))


def reshape(engine, embedded, folder, name, width, kings):
    """The embedded network (its `shape`) widened to `width` with silent neurons, its inputs in `kings` king
    buckets, as the file `name` in `folder`."""
    hidden, buckets, mirror = embedded
    if kings == 1 and width <= hidden:
        fail(f"width {width} is not wider than the embedded network's {hidden}")
    data = os.path.join(folder, "games.bin")
    if not os.path.exists(data):  # a few chunks: one is held out, the rest train
        run([engine, "datagen", "out", data, "games", "40", "nodes", "300", "seed", "1", "threads", "1"])
    net = os.path.join(folder, name)
    run([engine, "train", "data", data, "out", net, "epochs", "1", "batch", "256", "threads", "1", "lr", "1e-7",
         "buckets", str(buckets), "hidden", str(width), "kingbuckets", str(kings), "from", "<embedded>"] +
        (["kingmirror"] if mirror else []))
    return net


def run(command):
    code, said = tool(command, timeout=600)
    if code:
        fail(" ".join(command) + ": " + said.strip().splitlines()[-1])


def bench(engine, net, depth, callgrind=False):
    """CPU seconds (or with `callgrind`, millions of instructions beyond loading the network) and nodes of
    `bench 16 1 depth` with the network file `net` (None: the embedded one)."""
    load = [f"setoption name EvalFile value {net}"] if net else []
    if callgrind:
        searched, nodes = instructions(engine, load + [f"bench 16 1 {depth}"])
        loaded, _ = instructions(engine, load + ["isready"])
        if nodes is None:
            fail(f"{engine} with {net or 'its embedded network'} finished no bench under callgrind")
        return (searched - loaded) / 1e6, nodes
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = uci_script([engine], load + [f"bench 16 1 {depth}"], timeout=1800).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    m = re.search(r"^Nodes searched\s*:\s*(\d+)", out, re.M)
    if not m:
        fail(f"{engine} with {net or 'its embedded network'} finished no bench")
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, int(m.group(1))


def instructions(engine, lines):
    """The instructions `engine` runs on these UCI lines under callgrind, and the bench's nodes if it ran one."""
    done = uci_script(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", engine], lines, timeout=7200)
    m = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if done.returncode or not m:
        fail(f"callgrind on {engine}: " + (done.stderr.strip().splitlines() or ["no count"])[-1])
    nodes = re.search(r"^Nodes searched\s*:\s*(\d+)", done.stdout + done.stderr, re.M)
    return int(m.group(1)), int(nodes.group(1)) if nodes else None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engines", nargs="+", metavar="ENGINE")
    ap.add_argument("--widths", default="512,1024")
    ap.add_argument("--kingbuckets", default="", help="numbers of king buckets, at the embedded width")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--depth", type=int, default=15)
    ap.add_argument("--callgrind", action="store_true", help="instructions under callgrind, not CPU seconds")
    ap.add_argument("--quick", action="store_true", help="depth 8, one round, 512 and 4 king buckets only (a test)")
    args = ap.parse_args(argv)
    if args.quick:
        args.widths, args.kingbuckets, args.rounds, args.depth = "512", "4", 1, 8
    if args.callgrind:
        if not shutil.which("valgrind"):
            fail("--callgrind needs valgrind (apt-get install valgrind)")
        args.rounds = 1  # the counts do not vary
    # Each shape: its label, its width (None: the embedded network's), its king buckets.
    variants = [(w, int(w), 1) for w in args.widths.split(",") if w] + \
               [(f"{k} king buckets", None, int(k)) for k in args.kingbuckets.split(",") if k]
    engines = [os.path.abspath(e) for e in args.engines]

    with tempfile.TemporaryDirectory() as folder:
        shapes = {e: shape(e) for e in engines}
        nets = {(e, label): reshape(e, shapes[e], folder, f"engine{i}-{n}.nnue", width or shapes[e][0], kings)
                for i, e in enumerate(engines) for n, (label, width, kings) in enumerate(variants)}
        times = {}  # (engine, label or None, round): seconds, or instructions with --callgrind
        for r in range(args.rounds):
            for e in engines:
                seconds, expected = bench(e, None, args.depth, args.callgrind)
                times[e, None, r] = seconds
                for label, _, _ in variants:
                    seconds, nodes = bench(e, nets[e, label], args.depth, args.callgrind)
                    if nodes != expected:
                        fail(f"{e} at {label} searched {nodes} nodes, the embedded network {expected}: "
                             "not the same tree")
                    times[e, label, r] = seconds
            print(f"round {r + 1}/{args.rounds}: {expected} nodes a bench", file=sys.stderr)

    unit, ratio = ("M instructions", "instructions x") if args.callgrind else ("CPU s", "time x")
    print(f"| engine | {shapes[engines[0]][0]} (embedded), {unit} | " +
          " | ".join(f"{label}: {ratio} (range)" for label, _, _ in variants) + " |")
    print("|---|---|" + "---|" * len(variants))
    for e in engines:
        base = [times[e, None, r] for r in range(args.rounds)]
        cells = []
        for label, _, _ in variants:
            ratios = [times[e, label, r] / times[e, None, r] for r in range(args.rounds)]
            digits = 4 if args.callgrind else 2
            cells.append(f"{statistics.median(ratios):.{digits}f} ({min(ratios):.{digits}f}-{max(ratios):.{digits}f})")
        print(f"| {e} | {statistics.median(base):.2f} | " + " | ".join(cells) + " |")

