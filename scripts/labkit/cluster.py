"""Cluster scaling of Quadbit: N ranks x T threads of quadbit-mpi (Open MPI) against one rank.

Usage: scripts/lab speed cluster [--ranks 2] [--threads 1] [--repeat 5] [--movetime 1000]
                               [--depth 16] [--hostfile FILE | --netns [--delay MS,... [--variant NAME=VALUE]]]
                               [--mpirun-arg ARG ...]
                               [--option NAME=VALUE ...]
                               [--elo FASTCHESS --games 200 --tc 5+0.05]

Three configurations, interleaved over the repeats: the normal engine with T threads (1 rank x T),
the normal engine with N*T threads (the same cores in one process, where there are that many), and
`mpirun -np N build/quadbit-mpi` with T threads per rank (--oversubscribe where the cores are
fewer than N*T; --hostfile spreads the ranks over machines; --netns over N hosts made of network
namespaces on this machine, a rank each, talking TCP (scripts/netns-cluster, as root)). --delay
adds a row of the cluster for each delay, MS milliseconds each way on every host's link (netem, or
where the kernel has none the user-space switch of scripts/netns-switch; a delay of 0 through that
switch shows what it costs by itself), beside the plain link; --variant adds a row at the largest
delay with a cluster option changed (ClusterBatchSize=128: how the exchange copes with a slow link).
Each row of hosts also gives its link's measured TCP round trip.
- nodes per second: the positions of scripts/lab speed scaling searched for --movetime ms each (one session),
  total nodes over total time, from the final `info` (the root counts every rank's nodes);
- time to depth: the same positions to --depth from a fresh hash; per position the median over
  the repeats, then the median over the positions (and their total).
Medians over the repeats; the cluster is also compared with the same cores as threads of one
process (1 rank x N*T), the best a cluster on one machine can do. Writes perf/cluster-scaling.csv, perf/cluster-scaling.md and
perf/cluster-scaling.png (gnuplot); with --netns perf/cluster-netns.csv, .md and .png; with --delay
perf/cluster-latency.*. With --elo, also plays N ranks x T threads against 1 rank x T
threads through the match runner given (fastchess, built outside the repository), UHO book.
--option sets a UCI option of the cluster engine (ClusterShareDepth, ClusterBatchSize).
"""
import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from .core import (ENGINE, POSITIONS, ROOT, cpu_count, fastchess_command, game_endings, run_fastchess, run_uci, searched,
                   time_to_depth)

CLUSTER = os.path.join(ROOT, "build", "quadbit-mpi")
NETNS = os.path.join(ROOT, "scripts", "netns-cluster")


def mpirun(args):
    if args.netns:  # one rank a host; the script names the hosts, the launcher and TCP
        return [NETNS, "mpirun"] + args.mpirun_arg + [CLUSTER]
    argv = [shutil.which("mpirun") or "mpirun"]
    if args.ranks * args.threads > cpu_count() and not args.hostfile:
        argv.append("--oversubscribe")
    if os.geteuid() == 0:
        argv.append("--allow-run-as-root")
    if args.hostfile:
        argv += ["--hostfile", args.hostfile]
    return argv + args.mpirun_arg + ["-np", str(args.ranks), CLUSTER]


def nodes_per_second(argv, threads, movetime, extra=()):
    nodes = millis = 0
    for fen in POSITIONS:
        lines, _ = run_uci(argv, list(extra) + [f"setoption name Threads value {threads}", "setoption name Hash value 64",
                                  "ucinewgame", f"position fen {fen}", f"go movetime {movetime}"], "bestmove")
        _, searched_nodes, searched_ms = searched(lines)
        nodes += searched_nodes
        millis += searched_ms
    return nodes * 1000 // max(1, millis)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1, help="threads per rank")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--movetime", type=int, default=1000, help="ms per position for nodes per second")
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--hostfile")
    ap.add_argument("--netns", action="store_true", help="the ranks on hosts of network namespaces (root)")
    ap.add_argument("--delay", type=delays, help="with --netns: ms each way on every host's link, a list (0,0.1,1)")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=VALUE",
                    help="with --delay: a row more at the largest delay with this cluster option set (repeatable)")
    ap.add_argument("--mpirun-arg", action="append", default=[], help="another mpirun argument (repeatable)")
    ap.add_argument("--option", action="append", default=[], help="a UCI option of the cluster engine, NAME=VALUE")
    ap.add_argument("--elo", metavar="FASTCHESS")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--tc", default="5+0.05")
    args = ap.parse_args(argv)
    for binary in (ENGINE, CLUSTER):
        if not os.path.exists(binary):
            sys.exit(f"{binary} is missing: install Open MPI (scripts/setup) and run scripts/build --mpi")

    if args.netns and args.hostfile:
        sys.exit("--netns makes its own hosts: no --hostfile with it")
    if args.delay is not None and not args.netns:
        sys.exit("--delay needs --netns")
    if args.variant and args.delay is None:
        sys.exit("--variant needs --delay")
    if args.delay is not None and args.elo:
        sys.exit("--elo plays over the plain link: no --delay with it")
    if args.netns:
        try:
            measure(args)
        finally:
            subprocess.run([NETNS, "down"], check=False)
    else:
        measure(args)


