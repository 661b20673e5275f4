#!/usr/bin/env python3
"""A stand-in engine whose perft counts 8903 nodes for every perft (8902 is perft 3 of the start position): a script that times perft must refuse it."""
import re
import sys

for line in sys.stdin:
    if line.startswith("isready"):
        print("readyok", flush=True)
    elif found := re.match(r"go perft (\d+)", line):
        print("Nodes searched: 8903", flush=True)  # perft 3 of the start position is 8902
    elif line.startswith("quit"):
        break
