"""lab data: manifest rows of files still being written, fresh endgame samples labelled by the
tables, and the network's scale against the hand-written evaluation."""
import hashlib
import os
import re
import shutil
import subprocess
import unittest

from support import ENGINE, SHARED, LabTest, lab, read


def datagen(out, games, threads):
    subprocess.run([ENGINE, "datagen", "out", out, "games", str(games), "nodes", "300", "seed", "9", "threads",
                    str(threads)], check=True, capture_output=True)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Snapshot(LabTest):
    def test_whole_chunks_of_a_file_being_written(self):
        """lab data snapshot: the row and the copy are the whole chunks, the bytes datagen makes again."""
        growing = self.path("g.bin")
        datagen(growing, 24, 2)
        with open(growing, "r+b") as f:  # the third chunk cut short, as a run still writing it leaves it
            f.truncate(os.path.getsize(growing) - 5)
        out = self.assertLab("data", "snapshot", growing, "--copy", self.path("snap"), "--engine", ENGINE)
        again = self.path("again.bin")
        datagen(again, 16, 1)
        copy = self.path("snap/g-c2.bin")
        with open(again, "rb") as a, open(copy, "rb") as b:
            self.assertEqual(a.read(), b.read())
        self.assertIn("| 2 | 16 (White won", out)
        self.assertIn(f"`{sha256(again)}`", out)

    def test_not_a_game_file(self):
        """lab data snapshot: a file that is no game file is refused with the engine's reason."""
        other = self.path("other.bin")
        with open(other, "w") as f:
            f.write("not a game file at all\n")
        self.assertLabRefuses(r"data snapshot: the engine did not read the whole chunks", "data", "snapshot", other,
                              "--engine", ENGINE)


class EndgameSample(LabTest):
    def sample(self, *args):
        return lab("data", "endgame-sample", *args, "--engine", ENGINE, "--syzygy",
                   os.path.join(SHARED, "data", "syzygy"))

    def test_same_seed_same_positions_labelled_as_chess_has_it(self):
        """lab data endgame-sample: one seed draws the same positions; K+Q v K and K+N v K labelled as the tables say."""
        code, first = self.sample("KQvK", "--count", 200, "--seed", 7)
        self.assertEqual(code, 0, first)
        self.assertEqual(self.sample("KQvK", "--count", 200, "--seed", 7), (0, first))
        counts = {"won": 0, "lost": 0, "drawn": 0}
        for line in first.splitlines():
            fen, rest = line.split(";", 1)
            board, side = fen.split()[:2]
            wdl = int(re.search(r"wdl (-?\d+)", rest).group(1))
            if ("Q" in board) == (side == "w"):  # the queen's side to move wins
                self.assertEqual(wdl, 2, line)
                counts["won"] += 1
            else:  # the bare king loses, or draws by taking the queen
                self.assertIn(wdl, (-2, 0), line)
                counts["lost" if wdl == -2 else "drawn"] += 1
        self.assertTrue(all(counts.values()), counts)
        code, knights = self.sample("KNvK", "--count", 50, "--seed", 7)
        self.assertEqual(code, 0, knights)
        self.assertEqual(knights.count("; wdl 0;"), 50)

    def test_missing_table_refused(self):
        """lab data endgame-sample: a signature without a table is refused."""
        code, out = self.sample("KQRBNvK", "--count", 1)
        self.assertNotEqual(code, 0)
        self.assertIn("no table KQRBNvK.rtbw", out)


class EvalScale(LabTest):
    def test_half_the_scale_measures_half(self):
        """lab data eval-scale: `quadbit net scale` halves the output SCALE alone, and eval-scale finds half the ratio."""
        games = self.path("games.bin")
        subprocess.run([ENGINE, "datagen", "out", games, "games", "8", "nodes", "400", "threads", "1", "seed", "5"],
                       check=True, capture_output=True)
        half = self.path("half.nnue")
        scaled = subprocess.run([ENGINE, "net", "scale", "<embedded>", "x0.5", half], capture_output=True, text=True)
        self.assertEqual(scaled.returncode, 0, scaled.stdout)

        def measured(*options):
            out = self.assertLab("data", "eval-scale", games, "--limit", 100000, "--sample", 200, *options, ENGINE)
            return float(re.search(r"least squares ([0-9.]+) \(network on", out).group(1))

        full = measured()
        self.assertGreater(full, 0.5)
        self.assertAlmostEqual(measured("--option", f"EvalFile={half}") / full, 0.5, delta=0.03)

    def test_too_few_positions_refused(self):
        """lab data eval-scale: a file cut too short to measure is refused with the engine's reason."""
        games = self.path("games.bin")
        datagen(games, 8, 1)
        cut = self.path("cut.bin")
        with open(games, "rb") as src, open(cut, "wb") as dst:
            dst.write(src.read(100))
        self.assertLabRefuses(r"eval-scale: .*cut short", "data", "eval-scale", cut, ENGINE)


if __name__ == "__main__":
    unittest.main()
