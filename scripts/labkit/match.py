"""Play Quadbit against a Debian reference engine and report the score, the Elo difference with
its error bar, and every game that ended by time forfeit, an illegal move or a crash.

Usage: scripts/lab games match --fastchess PATH [--opponent glaurung|toga2|ethereal-chess|stockfish]
                     [--games 100] [--tc 10+0.1] [--concurrency 1] [--threads 1] [--pgn FILE]
                     [--engine [NAME=]PATH ...] [--option NAME=VALUE ...]
                     [--opponent-option NAME=VALUE ...]

With several --engine, the run is a gauntlet: each Quadbit build plays --games games against the
opponent, the games of all builds interleaved in one run (so that the machine's state is the same
for each), and each build's score is reported on its own.

The match runner (fastchess, github.com/Disservin/fastchess) is built outside this repository:
pass the path of its binary. Openings come from ../shared/data/books/UHO_4060_v4.epd, each
played twice with colours reversed. The reference engine is installed from Debian if missing.
"""
import argparse
import os
import re
import tempfile

from .core import elo_with_error, engine_or_build, ensure, fastchess_command, game_endings, results, run_fastchess


def parser():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fastchess", required=True, help="path of the fastchess binary")
    ap.add_argument("--opponent", default="glaurung")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="Quadbit's threads")
    ap.add_argument("--pgn", default=None)
    ap.add_argument("--engine", action="append", default=[],
                    help="a Quadbit binary, [NAME=]PATH (default build/quadbit, built if missing); repeat for a gauntlet")
    ap.add_argument("--option", action="append", default=[], help="a UCI option of Quadbit's, NAME=VALUE")
    ap.add_argument("--opponent-option", action="append", default=[],
                    help="a UCI option of the opponent's, NAME=VALUE (e.g. UCI_Elo=1800)")
    return ap


def play(args):
    """Plays the match or gauntlet `args` describe; returns (fastchess's output, the PGN, the
    Quadbit builds as [name, path])."""

    engines = [e.split("=", 1) if "=" in e else [f"quadbit-{i + 1}" if len(args.engine) > 1 else "quadbit", e]
               for i, e in enumerate(args.engine)]
    if not engines:
        engines = [["quadbit", engine_or_build()]]
    opponent = ensure(args.opponent)
    pgn = args.pgn or tempfile.mktemp(suffix=".pgn")
    # The opponent first: in a gauntlet it is the one seed, which plays each Quadbit build in
    # turn, round after round, and the builds never play one another.
    players = [[f"cmd={opponent}", f"name={args.opponent}", "option.Threads=1",
                *[f"option.{o}" for o in args.opponent_option]]]
    players += [[f"cmd={os.path.abspath(path)}", f"name={name}", f"option.Threads={args.threads}",
                 *[f"option.{o}" for o in args.option]] for name, path in engines]
    gauntlet = ["-tournament", "gauntlet", "-seeds", "1"] if len(engines) > 1 else []
    cmd = fastchess_command(args.fastchess, players, [f"tc={args.tc}", "option.Hash=32"], max(1, args.games // 2),
                            concurrency=args.concurrency, pgn=pgn, extra=gauntlet)
    return run_fastchess(cmd), pgn, engines


def main(argv=None):
    out, pgn, engines = play(parser().parse_args(argv))
    # The runner's final summary: with several engines its last ranking table, else the last
    # block with the Elo estimate.
    lines = out.splitlines()
    tables = [i for i, l in enumerate(lines) if l.startswith("Rank Name")]
    if tables:
        print("\n".join(lines[tables[-1]:tables[-1] + len(engines) + 2]))
    else:
        print("\n".join([l for l in lines if re.search(r"Elo|Games|Score|Ptnml|LOS", l)][-6:]))
    for name, _ in engines:
        wins, losses_, draws = results(pgn, name)
        games = wins + losses_ + draws
        if games:
            elo, error = elo_with_error(wins, losses_, draws)
            print(f"{name}: {games} games, +{wins} -{losses_} ={draws}, {100 * (wins + draws / 2) / games:.1f}%, "
                  f"{elo:+.0f} +/- {error:.0f} Elo")
        terminations, losses, bad = game_endings(pgn, name)
        print(f"{name}'s losses by termination: {dict(losses)}")
        print(f"{name}'s losses by time forfeit, illegal move or crash: {bad}")
    print(f"terminations: {dict(terminations)}")
    print(f"PGN: {pgn}")

