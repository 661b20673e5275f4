#include "search.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "cluster.h"
#include "movegen.h"
#include "searchparams.h"
#include "skill.h"
#include "syzygy/syzygy.h"
#include "threads.h"
#include "tt.h"

namespace {

using namespace params;

// Quiescence keeps to recaptures from this depth on, and tries at most this many quiet evasions
// once one reply is known not to lose: a cascade of promotions and checks must not explode it.
constexpr int QS_RECAPTURE_DEPTH = -5, QS_QUIET_EVASIONS = 2;
constexpr int TIME_CHECK_INTERVAL = 1024;

int reductions[MAX_PLY + 1][MAX_MOVES];

int reduction(bool improving, int depth, int moveCount) {
    return reductions[std::min(depth, MAX_PLY)][std::min(moveCount, MAX_MOVES - 1)] + (!improving && depth > 4);
}

// Late-move pruning: after this many moves at a shallow depth, quiet moves are not searched.
int lateMoveThreshold(int depth, bool improving) { return (3 + depth * depth) / (2 - improving); }

// A king in a mating net (no flight square, and the enemy guards at least one of the squares
// its own pieces leave free; a castled king hemmed in only by its own pawns is not one) is where
// the static evaluation misleads most: the side that is a rook up gets mated, and the winning
// move is a quiet one that seems to lose material. So the pruning that trusts the evaluation
// stays away from it: reverse futility and the null move when the net is around the mover's
// king, razoring, futility and late-move pruning when it is around the opponent's.
// Measured (docs/results/endgames.md): allowing one flight square found 8 more of 300 mates but cost
// about 20 Elo, because it held back the pruning at a fifth of the nodes that ask.
bool boxedIn(const Position& pos, Color c) {
    const Bitboard free = kingAttacks(pos.kingSquare(c)) & ~pos.pieces(c);
    return free && !pos.kingFlightSquares(c);  // the cheap test first
}

// The opponent's last move, when it was quiet: the square it went to, else SQ_NONE. Its
// continuation history learns from this node's result.
Square priorQuietSquare(const Position& pos, const Stack* ss) {
    const Move previous = (ss - 1)->currentMove;
    return isOk(previous) && !pos.capturedPiece() ? toSq(previous) : SQ_NONE;
}

// The continuation histories a quiet move here is ordered by (CONTINUATION_PLIES).
void continuationsBefore(const Stack* ss, const PieceToHistory* continuation[CONTINUATION_NB]) {
    for (int i = 0; i < CONTINUATION_NB; ++i) continuation[i] = (ss - CONTINUATION_PLIES[i])->continuationHistory;
}

int historyBonus(int depth) { return std::min(HISTORY_BONUS_SCALE * depth - HISTORY_BONUS_OFFSET, HISTORY_BONUS_MAX); }


}  // namespace

namespace search {

void init() {
    double logs[MAX_MOVES];
    for (int i = 1; i < MAX_MOVES; ++i) logs[i] = std::log(double(i));
    for (int d = 1; d <= MAX_PLY; ++d)
        for (int m = 1; m < MAX_MOVES; ++m)
            reductions[d][m] = int(LMR_BASE / 100.0 + logs[d] * logs[m] / (LMR_DIVISOR / 100.0));
}

std::string scoreToUci(Value v) {
    if (v >= VALUE_MATE_IN_MAX_PLY) return "mate " + std::to_string((VALUE_MATE - v + 1) / 2);
    if (v <= VALUE_MATED_IN_MAX_PLY) return "mate " + std::to_string(-(VALUE_MATE + v) / 2);
    return "cp " + std::to_string(v);
}

// Mate and tablebase scores count plies from the root; the table stores them from the node.
Value valueToTT(Value v, int ply) {
    return v >= VALUE_TB_WIN_IN_MAX_PLY ? v + ply : v <= -VALUE_TB_WIN_IN_MAX_PLY ? v - ply : v;
}

Value valueFromTT(Value v, int ply, int rule50) {
    if (v == VALUE_NONE) return VALUE_NONE;
    if (v >= VALUE_MATE_IN_MAX_PLY) {
        // A mate that would land after the fifty-move rule ends the game is no mate.
        if (VALUE_MATE - v > 99 - rule50) return VALUE_MATE_IN_MAX_PLY - 1;
        return v - ply;
    }
    if (v <= VALUE_MATED_IN_MAX_PLY) {
        if (VALUE_MATE + v > 99 - rule50) return VALUE_MATED_IN_MAX_PLY + 1;
        return v + ply;
    }
    // A table win as far away: it must still come before the fifty-move rule ends the game.
    if (v >= VALUE_TB_WIN_IN_MAX_PLY) return VALUE_TB_WIN - v > 99 - rule50 ? VALUE_TB_WIN_IN_MAX_PLY - 1 : v - ply;
    if (v <= -VALUE_TB_WIN_IN_MAX_PLY) return VALUE_TB_WIN + v > 99 - rule50 ? -VALUE_TB_WIN_IN_MAX_PLY + 1 : v + ply;
    return v;
}

}  // namespace search

using namespace search;

Worker::Worker(std::size_t idx, ThreadPool& p) : index(idx), pool(p) { clear(); }

void Worker::clear() { std::memset(&histories, 0, sizeof(histories)); }

// Depth 1 always completes (it takes microseconds), so that even a search stopped at once plays
// a move it has looked at, never just the first legal one.
bool Worker::stopRequested() const { return rootDepth > 1 && pool.stop.load(std::memory_order_relaxed); }

