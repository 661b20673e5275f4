// The fixed positions of `bench`: openings, middlegames, endgames and positions with mates.
#pragma once

#include <string>
#include <vector>

const std::vector<std::string>& benchPositions();

// Game-like positions for `speedtest` (hardware throughput on all threads).
const std::vector<std::string>& speedtestPositions();
