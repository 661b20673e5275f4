// Every constant of the search and the time manager, declared once (tunable.h): the value, the
// range SPSA may explore, and its step. A change is kept only when it passes an SPRT
// (scripts/lab games sprt; the ledger perf/sprt.csv).
#pragma once

#include "tunable.h"

namespace params {

// Iterative deepening: the first aspiration window's half width, widened by the last score over
// the divisor (a wild position's score moves more between iterations).
TUNABLE(ASPIRATION_DELTA, 15, 5, 60, 3);
TUNABLE(ASPIRATION_SCORE_DIVISOR, 64, 16, 256, 8);
// Pruning before the move loop. Razoring: up to this depth, far below alpha only captures can help.
TUNABLE(RAZOR_DEPTH, 3, 1, 6, 1);
TUNABLE(RAZOR_MARGIN, 250, 100, 500, 20);
TUNABLE(RFP_DEPTH, 8, 4, 12, 1);
TUNABLE(RFP_MARGIN, 75, 30, 150, 6);
TUNABLE(NMP_MIN_DEPTH, 3, 1, 6, 1);
TUNABLE(NMP_BASE_REDUCTION, 3, 2, 5, 1);
TUNABLE(NMP_DEPTH_DIVISOR, 3, 2, 6, 1);
TUNABLE(NMP_EVAL_DIVISOR, 200, 80, 400, 15);
TUNABLE(NMP_EVAL_REDUCTION_MAX, 3, 1, 6, 1);
TUNABLE(NMP_VERIFY_DEPTH, 12, 8, 20, 1);
// The null move's verification search keeps null moves off for the side to move for this share
// of its depth, in quarters.
constexpr int NMP_VERIFY_QUARTERS = 3;
// ProbCut: from this depth, a capture beating beta by the margin (less when improving) in a
// search PROBCUT_REDUCTION plies shallower cuts the node.
TUNABLE(PROBCUT_MIN_DEPTH, 5, 3, 8, 1);
TUNABLE(PROBCUT_REDUCTION, 4, 2, 6, 1);
TUNABLE(PROBCUT_MARGIN, 150, 60, 300, 12);
TUNABLE(PROBCUT_IMPROVING, 40, 0, 100, 6);
// Internal iterative reduction: from this depth, a node without a hash move is searched a ply
// shallower (it is probably less important, and its search finds a move to store).
TUNABLE(IIR_MIN_DEPTH, 4, 2, 8, 1);
// Singular extensions: from SE_MIN_DEPTH, with a hash entry at most SE_TT_DEPTH_SLACK plies
// shallower, the hash move is extended when every other move stays SE_MARGIN_PER_DEPTH x depth
// below its score in a search of half the depth.
TUNABLE(SE_MIN_DEPTH, 8, 4, 12, 1);
TUNABLE(SE_TT_DEPTH_SLACK, 3, 1, 6, 1);
TUNABLE(SE_MARGIN_PER_DEPTH, 2, 1, 6, 1);
// Check and singular extensions stop at this many times the iteration's depth from the root, so
// that a line of checks cannot search for ever.
constexpr int EXTENSION_PLY_FACTOR = 2;
// Pruning in the move loop, each up to a depth: captures and checks that lose material by SEE,
// quiet moves with a poor history, quiet moves far below alpha (futility), and quiet moves that
// lose material by SEE (by the depth the reductions leave, lmrDepth).
TUNABLE(SEE_CAPTURE_DEPTH, 8, 4, 12, 1);
TUNABLE(SEE_CAPTURE_MARGIN, 180, 60, 300, 12);
TUNABLE(HISTORY_PRUNING_DEPTH, 4, 2, 8, 1);
TUNABLE(HISTORY_PRUNING, 3000, 1000, 8000, 300);
TUNABLE(FUTILITY_DEPTH, 8, 4, 12, 1);
TUNABLE(FUTILITY_BASE, 120, 40, 250, 10);
TUNABLE(FUTILITY_PER_DEPTH, 90, 40, 180, 8);
TUNABLE(SEE_QUIET_DEPTH, 8, 4, 12, 1);
TUNABLE(SEE_QUIET_MARGIN, 30, 10, 80, 4);
TUNABLE(QS_FUTILITY_MARGIN, 180, 60, 300, 12);
// A hash entry's score cuts no node this close to the fifty-move rule: the draw may come first.
constexpr int TT_CUTOFF_RULE50 = 90;
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
// score falls by more than TM_FALLING_MARGIN since the last iteration, the hard limit's share of
// the clock (and with one move to the time control).
TUNABLE(TM_SOFT_PERCENT, 100, 30, 150, 6);
TUNABLE(TM_FALLING_PERCENT, 130, 100, 200, 6);
TUNABLE(TM_FALLING_MARGIN, 25, 5, 80, 5);
TUNABLE(TM_HARD_SHARE_PERCENT, 30, 15, 50, 2);
TUNABLE(TM_LAST_MOVE_SHARE_PERCENT, 70, 40, 85, 3);
// The moves the clock is shared over: TM_HORIZON_MOVES less a move for every TM_HORIZON_PLY_DIVISOR
// plies played, never fewer than TM_MIN_HORIZON (and movestogo, when it is fewer).
TUNABLE(TM_HORIZON_MOVES, 50, 20, 80, 3);
TUNABLE(TM_MIN_HORIZON, 20, 8, 40, 2);
TUNABLE(TM_HORIZON_PLY_DIVISOR, 4, 2, 8, 1);
// The hard limit is at most this many times the optimum, and the optimum at most half the hard limit.
TUNABLE(TM_MAX_OVER_OPTIMUM, 5, 2, 10, 1);
// The soft limit's factor by how many iterations in a row the best move stayed, in hundredths:
// a move that keeps changing gets more time, a settled one less.
constexpr int TM_STABILITY_PERCENT[] = {160, 125, 100, 85, 75};
// The GUI hears each root move (`currmove`) and each aspiration fail once a search has run this
// long: sooner in analysis, where a person watches.
constexpr int REPORT_AFTER_MS = 3000, ANALYSIS_REPORT_AFTER_MS = 1000;

}  // namespace params