def delays(text):
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of milliseconds: {text}")
    if not values or any(not 0 <= v <= 1000 for v in values):
        raise argparse.ArgumentTypeError("delays from 0 to 1000 ms")
    return values


class Hosts:
    """The namespaced hosts of --netns, remade when a row needs another link; what each link
    turned out to be (bridge, netem or the user-space switch) and its measured round trips."""

    def __init__(self, count):
        self.count, self.current, self.kind, self.rtts = count, "down", {}, {}

    def link(self, delay):  # None: the bridge, no delay
        if delay == self.current:
            return
        made = subprocess.run([NETNS, "up", str(self.count)] + ([] if delay is None else ["--delay", f"{delay:g}"]),
                              capture_output=True, text=True)
        if made.returncode:
            sys.exit(made.stderr.strip() or f"netns-cluster up failed ({made.returncode})")
        self.current = delay
        self.kind[delay] = ("a bridge" if delay is None else
                            "netem" if "(netem)" in made.stdout else "the user-space switch")
        if self.count >= 2:
            rtt = subprocess.run([NETNS, "rtt"], capture_output=True, text=True)
            if rtt.returncode == 0:
                self.rtts.setdefault(delay, []).append(float(rtt.stdout))


def measure(args):
    n, t = args.ranks, args.threads
    options = ["setoption name {} value {}".format(*o.split("=", 1)) for o in args.option]
    hosts = Hosts(n) if args.netns else None
    # (name, command, threads, UCI lines first, the link: no hosts, or a delay; None the bridge)
    configs = [(f"1 rank x {t}", [ENGINE], t, [], "none")]
    if n * t <= cpu_count():
        configs.append((f"1 rank x {n * t}", [ENGINE], n * t, [], "none"))
    configs.append((f"{n} ranks x {t}", mpirun(args), t, options, None))
    for delay in args.delay or []:
        configs.append((f"{n} ranks x {t}, {delay:g} ms", mpirun(args), t, options, delay))
    for variant in args.variant:
        name, value = variant.split("=", 1)
        configs.append((f"{n} ranks x {t}, {max(args.delay):g} ms, {name} {value}", mpirun(args), t,
                        options + [f"setoption name {name} value {value}"], max(args.delay)))
    nps = {c[0]: [] for c in configs}
    ttd = {c[0]: [] for c in configs}
    for rep in range(args.repeat):
        for name, argv, threads, extra, link in configs:
            if hosts and link != "none":
                hosts.link(link)
            nps[name].append(nodes_per_second(argv, threads, args.movetime, extra))
            ttd[name].append(time_to_depth(argv, threads, args.depth, extra))
        print(f"repeat {rep + 1}/{args.repeat} done", file=sys.stderr)

    def per_position(name):  # the median over the repeats of each position's time
        return [statistics.median(r[i] for r in ttd[name]) for i in range(len(POSITIONS))]

    base = configs[0][0]
    base_nps, base_ttd = statistics.median(nps[base]), statistics.median(per_position(base))
    perf = os.path.join(ROOT, "perf")
    stem = "cluster-latency" if args.delay is not None else "cluster-netns" if args.netns else "cluster-scaling"
    rows = []
    with open(os.path.join(perf, stem + ".csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["config", "link", "rtt_ms_median", "nps_median", "nps_speedup", "ttd_seconds_median_position",
                    "ttd_speedup", "ttd_seconds_total"])
        for name, _, _, _, link in configs:
            m, times = statistics.median(nps[name]), per_position(name)
            d = statistics.median(times)
            kind = "" if not hosts or link == "none" else hosts.kind[link]
            rtt = round(statistics.median(hosts.rtts[link]), 3) if hosts and link in hosts.rtts else ""
            rows.append([name, kind, rtt, int(m), round(m / base_nps, 3), round(d, 3), round(base_ttd / d, 3),
                         round(sum(times), 2)])
            w.writerow(rows[-1])
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    where = f"hosts of {args.hostfile}" if args.hostfile else f"one machine ({cpu}, {cpu_count()} CPUs)"
    if args.netns:
        where = (f"{n} hosts made of network namespaces on one machine ({cpu}, {cpu_count()} CPUs), "
                 "a rank each, over TCP; the link each row's hosts had and its TCP round trip from host 0 to "
                 "host 1 (`netns-cluster rtt`, the median of the repeats' medians)")
    md = [f"{where}; {args.repeat} interleaved repeats, medians. NPS: {len(POSITIONS)} positions, "
          f"`go movetime {args.movetime}` each; time to depth: the same positions to depth {args.depth}, "
          "fresh 64 MB hash, median over the positions of each one's median time (total beside it)."
          + (f" Cluster options: {', '.join(args.option)}." if args.option else ""), "",
          "| configuration | link | round trip (ms) | Mnps | NPS speedup | time to depth, median position (s) "
          "| TTD speedup | TTD total (s) |",
          "|---|---|---|---|---|---|---|---|"]
    md += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3] / 1e6:.2f} | {r[4]:.2f}x | {r[5]:.3f} | {r[6]:.2f}x | {r[7]} |"
           for r in rows]
    if n * t <= cpu_count():  # the cluster against the same cores as threads of one process
        md += ["", f"{rows[2][0]} against {rows[1][0]}: NPS {rows[2][3] / rows[1][3]:.2f}x, "
               f"time to depth {rows[2][5] / rows[1][5]:.2f}x the threads' time (median position)."]
    if args.elo:
        md += ["", elo_match(args)]
    with open(os.path.join(perf, stem + ".md"), "w") as fh:
        fh.write("\n".join(md) + "\n")
    print("\n".join(md))
    plot(rows, stem)


