"""What the measuring scripts share: the positions of the time-to-depth runs, a one-shot UCI
session that times its last command, a search and a perft that are checked before they are
timed, the one way every script starts fastchess, and how the games of a match ended."""
import collections
import math
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The openings of every match and SPRT: each played with both colours.
BOOK = os.path.join(ROOT, "..", "shared", "data", "books", "UHO_4060_v4.epd")

POSITIONS = [  # middlegames and endgames from the bench set
    "r1bq1rk1/pp1nppbp/2p3pn/8/P2PN3/3B1N1P/1PP2PP1/R1BQK2R w KQ - 1 9",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5pp1/8/8/8/8/1R3PP1/6K1 w - - 0 1",
]


def cpu_count():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def run_uci(argv, commands, until, timeout=600):
    """Send commands, read until a line starting with `until`, return (lines, seconds after the last command)."""
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    for c in commands[:-1]:
        proc.stdin.write(c + "\n")
    proc.stdin.write("isready\n")
    proc.stdin.flush()
    for line in proc.stdout:
        if line.startswith("readyok"):
            break
    start = time.perf_counter()
    proc.stdin.write(commands[-1] + "\n")
    proc.stdin.flush()
    lines = []
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith(until):
            break
    seconds = time.perf_counter() - start
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=30)
    return lines, seconds


def checked_search(script, name, argv, options, fen, threads, movetime, hash_mb=64):
    """(nodes, seconds, lines) of one `go movetime` from a fresh hash, timed from `go` to
    `bestmove`; exits when it did not end in a move with a node count, so that no script reports
    the speed of a search that did not happen."""
    lines, seconds = run_uci(argv, [*options, f"setoption name Threads value {threads}",
                                    f"setoption name Hash value {hash_mb}", "ucinewgame", f"position fen {fen}",
                                    f"go movetime {movetime}"], "bestmove")
    best = lines[-1].split() if lines else []
    counts = [int(m.group(1)) for l in lines if (m := re.search(r"\bnodes (\d+)", l))]
    if len(best) < 2 or best[0] != "bestmove" or best[1] in ("(none)", "0000") or not counts or counts[-1] <= 0:
        sys.exit(f"{script}: {name} ended {lines[-1] if lines else 'with nothing'!r} with "
                 f"{counts[-1] if counts else 'no'} nodes on {fen}: no search to time")
    return counts[-1], seconds, lines


def checked_perft(script, name, argv, fen, depth, expected, threads=1, options=()):
    """Nodes per second of one `go perft`, timed from the command to its count; exits on a
    missing or wrong count."""
    lines, seconds = run_uci(argv, [*options, f"setoption name Threads value {threads}", f"position fen {fen}",
                                    f"go perft {depth}"], "Nodes searched")
    found = re.search(r"Nodes searched: (\d+)", lines[-1] if lines else "")
    if not found or int(found.group(1)) != expected:
        sys.exit(f"{script}: {name} gave {lines[-1] if lines else 'nothing'!r} for perft {depth} of {fen}; "
                 f"the count is {expected}")
    return expected / seconds


def time_to_depth(argv, threads, depth, extra=()):
    """Seconds to reach `depth` from a fresh hash, one figure per position of POSITIONS."""
    times = []
    for fen in POSITIONS:
        cmds = list(extra) + [f"setoption name Threads value {threads}", "setoption name Hash value 64",
                              "ucinewgame", f"position fen {fen}", f"go depth {depth}"]
        _, seconds = run_uci(argv, cmds, "bestmove")
        times.append(seconds)
    return times


def fastchess_command(fastchess, engines, each, rounds, concurrency=1, openings=BOOK, order="random",
                      both_colours=True, pgn=None, extra=()):
    """The fastchess command line of every script. `engines`: one list of fastchess engine settings
    each (cmd=, name=, option.X=); `each`: what both share (tc=, option.Hash=); `rounds`: of two
    games, one with each colour, from one opening (or one game a round with both_colours False)."""
    cmd = [fastchess]
    for engine in engines:
        cmd += ["-engine", *engine]
    cmd += ["-each", "proto=uci", *each,
            "-openings", f"file={openings}", "format=epd", f"order={order}",
            "-rounds", str(rounds), "-games", "2" if both_colours else "1", "-repeat" if both_colours else "-noswap",
            "-concurrency", str(concurrency), "-recover"]
    if pgn:
        cmd += ["-pgnout", f"file={pgn}"]
    return cmd + list(extra)


def run_fastchess(cmd, workdir=None):
    """Runs a fastchess command to its end and returns what it printed. It runs in `workdir` (a new
    temporary folder by default), where it keeps its state (config.json): never in the repository."""
    print(" ".join(cmd), flush=True)
    workdir = workdir or tempfile.mkdtemp(prefix="quadbit-fastchess-")
    return subprocess.run(cmd, capture_output=True, text=True, cwd=workdir).stdout


def pgn_games(path):
    """The games of a PGN file as fastchess writes it: each game's tags (a dict) and its move
    comments in order (fastchess's start with the mover's score, `+0.35/14` or `+M5/12`)."""
    for game in open(path, errors="replace").read().split("[Event ")[1:]:
        yield dict(re.findall(r'\[(\w+) "([^"]*)"\]', game)), re.findall(r"\{([^}]*)\}", game[game.find("\n\n"):])


def outcome(tags, name):
    """"win", "loss" or "draw" for the engine `name` in a game's tags; None when it did not play
    or the game has no result."""
    if name not in (tags.get("White"), tags.get("Black")):
        return None
    result = tags.get("Result")
    if result == "1/2-1/2":
        return "draw"
    if result not in ("1-0", "0-1"):
        return None
    return "win" if (tags["White"] == name) == (result == "1-0") else "loss"


def game_endings(pgn, name):
    """How the games of a match's PGN ended (fastchess's Termination tags), and which of them the
    engine `name` lost; with the count of its losses by time forfeit, illegal move or crash."""
    terminations, losses = collections.Counter(), collections.Counter()
    if os.path.exists(pgn):
        for tags, _ in pgn_games(pgn):
            t = tags.get("Termination", "normal")
            terminations[t] += 1
            if outcome(tags, name) == "loss":
                losses[t] += 1
    bad = sum(n for t, n in losses.items() if re.search(r"time|illegal|disconnect|stall|crash", t, re.I))
    return terminations, losses, bad


def results(pgn, name):
    """Wins, losses and draws of the engine `name` in a PGN file (its games against anyone)."""
    counts = collections.Counter()
    if os.path.exists(pgn):
        for tags, _ in pgn_games(pgn):
            counts[outcome(tags, name)] += 1
    return counts["win"], counts["loss"], counts["draw"]


def elo_with_error(wins, losses, draws):
    """The Elo difference of a score and its 95% error bar (from the games' variance, by the slope
    of the logistic curve at that score)."""
    games = wins + losses + draws
    score = min(max((wins + draws / 2) / games, 1e-3), 1 - 1e-3)
    variance = (wins * (1 - score) ** 2 + losses * score ** 2 + draws * (0.5 - score) ** 2) / games
    elo = -400 * math.log10(1 / score - 1)
    slope = 400 / math.log(10) / (score * (1 - score))
    return elo, 1.96 * slope * math.sqrt(variance / games)
