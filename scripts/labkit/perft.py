"""Side-by-side perft speed: Quadbit (generic and native builds) against Debian's Stockfish.

Usage: scripts/lab speed perft [--repeat N] [--no-write] [--quick]
                             [--generic PATH] [--native PATH] [--reference PATH]

Runs `go perft` on the start position (depth 6), Kiwipete (5) and chessprogramming positions
3-5, one thread, interleaving the engines and repeating every run, and prints each engine's node
rate (median of the repeats), the ratio to Stockfish, and the machine. Each run is timed from
`go perft` (sent once the engine has answered `isready`) to its `Nodes searched` line, and every
count is checked against the known perft value: a count that is missing or wrong stops the
script with an error, so that it never reports the speed of work that was not done.
Debian's stockfish is a baseline x86-64 build (no POPCNT/BMI2): the fair comparison is with
Quadbit's `generic` build; the native build's figure is given beside it.
The table is written into docs/results/speed.md between the compare-perft markers. `--quick` (a CTest
test) runs each position three plies shallower, once, and writes nothing.
"""
import argparse
import os
import platform
import statistics
import sys

from .core import checked_perft, ensure, level_build, write_table

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# (name, FEN, depth, the known perft counts by depth: chessprogramming.org/Perft_Results)
POSITIONS = [
    ("start position", START, 6, {3: 8902, 4: 197281, 6: 119060324, 7: 3195901860}),
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5,
     {2: 2039, 5: 193690690}),
    ("CPW position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, {4: 43238, 7: 178633661}),
    ("CPW position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6,
     {3: 9467, 6: 706045033}),
    ("CPW position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, {2: 1486, 5: 89941194}),
]
QUICK = 3  # plies fewer with --quick


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-write", action="store_true", help="print only, do not update docs/results/speed.md")
    ap.add_argument("--quick", action="store_true", help="shallow, once, nothing written (a test)")
    ap.add_argument("--generic", help="Quadbit's generic build (default build-generic/quadbit, built if missing)")
    ap.add_argument("--native", help="Quadbit's native build (default build/quadbit, built if missing)")
    ap.add_argument("--reference", help="the engine compared with (default Debian's stockfish)")
    args = ap.parse_args(argv)
    if args.quick:
        args.repeat, args.no_write = 1, True
    plies_fewer = QUICK if args.quick else 0

    engines = {
        "quadbit-generic": [os.path.abspath(args.generic or level_build("generic"))],
        "quadbit-native": [os.path.abspath(args.native or level_build("native"))],
        "stockfish": [args.reference or ensure("stockfish")],
    }

    rates = {(name, pos[0]): [] for name in engines for pos in POSITIONS}
    for rep in range(args.repeat):
        for label, fen, depth, counts in POSITIONS:
            for name, argv in engines.items():
                d = depth - plies_fewer
                rates[(name, label)].append(checked_perft("speed perft", name, argv, fen, d, counts[d]))
        print(f"repeat {rep + 1}/{args.repeat} done", file=sys.stderr)

    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
    lines = [f"Machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
             f"{args.repeat} interleaved repeats, medians, one thread; each run timed from `go perft` to its "
             f"count, every count checked.", "",
             "| position | depth | stockfish Mnps | generic Mnps | generic / sf | native Mnps | native / sf |",
             "|---|---|---|---|---|---|---|"]
    ratios = {"generic": [], "native": []}
    for label, fen, depth, _ in POSITIONS:
        depth -= plies_fewer
        sf = statistics.median(rates[("stockfish", label)])
        gen = statistics.median(rates[("quadbit-generic", label)])
        nat = statistics.median(rates[("quadbit-native", label)])
        ratios["generic"].append(gen / sf)
        ratios["native"].append(nat / sf)
        lines.append(f"| {label} | {depth} | {sf / 1e6:.1f} | {gen / 1e6:.1f} | {gen / sf:.2f}x | {nat / 1e6:.1f} | {nat / sf:.2f}x |")
    lines.append(f"| median ratio | | | | {statistics.median(ratios['generic']):.2f}x | | {statistics.median(ratios['native']):.2f}x |")

    # Perft with threads: Quadbit's node rate with 1 and with all threads.
    cores = os.cpu_count()
    scaling = {1: [], cores: []}
    depth = 7 - plies_fewer
    for rep in range(args.repeat):
        for threads in scaling:
            scaling[threads].append(checked_perft("speed perft", "quadbit-native", engines["quadbit-native"], START,
                                                  depth, POSITIONS[0][3][depth], threads))
    one, many = statistics.median(scaling[1]), statistics.median(scaling[cores])
    lines += ["", f"Perft {depth} from the start position, native build: 1 thread {one / 1e6:.0f} Mnps, "
              f"{cores} threads {many / 1e6:.0f} Mnps: {many / one:.2f}x (medians of {args.repeat})."]
    table = "\n".join(lines)
    print(table)

    if not args.no_write:
        write_table("speed perft", "compare-perft", table)

