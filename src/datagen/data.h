// `quadbit data`: what a game file of datagen holds (gamefile.h), and its training positions as
// text and back.
//   data stats FILE [minply N]  games, results, positions, the positions training keeps, bytes a
//                               position; every move replayed, so it is also the file's check
//   data text FILE OUT [minply N] [shuffle SEED] [force]
//                               the positions training keeps, one `FEN | score | result` line
//                               each (White's view; 1.0/0.5/0.0), in file order or shuffled
//   data binary TEXT OUT [force]
//                               such text back to a game file, each position a game of one
//                               ply (gamefile::gameFromText); a bad line is refused with its
//                               number and nothing is written
//   data snapshot FILE OUT [force]
//                               the whole chunks of FILE, which datagen may still be writing,
//                               copied to OUT; its stats, bytes and sha256 (a manifest row)
#pragma once

#include <functional>
#include <string>
#include <vector>

std::string runData(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print);
