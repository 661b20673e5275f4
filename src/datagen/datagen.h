// Self-play training data: games of Quadbit against itself at a fixed node budget per move, every
// usable position written as `FEN | score | result` (White's view: centipawns, and 1.0/0.5/0.0),
// the text format the common trainers read. The Texel tuner (tuner.h) fits the evaluation to it.
#pragma once

#include <functional>
#include <string>
#include <vector>

// `datagen out FILE [games N] [positions N] [nodes N] [threads N] [hash MB] [book EPD]
// [randomplies N] [seed N] [force]`. One game per thread, each on its own engine and hash
// table; the same seed gives the same games (in the same order with one thread). Progress goes
// to `progress` every few seconds. Returns an error for bad arguments (nothing is written then);
// an existing output file is kept unless `force` is given.
std::string runDatagen(const std::vector<std::string>& args, const std::function<void(const std::string&)>& progress);
