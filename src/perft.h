// Perft: count the leaf nodes of the legal move tree, the standard check of a move generator.
#pragma once

#include <cstdint>
#include <ostream>

#include "position.h"

// Leaf count at `depth`, counting the last ply in bulk.
std::uint64_t perft(Position& pos, int depth);

// The same walk without bulk counting, checking every incremental value against its from-scratch
// recomputation after each make and each unmake. Returns the leaf count, or sets *error.
std::uint64_t perftVerified(Position& pos, int depth, std::string* error);

// Stockfish-style divided perft: one line per root move, then the total, time and speed.
// With threads > 1 the subtrees are shared out among threads. Returns the leaf count.
std::uint64_t perftDivide(const Position& pos, int depth, int threads, std::ostream& out);
