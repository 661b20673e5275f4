#!/usr/bin/env python3
"""A stand-in engine that does not do the work it is timed on: every perft counts 8903 nodes (8902
is perft 3 of the start position) and every search answers at once with no move and no nodes. A
script that times perft or search must refuse it."""
import re
import sys

for line in sys.stdin:
    if line.startswith("isready"):
        print("readyok", flush=True)
    elif re.match(r"go perft (\d+)", line):
        print("Nodes searched: 8903", flush=True)
    elif line.startswith("go"):
        print("info depth 0 nodes 0\nbestmove (none)", flush=True)
    elif line.startswith("quit"):
        break
