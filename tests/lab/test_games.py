"""lab games: SPRTs that outlive their machine and write the ledger, options checked before a game
is played, and one engine per mate-suite run. fastchess and the builds are stand-ins here: an SPRT
builds nothing when a commit's binary is already in its workdir."""
import csv
import json
import os
import signal
import subprocess
import sys
import time
import unittest

from support import ENGINE, ROOT, LabTest, read, write_script

COMMIT = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                        text=True).stdout.strip()

# A fastchess that plays until SIGINT, as fastchess does, counting games, and then saves its count
# as its record of the test (config.json); given a record with -config, it goes on from there.
COUNTING_FASTCHESS = """#!/usr/bin/env python3
import json, signal, sys, time
games = 0
if "-config" in sys.argv:
    games = json.load(open(sys.argv[sys.argv.index("-config") + 1].split("=", 1)[1]))["games"]
stopped = False
def stop(*_):
    global stopped
    stopped = True
signal.signal(signal.SIGINT, stop)
while not stopped:
    games += 2
    print(f"Games: {games}, Wins: {games // 2}, Losses: {games // 2}, Draws: 0", flush=True)
    print("Elo: 0.00 +/- 10.00, nElo: 0.00 +/- 10.00", flush=True)
    print("LLR: 0.01 (-2.94, 2.94) [0.00, 10.00]", flush=True)
    time.sleep(0.05)
json.dump({"games": games}, open("config.json", "w"))
"""

# A fastchess whose test ends at once with a verdict, its arguments kept.
PASSING_FASTCHESS = """#!/bin/sh
echo "$@" >fastchess-args.txt
echo "Games: 20, Wins: 9, Losses: 5, Draws: 6, Points: 12.0 (60.00 %)"
echo "Ptnml(0-2): [1, 2, 3, 3, 1], WL/DD Ratio: 1.00"
echo "Elo: 70.44 +/- 150.00, nElo: 80.00 +/- 170.00"
echo "LLR: 2.95 (-2.94, 2.94) [0.00, 10.00]"
echo "H1 was accepted"
"""


