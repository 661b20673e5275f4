"""What every lab command shares, written once: the engine spoken to over UCI and run as a
command-line tool, Debian's reference engines, builds (through scripts/build), fastchess's
command line, PGN, and the Elo of a score with its error bar. No other module of the lab does
any of these itself."""
import collections
import gzip
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(ROOT, "..", "shared")
ENGINE = os.path.join(ROOT, "build", "quadbit")
# The openings of every match and SPRT: each played with both colours.
BOOK = os.path.join(SHARED, "data", "books", "UHO_4060_v4.epd")

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
    """The CPUs this process may use (its affinity), not the machine's."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def fail(command, message):
    """Stops the lab command with its name and why."""
    sys.exit(f"{command}: {message}")


# Debian's reference engines (stockfish, glaurung, toga2, ethereal-chess, ...) live in /usr/games.

def locate(name):
    return shutil.which(name) or f"/usr/games/{name}"


def ensure(name):
    """The reference engine's path, installed with apt-get if it is not there."""
    path = locate(name)
    if not os.path.exists(path):
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", name], check=True)
    return path


# Builds: always scripts/build of the source tree built, so that the lab builds as people do.

def build(folder=os.path.join(ROOT, "build"), options=(), source=ROOT, quiet=False):
    """Builds the engine of `source` (a checkout or a worktree) into `folder` with these CMake
    options; returns the binary's path."""
    done = subprocess.run(["bash", os.path.join(source, "scripts", "build"), folder, *options],
                          capture_output=quiet, text=True)
    if done.returncode != 0:
        fail("build", f"scripts/build {folder} failed" + (f": {done.stderr.strip()[-2000:]}" if quiet else ""))
    return os.path.join(folder, "quadbit")


def level_build(arch):
    """The checkout's engine built for an instruction-set level (`native` in build/, others in
    build-LEVEL/), built first if missing."""
    folder = os.path.join(ROOT, "build" if arch == "native" else f"build-{arch}")
    path = os.path.join(folder, "quadbit")
    return path if os.path.exists(path) else build(folder, [f"-DQUADBIT_ARCH={arch}"])


def engine_or_build(path=ENGINE):
    """`path`, built first when it is the checkout's own engine and missing."""
    path = os.path.abspath(path)
    if not os.path.exists(path) and path == ENGINE:
        build()
    return path


# The engine as a command-line tool (datagen, data, train, net, eval, bench with arguments).

def tool(argv, timeout=None):
    """Runs one command-line job of the engine; returns (exit code, stdout + stderr)."""
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout + done.stderr


# UCI.

class Uci:
    """An engine process spoken to over UCI, line by line."""

    def __init__(self, argv, cwd=None):
        self.argv = list(argv)
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1, cwd=cwd)

    def start(self, options=None):
        """The UCI handshake, then each option of `options` (a dict) set; returns self."""
        self.send("uci")
        self.read_until("uciok")
        self.ask(*[f"setoption name {name} value {value}" for name, value in (options or {}).items()])
        return self

    def search(self, position, go):
        """The lines of `position POSITION` and `go GO` up to `bestmove` (POSITION: `fen ...`)."""
        self.send(f"position {position}", f"go {go}")
        return self.read_until("bestmove")

    def send(self, *lines):
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix):
        """The lines up to and including the first that starts with `prefix`; stops the command
        if the engine exits first."""
        lines = []
        for line in self.proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines
        fail(os.path.basename(self.argv[-1]), f"the engine exited before '{prefix}': {lines[-3:]}")

    def ask(self, *lines):
        """Sends the lines and `isready`; the engine's answers before `readyok`."""
        self.send(*lines, "isready")
        return self.read_until("readyok")[:-1]

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except BrokenPipeError:
                pass
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                pipe.close()
            except BrokenPipeError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def uci_script(argv, lines, timeout=600):
    """The whole output of a UCI session that sends `lines` and quits (for batches of `eval`,
    `bench`, `uci`); `argv` may put the engine under a tool (valgrind). Returns the finished
    process (returncode, stdout, stderr)."""
    return subprocess.run(argv, input="\n".join([*lines, "quit"]) + "\n", capture_output=True, text=True,
                          timeout=timeout)


