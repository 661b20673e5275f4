#include "timeman.h"

#include <algorithm>

#include "search.h"

void TimeManager::init(const SearchLimits& limits, Color us, int gamePly, TimePoint overhead, TimePoint start) {
    startTime = start;
    enabled = limits.usesClock() && !limits.movetime;
    if (!enabled) return;

    const TimePoint left = limits.time[us], inc = limits.inc[us];
    // Assume the game lasts a while yet: fewer expected moves late in the game.
    const int horizon = limits.movestogo ? std::min(limits.movestogo, 50) : std::max(20, 50 - gamePly / 4);
    // What we may spend without flagging, keeping the overhead back for every remaining move.
    const TimePoint usable = std::max<TimePoint>(1, left + inc * (horizon - 1) - overhead * (2 + horizon));
    const TimePoint hardCap = std::max<TimePoint>(1, left - overhead);

    optimumTime = std::min<TimePoint>(usable / horizon, hardCap);
    // Allow overrunning the plan when the search is unstable, but never by so much that the
    // remaining moves starve: at most a fifth of the clock (most of it before the last move).
    TimePoint stretch = limits.movestogo == 1 ? hardCap * 9 / 10 : std::min<TimePoint>(hardCap / 5 + inc, hardCap * 8 / 10);
    maximumTime = std::max(optimumTime, std::min(optimumTime * 5, stretch));
    optimumTime = std::max<TimePoint>(1, std::min(optimumTime, maximumTime));
}