@unittest.skipUnless(COMMIT, "not a git checkout: an SPRT names its builds by commit")
class Sprt(LabTest):
    def engine(self, folder, *options):
        """A stand-in build in the workdir that lists these options in its answer to `uci`."""
        os.makedirs(self.path(folder), exist_ok=True)
        listed = "".join(f'echo "option name {o} type spin default 1 min 0 max 1000"\n' for o in options)
        write_script(self.path(f"{folder}/quadbit"), f'#!/bin/sh\necho "id name stand-in"\n{listed}echo uciok\n')

    def sprt(self, fastchess, *args, background=False):
        argv = [sys.executable, os.path.join(ROOT, "scripts", "lab"), "games", "sprt", "--fastchess", fastchess,
                "HEAD", "HEAD", "--workdir", self.path("sprt"), *args]
        if background:
            return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        return done.returncode, done.stdout + done.stderr

    def test_keep_resumes_on_another_machine(self):
        """lab games sprt: a test stopped on one machine resumes on another from the kept record."""
        fastchess = write_script(self.path("fastchess"), COUNTING_FASTCHESS)
        kept = self.path("kept.json")

        def play():  # until it has reported games, then stopped as a kill stops it
            self.engine(f"sprt/build-{COMMIT}")
            proc = self.sprt(fastchess, "--keep", kept, background=True)
            lines = []
            for line in proc.stdout:
                lines.append(line)
                if line.startswith("games "):
                    break
            proc.send_signal(signal.SIGTERM)
            lines += proc.stdout.readlines()
            proc.wait(timeout=60)
            return "".join(lines)

        first = play()
        self.assertTrue(os.path.exists(kept), first)
        before = json.loads(read(kept))["games"]
        subprocess.run(["rm", "-rf", self.path("sprt")], check=True)  # another machine: the workdir is gone
        second = play()
        self.assertIn("resuming the test saved in", second)
        resumed_at = int(next(l for l in second.splitlines() if l.startswith("games ")).split()[1])
        self.assertGreater(resumed_at, before, second)
        self.assertGreater(json.loads(read(kept))["games"], before)

    def test_options_are_checked_and_a_finished_test_is_in_the_ledger(self):
        """lab games sprt: an option the engines lack is refused; --tuning plays a constant; the verdict is a ledger row."""
        fastchess = write_script(self.path("fastchess"), PASSING_FASTCHESS)
        self.engine(f"sprt/build-{COMMIT}", "Hash", "Threads")
        self.engine(f"sprt/build-tuning-{COMMIT}", "Hash", "Threads", "RFP_MARGIN")
        code, out = self.sprt(fastchess, "--new-option", "RFP_MARGIN=90")
        self.assertNotEqual(code, 0)
        self.assertIn("NEW has no UCI option 'RFP_MARGIN' (a search constant is one only with --tuning)", out)
        code, out = self.sprt(fastchess, "--tuning", "--base-option", "Contempt=10")
        self.assertNotEqual(code, 0)
        self.assertIn("BASE has no UCI option 'Contempt'", out)
        ledger = self.path("ledger.csv")
        code, out = self.sprt(fastchess, "--tuning", "--new-option", "RFP_MARGIN=90", "--elo1", "10",
                              "--note", "a note, with a comma", "--ledger", ledger)
        self.assertEqual(code, 0, out)
        args = read(self.path("sprt/fastchess-args.txt"))
        self.assertIn(f"cmd={self.path(f'sprt/build-tuning-{COMMIT}/quadbit')} name=new-{COMMIT} "
                      "option.RFP_MARGIN=90 ", args)
        with open(ledger) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 1)
        want = {"base": COMMIT, "new": f"{COMMIT} RFP_MARGIN=90", "bounds": "0 10", "games": "20", "wins": "9",
                "losses": "5", "draws": "6", "pentanomial": "1 2 3 3 1", "elo": "70.44", "elo_error": "150.00",
                "llr": "2.95", "verdict": "passed", "change": "a note, with a comma"}
        self.assertEqual({k: rows[0][k] for k in want}, want)

    def test_the_ledger_has_every_column(self):
        """lab games sprt: perf/sprt.csv has the columns the command writes, and each row its verdict."""
        from labkit import sprt
        with open(os.path.join(ROOT, "perf", "sprt.csv")) as f:
            reader = csv.DictReader(f)
            self.assertEqual(reader.fieldnames, sprt.COLUMNS)
            rows = list(reader)
        self.assertGreater(len(rows), 40)
        for row in rows:
            self.assertIn(row["verdict"], {"passed", "failed", "no verdict", "interrupted", "stopped", "abandoned"}, row)
            if row["wins"]:
                self.assertEqual(int(row["wins"]) + int(row["losses"]) + int(row["draws"]), int(row["games"]), row)


# A tuning build that lists two constants, and a fastchess that plays no chess: the side whose
# RFP_MARGIN is nearer 150 wins both games of a pair (the same distance draws them); LMR_BASE
# decides nothing.
TUNING_ENGINE = """#!/bin/sh
if [ "$1" = tunables ]; then
  echo "RFP_MARGIN, int, 50, 0, 200, 10, 0.05"
  echo "LMR_BASE, int, 80, 0, 200, 10, 0.05"
  exit 0
fi
echo "id name stand-in"; echo uciok
"""
JUDGING_FASTCHESS = """#!/usr/bin/env python3
import re, sys
argv = sys.argv
engines = [argv[i + 1:] for i, a in enumerate(argv) if a == "-engine"]
def setting(engine, key):
    return next(a.split("=", 1)[1] for a in engine if a.startswith(key + "="))
names = [setting(e, "name") for e in engines]
distance = [abs(int(setting(e, "option.RFP_MARGIN")) - 150) for e in engines]
pgn = next(a.split("=", 1)[1] for a in argv[argv.index("-pgnout") + 1:] if a.startswith("file="))
rounds = int(argv[argv.index("-rounds") + 1])
with open(pgn, "w") as f:
    for r in range(rounds):
        for white, black in ((0, 1), (1, 0)):
            winner = None if distance[0] == distance[1] else min((0, 1), key=lambda i: distance[i])
            result = "1/2-1/2" if winner is None else ("1-0" if winner == white else "0-1")
            f.write(f'[Event "?"]\\n[White "{names[white]}"]\\n[Black "{names[black]}"]\\n'
                    f'[Result "{result}"]\\n\\n1. e4 e5 {result}\\n\\n')
"""


