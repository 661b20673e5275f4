"""Sequential probability ratio test of one commit against another, as OpenBench runs them:
builds BASE and NEW side by side (git worktrees, Release builds of the engine only), plays them
with fastchess on the UHO book (each opening with both colours, pentanomial statistics) until the
LLR crosses a bound, prints the running LLR and the verdict with Elo and error bar, and appends a
row to the ledger perf/sprt.csv (date, base, new, tc, bounds, games, W/L/D, pentanomial, Elo,
LLR, verdict, change).

Usage: scripts/lab games sprt --fastchess PATH BASE NEW [--elo0 0] [--elo1 5] [--alpha 0.05] [--beta 0.05]
                    [--tc 8+0.08] [--concurrency CORES] [--hash 16] [--max-games 40000]
                    [--option NAME=VALUE ...] [--new-option NAME=VALUE ...]
                    [--base-option NAME=VALUE ...] [--tuning] [--note TEXT] [--ledger CSV]
                    [--workdir DIR [--keep FILE]]

BASE and NEW are anything git names (commits, branches, `HEAD~1`); `WORKTREE` means the working
tree as it is, uncommitted changes included. The defaults are OpenBench's short test.
--new-option sets a UCI option of NEW only, --base-option one of BASE only: `--base-option
"Use NNUE=false"` tests the network (the default) against the hand-written evaluation (BASE and
NEW may then be the same commit). Every option named must be one the engines have: an engine
ignores a name it does not know, and the test would play two equal engines.
--tuning builds both engines with their search constants as UCI options (-DQUADBIT_TUNING=ON,
src/tunable.h), so that `--new-option RFP_MARGIN=90` tests a constant's new value on one commit:
no branch to keep, and with --keep the test resumes on any machine with the same commit.

A test at short time controls can take hours. With --workdir the builds, the PGN and fastchess's
own record of the test (config.json) are kept in DIR; stop it with Ctrl-C or a kill (SIGTERM), run
the same command again, and the test resumes where it stopped, with every game already finished.
A test can take longer than a machine is kept: --keep FILE copies that record to FILE (in the
repository, say) whenever the test stops, and a DIR without a record starts from FILE's, so the
same command resumes the test on another machine (the builds are made again, the PGN starts anew,
fastchess's statistics carry every game). A finished test deletes FILE: its row is the record.
"""
import argparse
import csv
import datetime
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

from . import core

LEDGER = os.path.join(core.ROOT, "perf", "sprt.csv")
ROOT = core.ROOT


def build(rev, workdir, tuning=False):
    """The engine of `rev` built in its own folder (the search constants as UCI options with
    `tuning`); returns (binary, short commit)."""
    if rev == "WORKTREE":
        src, commit = ROOT, "worktree"
    else:
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", rev], check=True,
                                capture_output=True, text=True).stdout.strip()
        src = os.path.join(workdir, "src-" + commit)
    out = os.path.join(workdir, ("build-tuning-" if tuning else "build-") + commit)
    if rev != "WORKTREE":
        if os.path.exists(os.path.join(out, "quadbit")):
            return os.path.join(out, "quadbit"), commit  # built for this test before it was interrupted
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", src, commit], check=True,
                       capture_output=True)
    return core.build(out, ["-DQUADBIT_TESTS=OFF", "-DQUADBIT_BENCHMARKS=OFF",
                            f"-DQUADBIT_TUNING={'ON' if tuning else 'OFF'}"], source=src, quiet=True), commit


def remove_sources(workdir):
    """Removes the git worktrees that build() checked out in `workdir` (its builds stay)."""
    for rev_dir in os.listdir(workdir):
        if rev_dir.startswith("src-"):
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", os.path.join(workdir, rev_dir)],
                           capture_output=True)


def check_options(engine, name, options):
    """Refuses an option the engine does not list in its answer to `uci`."""
    if not options:
        return
    known = core.uci_options([engine])
    for option in options:
        option_name = option.partition("=")[0]
        if option_name.lower() not in known:
            constant = re.fullmatch(r"[A-Z0-9_]+", option_name) is not None
            raise SystemExit(f"sprt: {name} has no UCI option '{option_name}'" +
                             (" (a search constant is one only with --tuning)" if constant else ""))


COLUMNS = ["date", "base", "new", "tc", "bounds", "games", "wins", "losses", "draws", "pentanomial", "elo",
           "elo_error", "llr", "verdict", "change"]


def record(row, ledger):
    """Appends the test's row (a dict of COLUMNS) to the ledger (made if missing)."""
    new = not os.path.exists(ledger)
    with open(ledger, "a", newline="") as f:
        writer = csv.DictWriter(f, COLUMNS, lineterminator="\n")
        if new:
            writer.writeheader()
        writer.writerow(row)


