// Alpha-beta search: iterative deepening, aspiration windows, principal variation search,
// quiescence search, and the pruning, reduction and extension rules around them.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "eval/eval.h"
#include "movepick.h"
#include "nnue/accumulator.h"
#include "position.h"
#include "timeman.h"
#include "wdl.h"

struct SearchLimits {
    std::int64_t time[COLOR_NB] = {0, 0}, inc[COLOR_NB] = {0, 0};
    std::int64_t movetime = 0;
    int movestogo = 0, depth = 0, mate = 0;
    std::uint64_t nodes = 0;
    std::uint64_t softNodes = 0;  // stop once an iteration completes past this many nodes (datagen's)
    bool infinite = false, ponder = false;
    std::vector<Move> searchmoves;

    bool usesClock() const { return time[WHITE] || time[BLACK]; }
};

// One line of what the search has found, for the client (the UCI layer) to print as it likes.
struct SearchInfo {
    int depth = 0, selDepth = 0;
    std::size_t multiPV = 1;
    Value score = VALUE_ZERO;
    bool lowerbound = false, upperbound = false;
    bool hasWdl = false;  // UCI_ShowWDL
    wdl::Chances wdl{};
    std::uint64_t nodes = 0, nps = 0, tbHits = 0;
    int hashfull = 0;
    TimePoint time = 0;
    std::vector<std::string> pv;  // empty when there is no legal move
};

// How the search reports: the search never prints. Unset callbacks are skipped (bench).
struct SearchCallbacks {
    std::function<void(const SearchInfo&)> onInfo;
    std::function<void(int depth, const std::string& move, int number)> onCurrMove;
    // The chosen move and the expected reply, both empty when there is no legal move.
    std::function<void(const std::string& best, const std::string& ponder)> onBestMove;
};

struct RootMove {
    explicit RootMove(Move m) : pv{m} {}
    bool operator<(const RootMove& other) const {  // best first, for std::stable_sort
        return score != other.score ? score > other.score : previousScore > other.previousScore;
    }
    Move move() const { return pv[0]; }

    Value score = -VALUE_INFINITE;
    Value previousScore = -VALUE_INFINITE;
    Value averageScore = -VALUE_INFINITE;
    bool lowerbound = false, upperbound = false;
    int selDepth = 0;
    int scoreDepth = 0;  // the iteration that gave `score`
    // The move's tablebase value when the root is in the tables (rootprobe.h): a rank (higher is
    // better; moves of equal rank are left to the search) and the score shown for it.
    int tbRank = 0;
    Value tbScore = VALUE_NONE;
    std::vector<Move> pv;
};

// What each ply of the search keeps for its children and parents.
struct Stack {
    int ply;
    Move currentMove;
    Move excludedMove;
    Move killers[2];
    int moveCount;  // moves tried so far at this node: the parent's, as its child sees it
    Value staticEval;
    bool ttPv;
    PieceToHistory* continuationHistory;
};

class ThreadPool;

// One search thread's state: its own position, root moves, histories and statistics.
class Worker {
public:
    Worker(std::size_t index, ThreadPool& pool);

    void clear();               // forget all learned move-ordering statistics
    void iterativeDeepening();  // the search of one `go`, until the pool says stop
    // The line the best move comes from, with the depth and bound its score was found at: after
    // a stop in mid-iteration, or when another thread's (or rank's) move was chosen.
    void reportFinal(const RootMove& best) const;
    // The expected reply in the line `pv` from the root (MOVE_NONE if the game ends after its
    // first move), for `ponder`.
    Move ponderMove(const std::vector<Move>& pv);
    std::size_t id() const { return index; }
    bool isMain() const { return index == 0; }

    // Counters read by other threads: written only by this thread, read relaxed; on a cache line
    // of their own so that the writes do not slow down the readers' other data.
    alignas(64) std::atomic<std::uint64_t> nodes{0};
    std::atomic<std::uint64_t> tbHits{0};
    std::atomic<int> completedDepth{0};
    bool interrupted = false;  // the last search was stopped in the middle of an iteration
    bool weakened = false;     // a Skill Level chose rootMoves[0], not the search

    Position rootPos;
    std::vector<RootMove> rootMoves;
    int selDepth = 0;
    int rootDepth = 0;
    std::size_t pvIndex = 0;
    TimeManager* time = nullptr;

private:
    enum NodeType { NON_PV, PV, ROOT };

    template <NodeType nodeType>
    Value search(Position& pos, Stack* ss, Value alpha, Value beta, int depth, bool cutNode);
    template <NodeType nodeType>
    Value qsearch(Position& pos, Stack* ss, Value alpha, Value beta, int depth = 0);

    Value probCut(Position& pos, Stack* ss, Value probCutBeta, Move ttMove, int depth, bool cutNode, void* slot);
    int singularity(Position& pos, Stack* ss, Move ttMove, Value ttValue, Value beta, int depth, bool cutNode,
                    Value& multiCut);
    Value evaluatePosition(const Position& pos);
    void updateQuietStats(const Position& pos, Stack* ss, Move best, const Move* quiets, int quietCount, int bonus);
    void updateCaptureStats(const Position& pos, Move best, const Move* captures, int captureCount, int bonus);
    void updateContinuation(Stack* ss, Piece pc, Square to, int bonus);
    void updateCutoffStats(const Position& pos, Stack* ss, Move ttMove, bool failHigh, int depth);
    void checkLimits();
    void keepProvenLine(const RootMove& lastCompleted);
    void reportIteration(int depth, Value alpha, Value beta) const;
    SearchInfo infoFor(const RootMove& rm, int depth, Value v) const;
    void updatePv(int ply, Move move);
    void makeMove(Position& pos, Stack* ss, Move move, bool givesCheck);
    void unmakeMove(Position& pos, Move move);
    bool stopRequested() const;

    std::size_t index;
    ThreadPool& pool;
    EvalCache evalCache;
    nnue::AccumulatorStack accumulators;
    const nnue::Network* network = nullptr;  // the pool's, for this search
    MoveHistories histories;
    std::uint64_t callsUntilTimeCheck = 0;
    std::uint64_t nodeLimit = 0;  // this thread's, checked at every node once depth 1 is done
    int nmpMinPly = 0;            // null move verification: no null moves for nmpColor before this ply
    Color nmpColor = WHITE;
    Move pvTable[MAX_PLY + 1][MAX_PLY + 1];
    int pvLength[MAX_PLY + 1];
};

namespace search {

// Fills the reduction table; call once at startup.
void init();

// Score text for UCI: "cp N" or "mate N" (in moves, negative when being mated).
std::string scoreToUci(Value v);

// Converts between root-relative mate scores (in the search) and node-relative ones (in the
// table), and refuses stored mates the fifty-move rule would not let happen.
Value valueToTT(Value v, int ply);
Value valueFromTT(Value v, int ply, int rule50);

}  // namespace search
