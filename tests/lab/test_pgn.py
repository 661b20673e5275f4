"""lab pgn: what a match's PGN says about the clock and about announced mates."""
import os
import unittest

from support import DATA, LabTest


class Clock(LabTest):
    def test_each_side_whoever_moves_first(self):
        """lab pgn clock: each side's clock, whichever side moves first after the book; a game without a TimeControl skipped."""
        # tests/data/clock-use.pgn: Quadbit spends 0.5 s a move with White and with Black to move
        # first, its opponent 0.2 s.
        out = self.assertLab("pgn", "clock", os.path.join(DATA, "clock-use.pgn"), "--after", 10)
        self.assertRegex(out, r"2 games of quadbit(.|\n)*\| 10 \| 2 \| 0\.50 \| 3\.50 \|")

    def test_no_game_of_the_engine(self):
        """lab pgn clock: a PGN without a game of the named engine is said so, not reported as empty."""
        self.assertLabRefuses(r"no game of 'nobody'", "pgn", "clock", os.path.join(DATA, "clock-use.pgn"),
                              "--name", "nobody")


class Mates(LabTest):
    def test_each_announced_mate_to_its_player(self):
        """lab pgn mates: a mate announced and given, and one announced by the side being mated and drawn."""
        out = self.assertLab("pgn", "mates", os.path.join(DATA, "mate-conversion.pgn"))
        self.assertIn("base: announced the first mate in 1 games, 0 ended as announced\n"
                      "new: announced the first mate in 1 games, 1 ended as announced", out)


if __name__ == "__main__":
    unittest.main()