def elo_match(args):
    n, t = args.ranks, args.threads
    pgn = os.path.join(tempfile.mkdtemp(prefix="quadbit-cluster-match-"), "games.pgn")
    cmd = fastchess_command(
        args.elo,
        [["cmd=" + mpirun(args)[0], "args=" + " ".join(mpirun(args)[1:]), f"name=quadbit-{n}x{t}",
          f"option.Threads={t}", *[f"option.{o}" for o in args.option]],
         [f"cmd={ENGINE}", f"name=quadbit-1x{t}", f"option.Threads={t}"]],
        ["tc=" + args.tc, "option.Hash=64"], args.games // 2, pgn=pgn)
    out = run_fastchess(cmd, os.path.dirname(pgn))
    elo = [l.strip() for l in out.splitlines() if "Elo" in l]
    games = [l.strip() for l in out.splitlines() if l.strip().startswith("Games")]
    _, losses, bad = game_endings(pgn, f"quadbit-{n}x{t}")
    return (f"{n} ranks x {t} against 1 rank x {t} at {args.tc}, {args.games} games: "
            + (elo[-1] if elo else "no result") + (f" ({games[-1]})" if games else "")
            + f"; the cluster's losses by termination: {dict(losses)}, by time forfeit, illegal move or crash: {bad}"
            + f" (PGN: {pgn})")


def plot(rows, stem):
    """perf/STEM.png: NPS and time-to-depth speedups per configuration."""
    if not shutil.which("gnuplot"):
        return
    data = "".join(f'"{r[0]}" {r[4]} {r[6]}\n' for r in rows)
    script = f"""$d << EOD
{data}EOD
set terminal pngcairo size 800,500
set output '{os.path.join(ROOT, "perf", stem + ".png")}'
set title 'Quadbit on Open MPI: speedup over one rank'
set style data histograms
set style fill solid 0.6
set ylabel 'speedup'
set yrange [0:*]
set grid ytics
plot $d using 2:xtic(1) title 'nodes per second', '' using 3 title 'time to depth'
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=False)