// Limits apply once depth 1 is complete, so that every search has a move it has looked at. The
// node limit is checked at every node (one compare), so that `go nodes N` with one thread stops
// at N; the main thread also checks the total of all threads and the clock, which cost more,
// every TIME_CHECK_INTERVAL nodes.
void Worker::checkLimits() {
    if (nodeLimit && nodes.load(std::memory_order_relaxed) >= nodeLimit) pool.stop = true;
    if (!isMain() || --callsUntilTimeCheck > 0) return;
    if (cluster::active()) cluster::progress(pool.searchId, pool.localNodes(), pool.localTbHits(), pool.tt);
    if (!completedDepth.load(std::memory_order_relaxed)) return;
    callsUntilTimeCheck = TIME_CHECK_INTERVAL;
    if (pool.limits.nodes && pool.nodesSearched() >= pool.limits.nodes) pool.stop = true;
    if (!pool.ponder.load(std::memory_order_relaxed) && time->hardLimitReached()) pool.stop = true;
}

void Worker::updateContinuation(Stack* ss, Piece pc, Square to, int bonus) {
    for (int i : CONTINUATION_PLIES)
        if (isOk((ss - i)->currentMove))  // neither none nor null
            updateHistory((*(ss - i)->continuationHistory)[pc][to], bonus);
}

void Worker::updateQuietStats(const Position& pos, Stack* ss, Move best, const Move* quiets, int quietCount,
                              int bonus) {
    const Color us = pos.sideToMove();
    updateHistory(histories.butterfly[us][fromSq(best)][toSq(best)], bonus);
    updateContinuation(ss, pos.movedPiece(best), toSq(best), bonus);
    for (int i = 0; i < quietCount; ++i) {
        updateHistory(histories.butterfly[us][fromSq(quiets[i])][toSq(quiets[i])], -bonus);
        updateContinuation(ss, pos.movedPiece(quiets[i]), toSq(quiets[i]), -bonus);
    }
    if (ss->killers[0] != best) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = best;
    }
    Move previous = (ss - 1)->currentMove;
    if (isOk(previous)) histories.counterMoves[pos.pieceOn(toSq(previous))][toSq(previous)] = best;
}

// A hash cutoff is a search result too, and the ordering learns from it as from one (Stockfish
// 11): a quiet hash move that holds beta earns the bonus a searched best move would, one that
// fails low the penalty; and the opponent's quiet move that allowed the cut, one of the first
// two it tried, is marked down in its continuation history.
void Worker::updateCutoffStats(const Position& pos, Stack* ss, Move ttMove, bool failHigh, int depth) {
    if (!ttMove) return;
    const int bonus = historyBonus(depth);
    if (failHigh) {
        if (!pos.isCaptureOrPromotion(ttMove)) updateQuietStats(pos, ss, ttMove, nullptr, 0, bonus);
        const Square prior = priorQuietSquare(pos, ss);
        if (prior != SQ_NONE && (ss - 1)->moveCount <= 2)
            updateContinuation(ss - 1, pos.pieceOn(prior), prior, -historyBonus(depth + 1));
    } else if (!pos.isCaptureOrPromotion(ttMove)) {
        updateHistory(histories.butterfly[pos.sideToMove()][fromSq(ttMove)][toSq(ttMove)], -bonus);
        updateContinuation(ss, pos.movedPiece(ttMove), toSq(ttMove), -bonus);
    }
}

void Worker::updateCaptureStats(const Position& pos, Move best, const Move* captures, int captureCount, int bonus) {
    auto entry = [&](Move m) -> std::int16_t& {
        return histories.capture[pos.movedPiece(m)][toSq(m)][pos.capturedType(m)];
    };
    if (pos.isCaptureOrPromotion(best)) updateHistory(entry(best), bonus);
    for (int i = 0; i < captureCount; ++i) updateHistory(entry(captures[i]), -bonus);
}

// ---------------------------------------------------------------------------------------------

