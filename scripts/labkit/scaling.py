"""The many-core report: how Quadbit scales with threads and with engines side by side, beside
Debian's Stockfish and Ethereal, on whatever machine it runs, within a time budget.

Usage: scripts/lab speed scaling [--budget 600] [--out perf] [--engine build/quadbit] [--no-references]
                       [--stockfish PATH] [--ethereal PATH] [--elo FASTCHESS [--tc 5+0.05]]
                       [--only search,perft,side] [--plot-only]

For thread counts 1, 2, 4, ... up to the CPUs this process may use (its affinity):
1. Search: each engine searches the four middlegames of core.POSITIONS for a fixed time from
   a fresh hash. Nodes per second, and time to depth: the time at which each thread count
   completed the deepest iteration that one thread completed on the same position (from the
   engines' own `info ... time` lines), summed over the positions.
2. `go perft` from the start position with each thread count (Quadbit only; the count checked).
3. Engines side by side, as a match runner plays several games at once: P processes of T
   threads (T a quarter of the CPUs, P three, or two on small machines) searching at the same
   moment, and one process with a thread on every CPU, once with each `Bind`; each process's
   nodes per second and their total.
4. NUMA nodes: half the CPUs' threads and all of them, under `NumaPolicy none` (one node) and
   `auto` (the machine's nodes: threads bound by node, a network copy each); on a machine of one
   node there is nothing to compare, and the report says so.
5. Hosts: the cluster engine (build/quadbit-mpi) on 1, 2 and 3 hosts made of network namespaces
   on this machine (scripts/netns-cluster, as root), the CPUs shared out between them, over TCP;
   with 2 hosts also over links of 0.1 and 1 ms each way (netem, or where the kernel has none the
   user-space switch of scripts/netns-switch). Where the namespaces or the cluster engine are
   missing, the report says which.
6. With --elo, T threads against 1 thread in games through fastchess (built outside the
   repository), T a quarter of the CPUs or 2.
Every search must end in a move with a node count and every perft in its known count, or the
script stops with an error: it never reports a figure for work that was not done. --budget
shares the seconds out between the parts (search 45%, perft 10%, side by side 30%, nodes 5%,
hosts 10%; with --elo the games take 40% first) and a part that would overrun is cut short and says so. Writes
scaling.md, scaling.csv and scaling.png (gnuplot, when installed) into --out.
"""
import argparse
import csv
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

from .core import (ENGINE, POSITIONS, ROOT, Uci, checked_perft, checked_search, cpu_count, elo_with_error,
                   engine_or_build, fail, fastchess_command, game_endings, locate, results, run_fastchess, searched)
from .cluster import CLUSTER, NETNS

MIDDLEGAMES = POSITIONS[:4]
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
PERFT = {5: 4865609, 6: 119060324, 7: 3195901860}  # of the start position
BINDS = ("auto", "none", "scatter")
STARTUP = 0.3  # seconds an engine process takes to start and answer isready, roughly


class Budget:
    def __init__(self, seconds):
        self.seconds, self.start = seconds, time.monotonic()

    def left(self):
        return self.seconds - (time.monotonic() - self.start)


def thread_counts(cpus):
    counts = [1]
    while counts[-1] * 2 <= cpus:
        counts.append(counts[-1] * 2)
    return counts + ([cpus] if counts[-1] != cpus else [])


def completed_depths(lines):
    """{depth: milliseconds} for every iteration a search completed, from its `info` lines: an
    iteration is complete at its exact-score line, or at the first line of a deeper one."""
    done = {}
    with_pv = [line for line in lines if line.startswith("info") and " pv " in line]
    for line in with_pv[:-1]:  # the last, printed at the stop, may name the iteration the stop cut short
        d, t = re.search(r"\bdepth (\d+)", line), re.search(r"\btime (\d+)", line)
        if not d or not t:
            continue
        depth, ms = int(d.group(1)), int(t.group(1))
        exact = "lowerbound" not in line and "upperbound" not in line
        for k in range(1, depth + (1 if exact else 0)):
            done.setdefault(k, ms)
    return done


