#include "threads.h"

#include <algorithm>
#include <system_error>

#include "movegen.h"
#include "tt.h"
#include "uci.h"

ThreadPool Threads;

SearchThread::SearchThread(std::size_t idx, ThreadPool& p) : index(idx), pool(p) {
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

void SearchThread::waitForSearchFinished() {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return !searching; });
}

void SearchThread::idleLoop() {
    // The worker is allocated by its own thread, so that its memory is first touched there.
    work = std::make_unique<Worker>(index, pool);
    work->time = &pool.time;
    while (true) {
        std::unique_lock<std::mutex> lock(mutex);
        searching = false;
        cv.notify_one();
        cv.wait(lock, [&] { return searching; });
        if (exiting) return;
        lock.unlock();
        if (index == 0) pool.mainThreadSearch();
        else work->iterativeDeepening();
    }
}

std::string ThreadPool::set(std::size_t count) {
    waitForSearchFinished();
    std::size_t old = threads.size();
    try {
        while (threads.size() > count) threads.pop_back();
        while (threads.size() < count) threads.push_back(std::make_unique<SearchThread>(threads.size(), *this));
    } catch (const std::system_error& e) {
        std::size_t made = threads.size();
        while (threads.size() > old) threads.pop_back();
        return "could not start " + std::to_string(count) + " threads (the system allowed " + std::to_string(made) +
               "): " + e.what();
    }
    return "";
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
    TT.newSearch();

    std::vector<RootMove> rootMoves;
    for (Move m : MoveList<LEGAL>(pos))
        if (limits.searchmoves.empty() || std::count(limits.searchmoves.begin(), limits.searchmoves.end(), m))
            rootMoves.emplace_back(m);

    for (auto& t : threads) {
        Worker& w = t->worker();
        w.rootPos = pos;
        w.rootMoves = rootMoves;
        w.nodes = 0;
        w.completedDepth = 0;
    }
    busy = true;
    threads[0]->startSearching();
}

void ThreadPool::mainThreadSearch() {
    Worker& main = threads[0]->worker();
    if (main.rootMoves.empty()) {
        uci::send(std::string("info depth 0 score ") + (main.rootPos.inCheck() ? "mate 0" : "cp 0"));
    } else {
        for (std::size_t i = 1; i < threads.size(); ++i) threads[i]->startSearching();
        main.iterativeDeepening();
    }

    // In infinite or ponder mode the GUI expects bestmove only after stop or ponderhit.
    while (!stop && (ponder || limits.infinite)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    stop = true;
    for (std::size_t i = 1; i < threads.size(); ++i) threads[i]->waitForSearchFinished();

    std::string text = "bestmove 0000";
    if (!main.rootMoves.empty()) {
        Worker& best = bestWorker();
        const RootMove& rm = best.rootMoves[0];
        text = "bestmove " + main.rootPos.moveToUci(rm.move());
        if (rm.pv.size() > 1) text += " ponder " + main.rootPos.moveToUci(rm.pv[1]);
    }
    busy = false;
    uci::send(text);
}

Worker& ThreadPool::bestWorker() { return threads[0]->worker(); }
