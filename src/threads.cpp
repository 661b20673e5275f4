#include "threads.h"

#include <algorithm>
#include <system_error>

#include "movegen.h"
#include "rootprobe.h"
#include "syzygy.h"
#include "tt.h"

SearchThread::SearchThread(std::size_t idx, ThreadPool& p, int cpu) : index(idx), pool(p), pu(cpu) {
    thread = std::thread(&SearchThread::idleLoop, this);
    waitForSearchFinished();  // until the thread has allocated its worker
}

SearchThread::~SearchThread() {
    {
        std::lock_guard<std::mutex> lock(mutex);
        exiting = true;
        searching = true;
    }
    cv.notify_one();
    thread.join();
}

void SearchThread::startSearching() {
    {
        std::lock_guard<std::mutex> lock(mutex);
        searching = true;
    }
    cv.notify_one();
}

void SearchThread::run(std::function<void()> task) {
    {
        std::lock_guard<std::mutex> lock(mutex);
        job = std::move(task);
        searching = true;
    }
    cv.notify_one();
}

void SearchThread::waitForSearchFinished() {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return !searching; });
}

void SearchThread::idleLoop() {
    // Bind first, then allocate the worker from this thread, so that its memory is first touched
    // (and placed) next to the core that uses it.
    if (pu >= 0) pinFailed = !machineTopology().bindCurrentThread(pu);
    work = std::make_unique<Worker>(index, pool);
    work->time = &pool.time;
    while (true) {
        std::unique_lock<std::mutex> lock(mutex);
        searching = false;
        cv.notify_one();
        cv.wait(lock, [&] { return searching; });
        if (exiting) return;
        std::function<void()> task = std::move(job);
        job = nullptr;
        lock.unlock();
        if (task) task();
        else if (index == 0) pool.mainThreadSearch();
        else work->iterativeDeepening();
    }
}

std::string ThreadPool::set(std::size_t count, BindMode mode) {
    waitForSearchFinished();
    const std::size_t old = threads.size();
    const BindMode oldMode = bind;
    // Placement depends on the count, so the threads are made anew (they are cheap to start).
    threads.clear();
    Placement placement = machineTopology().place(int(count), mode);
    try {
        while (threads.size() < count)
            threads.push_back(std::make_unique<SearchThread>(threads.size(), *this, placement.pus[threads.size()]));
    } catch (const std::system_error& e) {
        std::size_t made = threads.size();
        threads.clear();
        if (count != old || mode != oldMode) set(old, oldMode);
        return "could not start " + std::to_string(count) + " threads (the system allowed " + std::to_string(made) +
               "): " + e.what();
    }
    bind = mode;
    placementSummary = placement.summary;
    for (const auto& t : threads)
        if (t->bindFailed()) {
            placementSummary = std::to_string(count) + " threads unpinned: binding to a PU failed (" + placement.summary + ")";
            break;
        }
    return "";
}

void ThreadPool::clearHash() {
    waitForSearchFinished();
    const std::size_t n = threads.size();
    for (std::size_t i = 0; i < n; ++i) threads[i]->run([this, i, n] { tt.clearSlice(i, n); });
    for (auto& t : threads) t->waitForSearchFinished();
    tt.newGame();
}

void ThreadPool::clear() {
    waitForSearchFinished();
    for (auto& t : threads) t->worker().clear();
}

std::uint64_t ThreadPool::nodesSearched() const {
    std::uint64_t total = 0;
    for (const auto& t : threads) total += t->worker().nodes.load(std::memory_order_relaxed);
    return total;
}

std::uint64_t ThreadPool::tbHits() const {
    std::uint64_t total = 0;
    for (const auto& t : threads) total += t->worker().tbHits.load(std::memory_order_relaxed);
    return total;
}

void ThreadPool::waitForSearchFinished() {
    if (!threads.empty()) threads[0]->waitForSearchFinished();
}

void ThreadPool::startThinking(const Position& pos, const SearchLimits& searchLimits, TimePoint startTime) {
    waitForSearchFinished();
    stop = false;
    ponder = searchLimits.ponder;
    stopOnPonderhit = false;
    limits = searchLimits;
    time.init(limits, pos.sideToMove(), pos.gamePly(), moveOverhead, startTime);
    tt.newSearch();

    std::vector<RootMove> rootMoves;
    for (Move m : MoveList<LEGAL>(pos))
        if (limits.searchmoves.empty() || std::count(limits.searchmoves.begin(), limits.searchmoves.end(), m))
            rootMoves.emplace_back(m);
    rankRootMoves(pos, rootMoves);

    for (auto& t : threads) {
        Worker& w = t->worker();
        w.rootPos = pos;
        w.rootMoves = rootMoves;
        w.nodes = 0;
        w.tbHits = 0;
        w.completedDepth = 0;
    }
    busy = true;
    threads[0]->startSearching();
}