def uci_options(argv):
    """The names of the options the engine lists in its answer to `uci`, lowercased."""
    try:
        out = uci_script(argv, ["uci"], timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        fail(argv[-1], f"did not answer uci: {e}")
    return {m.group(1).lower() for m in re.finditer(r"^option name (.+?) type ", out, re.M)}


def run_uci(argv, commands, until, timeout=600):
    """Sends the commands, the last one timed from once the engine is ready: (the lines up to one
    starting with `until`, seconds)."""
    with Uci(argv) as engine:
        engine.ask(*commands[:-1])
        start = time.perf_counter()
        engine.send(commands[-1])
        lines = engine.read_until(until)
        return lines, time.perf_counter() - start


def searched(lines):
    """(best move or None, last node count or 0, last time or 0) of a search's lines."""
    best = lines[-1].split() if lines else []
    counts = [int(m.group(1)) for l in lines if (m := re.search(r"\bnodes (\d+)", l))]
    times = [int(m.group(1)) for l in lines if (m := re.search(r"\btime (\d+)", l))]
    move = best[1] if len(best) >= 2 and best[0] == "bestmove" and best[1] not in ("(none)", "0000") else None
    return move, counts[-1] if counts else 0, times[-1] if times else 0


def last_score(lines):
    """The last exact score of a search's lines: ("cp" or "mate", value), or None."""
    score = None
    for line in lines:
        m = re.search(r"score (cp|mate) (-?\d+)", line)
        if line.startswith("info") and m and "bound" not in line:
            score = (m.group(1), int(m.group(2)))
    return score


def checked_search(command, name, argv, options, fen, threads, movetime, hash_mb=64):
    """(nodes, seconds, lines) of one `go movetime` from a fresh hash, timed from `go` to
    `bestmove`; stops unless it ended in a move with a node count, so that no command reports the
    speed of a search that did not happen."""
    lines, seconds = run_uci(argv, [*options, f"setoption name Threads value {threads}",
                                    f"setoption name Hash value {hash_mb}", "ucinewgame", f"position fen {fen}",
                                    f"go movetime {movetime}"], "bestmove")
    move, nodes, _ = searched(lines)
    if not move or nodes <= 0:
        fail(command, f"{name} ended {lines[-1] if lines else 'with nothing'!r} with {nodes or 'no'} nodes on "
                      f"{fen}: no search to time")
    return nodes, seconds, lines


def checked_perft(command, name, argv, fen, depth, expected, threads=1, options=()):
    """Nodes per second of one `go perft`, timed from the command to its count; stops on a missing
    or wrong count."""
    lines, seconds = run_uci(argv, [*options, f"setoption name Threads value {threads}", f"position fen {fen}",
                                    f"go perft {depth}"], "Nodes searched")
    found = re.search(r"Nodes searched: (\d+)", lines[-1] if lines else "")
    if not found or int(found.group(1)) != expected:
        fail(command, f"{name} gave {lines[-1] if lines else 'nothing'!r} for perft {depth} of {fen}; "
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


# Records.

def write_table(command, marker, table, page=os.path.join(ROOT, "docs", "results", "speed.md")):
    """Puts `table` between the page's <!-- marker --> and <!-- /marker --> lines, in place of what
    was there: the page keeps the last measurement beside its reasoning."""
    with open(page) as f:
        text = f.read()
    if f"<!-- {marker} -->" not in text:
        fail(command, f"{page} has no <!-- {marker} --> markers to write the table between")
    text = re.sub(f"<!-- {marker} -->.*?<!-- /{marker} -->", lambda _: f"<!-- {marker} -->\n{table}\n<!-- /{marker} -->",
                  text, flags=re.S)
    with open(page, "w") as f:
        f.write(text)


# fastchess, built outside the repository and passed by its path.

def fastchess_command(fastchess, engines, each, rounds, concurrency=1, openings=BOOK, order="random",
                      both_colours=True, pgn=None, extra=()):
    """The fastchess command line of every lab command. `engines`: one list of fastchess engine
    settings each (cmd=, name=, option.X=); `each`: what both share (tc=, option.Hash=); `rounds`:
    of two games, one with each colour, from one opening (or one game a round with both_colours
    False)."""
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


def start_fastchess(cmd, workdir):
    """fastchess started in `workdir`, its reports to be read line by line (an SPRT's)."""
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=workdir)


REPORTS = (("games", r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)"),
           ("elo", r"Elo: (\S+) \+/- ([^,\s]+)"),
           ("llr", r"LLR: (-?[\d.]+) .*\((-?[\d.]+), (-?[\d.]+)\)"),
           ("pentanomial", r"Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]"),
           ("verdict", r"(H[01]) was accepted"))


def read_report(line, last):
    """Reads one line of fastchess's reports into `last` (games, elo, llr, pentanomial, verdict)."""
    for key, pattern in REPORTS:
        m = re.search(pattern, line)
        if m:
            last[key] = m.groups()


# PGN, as fastchess writes it (gzipped or not).

PgnGame = collections.namedtuple("PgnGame", "tags comments movetext")


def pgn_games(path):
    """Each game of a PGN file: its tags (a dict), its move comments in order (fastchess's start
    with the mover's score, `+0.35/14 0.185s` or `+M5/12`) and its movetext without them."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", errors="replace") as f:
        text = f.read()
    for game in text.split("[Event ")[1:]:
        body = game[game.find("\n\n"):]
        yield PgnGame(dict(re.findall(r'\[(\w+) "([^"]*)"\]', game)), re.findall(r"\{([^}]*)\}", body),
                      re.sub(r"\{[^}]*\}", "", body))


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
        for game in pgn_games(pgn):
            t = game.tags.get("Termination", "normal")
            terminations[t] += 1
            if outcome(game.tags, name) == "loss":
                losses[t] += 1
    bad = sum(n for t, n in losses.items() if re.search(r"time|illegal|disconnect|stall|crash", t, re.I))
    return terminations, losses, bad


def results(pgn, name):
    """Wins, losses and draws of the engine `name` in a PGN file (its games against anyone)."""
    counts = collections.Counter()
    if os.path.exists(pgn):
        for game in pgn_games(pgn):
            counts[outcome(game.tags, name)] += 1
    return counts["win"], counts["loss"], counts["draw"]


# Elo.

def elo_with_error(wins, losses, draws):
    """The Elo difference of a score and its 95% error bar: the games' variance carried through
    the slope of the logistic curve at that score. A clean sweep is taken as 0.1% short of it."""
    games = wins + losses + draws
    score = min(max((wins + draws / 2) / games, 1e-3), 1 - 1e-3)
    variance = (wins * (1 - score) ** 2 + losses * score ** 2 + draws * (0.5 - score) ** 2) / games
    elo = -400 * math.log10(1 / score - 1)
    slope = 400 / math.log(10) / (score * (1 - score))
    return elo, 1.96 * slope * math.sqrt(variance / games)
