#include "wdl.h"

#include <algorithm>
#include <cmath>

namespace wdl {

namespace {

// win(v) = 1 / (1 + exp((a - v) / b)), a = A[0] + A[1] m, b = B[0] + B[1] m, m = min(ply, 240) / 64:
// a is the score at which a win is as likely as not, b how fast the chance grows with the score.
// Fitted by `scripts/lab pgn fit-wdl` to Quadbit's self-play games (docs/results/endgames.md, "WDL model").
constexpr double A[2] = {41.76, 68.36}, B[2] = {81.27, -5.25};

int winPerMille(double v, double m) {
    const double a = A[0] + A[1] * m, b = std::max(1.0, B[0] + B[1] * m);
    return int(std::lround(1000.0 / (1.0 + std::exp((a - v) / b))));
}

}  // namespace

Chances fromScore(Value v, int ply) {
    if (v >= VALUE_MATE_IN_MAX_PLY) return {1000, 0, 0};
    if (v <= VALUE_MATED_IN_MAX_PLY) return {0, 0, 1000};
    const double m = std::min(ply, 240) / 64.0;
    const int win = winPerMille(v, m), loss = winPerMille(-v, m);
    return {win, 1000 - win - loss, loss};
}

}  // namespace wdl