def read_reports(proc, last):
    """Reads fastchess's reports into `last` and prints the running LLR."""
    for line in proc.stdout:
        core.read_report(line, last)
        if "LLR:" in line:
            games = last.get("games", ("0",) * 4)
            elo = last.get("elo", ("?", "?"))
            print(f"games {games[0]} (+{games[1]} -{games[2]} ={games[3]})  Elo {elo[0]} +/- {elo[1]}  "
                  f"LLR {last['llr'][0]} ({last['llr'][1]}, {last['llr'][2]})", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fastchess", required=True, help="path of the fastchess binary")
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=5.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--tc", default="8+0.08")
    ap.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--max-games", type=int, default=40000)
    ap.add_argument("--option", action="append", default=[], help="a UCI option for both engines, NAME=VALUE")
    ap.add_argument("--new-option", action="append", default=[], help="a UCI option for NEW only, NAME=VALUE")
    ap.add_argument("--base-option", action="append", default=[], help="a UCI option for BASE only, NAME=VALUE")
    ap.add_argument("--tuning", action="store_true", help="build with the search constants as UCI options")
    ap.add_argument("--note", default="", help="what the change is, for the ledger")
    ap.add_argument("--ledger", default=LEDGER, help="the CSV file the finished test's row is appended to")
    ap.add_argument("--workdir", help="keep the test in DIR, and resume the one kept there")
    ap.add_argument("--keep", help="with --workdir: a copy of the test's record in FILE, to resume it elsewhere")
    args = ap.parse_args(argv)
    if args.keep and not args.workdir:
        ap.error("--keep needs --workdir")
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # a kill stops the test as Ctrl-C does

    if args.workdir:
        workdir = os.path.abspath(args.workdir)
        os.makedirs(workdir, exist_ok=True)
    else:
        workdir = tempfile.mkdtemp(prefix="quadbit-sprt-")
    saved = os.path.join(workdir, "config.json")
    if args.keep and os.path.exists(args.keep) and not os.path.exists(saved):
        shutil.copyfile(args.keep, saved)  # the test as another machine left it
    try:
        base, base_commit = build(args.base, workdir, args.tuning)
        new, new_commit = build(args.new, workdir, args.tuning)
        check_options(new, "NEW", args.option + args.new_option)
        check_options(base, "BASE", args.option + args.base_option)
        pgn = os.path.join(workdir, "sprt.pgn")
        cmd = core.fastchess_command(
            args.fastchess,
            [[f"cmd={new}", f"name=new-{new_commit}", *[f"option.{o}" for o in args.new_option]],
             [f"cmd={base}", f"name=base-{base_commit}", *[f"option.{o}" for o in args.base_option]]],
            [f"tc={args.tc}", f"option.Hash={args.hash}", "option.Threads=1", *[f"option.{o}" for o in args.option]],
            args.max_games // 2, concurrency=args.concurrency, pgn=pgn,
            extra=["-ratinginterval", "20",
                   "-sprt", f"elo0={args.elo0}", f"elo1={args.elo1}", f"alpha={args.alpha}", f"beta={args.beta}"])
        if args.workdir and os.path.exists(saved):
            # fastchess's saved test: the same engines, settings and statistics, games appended.
            cmd = [args.fastchess, "-config", f"file={saved}"]
            print(f"resuming the test saved in {saved}", file=sys.stderr, flush=True)
        print(" ".join(cmd), file=sys.stderr, flush=True)
        proc = core.start_fastchess(cmd, workdir)
        last = {}
        try:
            read_reports(proc, last)
        except KeyboardInterrupt:
            # Stopped by Ctrl-C or a kill: fastchess stops too. Its own stop is on SIGINT only, and only then
            # does it save its record of the test (config.json) with every finished game, so that it resumes.
            proc.send_signal(signal.SIGINT)
            read_reports(proc, last)  # its last report, until it exits
        proc.wait()
        reported = "games" in last and "llr" in last
        verdict = {"H1": "passed", "H0": "failed"}.get(last.get("verdict", ("",))[0], "no verdict")
        if (args.workdir and os.path.exists(saved) and verdict == "no verdict" and
                (not reported or int(last["games"][0]) < args.max_games)):
            if args.keep:
                # The folder may be missing: the checkout can be on a branch made before it was.
                os.makedirs(os.path.dirname(os.path.abspath(args.keep)), exist_ok=True)
                shutil.copyfile(saved, args.keep)
            print(f"SPRT interrupted; the same command resumes it from {saved}" +
                  (f" (or, on another machine, from {args.keep})" if args.keep else ""))
            return
        if not reported:
            raise SystemExit("sprt: fastchess gave no result")
        n, w, l, d = last["games"]
        if args.workdir and os.path.exists(saved):
            os.replace(saved, os.path.join(workdir, "config-finished.json"))  # a new test, if run again
            if args.keep and os.path.exists(args.keep):
                os.remove(args.keep)
        elo, error = last.get("elo", ("?", "?"))
        new_name = " ".join([new_commit, *args.new_option])
        base_name = " ".join([base_commit, *args.base_option])
        row = dict(zip(COLUMNS, [datetime.date.today().isoformat(), base_name, new_name, args.tc,
                                 f"{args.elo0:g} {args.elo1:g}", n, w, l, d, " ".join(last.get("pentanomial", ())),
                                 elo, error, last["llr"][0], verdict, args.note]))
        print(f"SPRT {verdict}: {new_name} against {base_name}, {n} games, Elo {elo} +/- {error}, "
              f"LLR {last['llr'][0]}")
        record(row, args.ledger)
        print(f"appended to {args.ledger}: {row}")
    finally:
        remove_sources(workdir)
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)

