#include "timeman.h"

#include <algorithm>
#include <iterator>

#include "search.h"
#include "searchparams.h"

using namespace params;

void TimeManager::init(const SearchLimits& limits, Color us, int gamePly, TimePoint overhead, TimePoint start) {
    startTime = start;
    movetime = limits.movetime;
    enabled = limits.usesClock() && !limits.movetime;
    if (!enabled) return;

    const TimePoint left = std::clamp<TimePoint>(limits.time[us], 1, MAX_CLOCK);
    const TimePoint inc = std::clamp<TimePoint>(limits.inc[us], 0, MAX_CLOCK);
    // Assume the game lasts a while yet: fewer expected moves late in the game.
    const int horizon = limits.movestogo
                            ? std::min<int>(limits.movestogo, TM_HORIZON_MOVES)
                            : std::max<int>(TM_MIN_HORIZON, TM_HORIZON_MOVES - gamePly / TM_HORIZON_PLY_DIVISOR);
    // What may be spent at all on this move, and what the remaining moves may spend together,
    // keeping the overhead back for each of them.
    const TimePoint available = std::max<TimePoint>(1, left - overhead);
    const TimePoint budget = std::max<TimePoint>(1, left + inc * (horizon - 1) - overhead * (2 + horizon));

    // The hard limit is a share of the clock, so that lag or a slow stop never flags: when the
    // clock is refilled after this move (movestogo 1) most of it may go, otherwise less than a
    // third, however large the increment.
    const double share = (limits.movestogo == 1 ? TM_LAST_MOVE_SHARE_PERCENT : TM_HARD_SHARE_PERCENT) / 100.0;
    maximumTime = std::max<TimePoint>(1, TimePoint(double(available) * share));
    optimumTime = std::clamp<TimePoint>(budget / horizon, 1, std::max<TimePoint>(1, maximumTime / 2));
    maximumTime = std::min<TimePoint>(maximumTime, optimumTime * TM_MAX_OVER_OPTIMUM);
}

bool TimeManager::hardLimitReached() const {
    const TimePoint spent = elapsed();
    return (movetime && spent >= movetime) || (enabled && spent >= maximumTime);
}

bool TimeManager::softLimitReached(int stableIterations, bool scoreFalling) const {
    if (!enabled) return false;
    constexpr int settled = int(std::size(TM_STABILITY_PERCENT)) - 1;
    double factor = TM_STABILITY_PERCENT[std::min(stableIterations, settled)] / 100.0 *
                    (scoreFalling ? TM_FALLING_PERCENT / 100.0 : 1.0);
    return double(elapsed()) > double(optimumTime) * factor * TM_SOFT_PERCENT / 100.0;
}