def search_part(engines, counts, movetime, rows, budget):
    """Nodes per second and time to depth of every engine at every thread count. The depth timed
    on a position is the deepest that one thread completed in half the time, so that more threads
    have room to reach it."""
    runs = {}  # (engine, threads) -> [(nodes, seconds, completed depths)] per position
    for threads in counts:
        for name, argv in engines.items():
            if budget.left() < len(MIDDLEGAMES) * (movetime / 1000 + STARTUP):
                return f"search cut short by the budget before {name} with {threads} threads"
            runs[(name, threads)] = []
            for fen in MIDDLEGAMES:
                nodes, seconds, lines = checked_search("scaling", name, argv, [], fen, threads, movetime)
                runs[(name, threads)].append((nodes, seconds, completed_depths(lines)))
    for name in engines:
        one = runs[(name, 1)]
        targets = [max((d for d, ms in done.items() if ms <= movetime / 2), default=1) for _, _, done in one]
        for threads in counts:
            if (name, threads) not in runs:
                continue
            mine = runs[(name, threads)]
            nps = sum(n for n, _, _ in mine) / sum(s for _, s, _ in mine)
            reached = [done.get(target) for target, (_, _, done) in zip(targets, mine)]
            ttd = sum(reached) / 1000 if all(r is not None for r in reached) else None
            rows.append({"part": "search", "engine": name, "threads": threads, "nps": nps, "ttd": ttd,
                         "depths": "/".join(map(str, targets))})
    return ""


def perft_part(engine, counts, share, rows, budget):
    """`go perft` from the start position: the deepest depth whose runs fit the share."""
    one = checked_perft("scaling", "quadbit", [engine], START, 5, PERFT[5])
    depth = 5
    for d in (6, 7):  # each ply is about 25 to 30 times the last: the thread counts together cost about 2x one thread
        if 2 * PERFT[d] / one < share:
            depth = d
    for threads in counts:
        if budget.left() < PERFT[depth] / one / threads + STARTUP:
            return f"perft cut short by the budget before {threads} threads"
        rate = checked_perft("scaling", "quadbit", [engine], START, depth, PERFT[depth], threads)
        rows.append({"part": "perft", "engine": "quadbit", "threads": threads, "nps": rate, "depths": str(depth)})
    return ""


def side_by_side(engine, processes, threads, bind, movetime):
    """Each process's nodes per second when `processes` engines of `threads` threads search at
    once (each its own middlegame); exits unless every one ends in a move with nodes."""
    procs = [Uci([engine]) for _ in range(processes)]
    placements = []
    for i, p in enumerate(procs):
        fen = MIDDLEGAMES[i % len(MIDDLEGAMES)]
        lines = p.ask(f"setoption name Bind value {bind}", f"setoption name Threads value {threads}",
                      "setoption name Hash value 64", f"position fen {fen}")
        said = [l.split("info string ", 1)[1].strip() for l in lines if l.startswith("info string") and " threads " in l]
        placements.append(said[-1] if said else "")  # the last: after Threads
    for p in procs:
        p.send(f"go movetime {movetime}")
    rates = []
    for i, p in enumerate(procs):
        lines = p.read_until("bestmove")
        move, nodes, ms = searched(lines)
        if not move or nodes <= 0:
            fail("scaling", f"process {i + 1} of {processes} (Bind {bind}) ended "
                            f"{lines[-1] if lines else 'with nothing'!r}: no search to time")
        rates.append(nodes / max(ms, 1) * 1000)
    for p in procs:
        p.close()
    return rates, placements


SIDE_REPEATS, SIDE_MIN_MOVETIME = 3, 300


