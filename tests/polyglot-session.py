#!/usr/bin/env python3
"""Quadbit under Debian's polyglot adapter, driven as xboard drives it: games with pondering on
(ponder misses and hits, where polyglot sends stop, position and go without waiting), then an
analysis session with board changes. Fails on a stall, a command the engine refused, a move that
is not legal, or analysis that goes quiet after a change.

Usage: polyglot-session.py ENGINE [GAMES] [--option NAME=VALUE ...]

With --option, polyglot reads an ini file whose [Engine] section sets those UCI options (as a
user's ini would), and the session fails unless polyglot sent each of them.
"""
import argparse
import os
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

ap = argparse.ArgumentParser()
ap.add_argument("engine")
ap.add_argument("games", nargs="?", type=int, default=2)
ap.add_argument("--option", action="append", default=[], help="a UCI option, NAME=VALUE")
ARGS = ap.parse_args()
ENGINE = os.path.abspath(ARGS.engine)
GAMES = ARGS.games
OPTIONS = [o.split("=", 1) for o in ARGS.option]
POLYGLOT = shutil.which("polyglot") or "/usr/games/polyglot"
MAX_PLIES = 80
MOVE_TIMEOUT = 15.0  # seconds for an engine move with 5 s on its clock: anything longer is a stall


class Process:
    def __init__(self, args, cwd=None):
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  bufsize=0, cwd=cwd)
        self.buffer = b""

    def send(self, line):
        self.p.stdin.write((line + "\n").encode())
        self.p.stdin.flush()

    def read_line(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.p.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode(errors="replace").rstrip("\r")

    def read_until(self, predicate, timeout, what):
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            line = self.read_line(max(0.0, deadline - time.monotonic()))
            if line is None:
                fail(f"stall: no {what} within {timeout} s; last lines: {lines[-5:]}")
            lines.append(line)
            if predicate(line):
                return lines

    def close(self):
        try:
            self.send("quit")
        except (BrokenPipeError, OSError):
            pass
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            fail("the process did not exit after quit")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


# Legal moves and a decent move of a position, from a second Quadbit that the adapter never sees.
helper = Process([ENGINE])


def legal_moves(moves, fen=None):
    base = f"fen {fen}" if fen else "startpos"
    helper.send(f"position {base} moves {' '.join(moves)}" if moves else f"position {base}")
    helper.send("go perft 1")
    lines = helper.read_until(lambda l: l.startswith("Nodes searched"), 10, "perft")
    return [l.split(":")[0] for l in lines if re.match(r"^[a-h][1-8][a-h][1-8][nbrq]?: ", l)]


def helper_move(moves):
    helper.send(f"position startpos moves {' '.join(moves)}" if moves else "position startpos")
    helper.send("go depth 5")
    return helper.read_until(lambda l: l.startswith("bestmove"), 20, "helper bestmove")[-1].split()[1]


def start_polyglot(log):
    if OPTIONS:
        ini = log + ".ini"
        with open(ini, "w") as f:
            f.write(f"[PolyGlot]\nEngineCommand = {ENGINE}\nEngineDir = .\nLog = true\nLogFile = {log}\n[Engine]\n")
            f.writelines(f"{name} = {value}\n" for name, value in OPTIONS)
        # polyglot opens polyglot.log in its folder before it reads the ini's LogFile.
        pg = Process([POLYGLOT, ini], cwd=os.path.dirname(log))
    else:
        pg = Process([POLYGLOT, "-noini", "-ec", ENGINE, "-log", "true", "-lf", log])
    pg.send("xboard")
    pg.send("protover 2")
    pg.read_until(lambda l: "done=1" in l, 10, "feature done=1")
    return pg


def check_log(log):
    text = open(log, errors="replace").read()
    refused = [l for l in text.splitlines() if "Engine->Adapter: info string error" in l]
    if refused:
        fail(f"the engine refused {len(refused)} command(s): {refused[:3]}")
    for name, value in OPTIONS:
        if f"Adapter->Engine: setoption name {name} value {value}" not in text:
            fail(f"polyglot did not set the option {name} to {value}")
    gos = len(re.findall(r"Adapter->Engine: go\b", text))
    bestmoves = len(re.findall(r"Engine->Adapter: bestmove\b", text))
    return gos, bestmoves, len(re.findall(r"Adapter->Engine: stop\b", text))


def play_game(seed, engine_white, log):
    rng = random.Random(seed)
    pg = start_polyglot(log)
    for command in ("new", "hard", "post", "level 0 5 0"):
        pg.send(command)
    moves = []
    if engine_white:
        pg.send("time 500")
        pg.send("otim 500")
        pg.send("go")
    result = None
    while len(moves) < MAX_PLIES and result is None:
        legal = legal_moves(moves)
        if not legal:
            break
        engine_to_move = (len(moves) % 2 == 0) == engine_white
        if engine_to_move:
            lines = pg.read_until(lambda l: l.startswith("move ") or re.match(r"^(1-0|0-1|1/2-1/2)", l),
                                  MOVE_TIMEOUT, "engine move")
            for l in lines:
                if l.startswith("Illegal move") or l.startswith("Error") or "tellusererror" in l:
                    fail(f"polyglot reports: {l}")
            last = lines[-1]
            if not last.startswith("move "):
                result = last
                break
            move = last.split()[1]
            if move not in legal:
                fail(f"illegal engine move {move} after {' '.join(moves)}")
            moves.append(move)
        else:
            # Give the engine time to ponder, then answer: half the time with a random move (a
            # ponder miss, almost always), half the time with a good one (often a ponder hit).
            time.sleep(rng.uniform(0.02, 0.15))
            move = rng.choice(legal) if len(moves) % 4 < 2 else helper_move(moves)
            pg.send("time 500")
            pg.send("otim 500")
            pg.send("usermove " + move)
            moves.append(move)
    pg.close()
    return moves, result


def analysis_session(log):
    pg = start_polyglot(log)
    for command in ("new", "post", "analyze"):
        pg.send(command)
    moves = []
    rng = random.Random(7)
    changes = 0
    for step in range(12):
        time.sleep(0.3)
        kind = step % 4
        if kind == 3 and moves:
            pg.send("undo")
            moves.pop()
        else:
            move = rng.choice(legal_moves(moves))
            pg.send("usermove " + move)
            moves.append(move)
        changes += 1
        # Analysis must go on for the new position: fresh thinking output within 3 s.
        pg.read_until(lambda l: re.match(r"^\s*\d+\s+[-+]?\d+\s+\d+\s+\d+", l) is not None, 3,
                      f"analysis output after change {changes}")
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    pg.send("setboard " + fen)
    pg.read_until(lambda l: re.match(r"^\s*\d+\s+[-+]?\d+\s+\d+\s+\d+", l) is not None, 3, "analysis after setboard")
    pg.send("exit")
    pg.close()
    return changes + 1


def main():
    workdir = tempfile.mkdtemp(prefix="quadbit-polyglot-")
    totals = [0, 0, 0]
    for g in range(GAMES):
        log = os.path.join(workdir, f"game{g}.log")
        moves, result = play_game(1000 + g, engine_white=g % 2 == 0, log=log)
        gos, bestmoves, stops = check_log(log)
        ending = "no legal move left" if len(moves) < MAX_PLIES else "stopped at the ply limit"
        totals = [totals[0] + gos, totals[1] + bestmoves, totals[2] + stops]
        print(f"game {g + 1}: {len(moves)} plies, {result or ending}; {gos} go, {stops} stop, "
              f"{bestmoves} bestmove")
        if gos != bestmoves:
            fail(f"game {g + 1}: {gos} go commands but {bestmoves} bestmoves")
    if totals[2] == 0:
        fail("no ponder miss happened: the test did not test what it is for")
    log = os.path.join(workdir, "analysis.log")
    changes = analysis_session(log)
    gos, bestmoves, stops = check_log(log)
    print(f"analysis: {changes} board changes, {gos} go, {stops} stop, {bestmoves} bestmove")
    if gos < changes:
        fail(f"analysis: {changes} board changes but only {gos} searches")
    helper.close()
    shutil.rmtree(workdir)
    print("polyglot session passed")


if __name__ == "__main__":
    main()
