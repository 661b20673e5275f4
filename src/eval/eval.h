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

// The seeds' knowledge of a position, whatever evaluation gives its score
// (../shared/seeds/mating-potential.txt): a special endgame's exact value (KPK, KBNK, the draw
// rules; side to move's view), VALUE_NONE if none, and else the scale factor (of SCALE_NORMAL)
// for `leader`, the side ahead.
Value knownValue(const Position& pos);
int knownScale(const Position& pos, EvalCache& cache, Color leader);

// A network's score `network` of `pos` (side to move's view) with the seeds' knowledge applied
// exactly as to the hand-written evaluation: a known value replaces it, the scale factor for the
// side ahead scales it. It stays below the tablebase and mate scores.
Value withKnowledge(const Position& pos, EvalCache& cache, Value network);

// The evaluation from White's point of view with every use of a weight recorded in `weights`
// (the tuner's coefficients).
Value evaluateWeights(const Position& pos, EvalTrace& weights);

// Human-readable breakdown for the UCI `eval` command, with the network's output beside it when
// the search uses one.
std::string evalTrace(const Position& pos, const nnue::Network* network);
