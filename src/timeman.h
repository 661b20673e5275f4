// Time management: how long to think on this move, for sudden death, increments and
// moves-to-go time controls, with a safety margin for communication lag (Move Overhead).
#pragma once

#include <chrono>
#include <cstdint>

#include "types.h"

struct SearchLimits;

using TimePoint = std::int64_t;  // milliseconds

inline TimePoint now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class TimeManager {
public:
    void init(const SearchLimits& limits, Color us, int gamePly, TimePoint overhead, TimePoint start);

    TimePoint elapsed() const { return now() - startTime; }
    // The planned time for this move: an iteration that ends later does not start another.
    TimePoint optimum() const { return optimumTime; }
    // Never think longer than this.
    TimePoint maximum() const { return maximumTime; }
    bool managed() const { return enabled; }
    TimePoint start() const { return startTime; }

private:
    TimePoint startTime = 0;
    TimePoint optimumTime = 0;
    TimePoint maximumTime = 0;
    bool enabled = false;
};
