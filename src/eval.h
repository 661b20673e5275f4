// Static evaluation, from the side to move's point of view.
#pragma once

#include <string>

#include "position.h"

// Per-thread caches the evaluation may use.
struct EvalCache {};

Value evaluate(const Position& pos, EvalCache& cache);

// Human-readable breakdown for the UCI `eval` command.
std::string evalTrace(const Position& pos);
