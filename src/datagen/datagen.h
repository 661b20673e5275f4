// Self-play training data: games of Quadbit against itself at a fixed node budget per move, each
// stored whole with every move's search score in the game file of gamefile.h (a few bytes a
// position). `quadbit data` (data.h) reads it: statistics, a check, and the filtered
// `FEN | score | result` text that the common trainers read; the Texel tuner reads it directly.
#pragma once

#include <functional>
#include <string>
#include <vector>

// `datagen out FILE [games N] [positions N] [nodes N] [softnodes] [threads N] [hash MB] [book EPD]
// [randomplies N] [seed N] [evalfile NET] [syzygy PATH] [noadjudication] [force]`. The games are
// played with the engine's evaluation, the embedded network unless `evalfile` names another network
// file, or `none` (the hand-written evaluation): keep each evaluator's games in a file of their
// own. One game per thread, each on its own engine and hash table; game k of a seed is always the
// same game, whatever the threads. Games are played and written in whole chunks of
// gamefile::CHUNK_GAMES (`games` is rounded up to them), each as one write and in order, so that a
// file made from scratch is the same bytes whatever the threads. Run again with the same seed and
// nodes, a stopped run (or one asked for more games) plays only the chunks the file lacks, after
// dropping a chunk cut short. `softnodes` makes the budget soft: each search stops at the end of
// the first iteration past N nodes (at most SOFT_NODES_CAP x N), so that every score is a whole
// iteration's; the chunks say so (gamefile::SOFT_NODES). `syzygy PATH` plays with the Syzygy tables
// found there (folders separated by ':', as SyzygyPath): an ending they cover is played as they
// say, so its positions are labelled with the true result; the chunks say so (gamefile::SYZYGY),
// and the manifest names the tables, since other tables would make other games. `positions N` stops
// once the file holds N positions. Progress goes to `progress` every ten seconds. Returns an error
// for bad arguments (nothing is written then); an existing file of other games is refused unless
// `force` (start afresh) is given. Decided and dead-drawn games are cut short (adjudicated) unless
// `noadjudication`; the chunks do not record which, so a file is continued as it was begun.
// A soft budget's hard cap, as a multiple of it: an iteration that explodes still ends.
constexpr std::uint64_t SOFT_NODES_CAP = 8;
// A game still going after this many plies ends as a draw.
constexpr int MAX_GAME_PLIES = 600;

class Position;
// Whether a game of datagen ends before its ply `ply` in `pos`, as chess ends it (no legal move,
// a draw by rule, a dead position) or at the ply cap; adjudication aside.
bool gameOver(const Position& pos, int ply);

std::string runDatagen(const std::vector<std::string>& args, const std::function<void(const std::string&)>& progress);