@unittest.skipUnless(COMMIT, "not a git checkout: an SPSA run names its build by commit")
class Spsa(LabTest):
    def spsa(self, workdir, *args, background=False):
        os.makedirs(self.path(f"{workdir}/build-tuning-{COMMIT}"), exist_ok=True)
        write_script(self.path(f"{workdir}/build-tuning-{COMMIT}/quadbit"), TUNING_ENGINE)
        argv = [sys.executable, os.path.join(ROOT, "scripts", "lab"), "games", "spsa", "--fastchess",
                write_script(self.path("fastchess"), JUDGING_FASTCHESS), "--workdir", self.path(workdir),
                "--iterations", "20", "--concurrency", "1", *args]
        if background:
            return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        return done.returncode, done.stdout + done.stderr

    def values(self, workdir):
        record = json.loads(read(self.path(f"{workdir}/spsa.json")))
        return {name: p["theta"] for name, p in record["params"].items()}, record

    def test_constants_move_toward_what_wins(self):
        """lab games spsa: the constant that decides games moves toward the winning value, the other stays near its start."""
        code, out = self.spsa("run")
        self.assertEqual(code, 0, out)
        values, record = self.values("run")
        self.assertEqual(record["done"], 20)
        self.assertEqual(sum(s[1] + s[2] + s[3] for s in record["steps"]), 40, out)
        self.assertGreater(values["RFP_MARGIN"], 75, out)
        self.assertGreater(values["RFP_MARGIN"] - 50, 2 * abs(values["LMR_BASE"] - 80), out)
        self.assertIn(f"--tuning {COMMIT} {COMMIT} --new-option RFP_MARGIN={round(values['RFP_MARGIN'])}", out)

    def test_a_stopped_run_resumes_to_the_same_values(self):
        """lab games spsa: a run killed midway and resumed ends where an unbroken run ends; a record its steps contradict is refused."""
        code, out = self.spsa("unbroken")
        self.assertEqual(code, 0, out)
        unbroken, _ = self.values("unbroken")
        proc = self.spsa("broken", "--keep", self.path("kept.json"), background=True)
        for line in proc.stdout:
            if line.startswith("pair 8/"):
                break
        proc.send_signal(signal.SIGTERM)
        self.assertIn("SPSA stopped at game pair", proc.stdout.read())
        proc.wait(timeout=60)
        proc.stdout.close()
        _, stopped = self.values("broken")
        self.assertLess(stopped["done"], 20)
        subprocess.run(["rm", "-rf", self.path("broken")], check=True)  # another machine: the workdir is gone
        code, out = self.spsa("broken", "--keep", self.path("kept.json"))
        self.assertEqual(code, 0, out)
        self.assertIn("resuming the run saved in", out)
        self.assertEqual(self.values("broken")[0], unbroken)

        _, record = self.values("broken")
        record["params"]["LMR_BASE"]["theta"] += 3
        with open(self.path("broken/spsa.json"), "w") as f:
            json.dump(record, f)
        code, out = self.spsa("broken")
        self.assertNotEqual(code, 0)
        self.assertIn("steps do not give its values of LMR_BASE", out)

    def test_an_unknown_constant_is_refused(self):
        """lab games spsa: --params naming a constant the build lacks stops before a game."""
        code, out = self.spsa("run", "--params", "RFP_MARGIN,NO_SUCH_MARGIN")
        self.assertNotEqual(code, 0)
        self.assertIn("no tunable NO_SUCH_MARGIN in this build", out)
        self.assertFalse(os.path.exists(self.path("run/spsa.json")))


class MateSuite(LabTest):
    def test_one_engine_per_run(self):
        """lab games mate-suite: a second engine's path, which would reach the first as an argument, is refused."""
        self.assertLabRefuses(r"one engine per run: .* run the command once for each engine",
                              "games", "mate-suite", ENGINE, ENGINE)


if __name__ == "__main__":
    unittest.main()