void Worker::iterativeDeepening() {
    Stack stack[MAX_PLY + 10];
    Stack* ss = stack + 7;  // room for (ss - 7) look-backs
    std::memset(stack, 0, sizeof(stack));
    for (int i = 0; i < MAX_PLY + 10; ++i) {
        stack[i].ply = i - 7;
        stack[i].staticEval = VALUE_NONE;
        stack[i].continuationHistory = &histories.continuation[NO_PIECE][0];
    }

    Position pos = rootPos;
    network = pool.networkFor(index);
    if (network) accumulators.reset(pos, *network);
    const SearchLimits& limits = pool.limits;
    // A weaker level searches several lines to choose among (only the main thread's count).
    Skill skill(isMain() ? pool.skillLevel : Skill::MAX_LEVEL, std::uint64_t(now()) ^ rootPos.key());
    const std::size_t multiPV =
        std::min(std::max(pool.multiPV, skill.enabled() ? Skill::LINES : std::size_t(1)), rootMoves.size());
    Move lastBestMove = MOVE_NONE;
    RootMove lastCompleted(MOVE_NONE);  // the best line of the last whole iteration
    int stableIterations = 0;
    Value lastBestScore = VALUE_NONE;
    callsUntilTimeCheck = TIME_CHECK_INTERVAL;
    completedDepth = 0;
    nodeLimit = 0;
    interrupted = false;
    weakened = false;
    nmpMinPly = 0;

    for (rootDepth = 1; rootDepth < MAX_PLY && !stopRequested(); ++rootDepth) {
        if (limits.depth && isMain() && rootDepth > limits.depth) break;
        for (RootMove& rm : rootMoves) rm.previousScore = rm.score;

        for (pvIndex = 0; pvIndex < multiPV && !stopRequested(); ++pvIndex) {
            selDepth = 0;
            Value prev = rootMoves[pvIndex].averageScore;
            Value delta = ASPIRATION_DELTA + std::abs(prev == -VALUE_INFINITE ? 0 : prev) / ASPIRATION_SCORE_DIVISOR;
            Value alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
            // Once a mate is found, the window's near side is the mate itself: mate distance
            // pruning then cuts every line longer than it, and the iteration looks only for a
            // shorter mate (ours, or one against us that the last one missed). Should the mate
            // not hold, the search fails on that side and widens as usual.
            const Value last = rootMoves[pvIndex].previousScore;
            if (multiPV == 1 && rootDepth >= 4 && last != -VALUE_INFINITE && isMateScore(last)) {
                if (last > 0) alpha = last - 1;
                else beta = last + 1;
            } else if (rootDepth >= 4 && prev != -VALUE_INFINITE) {
                alpha = std::max(prev - delta, -VALUE_INFINITE);
                beta = std::min(prev + delta, VALUE_INFINITE);
            }
            while (true) {
                Value value = search<ROOT>(pos, ss, alpha, beta, rootDepth, false);
                std::stable_sort(rootMoves.begin() + pvIndex, rootMoves.end());
                if (stopRequested()) break;
                if (isMain() && multiPV == 1 && (value <= alpha || value >= beta) &&
                    (pool.analysis || time->elapsed() > REPORT_AFTER_MS))
                    reportIteration(rootDepth, alpha, beta);
                if (value <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = std::max(value - delta, -VALUE_INFINITE);
                } else if (value >= beta) beta = std::min(value + delta, VALUE_INFINITE);
                else break;
                delta += delta / 2;
            }
            std::stable_sort(rootMoves.begin(), rootMoves.begin() + pvIndex + 1);
            // Interrupted iterations are not reported: their scores are unreliable.
            if (isMain() && !stopRequested() && (pvIndex + 1 == multiPV || time->elapsed() > REPORT_AFTER_MS))
                reportIteration(rootDepth, -VALUE_INFINITE, VALUE_INFINITE);
        }

        if (stopRequested()) {
            interrupted = true;
            keepProvenLine(lastCompleted);
            break;
        }
        completedDepth = rootDepth;
        lastCompleted = rootMoves[0];
        nodeLimit = limits.nodes;
        const Value bestScore = rootMoves[0].score;

        if (!isMain()) continue;
        // The root of a cluster keeps the move it would play now, for the GUI should the cluster die.
        if (cluster::active() && cluster::isRoot()) cluster::standingMove(rootPos.moveToUci(rootMoves[0].move()));

        // A soft node budget stops between iterations, so that the move and its score are a whole
        // iteration's, not the part of one that a hard budget leaves; `nodes` still caps a long one.
        if (limits.softNodes && pool.nodesSearched() >= limits.softNodes) pool.stop = true;
        if (limits.mate && bestScore >= VALUE_MATE_IN_MAX_PLY && VALUE_MATE - bestScore <= 2 * limits.mate)
            pool.stop = true;
        if (skill.enabled() && skill.timeToPick(rootDepth)) skill.pick(rootMoves, multiPV);

        stableIterations = rootMoves[0].move() == lastBestMove ? stableIterations + 1 : 0;
        lastBestMove = rootMoves[0].move();
        const bool falling = lastBestScore != VALUE_NONE && bestScore < lastBestScore - TM_FALLING_MARGIN;
        if (!pool.stop && time->softLimitReached(stableIterations, falling)) {
            if (pool.ponder) pool.stopOnPonderhit = true;
            else pool.stop = true;
        }
        lastBestScore = bestScore;
    }

    // The weaker level's choice (made now if its depth was not reached) becomes the best move.
    if (skill.enabled()) {
        const Move chosen = skill.chosen() ? skill.chosen() : skill.pick(rootMoves, multiPV);
        auto it =
            std::find_if(rootMoves.begin(), rootMoves.end(), [&](const RootMove& rm) { return rm.move() == chosen; });
        std::rotate(rootMoves.begin(), it, it + 1);
        weakened = true;
    }
}

// A mated-in (or tablebase loss) score from an iteration cut short is not proven: the root moves
// it had not reached yet may delay the mate or escape it, and the score would claim a mate shorter
// than the position's. The last whole iteration's line stands instead (Stockfish does the same:
// "Prove mated-in scores", PR #4990, 2024; extended to more threads by PR #6636, 2026).
void Worker::keepProvenLine(const RootMove& lastCompleted) {
    const RootMove& best = rootMoves[0];
    if (!lastCompleted.move() || best.scoreDepth != rootDepth || best.score == -VALUE_INFINITE ||
        best.score > -VALUE_TB_WIN_IN_MAX_PLY)
        return;
    auto it = std::find_if(rootMoves.begin(), rootMoves.end(),
                           [&](const RootMove& rm) { return rm.move() == lastCompleted.move(); });
    *it = lastCompleted;
    std::rotate(rootMoves.begin(), it, it + 1);
}

void Worker::reportIteration(int depth, Value alpha, Value beta) const {
    if (!pool.callbacks.onInfo) return;
    const std::size_t multiPV = std::min<std::size_t>(pool.multiPV, rootMoves.size());
    for (std::size_t i = 0; i < multiPV; ++i) {
        const bool updated = rootMoves[i].score != -VALUE_INFINITE;
        if (depth == 1 && !updated && i > 0) continue;
        Value v = updated ? rootMoves[i].score : rootMoves[i].previousScore;
        if (v == -VALUE_INFINITE) continue;
        // With the root in the tables, their verdict is the score, unless the search found a mate.
        const bool tableScore = pool.tb.rootInTB && !isMateScore(v);
        if (tableScore) v = rootMoves[i].tbScore;
        SearchInfo info = infoFor(rootMoves[i], updated ? depth : std::max(1, depth - 1), v);
        info.multiPV = i + 1;
        info.lowerbound = !tableScore && i == pvIndex && v >= beta;
        info.upperbound = !tableScore && i == pvIndex && v <= alpha;
        pool.callbacks.onInfo(info);
    }
}

