// Static evaluation, from the side to move's point of view.
#pragma once

#include <string>

#include "eval/evaltrace.h"
#include "eval/pawns.h"
#include "nnue/network.h"
#include "position.h"

// Per-thread caches the evaluation uses.
struct EvalCache {
    pawns::Table pawns;
};

Value evaluate(const Position& pos, EvalCache& cache);

// A network's score `network` of `pos` (side to move's view) with the seeds' knowledge applied
// exactly as to the hand-written evaluation: the special endgames (KPK, KBNK, the draw rules)
// replace it, and the material table's scale factor for the side ahead scales it
// (../shared/seeds/mating-potential.txt). It stays below the tablebase and mate scores.
Value withKnowledge(const Position& pos, EvalCache& cache, Value network);

// The evaluation from White's point of view with every use of a weight recorded in `weights`
// (the tuner's coefficients).
Value evaluateWeights(const Position& pos, EvalTrace& weights);

// Human-readable breakdown for the UCI `eval` command, with the network's output beside it when
// the search uses one.
std::string evalTrace(const Position& pos, const nnue::Network* network);
