// Perft: count the leaf nodes of the legal move tree, the standard check of a move generator.
#pragma once

#include <atomic>
#include <cstdint>
#include <ostream>
#include <vector>

#include "position.h"

// Leaf count at `depth`, counting the last ply in bulk. With `stop`, returns early (with a
// partial count) once it is set; it is read only at interior nodes three or more plies from the
// leaves, where it costs nothing measurable.
std::uint64_t perft(Position& pos, int depth, const std::atomic<bool>* stop = nullptr);

// The same walk without bulk counting, checking every incremental value against its from-scratch
// recomputation after each make and each unmake. Returns the leaf count, or sets *error.
std::uint64_t perftVerified(Position& pos, int depth, std::string* error);

// Stockfish-style divided perft: one line per root move, then the total, time and speed (no
// speed when the time is too short to measure). With threads > 1 the subtrees are shared out
// among threads. A `stop` that is set ends it with a message instead of wrong counts. Returns
// the leaf count.
// `pus`: the PU for each thread (-1 or none: wherever the OS puts it). A helper started from a
// pinned search thread would inherit its binding and share its core, so each is bound to its own.
std::uint64_t perftDivide(const Position& pos, int depth, int threads, std::ostream& out,
                          const std::atomic<bool>* stop = nullptr, const std::vector<int>& pus = {});
