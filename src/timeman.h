// Time management: how long to think on this move, for sudden death, increments and
// moves-to-go time controls, with a safety margin for communication lag (Move Overhead). The
// search asks two questions: may it start another iteration (the soft limit) and must it stop
// now (the hard limit); both rules live here.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "types.h"

struct SearchLimits;

using TimePoint = std::int64_t;  // milliseconds

inline TimePoint now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

class TimeManager {
public:
    // Clock values beyond this (about 30 years) are read as this, so no sum can overflow.
    static constexpr TimePoint MAX_CLOCK = TimePoint(1) << 40;

    void init(const SearchLimits& limits, Color us, int gamePly, TimePoint overhead, TimePoint start);
    // A ponder search became a real one: our clock runs from now.
    void ponderhit() { startTime.store(now(), std::memory_order_relaxed); }

    TimePoint elapsed() const { return now() - startTime.load(std::memory_order_relaxed); }

    // `go movetime` has run out, or the clock's maximum is reached.
    bool hardLimitReached() const;
    // After a completed iteration: do not start another. The plan stretches when the best move
    // keeps changing or the score is falling, and shrinks when the move has been stable; the next
    // iteration takes about as long again as all before it, so one is not started past 60% of it.
    bool softLimitReached(int stableIterations, bool scoreFalling) const;

private:
    std::atomic<TimePoint> startTime{0};  // written by ponderhit while the search reads it
    TimePoint optimumTime = 0;            // the planned time for this move
    TimePoint maximumTime = 0;            // never longer: a share of the time left, never all of it but the overhead
    TimePoint movetime = 0;
    bool enabled = false;
};