void Worker::reportFinal(const RootMove& best) const {
    if (!pool.callbacks.onInfo || best.score == -VALUE_INFINITE) return;  // stopped before any score
    const bool tableScore = pool.tb.rootInTB && !isMateScore(best.score);
    SearchInfo info = infoFor(best, best.scoreDepth, tableScore ? best.tbScore : best.score);
    info.lowerbound = !tableScore && best.lowerbound;
    info.upperbound = !tableScore && best.upperbound;
    pool.callbacks.onInfo(info);
}

// What every info line says of the root move `rm`, searched to `depth` with the score `v`.
SearchInfo Worker::infoFor(const RootMove& rm, int depth, Value v) const {
    const TimePoint elapsed = std::max<TimePoint>(1, time->elapsed());
    SearchInfo info;
    info.depth = depth;
    info.selDepth = rm.selDepth;
    info.score = v;
    info.hasWdl = pool.showWdl;
    info.wdl = wdl::fromScore(v, rootPos.gamePly());
    info.nodes = pool.nodesSearched();
    info.nps = info.nodes * 1000 / elapsed;
    info.tbHits = pool.tbHits();
    info.hashfull = pool.tt.hashfull();
    info.time = elapsed;
    for (Move m : rm.pv) info.pv.push_back(rootPos.moveToUci(m));
    return info;
}

