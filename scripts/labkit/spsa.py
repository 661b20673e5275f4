"""SPSA over the search constants (src/tunable.h), by games, as fishtest and OpenBench run it:
each step plays a tuning build of REV with every constant moved by +c_k against the same build
with every constant moved by -c_k (the sign drawn for each constant), and moves each constant by
R_k c_k (wins - losses) in the direction that won. The gains follow Spall's schedule as fishtest
sets it from the constant's own step (c_end, SPSA's last perturbation) and 0.002 (r_end): c_k =
c_end (N/k)^0.101, a_k = r_end c_end^2 ((A+N)/(A+k))^0.602, R_k = a_k / c_k^2, A = N/10, where N
is --iterations and k counts game pairs.

Usage: scripts/lab games spsa --fastchess PATH --workdir DIR [REV] [--iterations 2000]
                    [--params NAME,... | --params all] [--pairs 1] [--tc 5+0.05] [--hash 16]
                    [--concurrency CORES] [--seed 1] [--keep FILE] [--report]

REV (default HEAD) is built once with -DQUADBIT_TUNING=ON; `quadbit tunables` gives each
constant's start, range and step, and --params picks the ones tuned (default all). Each step
plays --pairs game pairs on UHO openings drawn by the step's own seed, so the same command
resumes a run stopped anywhere (Ctrl-C or a kill) from DIR/spsa.json, with every finished step:
only the step being played is lost. --keep FILE copies that record to FILE after every step
(into the repository, say): a DIR without a record starts from FILE's, on any machine with the
same commit. The record keeps the settings it was started with, and each step's result: the
perturbations follow from the seed, so a resumed run first replays every step from the start
values and refuses a record whose constants do not come out where it says. --report prints where
the constants stand without playing.

The values SPSA reaches are a proposal, not a result: confirm them with an SPRT of the same
build against its defaults, which the report prints (`lab games sprt --tuning REV REV
--new-option NAME=VALUE ...`), before a constant changes in src/searchparams.h.
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile

from . import core, sprt

ALPHA, GAMMA, A_RATIO = 0.602, 0.101, 0.1  # Spall's exponents and fishtest's A = N/10


def tunables(engine):
    """The constants `quadbit tunables` lists: {name: (value, min, max, step, r_end)} in order."""
    out = subprocess.run([engine, "tunables"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise SystemExit(f"spsa: {engine} lists no tunables: {(out.stdout + out.stderr).strip()}")
    params = {}
    for line in out.stdout.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            raise SystemExit(f"spsa: a line of `tunables` that is not SPSA's input: {line!r}")
        params[fields[0]] = (int(fields[2]), int(fields[3]), int(fields[4]), int(fields[5]), float(fields[6]))
    return params


def new_record(commit, listed, names, args):
    """A run's record before its first step."""
    unknown = [n for n in names if n not in listed]
    if unknown:
        raise SystemExit(f"spsa: no tunable {', '.join(unknown)} in this build (`quadbit tunables` lists them)")
    params = {}
    for name in names:
        value, lo, hi, step, r_end = listed[name]
        params[name] = {"start": value, "theta": float(value), "min": lo, "max": hi, "c_end": float(step),
                        "r_end": r_end}
    return {"commit": commit, "iterations": args.iterations, "pairs": args.pairs, "tc": args.tc,
            "hash": args.hash, "seed": args.seed, "done": 0, "params": params, "steps": []}


def gains(record, name, k):
    """(c_k, R_k) of constant `name` at game pair k (1-based)."""
    p, n = record["params"][name], record["iterations"]
    big_a = A_RATIO * n
    c = p["c_end"] * (n / k) ** GAMMA
    a = p["r_end"] * p["c_end"] ** 2 * ((big_a + n) / (big_a + k)) ** ALPHA
    return c, a / c ** 2


def step_seed(record, k):
    """The seed of game pair k's signs and openings: the run's seed and k alone."""
    return record["seed"] * 1_000_003 + k


def perturbation(record, k):
    """Each constant's sign at game pair k."""
    rng = random.Random(step_seed(record, k))
    return {name: rng.choice((-1, 1)) for name in record["params"]}


def clamp(record, name, value):
    p = record["params"][name]
    return min(max(value, p["min"]), p["max"])


def sides(record, k, flips):
    """The values the two engines of step k play: ({name: int} for +c_k, the same for -c_k)."""
    plus, minus = {}, {}
    for name, flip in flips.items():
        c, _ = gains(record, name, k)
        theta = record["params"][name]["theta"]
        plus[name] = round(clamp(record, name, theta + c * flip))
        minus[name] = round(clamp(record, name, theta - c * flip))
    return plus, minus


def update(record, k, flips, wins, losses):
    """Moves every constant by R_k c_k (wins - losses) toward the side that scored."""
    for name, flip in flips.items():
        c, r = gains(record, name, k)
        p = record["params"][name]
        p["theta"] = clamp(record, name, p["theta"] + r * c * (wins - losses) * flip)


def replay(record):
    """The constants' values after the record's steps, computed again from their start."""
    again = json.loads(json.dumps(record))
    for p in again["params"].values():
        p["theta"] = float(p["start"])
    for k, wins, losses, _, _ in record["steps"]:
        update(again, k, perturbation(again, k), wins, losses)
    return {name: p["theta"] for name, p in again["params"].items()}


def save(record, path):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(record, f, indent=1)
    os.replace(tmp, path)  # a kill mid-write leaves the last whole record