// With the root in the tables, only the moves that keep its table value are searched, and the
// search probes no further when DTZ already decided (it would only see wins it cannot tell apart).
// Tables smaller than the probe limit are probed at every depth.
void ThreadPool::rankRootMoves(const Position& pos, std::vector<RootMove>& rootMoves) {
    const int largest = syzygy::maxPieces();
    tb = Tablebases{};
    tb.rule50 = tbRule50;
    tb.cardinality = std::min(tbProbeLimit, largest);
    tb.probeDepth = tbProbeLimit > largest ? 0 : tbProbeDepth;
    if (popcount(pos.pieces()) > tb.cardinality || pos.castlingRights()) return;
    Position root = pos;
    const syzygy::RootRanking ranking = syzygy::rankRootMoves(root, rootMoves, tb.rule50);
    tb.rootInTB = ranking != syzygy::RootRanking::NONE;
    if (ranking == syzygy::RootRanking::DTZ || (tb.rootInTB && rootMoves[0].tbScore <= VALUE_DRAW)) tb.cardinality = 0;
}

void ThreadPool::startJob(std::function<void(const std::atomic<bool>& stop)> job) {
    waitForSearchFinished();
    stop = false;
    ponder = false;
    limits = SearchLimits{};
    busy = true;
    threads[0]->run([this, job = std::move(job)] {
        job(stop);
        busy = false;
    });
}

void ThreadPool::ponderhit() {
    time.ponderhit();
    ponder = false;
    if (stopOnPonderhit) stop = true;
}

void ThreadPool::mainThreadSearch() {
    Worker& main = threads[0]->worker();
    if (main.rootMoves.empty()) {
        if (callbacks.onInfo) {
            SearchInfo info;
            info.score = main.rootPos.inCheck() ? matedIn(0) : VALUE_DRAW;
            callbacks.onInfo(info);
        }
    } else {
        for (std::size_t i = 1; i < threads.size(); ++i) threads[i]->startSearching();
        main.iterativeDeepening();
    }

    // In infinite or ponder mode the GUI expects bestmove only after stop or ponderhit.
    while (!stop && (ponder || limits.infinite)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    stop = true;
    for (std::size_t i = 1; i < threads.size(); ++i) threads[i]->waitForSearchFinished();

    std::string best, reply;
    if (!main.rootMoves.empty()) {
        Worker& chosen = bestWorker();
        // The GUI sees the line the move comes from, and where a stop cut an iteration short,
        // the depth and bound the score belongs to.
        if (&chosen != &main || main.interrupted || main.weakened) chosen.reportFinal();
        best = main.rootPos.moveToUci(chosen.rootMoves[0].move());
        const Move expected = chosen.ponderMove();
        if (expected) reply = main.rootPos.moveToUci(expected);
    }
    if (callbacks.onBestMove) callbacks.onBestMove(best, reply);
    busy = false;
}

// The final move is chosen by a vote over the threads' completed iterations: each thread's best
// move gets (score - lowest score + 14) * completed depth. A thread that found a mate is taken
// at once (the shortest mate first).
Worker& ThreadPool::bestWorker() {
    Worker* best = &threads[0]->worker();
    if (threads.size() == 1 || multiPV > 1 || skillLevel < 20) return *best;
    Value minScore = VALUE_INFINITE;
    for (auto& t : threads)
        if (t->worker().completedDepth > 0) minScore = std::min(minScore, t->worker().rootMoves[0].score);
    std::vector<std::pair<Move, std::int64_t>> votes;
    auto voteOf = [&](Move m) -> std::int64_t& {
        for (auto& v : votes)
            if (v.first == m) return v.second;
        votes.push_back({m, 0});
        return votes.back().second;
    };
    for (auto& t : threads) {
        Worker& w = t->worker();
        if (w.completedDepth > 0) voteOf(w.rootMoves[0].move()) += std::int64_t(w.rootMoves[0].score - minScore + 14) * w.completedDepth;
    }
    for (auto& t : threads) {
        Worker& w = t->worker();
        if (w.completedDepth == 0) continue;
        Value score = w.rootMoves[0].score, bestScore = best->rootMoves[0].score;
        if (bestScore >= VALUE_MATE_IN_MAX_PLY) {
            if (score > bestScore) best = &w;  // a shorter mate
        } else if (score >= VALUE_MATE_IN_MAX_PLY || voteOf(w.rootMoves[0].move()) > voteOf(best->rootMoves[0].move()))
            best = &w;
    }
    return *best;
}
