// The fixed positions of `bench`: openings, middlegames, endgames and positions with mates.
#pragma once

#include <functional>
#include <string>
#include <vector>

class Engine;

const std::vector<std::string>& benchPositions();

// Game-like positions for `speedtest` (hardware throughput on all threads).
const std::vector<std::string>& speedtestPositions();

// `bench [hash] [threads] [limit] [positions] [limit type]`, Stockfish's arguments: hash in MB
// (16), threads (1), the limit (11), the positions (`default`, `current` or an EPD/FEN file, one
// position a line) and the limit's type (`depth`, `nodes`, `movetime` or `perft`). Prints each
// position, then the totals; the node count with the defaults is the bench signature. Returns an
// error for bad arguments (nothing runs then). The engine's own Threads and Hash come back after.
std::string runBench(Engine& engine, const std::vector<std::string>& args,
                     const std::function<void(const std::string&)>& out);

// `speedtest [threads] [hash] [seconds]`: the game positions searched for a fixed time each on
// all threads, the hash kept between them as in a game: sustained nodes per second.
std::string runSpeedtest(Engine& engine, const std::vector<std::string>& args,
                         const std::function<void(const std::string&)>& out);
