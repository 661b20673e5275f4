"""lab speed: every figure it reports is of work that was done (counts and searches checked), and
an engine that does not do the work stops the command with the reason."""
import csv
import os
import unittest

from support import ENGINE, MISCOUNTING, LabTest


class Perft(LabTest):
    def test_quick_run_checks_every_count(self):
        """lab speed perft: a quick run (Quadbit as every engine) times each position and checks every count."""
        out = self.assertLab("speed", "perft", "--quick", "--generic", ENGINE, "--native", ENGINE,
                             "--reference", ENGINE)
        self.assertRegex(out, r"\| median ratio \| \| \| \| [0-9.]+x \| \| [0-9.]+x \|")

    def test_refuses_a_wrong_count(self):
        """lab speed perft: an engine whose count is wrong stops the run, named, with the true count."""
        self.assertLabRefuses(r"stockfish gave 'Nodes searched: 8903' for perft 3 .* the count is 8902",
                              "speed", "perft", "--quick", "--generic", ENGINE, "--native", ENGINE,
                              "--reference", MISCOUNTING)


class Nps(LabTest):
    def test_quick_run(self):
        """lab speed nps: a quick run (Quadbit as every engine) times searches that ended in a move."""
        out = self.assertLab("speed", "nps", "--quick", "--generic", ENGINE, "--native", ENGINE,
                             "--stockfish", ENGINE, "--ethereal", ENGINE)
        self.assertRegex(out, r"\n\| 1 \| [0-9.]+ \|")

    def test_refuses_no_search(self):
        """lab speed nps: an engine that answers without searching stops the run."""
        self.assertLabRefuses(r"stockfish ended 'bestmove \(none\)' with no nodes .*: no search to time",
                              "speed", "nps", "--quick", "--generic", ENGINE, "--native", ENGINE,
                              "--stockfish", MISCOUNTING, "--ethereal", ENGINE)


class Scaling(LabTest):
    def test_report_within_budget(self):
        """lab speed scaling: a short run writes its table and CSV, every part in them."""
        # 30 s: the side-by-side part's 18 runs fit beside the others on a loaded 2-core machine.
        self.assertLab("speed", "scaling", "--budget", 30, "--no-references", "--engine", ENGINE, "--out", self.dir,
                       timeout=90)
        with open(self.path("scaling.md")) as f:
            report = f.read()
        self.assertIn("| 1 | ", report)
        # Nodes and hosts: a table, or the reason they were not measured (one node, no root, the budget).
        self.assertRegex(report, r"NUMA nodes: \d+ on this machine|Not measured: NUMA policies")
        self.assertRegex(report, r"\nHosts: |Not measured: hosts")
        with open(self.path("scaling.csv")) as f:
            parts = {row["part"] for row in csv.DictReader(f)}
        self.assertLessEqual({"search", "perft", "side by side"}, parts)
        self.assertLessEqual(parts, {"search", "perft", "side by side", "numa", "hosts"})

    def test_refuses_an_engine_that_does_no_work(self):
        """lab speed scaling: each part stops at an engine that does not search or miscounts."""
        for part, pattern in (("search", r"quadbit ended 'bestmove \(none\)' with no nodes .*: no search to time"),
                              ("perft", r"quadbit gave 'Nodes searched: 8903' for perft 5 .* the count is 4865609"),
                              ("side", r"process 1 of [23] \(Bind auto\) ended 'bestmove \(none\)': no search to time")):
            with self.subTest(part=part):
                self.assertLabRefuses(pattern, "speed", "scaling", "--budget", 10, "--no-references", "--only", part,
                                      "--engine", MISCOUNTING, "--out", self.dir)


class Shape(LabTest):
    def test_quick_run_times_the_same_tree(self):
        """lab speed shape: the embedded network, widened and king-bucketed, searches the same tree."""
        out = self.assertLab("speed", "shape", "--quick", ENGINE)
        self.assertRegex(out, r"\| [0-9.]+ \| [0-9.]+ \([0-9.]+-[0-9.]+\) \| [0-9.]+ \([0-9.]+-[0-9.]+\) \|")

    def test_refuses_a_width_no_wider(self):
        """lab speed shape: a width no wider than the embedded network's is refused."""
        self.assertLabRefuses(r"width 256 is not wider than the embedded network's 256",
                              "speed", "shape", "--widths", 256, "--rounds", 1, "--depth", 1, ENGINE)


if __name__ == "__main__":
    unittest.main()
