"""What the lab's tests share: the engine under test and the shared data (from CTest's
environment, QUADBIT_ENGINE and QUADBIT_SHARED_DIR), scripts/lab run as a user runs it, and
stand-ins for engines and fastchess that do not do the work a command must check."""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENGINE = os.environ.get("QUADBIT_ENGINE", os.path.join(ROOT, "build", "quadbit"))
SHARED = os.environ.get("QUADBIT_SHARED_DIR", os.path.join(ROOT, "..", "shared"))
DATA = os.path.join(ROOT, "tests", "data")
# Answers every perft with a wrong count and every search at once with no move and no nodes.
MISCOUNTING = os.path.join(DATA, "miscounting-engine.py")
sys.path.insert(0, os.path.join(ROOT, "scripts"))


def lab(*args, timeout=600, cwd=None):
    """scripts/lab with these arguments: (exit code, stdout and stderr together)."""
    done = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "lab"), *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, cwd=cwd)
    return done.returncode, done.stdout + done.stderr


def read(path):
    """A file's text."""
    with open(path) as f:
        return f.read()


def write_script(path, text):
    """An executable file (a stand-in engine or fastchess)."""
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


class LabTest(unittest.TestCase):
    """A test with a scratch folder of its own."""

    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory(prefix="quadbit-lab-test-")
        self.dir = self.scratch.name

    def tearDown(self):
        self.scratch.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def assertLab(self, *args, timeout=600):
        """Runs scripts/lab and requires it to succeed; returns its output."""
        code, out = lab(*args, timeout=timeout)
        self.assertEqual(code, 0, out)
        return out

    def assertLabRefuses(self, pattern, *args, timeout=600):
        """Runs scripts/lab and requires it to fail saying `pattern` (a regular expression)."""
        code, out = lab(*args, timeout=timeout)
        self.assertNotEqual(code, 0, out)
        self.assertRegex(out, pattern)
        return out