def play_step(args, engine, record, k, plus, minus, workdir):
    """Plays step k's game pairs; returns (wins, losses, draws, games lost by time, illegal move
    or crash) of the +c_k side."""
    pgn = os.path.join(workdir, "step.pgn")
    if os.path.exists(pgn):
        os.remove(pgn)
    players = [[f"cmd={engine}", "name=plus", *[f"option.{n}={v}" for n, v in plus.items()]],
               [f"cmd={engine}", "name=minus", *[f"option.{n}={v}" for n, v in minus.items()]]]
    cmd = core.fastchess_command(args.fastchess, players,
                                 [f"tc={record['tc']}", f"option.Hash={record['hash']}", "option.Threads=1"],
                                 record["pairs"], concurrency=args.concurrency, pgn=pgn,
                                 extra=["-srand", str(step_seed(record, k))])
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=workdir)
    wins, losses, draws = core.results(pgn, "plus")
    if wins + losses + draws != 2 * record["pairs"]:
        raise SystemExit(f"spsa: step {k} played {wins + losses + draws} of {2 * record['pairs']} games; "
                         f"fastchess said:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    bad = core.game_endings(pgn, "plus")[2] + core.game_endings(pgn, "minus")[2]
    return wins, losses, draws, bad


def report(record):
    """Where the constants stand, and the SPRT that would confirm them."""
    n, done = record["iterations"], record["done"]
    steps = record["steps"]
    w, l, d, bad = (sum(s[i] for s in steps) for i in range(1, 5))
    lines = [f"SPSA of {record['commit']}: {done}/{n} game pairs at {record['tc']}; the +c side scored +{w} -{l} "
             f"={d}; games lost by time, an illegal move or a crash: {bad}",
             f"{'constant':<28}{'start':>8}{'now':>10}{'range':>14}"]
    for name, p in record["params"].items():
        lines.append(f"{name:<28}{p['start']:>8}{p['theta']:>10.2f}{p['min']:>7}..{p['max']:<6}")
    moved = [f"--new-option {name}={round(p['theta'])}" for name, p in record["params"].items()
             if round(p["theta"]) != p["start"]]
    if moved:
        lines.append("confirm with: scripts/lab games sprt --fastchess F --tuning "
                     f"{record['commit']} {record['commit']} " + " ".join(moved))
    else:
        lines.append("every constant rounds to its start")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev", nargs="?", default="HEAD", help="the commit whose constants are tuned")
    ap.add_argument("--fastchess", help="path of the fastchess binary (not needed with --report)")
    ap.add_argument("--workdir", required=True, help="the build, the games being played and the run's record")
    ap.add_argument("--iterations", type=int, default=2000, help="game pairs in all (N of the schedule)")
    ap.add_argument("--params", default="all", help="the constants tuned, NAME,NAME,... or all")
    ap.add_argument("--pairs", type=int, default=1, help="game pairs a step, with one perturbation")
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--concurrency", type=int, default=core.cpu_count())
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="a copy of the run's record in FILE after every step, to resume elsewhere")
    ap.add_argument("--report", action="store_true", help="print where the run stands and stop")
    args = ap.parse_args(argv)
    if args.iterations < 1 or args.pairs < 1:
        ap.error("--iterations and --pairs must be at least 1")
    workdir = os.path.abspath(args.workdir)
    os.makedirs(workdir, exist_ok=True)
    saved = os.path.join(workdir, "spsa.json")
    if args.keep and os.path.exists(args.keep) and not os.path.exists(saved):
        shutil.copyfile(args.keep, saved)  # the run as another machine left it
    if args.report:
        if not os.path.exists(saved):
            raise SystemExit(f"spsa: no run in {workdir}")
        with open(saved) as f:
            print(report(json.load(f)))
        return
    if not args.fastchess:
        ap.error("--fastchess is needed to play")
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # a kill stops the run as Ctrl-C does

    try:
        engine, commit = sprt.build(args.rev, workdir, tuning=True)
        if os.path.exists(saved):
            with open(saved) as f:
                record = json.load(f)
            if record["commit"] != commit:
                raise SystemExit(f"spsa: {saved} is a run of {record['commit']}, not of {commit}")
            again = replay(record)
            wrong = [n for n, theta in again.items() if abs(theta - record["params"][n]["theta"]) > 1e-6]
            if wrong:
                raise SystemExit(f"spsa: {saved}'s steps do not give its values of {', '.join(wrong)}")
            print(f"resuming the run saved in {saved} at game pair {record['done']}", file=sys.stderr, flush=True)
        else:
            listed = tunables(engine)
            names = list(listed) if args.params == "all" else [n for n in args.params.split(",") if n]
            record = new_record(commit, listed, names, args)
            save(record, saved)
        scratch = tempfile.mkdtemp(prefix="step-", dir=workdir)
        try:
            while record["done"] < record["iterations"]:
                k = record["done"] + 1
                flips = perturbation(record, k)
                plus, minus = sides(record, k, flips)
                wins, losses, draws, bad = play_step(args, engine, record, k, plus, minus, scratch)
                update(record, k, flips, wins, losses)
                record["done"] += record["pairs"]
                record["steps"].append([k, wins, losses, draws, bad])
                save(record, saved)
                if args.keep:
                    os.makedirs(os.path.dirname(os.path.abspath(args.keep)), exist_ok=True)
                    shutil.copyfile(saved, args.keep)
                print(f"pair {record['done']}/{record['iterations']}: +{wins} -{losses} ={draws}  " +
                      " ".join(f"{n}={p['theta']:.1f}" for n, p in list(record["params"].items())[:6]) +
                      (" ..." if len(record["params"]) > 6 else ""), flush=True)
        except KeyboardInterrupt:
            print(f"SPSA stopped at game pair {record['done']}; the same command resumes it from {saved}")
            return
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        print(report(record))
    finally:
        sprt.remove_sources(workdir)
