// Every constant of the search and the time manager, declared once (tunable.h): the value, the
// range SPSA may explore, and its step. A change is kept only when it passes an SPRT
// (scripts/lab games sprt; the ledger perf/sprt.csv).
#pragma once

#include "tunable.h"

namespace params {

// Iterative deepening: the first aspiration window's half width.
TUNABLE(ASPIRATION_DELTA, 15, 5, 60, 3);
// Pruning before the move loop.
TUNABLE(RAZOR_MARGIN, 250, 100, 500, 20);
TUNABLE(RFP_DEPTH, 8, 4, 12, 1);
TUNABLE(RFP_MARGIN, 75, 30, 150, 6);
TUNABLE(NMP_MIN_DEPTH, 3, 1, 6, 1);
TUNABLE(NMP_BASE_REDUCTION, 3, 2, 5, 1);
TUNABLE(NMP_DEPTH_DIVISOR, 3, 2, 6, 1);
TUNABLE(NMP_EVAL_DIVISOR, 200, 80, 400, 15);
TUNABLE(NMP_VERIFY_DEPTH, 12, 8, 20, 1);
TUNABLE(SE_MIN_DEPTH, 8, 4, 12, 1);
// ProbCut: from this depth, a capture beating beta by the margin (less when improving) in a
// search four plies shallower cuts the node.
TUNABLE(PROBCUT_MIN_DEPTH, 5, 3, 8, 1);
TUNABLE(PROBCUT_MARGIN, 150, 60, 300, 12);
TUNABLE(PROBCUT_IMPROVING, 40, 0, 100, 6);
// Pruning in the move loop.
TUNABLE(FUTILITY_BASE, 120, 40, 250, 10);
TUNABLE(FUTILITY_PER_DEPTH, 90, 40, 180, 8);
TUNABLE(SEE_CAPTURE_MARGIN, 180, 60, 300, 12);
TUNABLE(SEE_QUIET_MARGIN, 30, 10, 80, 4);
TUNABLE(HISTORY_PRUNING, 3000, 1000, 8000, 300);
TUNABLE(QS_FUTILITY_MARGIN, 180, 60, 300, 12);
// Late-move reductions: 0.80 + ln(depth) ln(moves) / 2.30, in hundredths; history's share.
TUNABLE(LMR_BASE, 80, 0, 200, 10);
TUNABLE(LMR_DIVISOR, 230, 150, 400, 10);
TUNABLE(LMR_HISTORY_DIVISOR, 8000, 3000, 20000, 500);
// The parent's move number past which a reply is reduced a ply less (Stockfish 11: 15).
TUNABLE(LMR_LATE_PARENT, 15, 5, 40, 2);
// History bonus: min(SCALE * depth - OFFSET, MAX).
TUNABLE(HISTORY_BONUS_SCALE, 280, 100, 500, 20);
TUNABLE(HISTORY_BONUS_OFFSET, 200, 0, 500, 25);
TUNABLE(HISTORY_BONUS_MAX, 2000, 1000, 4000, 100);
// Time management, in hundredths: the soft limit's share of the optimum, its growth when the
// score falls, the hard limit's share of the clock (and with one move to the time control).
TUNABLE(TM_SOFT_PERCENT, 100, 30, 150, 6);
TUNABLE(TM_FALLING_PERCENT, 130, 100, 200, 6);
TUNABLE(TM_HARD_SHARE_PERCENT, 30, 15, 50, 2);
TUNABLE(TM_LAST_MOVE_SHARE_PERCENT, 70, 40, 85, 3);

}  // namespace params
