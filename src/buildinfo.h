// What this binary was built for, as Stockfish's `compiler` command says it: the compiler, the
// target level chosen at configure time (QUADBIT_ARCH) and the instruction-set features the build
// relies on, so that a user can tell which build a GUI or a rented server is running.
#pragma once

#include <string>

// The commit the binary was built from, "-modified" added when the checkout had changes, or
// "unknown" outside a git checkout: what a network file's description cites as its trainer.
std::string buildCommit();

// Several lines: commit, compiler, target level and features, the paths the hot code takes (sliders,
// network kernels, bit counts) and thread placement.
std::string buildDescription();
