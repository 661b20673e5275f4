"""Side-by-side search speed: Quadbit (generic and native builds, the hand-written evaluation and
the network) against Debian's Stockfish and Ethereal, with one thread and with all.

Usage: scripts/lab speed nps [--repeat 3] [--movetime 2000] [--no-write] [--quick]
                           [--generic PATH] [--native PATH] [--stockfish PATH] [--ethereal PATH]

Each engine searches the four middlegame positions of core.POSITIONS for --movetime ms from a
fresh hash (64 MB), engines interleaved, every run repeated. A run counts only if it ends in a
`bestmove` with a move and its last `info` line reports nodes: otherwise the script stops with
an error, so that it never reports the speed of a search that did not happen. The rate of a run
is the nodes of its last `info` line over the wall time from `go` to `bestmove`; an engine's
figure is the median over the repeats of its total nodes over its total time. Debian's engines
are baseline x86-64 builds (SSE2): the fair comparison is with Quadbit's `generic` build; the
native build's figure is given beside it. The table is written into docs/results/speed.md between the
compare-nps markers. --quick (a test) searches one position for 100 ms, once, writing nothing.
"""
import argparse
import os
import platform
import statistics
import sys

from .core import POSITIONS, checked_search, cpu_count, ensure, level_build, write_table

MIDDLEGAMES = POSITIONS[:4]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--movetime", type=int, default=2000)
    ap.add_argument("--no-write", action="store_true", help="print only, do not update docs/results/speed.md")
    ap.add_argument("--quick", action="store_true", help="one position, 100 ms, once, nothing written (a test)")
    ap.add_argument("--generic", help="Quadbit's generic build (default build-generic/quadbit, built if missing)")
    ap.add_argument("--native", help="Quadbit's native build (default build/quadbit, built if missing)")
    ap.add_argument("--stockfish", help="default Debian's stockfish")
    ap.add_argument("--ethereal", help="default Debian's ethereal-chess")
    args = ap.parse_args(argv)
    positions = MIDDLEGAMES[:1] if args.quick else MIDDLEGAMES
    if args.quick:
        args.repeat, args.movetime, args.no_write = 1, 100, True

    generic = [os.path.abspath(args.generic or level_build("generic"))]
    native = [os.path.abspath(args.native or level_build("native"))]
    network, hand_written = ["setoption name Use NNUE value true"], ["setoption name Use NNUE value false"]
    engines = {  # name: (command, options)
        "quadbit-generic": (generic, hand_written),
        "quadbit-native": (native, hand_written),
        "quadbit-generic-nnue": (generic, network),
        "quadbit-native-nnue": (native, network),
        "stockfish": ([args.stockfish or ensure("stockfish")], []),
        "ethereal": ([args.ethereal or ensure("ethereal-chess")], []),
    }
    cores = cpu_count()
    thread_counts = [1] + ([cores] if cores > 1 else [])
    rates = {(name, t): [] for name in engines for t in thread_counts}
    for rep in range(args.repeat):
        for threads in thread_counts:
            for name, (argv, options) in engines.items():
                runs = [checked_search("speed nps", name, argv, options, fen, threads, args.movetime)
                        for fen in positions]
                rates[(name, threads)].append(sum(r[0] for r in runs) / sum(r[1] for r in runs))
        print(f"repeat {rep + 1}/{args.repeat} done", file=sys.stderr)

    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")),
               platform.processor())
    lines = [f"Machine: {cpu}, {cores} cores, {platform.system()} {platform.release()}; {len(positions)} "
             f"middlegames, {args.movetime} ms each from a fresh 64 MB hash, {args.repeat} interleaved repeats, "
             f"medians; every search checked to end in a move with a node count.", "",
             "| threads | stockfish Mnps | ethereal Mnps | generic Mnps | generic / ethereal | generic / stockfish "
             "| native Mnps | native / ethereal | network: generic Mnps | generic / hand-written | generic / stockfish "
             "| native Mnps | native / hand-written |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for t in thread_counts:
        m = {name: statistics.median(rates[(name, t)]) for name in engines}
        lines.append(f"| {t} | {m['stockfish'] / 1e6:.2f} | {m['ethereal'] / 1e6:.2f} | "
                     f"{m['quadbit-generic'] / 1e6:.2f} | {m['quadbit-generic'] / m['ethereal']:.2f}x | "
                     f"{m['quadbit-generic'] / m['stockfish']:.2f}x | {m['quadbit-native'] / 1e6:.2f} | "
                     f"{m['quadbit-native'] / m['ethereal']:.2f}x | {m['quadbit-generic-nnue'] / 1e6:.2f} | "
                     f"{m['quadbit-generic-nnue'] / m['quadbit-generic']:.2f}x | "
                     f"{m['quadbit-generic-nnue'] / m['stockfish']:.2f}x | {m['quadbit-native-nnue'] / 1e6:.2f} | "
                     f"{m['quadbit-native-nnue'] / m['quadbit-native']:.2f}x |")
    table = "\n".join(lines)
    print(table)

    if not args.no_write:
        write_table("speed nps", "compare-nps", table)