// The one place the search makes a move (or a null move): what the children read of it (the move
// and its continuation history), the node count, and the table's bucket for the new position,
// fetched from memory first so that the fetch overlaps making the move (a bucket of a large
// table is a miss in every cache: the child's probe waited on it).
void Worker::makeMove(Position& pos, Stack* ss, Move move, bool givesCheck) {
    pool.tt.prefetch(pos.keyAfter(move));
    ss->currentMove = move;
    ss->continuationHistory = move == MOVE_NULL ? &histories.continuation[NO_PIECE][0]
                                                : &histories.continuation[pos.movedPiece(move)][toSq(move)];
    if (move == MOVE_NULL) {
        if (network) accumulators.push();
        pos.makeNullMove();
    } else if (network) pos.makeMove(move, givesCheck, accumulators.push());
    else pos.makeMove(move, givesCheck);
    // Only this thread writes its counter (others read it): a plain increment, not a locked one.
    nodes.store(nodes.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

void Worker::unmakeMove(Position& pos, Move move) {
    if (move == MOVE_NULL) pos.unmakeNullMove();
    else pos.unmakeMove(move);
    if (network) accumulators.pop();
}

// The network's score with the seeds' knowledge on top (eval.h), or the hand-written evaluation.
Value Worker::evaluatePosition(const Position& pos) {
    if (!network) return evaluate(pos, evalCache);
    return withKnowledge(pos, evalCache, accumulators.evaluate(pos, *network));
}

// The line below `ply` becomes `move` followed by the child's line.
void Worker::updatePv(int ply, Move move) {
    pvTable[ply][ply] = move;
    for (int i = ply + 1; i < pvLength[ply + 1]; ++i) pvTable[ply][i] = pvTable[ply + 1][i];
    pvLength[ply] = std::max(pvLength[ply + 1], ply + 1);
}

// The PV's second move; when the PV is one move long (a stop, or a hash cutoff right after the
// root), the hash table's move there; failing that, the reply the static evaluation likes best.
// A GUI can then ponder after every move.
Move Worker::ponderMove(const std::vector<Move>& pv) {
    if (pv.size() > 1) return pv[1];
    Position pos = rootPos;
    pos.makeMove(pv[0]);
    const MoveList<LEGAL> replies(pos);
    TTData tte{};
    void* slot = nullptr;
    if (pool.tt.probe(pos.key(), tte, slot))
        for (Move m : replies)
            if (m == tte.move) return m;
    Move guess = MOVE_NONE;
    Value guessValue = -VALUE_INFINITE;
    for (Move m : replies) {
        pos.makeMove(m);
        // A full evaluation: the search's accumulator stack is left as it is.
        const Value v = -(network ? withKnowledge(pos, evalCache, network->evaluate(pos)) : evaluate(pos, evalCache));
        pos.unmakeMove(m);
        if (v > guessValue) {
            guessValue = v;
            guess = m;
        }
    }
    return guess;
}

// ---------------------------------------------------------------------------------------------

// ProbCut (Buro 1995; Stockfish's form): a capture that still beats beta by a clear margin in a
// search PROBCUT_REDUCTION plies shallower would almost surely beat beta in the full one. Only
// captures that win at least that margin by exchange are tried, each first by quiescence, which
// refutes most of them for a fraction of the search. The cut's value, stored as a lower bound;
// VALUE_NONE when no capture holds; VALUE_ZERO when a stop came in between.
Value Worker::probCut(Position& pos, Stack* ss, Value probCutBeta, Move ttMove, int depth, bool cutNode, void* slot) {
    MovePicker captures(pos, ttMove, probCutBeta - ss->staticEval, histories);
    for (Move move; (move = captures.next()) != MOVE_NONE;) {
        if (stopRequested()) return VALUE_ZERO;
        makeMove(pos, ss, move, pos.givesCheck(move));
        Value value = -qsearch<NON_PV>(pos, ss + 1, -probCutBeta, -probCutBeta + 1);
        if (value >= probCutBeta)
            value = -search<NON_PV>(pos, ss + 1, -probCutBeta, -probCutBeta + 1, depth - PROBCUT_REDUCTION, !cutNode);
        unmakeMove(pos, move);
        if (stopRequested()) return VALUE_ZERO;
        if (value >= probCutBeta) {
            pool.tt.store(slot, pos.key(), valueToTT(value, ss->ply), BOUND_LOWER, depth - PROBCUT_REDUCTION + 1, move,
                          ss->staticEval, ss->ttPv);
            return value;
        }
    }
    return VALUE_NONE;
}

// Singular extension (Ethereal's singularity(), Stockfish's margins): the hash move, whose stored
// score is a lower bound from nearly this depth, is searched a ply deeper when every other move,
// in a search of half the depth with the hash move left out, stays clearly below that score:
// the position has one move that holds, and a line that rests on one move deserves a closer look.
// If another move beats even beta, several moves do and the node is a cut (multi-cut: the value
// comes back in `multiCut`). If another move comes close to a hash score that beats beta, the hash
// move is not alone in holding the node, and it is searched a ply shallower. The extension: 1, 0
// or -1.
int Worker::singularity(Position& pos, Stack* ss, Move ttMove, Value ttValue, Value beta, int depth, bool cutNode,
                        Value& multiCut) {
    const Value singularBeta = ttValue - SE_MARGIN_PER_DEPTH * depth;
    ss->excludedMove = ttMove;
    const Value value = search<NON_PV>(pos, ss, singularBeta - 1, singularBeta, (depth - 1) / 2, cutNode);
    ss->excludedMove = MOVE_NONE;
    if (value < singularBeta) return 1;
    if (singularBeta >= beta) {
        multiCut = singularBeta;
        return 0;
    }
    return ttValue >= beta ? -1 : 0;
}

template <Worker::NodeType nodeType>
Value Worker::search(Position& pos, Stack* ss, Value alpha, Value beta, int depth, bool cutNode) {
    constexpr bool pvNode = nodeType != NON_PV;
    constexpr bool rootNode = nodeType == ROOT;

    if (depth <= 0) return qsearch<(pvNode ? PV : NON_PV)>(pos, ss, alpha, beta);

    const int ply = ss->ply;
    const Color us = pos.sideToMove();
    if (pvNode) {
        pvLength[ply] = ply;
        selDepth = std::max(selDepth, ply + 1);
    }
    checkLimits();

    if (!rootNode) {
        if (stopRequested() || pos.isDraw(ply) || pos.isDeadPosition()) return VALUE_DRAW;
        if (ply >= MAX_PLY - 1) return pos.inCheck() ? VALUE_DRAW : evaluatePosition(pos);
        // Mate distance pruning: no line from here can beat a mate already found nearer the root.
        alpha = std::max(matedIn(ply), alpha);
        beta = std::min(mateIn(ply + 1), beta);
        if (alpha >= beta) return alpha;
    }

    const bool inCheck = pos.inCheck();
    const Move excluded = ss->excludedMove;
    ss->moveCount = 0;
    (ss + 1)->excludedMove = MOVE_NONE;
    (ss + 2)->killers[0] = (ss + 2)->killers[1] = MOVE_NONE;

    // Transposition table. A singular-extension search (with a move excluded) neither uses
    // cutoffs from the table nor stores into it: its result is about a different move set.
    const Key key = pos.key();
    TTData tte{};
    void* slot = nullptr;
    const bool ttHit = pool.tt.probe(key, tte, slot);
    const Move ttMove = rootNode ? rootMoves[pvIndex].move() : ttHit ? tte.move : MOVE_NONE;
    const Value ttValue = ttHit ? valueFromTT(tte.value, ply, pos.rule50()) : VALUE_NONE;
    if (!excluded) ss->ttPv = pvNode || (ttHit && tte.pv);

    if (!pvNode && !excluded && ttHit && tte.depth >= depth && ttValue != VALUE_NONE &&
        (tte.bound & (ttValue >= beta ? BOUND_LOWER : BOUND_UPPER)) && pos.rule50() < TT_CUTOFF_RULE50) {
        updateCutoffStats(pos, ss, ttMove, ttValue >= beta, depth);
        return ttValue;
    }

    // Tablebases: the exact result where the tables reach, right after a capture or pawn move (the
    // tables assume a fresh fifty-move count) and with no castling right (the tables have none).
    // Wins score below every mate, nearer ones higher; with the fifty-move rule a cursed win is a
    // draw, a shade above the others.
    Value bestValue = -VALUE_INFINITE, maxValue = VALUE_INFINITE;
    if (!rootNode && !excluded && pool.tb.cardinality) {
        const int pieces = popcount(pos.pieces());
        syzygy::Wdl wdl;
        if (pieces <= pool.tb.cardinality && (pieces < pool.tb.cardinality || depth >= pool.tb.probeDepth) &&
            pos.rule50() == 0 && !pos.castlingRights() && syzygy::probeWdl(pos, wdl)) {
            tbHits.fetch_add(1, std::memory_order_relaxed);
            if (isMain()) callsUntilTimeCheck = 1;  // the first probe of a table may have read the disk
            const int drawScore = pool.tb.rule50 ? 1 : 0;
            const Value value = wdl < -drawScore  ? -VALUE_TB_WIN + ply
                                : wdl > drawScore ? VALUE_TB_WIN - ply
                                                  : VALUE_DRAW + 2 * wdl * drawScore;
            const Bound bound = wdl < -drawScore ? BOUND_UPPER : wdl > drawScore ? BOUND_LOWER : BOUND_EXACT;
            if (bound == BOUND_EXACT || (bound == BOUND_LOWER ? value >= beta : value <= alpha)) {
                pool.tt.store(slot, key, valueToTT(value, ply), bound, std::min(MAX_PLY - 1, depth + 6), MOVE_NONE,
                              VALUE_NONE, ss->ttPv);
                return value;
            }
            if (pvNode) {
                if (bound == BOUND_LOWER) alpha = std::max(alpha, bestValue = value);
                else maxValue = value;
            }
        }
    }

    // Static evaluation, improved by the table's bound where it applies.
    Value eval;
    bool improving = false;
    if (inCheck) {
        ss->staticEval = eval = VALUE_NONE;
    } else {
        if (excluded) eval = ss->staticEval;
        else if (ttHit) {
            eval = ss->staticEval = tte.eval != VALUE_NONE ? tte.eval : evaluatePosition(pos);
            if (ttValue != VALUE_NONE && (tte.bound & (ttValue > eval ? BOUND_LOWER : BOUND_UPPER))) eval = ttValue;
        } else {
            eval = ss->staticEval = evaluatePosition(pos);
            pool.tt.store(slot, key, VALUE_NONE, BOUND_NONE, TranspositionTable::DEPTH_OFFSET + 1, MOVE_NONE, eval,
                          ss->ttPv);
        }
        Value before = (ss - 2)->staticEval != VALUE_NONE ? (ss - 2)->staticEval : (ss - 4)->staticEval;
        improving = before == VALUE_NONE || ss->staticEval > before;
    }

    // Whether a king is in a mating net, worked out once per node when pruning first asks.
    int kingBoxed[COLOR_NB] = {-1, -1};
    auto isBoxedIn = [&](Color c) {
        if (kingBoxed[c] < 0) kingBoxed[c] = boxedIn(pos, c);
        return kingBoxed[c] == 1;
    };

    if (!pvNode && !inCheck && !excluded) {
        // Razoring: far below alpha, only captures can help.
        if (depth <= RAZOR_DEPTH && eval + RAZOR_MARGIN * depth < alpha && !isBoxedIn(~us)) {
            Value v = qsearch<NON_PV>(pos, ss, alpha - 1, alpha);
            if (v < alpha) return v;
        }
        // Reverse futility: far above beta at low depth, assume it holds; but not against a mate
        // bound, which only a search can settle.
        if (depth <= RFP_DEPTH && eval - RFP_MARGIN * (depth - improving) >= beta && eval < VALUE_KNOWN_WIN &&
            !isMateScore(beta) && !isBoxedIn(us))
            return eval;
        // Null move: if passing still fails high, a real move will too. Never with only king and
        // pawns (zugzwang), and verified at high depth.
        if (depth >= NMP_MIN_DEPTH && eval >= beta && ss->staticEval >= beta && (ss - 1)->currentMove != MOVE_NULL &&
            pos.hasNonPawnMaterial(us) && beta > VALUE_MATED_IN_MAX_PLY && (ply >= nmpMinPly || us != nmpColor) &&
            !isBoxedIn(us)) {
            int R = NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR +
                    std::min<int>((eval - beta) / NMP_EVAL_DIVISOR, NMP_EVAL_REDUCTION_MAX);
            makeMove(pos, ss, MOVE_NULL, false);
            Value nullValue = -search<NON_PV>(pos, ss + 1, -beta, -beta + 1, depth - R, !cutNode);
            unmakeMove(pos, MOVE_NULL);
            if (nullValue >= beta && !stopRequested()) {
                if (nullValue >= VALUE_TB_WIN_IN_MAX_PLY) nullValue = beta;  // no unproven mate or table win
                if (nmpMinPly || depth < NMP_VERIFY_DEPTH) return nullValue;
                nmpMinPly = ply + NMP_VERIFY_QUARTERS * (depth - R) / 4;
                nmpColor = us;
                Value v = search<NON_PV>(pos, ss, beta - 1, beta, depth - R, false);
                nmpMinPly = 0;
                if (v >= beta) return nullValue;
            }
        }
        // ProbCut (probCut below), unless the table already says a search this deep stays under
        // its margin.
        if (depth >= PROBCUT_MIN_DEPTH && std::abs(beta) < VALUE_TB_WIN_IN_MAX_PLY) {
            const Value probCutBeta = beta + PROBCUT_MARGIN - PROBCUT_IMPROVING * improving;
            if (!(ttHit && tte.depth >= depth - PROBCUT_REDUCTION + 1 && ttValue != VALUE_NONE &&
                  ttValue < probCutBeta))
                if (const Value cut = probCut(pos, ss, probCutBeta, ttMove, depth, cutNode, slot); cut != VALUE_NONE)
                    return cut;
        }
    }

    // Internal iterative reduction: without a hash move this node is probably less important.
    if (!rootNode && !ttMove && depth >= IIR_MIN_DEPTH && (pvNode || cutNode)) --depth;

    const PieceToHistory* continuation[CONTINUATION_NB];
    continuationsBefore(ss, continuation);
    Move previous = (ss - 1)->currentMove;
    Move counterMove = isOk(previous) ? histories.counterMoves[pos.pieceOn(toSq(previous))][toSq(previous)] : MOVE_NONE;
    MovePicker picker(pos, ttMove, histories, continuation, ss->killers, counterMove);

    const bool ttCapture = ttMove && pos.isCaptureOrPromotion(ttMove);
    Move bestMove = MOVE_NONE;
    // The moves tried that did not cut, whose histories the node's result lowers: the first ones,
    // where nearly all the cuts are.
    constexpr int QUIETS_REMEMBERED = 64, CAPTURES_REMEMBERED = 32;
    Move quiets[QUIETS_REMEMBERED], captures[CAPTURES_REMEMBERED];
    int quietCount = 0, captureCount = 0, moveCount = 0;

    for (Move move; (move = picker.next()) != MOVE_NONE;) {
        if (move == excluded) continue;
        if (rootNode && std::find_if(rootMoves.begin() + pvIndex, rootMoves.end(),
                                     [&](const RootMove& rm) { return rm.move() == move; }) == rootMoves.end())
            continue;

        ++moveCount;
        if (rootNode && isMain() && pool.callbacks.onCurrMove &&
            time->elapsed() > (pool.analysis ? ANALYSIS_REPORT_AFTER_MS : REPORT_AFTER_MS))
            pool.callbacks.onCurrMove(depth, pos.moveToUci(move), moveCount + int(pvIndex));

        const bool capture = pos.isCaptureOrPromotion(move);
        const bool givesCheck = pos.givesCheck(move);
        const Piece moved = pos.movedPiece(move);
        int newDepth = depth - 1;
        const int history =
            capture ? 0 : histories.butterfly[us][fromSq(move)][toSq(move)] + (*continuation[0])[moved][toSq(move)];

        // Shallow-depth pruning, once a line that avoids being mated is known.
        if (!rootNode && pos.hasNonPawnMaterial(us) && bestValue > VALUE_MATED_IN_MAX_PLY) {
            // Late-move pruning skips quiet moves, but not quiet checks: mating attacks are
            // often long series of them, and a shallow search would not see past the first.
            if (!inCheck && !capture && !givesCheck && moveCount >= lateMoveThreshold(depth, improving) &&
                !isBoxedIn(~us))
                continue;
            int lmrDepth = std::max(newDepth - reduction(improving, depth, moveCount), 0);
            if (capture || givesCheck) {
                if (depth <= SEE_CAPTURE_DEPTH && !pos.seeGe(move, -SEE_CAPTURE_MARGIN * depth)) continue;
            } else {
                if (lmrDepth < HISTORY_PRUNING_DEPTH && history < -HISTORY_PRUNING * depth) continue;
                if (!inCheck && lmrDepth < FUTILITY_DEPTH &&
                    ss->staticEval + FUTILITY_BASE + FUTILITY_PER_DEPTH * lmrDepth <= alpha && !isBoxedIn(~us))
                    continue;
                if (lmrDepth < SEE_QUIET_DEPTH && !pos.seeGe(move, -SEE_QUIET_MARGIN * lmrDepth * lmrDepth)) continue;
            }
        }

        // Extensions: singular (the hash move is much better than every other: singularity below),
        // and checks.
        int extension = 0;
        if (!rootNode && depth >= SE_MIN_DEPTH && move == ttMove && !excluded && std::abs(ttValue) < VALUE_KNOWN_WIN &&
            (tte.bound & BOUND_LOWER) && tte.depth >= depth - SE_TT_DEPTH_SLACK &&
            ply < EXTENSION_PLY_FACTOR * rootDepth) {
            Value multiCut = VALUE_NONE;
            extension = singularity(pos, ss, move, ttValue, beta, depth, cutNode, multiCut);
            if (multiCut != VALUE_NONE) return multiCut;
        } else if (givesCheck && ply < EXTENSION_PLY_FACTOR * rootDepth) extension = 1;
        newDepth += extension;

        // A stop raised inside the null-move or singular search above: no further move is made,
        // so that `go nodes N` with one thread searches exactly N nodes.
        if (stopRequested()) return VALUE_ZERO;
        ss->moveCount = moveCount;  // after the singular search, which used this ply's entry too
        makeMove(pos, ss, move, givesCheck);

        Value value = -VALUE_INFINITE;
        // Late move reductions: later moves are searched shallower with a null window first.
        if (depth >= 2 && moveCount > 1 + rootNode && (!capture || !ss->ttPv)) {
            int r = reduction(improving, depth, moveCount);
            r -= ss->ttPv;
            r += cutNode;
            r -= givesCheck;
            r -= history / LMR_HISTORY_DIVISOR;
            // Stockfish 11: the opponent's move came late in its list, so this node is probably
            // not the refutation it expected; and a captured hash move makes a quiet one unlikely.
            r -= (ss - 1)->moveCount > LMR_LATE_PARENT;
            if (!capture && ttCapture) ++r;
            if (capture) r = std::max(r - 1, 0);
            int d = std::clamp(newDepth - r, 1, newDepth + 1);
            value = -search<NON_PV>(pos, ss + 1, -(alpha + 1), -alpha, d, true);
            if (value > alpha && d < newDepth)
                value = -search<NON_PV>(pos, ss + 1, -(alpha + 1), -alpha, newDepth, !cutNode);
        } else if (!pvNode || moveCount > 1)
            value = -search<NON_PV>(pos, ss + 1, -(alpha + 1), -alpha, newDepth, !cutNode);
        if (pvNode && (moveCount == 1 || (value > alpha && (rootNode || value < beta))))
            value = -search<PV>(pos, ss + 1, -beta, -alpha, newDepth, false);

        unmakeMove(pos, move);
        if (stopRequested()) return VALUE_ZERO;

        if (rootNode) {
            RootMove& rm =
                *std::find_if(rootMoves.begin(), rootMoves.end(), [&](const RootMove& r) { return r.move() == move; });
            if (moveCount == 1 || value > alpha) {
                rm.score = value;
                rm.averageScore = rm.averageScore == -VALUE_INFINITE ? value : (2 * value + rm.averageScore) / 3;
                rm.selDepth = selDepth;
                rm.scoreDepth = rootDepth;
                rm.lowerbound = value >= beta;
                rm.upperbound = value <= alpha;
                rm.pv.assign(1, move);
                for (int i = 1; i < pvLength[1]; ++i) rm.pv.push_back(pvTable[1][i]);
            } else rm.score = -VALUE_INFINITE;  // only the best move gets an exact score
        }

        if (value > bestValue) {
            bestValue = value;
            if (value > alpha) {
                bestMove = move;
                if (pvNode && !rootNode) updatePv(ply, move);
                if (value >= beta) break;
                alpha = value;
            }
        }
        if (move != bestMove) {
            if (capture && captureCount < CAPTURES_REMEMBERED) captures[captureCount++] = move;
            else if (!capture && quietCount < QUIETS_REMEMBERED) quiets[quietCount++] = move;
        }
    }

    if (!moveCount) return excluded ? alpha : inCheck ? matedIn(ply) : VALUE_DRAW;

    // The opponent's quiet move that led here is judged by this node's result: refuted, it was a
    // poor first or killer choice; failing low here, it was a good reply (Stockfish 11).
    const Square prior = priorQuietSquare(pos, ss);
    if (bestMove) {
        int bonus = historyBonus(depth);
        if (!pos.isCaptureOrPromotion(bestMove)) updateQuietStats(pos, ss, bestMove, quiets, quietCount, bonus);
        updateCaptureStats(pos, bestMove, captures, captureCount, bonus);
        if (prior != SQ_NONE && ((ss - 1)->moveCount == 1 || (ss - 1)->currentMove == (ss - 1)->killers[0]))
            updateContinuation(ss - 1, pos.pieceOn(prior), prior, -bonus);
    } else if (prior != SQ_NONE && (depth >= 3 || pvNode))
        updateContinuation(ss - 1, pos.pieceOn(prior), prior, historyBonus(depth));

    if (pvNode) bestValue = std::min(bestValue, maxValue);  // no better than the table says
    if (!excluded && !(rootNode && pvIndex)) {
        const Bound bound = bestValue >= beta ? BOUND_LOWER : pvNode && bestMove ? BOUND_EXACT : BOUND_UPPER;
        pool.tt.store(slot, key, valueToTT(bestValue, ply), bound, depth, bestMove, ss->staticEval, ss->ttPv);
        // In a cluster the deep entries go to the other ranks too.
        if (cluster::active())
            cluster::share(index, key, valueToTT(bestValue, ply), bound, depth, bestMove, ss->staticEval);
    }
    return bestValue;
}

template <Worker::NodeType nodeType>
Value Worker::qsearch(Position& pos, Stack* ss, Value alpha, Value beta, int depth) {
    constexpr bool pvNode = nodeType == PV;
    const int ply = ss->ply;
    if (pvNode) {
        pvLength[ply] = ply;
        selDepth = std::max(selDepth, ply + 1);
    }
    checkLimits();
    if (stopRequested() || pos.isDraw(ply) || pos.isDeadPosition()) return VALUE_DRAW;

    const bool inCheck = pos.inCheck();
    if (ply >= MAX_PLY - 1) return inCheck ? VALUE_DRAW : evaluatePosition(pos);

    const Key key = pos.key();
    TTData tte{};
    void* slot = nullptr;
    const bool ttHit = pool.tt.probe(key, tte, slot);
    const Value ttValue = ttHit ? valueFromTT(tte.value, ply, pos.rule50()) : VALUE_NONE;
    const bool ttPv = ttHit && tte.pv;
    // The first ply of quiescence also tries quiet checks; deeper plies only captures.
    const int ttDepth = depth >= 0 ? 0 : -1;
    if (!pvNode && ttHit && tte.depth >= ttDepth && ttValue != VALUE_NONE &&
        (tte.bound & (ttValue >= beta ? BOUND_LOWER : BOUND_UPPER)))
        return ttValue;

    Value bestValue, futilityBase;
    if (inCheck) {
        ss->staticEval = VALUE_NONE;
        bestValue = futilityBase = -VALUE_INFINITE;
    } else {
        ss->staticEval = bestValue = ttHit && tte.eval != VALUE_NONE ? tte.eval : evaluatePosition(pos);
        if (ttValue != VALUE_NONE && (tte.bound & (ttValue > bestValue ? BOUND_LOWER : BOUND_UPPER)))
            bestValue = ttValue;
        // Stand pat: the side to move need not capture.
        if (bestValue >= beta) {
            if (!ttHit)
                pool.tt.store(slot, key, valueToTT(bestValue, ply), BOUND_LOWER, TranspositionTable::DEPTH_OFFSET + 1,
                              MOVE_NONE, ss->staticEval, false);
            return bestValue;
        }
        alpha = std::max(alpha, bestValue);
        futilityBase = bestValue + QS_FUTILITY_MARGIN;
    }

    const PieceToHistory* continuation[CONTINUATION_NB];
    continuationsBefore(ss, continuation);
    MovePicker picker(pos, ttHit ? tte.move : MOVE_NONE, histories, continuation, depth >= 0);
    Move bestMove = MOVE_NONE;
    const Square recaptureSquare = isOk((ss - 1)->currentMove) ? toSq((ss - 1)->currentMove) : SQ_NONE;
    int quietEvasions = 0;

    for (Move move; (move = picker.next()) != MOVE_NONE;) {
        if (!inCheck && depth <= QS_RECAPTURE_DEPTH && toSq(move) != recaptureSquare) continue;
        if (inCheck && !pos.isCaptureOrPromotion(move) && bestValue > VALUE_MATED_IN_MAX_PLY &&
            quietEvasions++ >= QS_QUIET_EVASIONS)
            break;
        const bool givesCheck = pos.givesCheck(move);
        if (!inCheck && bestValue > VALUE_MATED_IN_MAX_PLY) {
            // Futility: even winning the victim for free would not reach alpha.
            if (!givesCheck && typeOf(move) != PROMOTION) {
                PieceType victim = pos.capturedType(move);
                Value optimistic = futilityBase + SIMPLE_VALUE[victim];
                if (optimistic <= alpha) {
                    bestValue = std::max(bestValue, optimistic);
                    continue;
                }
            }
            if (!pos.seeGe(move, 0)) continue;
        }

        makeMove(pos, ss, move, givesCheck);
        Value value = -qsearch<nodeType>(pos, ss + 1, -beta, -alpha, depth - 1);
        unmakeMove(pos, move);
        if (stopRequested()) return VALUE_ZERO;

        if (value > bestValue) {
            bestValue = value;
            if (value > alpha) {
                bestMove = move;
                if (pvNode) updatePv(ply, move);
                if (value >= beta) break;
                alpha = value;
            }
        }
    }

    // In check every evasion was tried: none means mate.
    if (inCheck && bestValue == -VALUE_INFINITE) return matedIn(ply);

    pool.tt.store(slot, key, valueToTT(bestValue, ply), bestValue >= beta ? BOUND_LOWER : BOUND_UPPER, ttDepth,
                  bestMove, ss->staticEval, ttPv);
    return bestValue;
}
