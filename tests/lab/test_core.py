"""lab core: the one Elo formula, the one PGN reader, fastchess's command line and reports, the UCI
client and the command-line entry point."""
import gzip
import importlib.machinery
import importlib.util
import os
import shutil
import unittest

from support import DATA, ENGINE, MISCOUNTING, LabTest, lab
from labkit import core


class Elo(unittest.TestCase):
    def test_known_scores(self):
        """lab core: a 75% score is +190.8 Elo, an even one 0, and losing is the mirror of winning."""
        self.assertAlmostEqual(core.elo_with_error(75, 25, 0)[0], 190.85, places=2)
        self.assertAlmostEqual(core.elo_with_error(30, 30, 40)[0], 0.0, places=9)
        win, lose = core.elo_with_error(60, 20, 20), core.elo_with_error(20, 60, 20)
        self.assertAlmostEqual(win[0], -lose[0], places=9)
        self.assertAlmostEqual(win[1], lose[1], places=9)

    def test_the_figures_on_the_status_page(self):
        """lab core: the matches of docs/status.md come out as it quotes them."""
        for (w, l, d), (elo, error) in (((132, 23, 45), (212, 47)), ((102, 170, 128), (-60, 28)),
                                        ((108, 167, 125), (-52, 28)), ((80, 26, 94), (96, 35))):
            got = core.elo_with_error(w, l, d)
            self.assertEqual((round(got[0]), round(got[1])), (elo, error), (w, l, d))

    def test_error_narrows_with_games(self):
        """lab core: four times the games halve the error bar; draws narrow it too."""
        small, large = core.elo_with_error(40, 30, 30)[1], core.elo_with_error(160, 120, 120)[1]
        self.assertAlmostEqual(small / large, 2.0, places=6)
        self.assertLess(core.elo_with_error(20, 10, 70)[1], core.elo_with_error(55, 45, 0)[1])

    def test_clean_sweep_is_finite(self):
        """lab core: a clean sweep has a finite estimate, just short of the limit."""
        elo, error = core.elo_with_error(10, 0, 0)
        self.assertTrue(1000 < elo < 1300 and error >= 0)


class Pgn(LabTest):
    def test_a_gauntlet_counts_each_engine_alone(self):
        """lab core: a gauntlet's score and bad losses count only the named engine's games."""
        pgn = os.path.join(DATA, "gauntlet.pgn")
        self.assertEqual(core.results(pgn, "new"), (1, 1, 1))
        self.assertEqual(core.results(pgn, "base"), (1, 1, 0))
        self.assertEqual(core.game_endings(pgn, "new")[2], 1)  # its loss on time
        self.assertEqual(core.game_endings(pgn, "base")[2], 0)

    def test_gzipped_and_plain_read_alike(self):
        """lab core: a gzipped PGN reads as the plain one: tags, comments and moves."""
        plain = os.path.join(DATA, "gauntlet.pgn")
        packed = self.path("gauntlet.pgn.gz")
        with open(plain, "rb") as src, gzip.open(packed, "wb") as dst:
            shutil.copyfileobj(src, dst)
        games = list(core.pgn_games(plain))
        self.assertEqual(games, list(core.pgn_games(packed)))
        self.assertEqual(games[0].tags["White"], "new")
        self.assertEqual(games[0].comments, ["+0.30/12 0.101s", "-0.25/11 0.098s"])
        self.assertNotIn("{", games[0].movetext)
        self.assertIn("e4", games[0].movetext)


class Fastchess(unittest.TestCase):
    def test_command_line(self):
        """lab core: every match is both colours of each opening of the UHO book, with recovery."""
        cmd = core.fastchess_command("fc", [["cmd=a", "name=a"], ["cmd=b", "name=b"]], ["tc=5+0.05"], 100,
                                     concurrency=2, pgn="g.pgn")
        self.assertEqual(cmd[:7], ["fc", "-engine", "cmd=a", "name=a", "-engine", "cmd=b", "name=b"])
        for part in (["-rounds", "100"], ["-games", "2"], ["-concurrency", "2"], ["-pgnout", "file=g.pgn"]):
            self.assertIn(" ".join(part), " ".join(cmd))
        self.assertIn("-repeat", cmd)
        self.assertIn("-recover", cmd)
        self.assertIn(f"file={core.BOOK}", cmd)

    def test_reports(self):
        """lab core: fastchess's report lines give games, Elo, pentanomial, LLR and the verdict."""
        last = {}
        for line in ("Games: 20, Wins: 9, Losses: 5, Draws: 6, Points: 12.0 (60.00 %)",
                     "Ptnml(0-2): [1, 2, 3, 3, 1], WL/DD Ratio: 1.00",
                     "Elo: 70.44 +/- 150.00, nElo: 80.00 +/- 170.00",
                     "LLR: 2.95 (-2.94, 2.94) [0.00, 10.00]", "H1 was accepted"):
            core.read_report(line, last)
        self.assertEqual(last, {"games": ("20", "9", "5", "6"), "pentanomial": ("1", "2", "3", "3", "1"),
                                "elo": ("70.44", "150.00"), "llr": ("2.95", "-2.94", "2.94"), "verdict": ("H1",)})


class Uci(LabTest):
    def test_search_and_options(self):
        """lab core: the UCI client reads a search to its move, and lists the engine's options."""
        with core.Uci([ENGINE]).start({"Hash": 8}) as engine:
            move, nodes, _ = core.searched(engine.search("startpos", "depth 4"))
        self.assertRegex(move, r"^[a-h][1-8][a-h][1-8]$")
        self.assertGreater(nodes, 0)
        self.assertTrue({"hash", "threads", "syzygypath"} <= core.uci_options([ENGINE]))

    def test_checked_search_refuses_no_search(self):
        """lab core: a search that ended with no move and no nodes stops the command, named."""
        with self.assertRaises(SystemExit) as stop:
            core.checked_search("speed nps", "stand-in", [MISCOUNTING], [], core.POSITIONS[0], 1, 10)
        self.assertRegex(str(stop.exception), r"^speed nps: stand-in ended 'bestmove \(none\)' with no nodes")


class EntryPoint(unittest.TestCase):
    def test_unknown_command(self):
        """lab: an unknown command is refused with the list of commands."""
        code, out = lab("speed", "warp")
        self.assertNotEqual(code, 0)
        self.assertIn("lab: no command 'speed warp'", out)
        self.assertIn("scripts/lab games match|sprt", out)

    def test_every_command_has_help(self):
        """lab: every command answers --help with its own usage."""
        loader = importlib.machinery.SourceFileLoader("lab_entry", os.path.join(core.ROOT, "scripts", "lab"))
        entry = importlib.util.module_from_spec(importlib.util.spec_from_loader("lab_entry", loader))
        loader.exec_module(entry)
        for group, commands in entry.COMMANDS.items():
            for command in commands:
                code, out = lab(group, command, "--help")
                self.assertEqual(code, 0, out)
                self.assertIn(f"usage: lab {group} {command}", out)


if __name__ == "__main__":
    unittest.main()
