#include "threads.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <system_error>

#include "cluster.h"
#include "movegen.h"
#include "syzygy/rootprobe.h"
#include "syzygy/syzygy.h"
#include "tt.h"

SearchThread::SearchThread(std::size_t idx, ThreadPool& p, std::vector<int> bindTo)
    : index(idx), pool(p), cpus(std::move(bindTo)) {
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
    if (!cpus.empty()) pinFailed = !machineTopology().bindCurrentThread(cpus);
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
    const Topology& machine = machineTopology();
    Placement placement = machine.place(int(count), mode);
    numa::assignNodes(placement, numaPolicy, numa::nodesOf(numaPolicy, machine.numaNodes(), machine.allowedPus()));
    try {
        while (threads.size() < count)
            threads.push_back(std::make_unique<SearchThread>(threads.size(), *this, placement.cpusOf(threads.size())));
    } catch (const std::system_error& e) {
        std::size_t made = threads.size();
        threads.clear();
        if (count != old || mode != oldMode) set(old, oldMode);
        return "could not start " + std::to_string(count) + " threads (the system allowed " + std::to_string(made) +
               "): " + e.what();
    }
    bind = mode;
    placementSummary = placement.summary;
    threadNode = placement.node;
    for (const auto& t : threads)
        if (t->bindFailed()) {
            placementSummary =
                std::to_string(count) + " threads unpinned: binding to a PU failed (" + placement.summary + ")";
            break;
        }
    if (std::string copied = replicateNetwork(); !copied.empty()) placementSummary += "; " + copied;
    return "";
}

std::string ThreadPool::replicateNetwork() {
    waitForSearchFinished();
    nodeNetworks.clear();
    copiedFrom = network;
    const int nodes = threadNode.empty() ? 0 : *std::max_element(threadNode.begin(), threadNode.end()) + 1;
    if (!network || nodes <= 1) return "";
    // The first thread of each node copies the network there: its pages are first touched, and
    // so placed, on that node.
    const auto start = std::chrono::steady_clock::now();
    nodeNetworks.resize(std::size_t(nodes));
    std::size_t copies = 0;
    for (int n = 0; n < nodes; ++n) {
        auto first = std::find(threadNode.begin(), threadNode.end(), n);
        if (first == threadNode.end()) continue;
        threads[std::size_t(first - threadNode.begin())]->run(
            [this, n] { nodeNetworks[std::size_t(n)] = std::make_unique<nnue::Network>(*network); });
        ++copies;
    }
    for (auto& t : threads) t->waitForSearchFinished();
    const auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
    char took[32];
    std::snprintf(took, sizeof took, "%.2f ms", double(micros) / 1000.0);
    return "the network copied onto " + std::to_string(copies) + " NUMA nodes in " + took;
}