def side_by_side_setups(cpus):
    """(processes, threads each) of the side-by-side part: a match runner's P games at once, and
    one process with a thread on every CPU."""
    threads = max(1, cpus // 4)
    return [(3 if 3 * threads < cpus else 2, threads), (1, cpus)]


def side_by_side_floor(cpus):
    """The seconds the side-by-side part needs at least: every run at the shortest movetime, each
    process started (a process costs about twice STARTUP here, its hash allocated and freed)."""
    return sum(SIDE_REPEATS * len(BINDS) * (SIDE_MIN_MOVETIME / 1000 + 2 * count * STARTUP)
               for count, _ in side_by_side_setups(cpus))


def side_by_side_part(engine, cpus, share, rows, budget):
    """P processes of T threads at once, and one process with a thread on every CPU, with each
    Bind: what a match runner's concurrency costs, and what pinning buys when it is safe."""
    setups = side_by_side_setups(cpus)
    processes = setups[0][0]
    movetime = int(min(5000, max(SIDE_MIN_MOVETIME,
                                 1000 * (share / (SIDE_REPEATS * len(BINDS) * len(setups)) - processes * STARTUP))))
    per = {(setup, b): [] for setup in setups for b in BINDS}
    placements = {}
    for r in range(SIDE_REPEATS):
        for setup in setups:
            for bind in BINDS:
                if budget.left() < movetime / 1000 + setup[0] * STARTUP:
                    return f"side by side cut short by the budget in repeat {r + 1}"
                rates, placements[(setup, bind)] = side_by_side(engine, *setup, bind, movetime)
                per[(setup, bind)].append(rates)
    for (count, each_threads) in setups:
        for bind in BINDS:
            runs = per[((count, each_threads), bind)]
            each = [statistics.median(run[i] for run in runs) for i in range(count)]
            placement = placements[((count, each_threads), bind)]
            rows.append({"part": "side by side", "engine": "quadbit", "threads": each_threads, "processes": count,
                         "bind": bind, "nps": statistics.median(sum(run) for run in runs),
                         "each": " / ".join(f"{x / 1e6:.2f}" for x in each),
                         "placement": placement[0] if placement else "", "movetime": movetime})
    return ""


def numa_nodes():
    """How many NUMA nodes Linux shows (1 where it shows none)."""
    base = "/sys/devices/system/node"
    found = [d for d in os.listdir(base) if re.fullmatch(r"node\d+", d)] if os.path.isdir(base) else []
    return max(1, len(found))


def timed_searches(label, argv, options, threads, movetime):
    """Nodes per second over the middlegames, and the last placement line the engine gave."""
    nodes = seconds = 0
    placement = ""
    for fen in MIDDLEGAMES:
        n, sec, lines = checked_search("scaling", label, argv, options, fen, threads, movetime)
        nodes, seconds = nodes + n, seconds + sec
        said = [l.split("info string ", 1)[1].strip() for l in lines if l.startswith("info string") and " threads " in l]
        placement = said[-1] if said else placement
    return nodes / seconds, placement


def numa_part(engine, cpus, share, rows, budget):
    """Half the CPUs' threads and all of them under NumaPolicy none and auto."""
    nodes = numa_nodes()
    if nodes <= 1:
        return "NUMA policies: this machine shows one NUMA node, nothing to compare"
    counts = sorted({max(1, cpus // 2), cpus})
    runs = 2 * len(counts) * len(MIDDLEGAMES)
    movetime = int(min(5000, max(200, 1000 * (share / runs - STARTUP))))
    for threads in counts:
        for policy in ("none", "auto"):
            if budget.left() < len(MIDDLEGAMES) * (movetime / 1000 + STARTUP):
                return f"NUMA policies cut short by the budget before {threads} threads under {policy}"
            nps, placement = timed_searches(f"quadbit (NumaPolicy {policy})", [engine],
                                            [f"setoption name NumaPolicy value {policy}"], threads, movetime)
            rows.append({"part": "numa", "engine": "quadbit", "threads": threads, "bind": policy, "nps": nps,
                         "placement": placement, "movetime": movetime, "nodes": nodes})
    return ""


HOST_STARTUP = 1.5  # seconds for mpirun to start its ranks in the namespaces, roughly


def hosts_part(cpus, share, rows, budget):
    """The cluster engine on 1, 2 and 3 hosts made of network namespaces, the CPUs shared out."""
    if not os.path.exists(CLUSTER):
        return "hosts: no build/quadbit-mpi (scripts/build --mpi)"
    if os.geteuid() != 0 or subprocess.run([NETNS, "check"], capture_output=True).returncode:
        return "hosts: network namespaces cannot be made here (they need root)"
    setups = [(h, 0.0) for h in (1, 2, 3) if h <= cpus] + [(2, 0.1), (2, 1.0)]
    movetime = int(min(5000, max(300, 1000 * (share / (len(setups) * len(MIDDLEGAMES)) - HOST_STARTUP))))
    notes = []
    try:
        for hosts, delay in setups:
            if budget.left() < len(MIDDLEGAMES) * (movetime / 1000 + HOST_STARTUP):
                notes.append(f"hosts cut short by the budget before {hosts} hosts" + (f" at {delay:g} ms" if delay else ""))
                break
            up = [NETNS, "up", str(hosts)] + (["--delay", f"{delay:g}"] if delay else [])
            made = subprocess.run(up, capture_output=True, text=True)
            if made.returncode:
                return f"hosts: netns-cluster up {hosts} failed: {made.stderr.strip()}"
            threads = max(1, cpus // hosts)
            nps, _ = timed_searches(f"quadbit-mpi on {hosts} hosts", [NETNS, "mpirun", CLUSTER], [], threads, movetime)
            link = "" if not delay else " (netem)" if "(netem)" in made.stdout else " (user-space switch)"
            rows.append({"part": "hosts", "engine": "quadbit-mpi", "threads": threads, "processes": hosts,
                         "delay": delay, "link": link, "nps": nps, "movetime": movetime})
    finally:
        subprocess.run([NETNS, "down"], check=False)
    return "; ".join(notes)


def elo_part(fastchess, engine, cpus, tc, share, out):
    threads = max(2, cpus // 4)
    base, inc = (float(x) for x in tc.split("+"))
    game = 2 * (base + 60 * inc) + 1  # two clocks of a 60-move game
    concurrency = max(1, cpus // (threads + 1))
    rounds = max(1, int(share / game * concurrency / 2))
    pgn = os.path.join(os.path.abspath(out), "scaling-games.pgn")
    if os.path.exists(pgn):
        os.remove(pgn)
    name = f"quadbit-{threads}t"
    cmd = fastchess_command(fastchess, [[f"cmd={engine}", f"name={name}", f"option.Threads={threads}"],
                                        [f"cmd={engine}", "name=quadbit-1t", "option.Threads=1"]],
                            [f"tc={tc}", "option.Hash=64"], rounds, concurrency=concurrency, pgn=pgn)
    run_fastchess(cmd)
    wins, losses, draws = results(pgn, name)
    _, _, bad = game_endings(pgn, name)
    games = wins + losses + draws
    if games == 0:
        sys.exit("scaling: the match played no game")
    elo, error = elo_with_error(wins, losses, draws)
    os.remove(pgn)
    return (f"{threads} threads against 1 thread, {tc}, {games} games at concurrency {concurrency}, UHO book: "
            f"+{wins} -{losses} ={draws}, {100 * (wins + draws / 2) / games:.1f}%, {elo:+.0f} +/- {error:.0f} Elo; "
            f"{bad} lost on time, by an illegal move or a crash.")


def write_report(out, cpu, cpus, args, rows, notes, elo):
    with open(os.path.join(out, "scaling.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["part", "engine", "threads", "processes", "bind", "nps", "speedup", "ttd_seconds", "ttd_speedup",
                    "depths", "delay_ms"])
        for r in rows:
            w.writerow([r["part"], r["engine"], r["threads"], r.get("processes", 1), r.get("bind", "auto"),
                        int(r["nps"]), f"{r.get('speedup', 1):.3f}", f"{r['ttd']:.3f}" if r.get("ttd") else "",
                        f"{r['ttd_speedup']:.3f}" if r.get("ttd_speedup") else "", r.get("depths", ""),
                        f"{r['delay']:g}" if "delay" in r else ""])
    md = [f"Machine: {cpu}, {cpus} CPUs allowed, {platform.system()} {platform.release()}; "
          f"`scripts/lab speed scaling --budget {args.budget}`, {args.elapsed:.0f} s. Every search checked to end in a "
          f"move with nodes, every perft count checked.", ""]
    search = [r for r in rows if r["part"] == "search"]
    if search:
        engines = list(dict.fromkeys(r["engine"] for r in search))
        md += [f"Search: the four middlegames, {args.movetime} ms each from a fresh 64 MB hash. Time to depth: "
               f"to the deepest iteration one thread completed on each position (depths "
               + ", ".join(f"{e} {next(r['depths'] for r in search if r['engine'] == e)}" for e in engines)
               + "), summed.", "",
               "| threads | " + " | ".join(f"{e} Mnps (x of 1T) | {e} time to depth (x)" for e in engines) + " |",
               "|---|" + "---|---|" * len(engines)]
        for t in sorted({r["threads"] for r in search}):
            cells = []
            for e in engines:
                r = next((r for r in search if r["engine"] == e and r["threads"] == t), None)
                if not r:
                    cells += ["-", "-"]
                    continue
                cells.append(f"{r['nps'] / 1e6:.2f} ({r['speedup']:.2f}x)")
                cells.append(f"{r['ttd']:.2f} s ({r['ttd_speedup']:.2f}x)" if r.get("ttd") else "not reached")
            md.append(f"| {t} | " + " | ".join(cells) + " |")
        md.append("")
    perft = [r for r in rows if r["part"] == "perft"]
    if perft:
        md += [f"`go perft {perft[0]['depths']}` from the start position: "
               + ", ".join(f"{r['threads']}T {r['nps'] / 1e6:.0f} Mnps ({r['speedup']:.2f}x)" for r in perft) + ".", ""]
    side = [r for r in rows if r["part"] == "side by side"]
    if side:
        md += [f"Side by side: P processes of T threads searching at once ({side[0]['movetime']} ms, {SIDE_REPEATS} repeats, "
               f"medians), as a match runner plays P games at once, and one process with a thread on every CPU:", "",
               "| P x T | Bind | Mnps of each | together | x of Bind none | placement (first process) |",
               "|---|---|---|---|---|---|"]
        for r in side:
            none = next(o["nps"] for o in side if o["bind"] == "none" and o["processes"] == r["processes"])
            md.append(f"| {r['processes']} x {r['threads']} | {r['bind']} | {r['each']} | {r['nps'] / 1e6:.2f} | "
                      f"{r['nps'] / none:.2f} | {r['placement']} |")
        md.append("")
    numa = [r for r in rows if r["part"] == "numa"]
    if numa:
        md += [f"NUMA nodes: {numa[0]['nodes']} on this machine; one engine under each `NumaPolicy` "
               f"({numa[0]['movetime']} ms a middlegame):", "",
               "| threads | NumaPolicy | Mnps | x of none | placement |", "|---|---|---|---|---|"]
        for r in numa:
            none = next(o["nps"] for o in numa if o["bind"] == "none" and o["threads"] == r["threads"])
            md.append(f"| {r['threads']} | {r['bind']} | {r['nps'] / 1e6:.2f} | {r['nps'] / none:.2f} | {r['placement']} |")
        md.append("")
    hosts = [r for r in rows if r["part"] == "hosts"]
    if hosts:
        one = next((r["nps"] for r in hosts if r["processes"] == 1), None)
        md += [f"Hosts: `quadbit-mpi` on hosts made of network namespaces on this machine, a rank each, over TCP, "
               f"the CPUs shared out ({hosts[0]['movetime']} ms a middlegame):", "",
               "| hosts x threads | link delay each way | Mnps | x of one host |", "|---|---|---|---|"]
        for r in hosts:
            md.append(f"| {r['processes']} x {r['threads']} | {r['delay']:g} ms{r.get('link', '')} | {r['nps'] / 1e6:.2f} | "
                      + (f"{r['nps'] / one:.2f} |" if one else "- |"))
        md.append("")
    if elo:
        md += [elo, ""]
    md += [f"Not measured: {n}." for n in notes if n]
    if args.elapsed > args.budget:
        md.append(f"Over the budget: {args.elapsed:.0f} s of {args.budget:.0f}.")
    with open(os.path.join(out, "scaling.md"), "w") as fh:
        fh.write("\n".join(md).rstrip() + "\n")
    print("\n".join(md))


def plot(out, cpu, cpus):
    """scaling.png from scaling.csv: speedup over one thread, one line per engine and measure."""
    if not shutil.which("gnuplot"):
        print("scaling: gnuplot is not installed, no plot", file=sys.stderr)
        return
    rows = list(csv.DictReader(open(os.path.join(out, "scaling.csv"))))
    series = {}
    for r in rows:
        if r["part"] == "search":
            series.setdefault(f"{r['engine']} nodes/s", []).append((r["threads"], r["speedup"]))
            if r["ttd_speedup"]:
                series.setdefault(f"{r['engine']} time to depth", []).append((r["threads"], r["ttd_speedup"]))
        elif r["part"] == "perft":
            series.setdefault("quadbit perft", []).append((r["threads"], r["speedup"]))
    if not series:
        return
    counts = sorted({int(r["threads"]) for r in rows})
    series["linear"] = [(t, t) for t in counts]
    blocks = "".join(f"$s{i} << EOD\n" + "".join(f"{x} {y}\n" for x, y in pts) + "EOD\n"
                     for i, pts in enumerate(series.values()))
    plots = ", ".join(f"$s{i} with linespoints{' dashtype 2' if name == 'linear' else ''} title '{name}'"
                      for i, name in enumerate(series))
    script = f"""{blocks}set terminal pngcairo size 900,560
set output '{os.path.join(out, "scaling.png")}'
set title 'Speedup over one thread ({cpu}, {cpus} CPUs)'
set xlabel 'threads'
set ylabel 'x of one thread'
set logscale xy 2
set key left top
set grid
plot {plots}
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=False)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget", type=float, default=600, help="seconds for the whole report")
    ap.add_argument("--out", default=os.path.join(ROOT, "perf"), help="folder for scaling.md, .csv and .png")
    ap.add_argument("--engine", default=ENGINE)
    ap.add_argument("--no-references", action="store_true", help="Quadbit alone")
    ap.add_argument("--stockfish", help="default Debian's stockfish")
    ap.add_argument("--ethereal", help="default Debian's ethereal-chess")
    ap.add_argument("--elo", metavar="FASTCHESS", help="also play T threads against 1 thread with this match runner")
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--only", default="search,perft,side,numa,hosts",
                    help="the parts to run, of search,perft,side,numa,hosts")
    ap.add_argument("--plot-only", action="store_true", help="redraw scaling.png from scaling.csv")
    args = ap.parse_args(argv)
    cpus = cpu_count()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")),
               platform.processor() or platform.machine())
    os.makedirs(args.out, exist_ok=True)
    if args.plot_only:
        plot(args.out, cpu, cpus)
        return
    engine = engine_or_build(args.engine)
    engines = {"quadbit": [engine]}
    if not args.no_references:
        for name, given, package in (("stockfish", args.stockfish, "stockfish"),
                                     ("ethereal", args.ethereal, "ethereal-chess")):
            path = given or locate(package)
            if os.path.exists(path):
                engines[name] = [path]
            else:
                print(f"scaling: no {package} ({path}), left out", file=sys.stderr)

    budget = Budget(args.budget)
    counts = thread_counts(cpus)
    rows, notes, elo = [], [], ""
    if args.elo:
        elo = elo_part(args.elo, engine, cpus, args.tc, 0.4 * args.budget, args.out)
    parts = args.only.split(",")
    weights = {p: w for p, w in (("search", 0.45), ("perft", 0.10), ("side", 0.30), ("numa", 0.05), ("hosts", 0.10))
               if p in parts}
    share = {p: budget.left() * w / sum(weights.values()) for p, w in weights.items()}
    if "side" in parts and "search" in parts:  # a small budget: the side-by-side part's floor first
        later = share.get("perft", 0) + share.get("numa", 0) + share.get("hosts", 0)
        share["search"] = min(share["search"], budget.left() - later - side_by_side_floor(cpus))
    if "search" in parts:
        runs = len(engines) * len(counts) * len(MIDDLEGAMES)
        args.movetime = int(min(10000, max(100, 1000 * (share["search"] / runs - STARTUP))))
        notes.append(search_part(engines, counts, args.movetime, rows, budget))
    if "perft" in parts:
        notes.append(perft_part(engine, counts, min(share["perft"], budget.left()), rows, budget))
    if "side" in parts:
        later = share.get("numa", 0) + share.get("hosts", 0)
        notes.append(side_by_side_part(engine, cpus, min(share["side"], budget.left() - later - 1), rows, budget))
    if "numa" in parts:
        notes.append(numa_part(engine, cpus, min(share["numa"], budget.left() - share.get("hosts", 0)), rows, budget))
    if "hosts" in parts:
        notes.append(hosts_part(cpus, min(share["hosts"], budget.left()), rows, budget))
    for r in rows:  # speedups over one thread of the same engine and part
        one = next((o for o in rows if o["part"] == r["part"] and o["engine"] == r["engine"] and o["threads"] == 1),
                   None)
        if one and r["part"] in ("search", "perft"):
            r["speedup"] = r["nps"] / one["nps"]
            if r.get("ttd") and one.get("ttd"):
                r["ttd_speedup"] = one["ttd"] / r["ttd"]
    args.elapsed = time.monotonic() - budget.start
    write_report(args.out, cpu, cpus, args, rows, notes, elo)
    plot(args.out, cpu, cpus)