const nnue::Network* ThreadPool::networkFor(std::size_t index) const {
    if (copiedFrom == network && index < threadNode.size() && std::size_t(threadNode[index]) < nodeNetworks.size())
        if (const nnue::Network* copy = nodeNetworks[std::size_t(threadNode[index])].get()) return copy;
    return network;
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

std::uint64_t ThreadPool::localNodes() const {
    std::uint64_t total = 0;
    for (const auto& t : threads) total += t->worker().nodes.load(std::memory_order_relaxed);
    return total;
}

std::uint64_t ThreadPool::localTbHits() const {
    std::uint64_t total = 0;
    for (const auto& t : threads) total += t->worker().tbHits.load(std::memory_order_relaxed);
    return total;
}

std::vector<int> ThreadPool::pus() const {
    std::vector<int> list;
    for (const auto& t : threads) list.push_back(t->boundPu());
    return list;
}

std::uint64_t ThreadPool::nodesSearched() const {
    return localNodes() + (cluster::active() ? cluster::remoteNodes(searchId) : 0);
}

std::uint64_t ThreadPool::tbHits() const {
    return localTbHits() + (cluster::active() ? cluster::remoteTbHits(searchId) : 0);
}

void ThreadPool::waitForSearchFinished() {
    if (!threads.empty()) threads[0]->waitForSearchFinished();
}

void ThreadPool::startThinking(const Position& pos, const SearchLimits& searchLimits, TimePoint startTime) {
    waitForSearchFinished();
    stop = false;
    ++searchId;  // after clearing stop: the cluster reads the id first, then stop (cluster.cpp)
    limits = searchLimits;
    untilStopped = limits.infinite;
    ponder = limits.ponder;
    // In a cluster the root alone keeps the clock, counts the nodes and stops at the depth asked
    // for; the other ranks search on, as helper threads do, until it stops them.
    if (cluster::active() && !cluster::isRoot()) {
        SearchLimits helper;
        helper.mate = limits.mate;
        helper.searchmoves = limits.searchmoves;
        helper.infinite = true;
        limits = helper;
    }
    stopOnPonderhit = false;
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

    const RootMove line = chooseLine();
    std::string best, reply;
    if (line.move()) {
        best = main.rootPos.moveToUci(line.move());
        const Move expected = main.ponderMove(line.pv);
        if (expected) reply = main.rootPos.moveToUci(expected);
    }
    cluster::noStandingMove();
    if (callbacks.onBestMove && cluster::isRoot()) callbacks.onBestMove(best, reply);
    busy = false;
}

RootMove ThreadPool::chooseLine() {
    Worker& main = threads[0]->worker();
    RootMove line(MOVE_NONE);
    bool report = false;
    if (!main.rootMoves.empty()) {
        Worker& chosen = bestWorker();
        line = chosen.rootMoves[0];
        // The GUI sees the line the move comes from, and where a stop cut an iteration short,
        // the depth and bound the score belongs to.
        report = &chosen != &main || main.interrupted || main.weakened;
    }
    if (cluster::active()) {
        cluster::progress(searchId, localNodes(), localTbHits(), tt);
        cluster::Result own;
        if (line.move()) {
            own.move = line.move();
            own.score = line.score;
            own.depth = line.scoreDepth;
            own.selDepth = line.selDepth;
            own.lowerbound = line.lowerbound;
            own.upperbound = line.upperbound;
            own.pv = line.pv;
        }
        const std::vector<cluster::Result> results = cluster::finishSearch(searchId, own);
        if (!cluster::isRoot()) return RootMove(MOVE_NONE);
        std::vector<Candidate> candidates;
        for (const cluster::Result& r : results) candidates.push_back({r.move, r.score, r.depth});
        const std::size_t winner = multiPV > 1 || skillLevel < 20 || !line.move() ? 0 : vote(candidates);
        if (winner) {
            const cluster::Result& r = results[winner];
            const auto same = std::find_if(main.rootMoves.begin(), main.rootMoves.end(),
                                           [&](const RootMove& rm) { return rm.move() == r.move; });
            line = RootMove(r.move);
            line.pv = r.pv;
            line.score = r.score;
            line.scoreDepth = r.depth;
            line.selDepth = r.selDepth;
            line.lowerbound = r.lowerbound;
            line.upperbound = r.upperbound;
            line.tbScore = same != main.rootMoves.end() ? same->tbScore : VALUE_NONE;
            report = true;
        }
    }
    if (report) main.reportFinal(line);
    return line;
}

// The final move is chosen by a vote over the threads' completed iterations (and in a cluster
// over the ranks' answers): each candidate's move gets (score - lowest score + 14) * depth. A
// candidate that found a mate is taken at once (the shortest mate first). Candidates of depth 0
// have no completed iteration and do not vote; the first is the default.
std::size_t vote(const std::vector<Candidate>& candidates) {
    Value minScore = VALUE_INFINITE;
    for (const Candidate& c : candidates)
        if (c.depth > 0) minScore = std::min(minScore, c.score);
    std::vector<std::pair<Move, std::int64_t>> votes;
    auto voteOf = [&](Move m) -> std::int64_t& {
        for (auto& v : votes)
            if (v.first == m) return v.second;
        votes.push_back({m, 0});
        return votes.back().second;
    };
    for (const Candidate& c : candidates)
        if (c.depth > 0) voteOf(c.move) += std::int64_t(c.score - minScore + 14) * c.depth;
    std::size_t best = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const Candidate& c = candidates[i];
        if (c.depth == 0) continue;
        const Value bestScore = candidates[best].score;
        if (bestScore >= VALUE_MATE_IN_MAX_PLY) {
            if (c.score > bestScore) best = i;  // a shorter mate
        } else if (c.score >= VALUE_MATE_IN_MAX_PLY || voteOf(c.move) > voteOf(candidates[best].move)) best = i;
    }
    return best;
}

Worker& ThreadPool::bestWorker() {
    if (threads.size() == 1 || multiPV > 1 || skillLevel < 20) return threads[0]->worker();
    std::vector<Candidate> candidates;
    for (auto& t : threads) {
        const Worker& w = t->worker();
        candidates.push_back({w.rootMoves[0].move(), w.rootMoves[0].score, w.completedDepth});
    }
    return threads[vote(candidates)]->worker();
}
