// The search thread pool. Threads are created once and sleep on a condition variable between
// searches; one atomic flag stops them all. All threads search the same root on the shared
// transposition table (Lazy SMP); only the main thread (index 0) manages time and prints.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "nnue/network.h"
#include "numa.h"
#include "search.h"
#include "timeman.h"
#include "topology.h"
#include "tt.h"

class ThreadPool;

// One thread's (or, in a cluster, one rank's) answer, for the vote that picks the move to play.
struct Candidate {
    Move move;
    Value score;
    int depth;  // of its completed iterations; 0: none, no vote
};
// The index of the winning candidate.
std::size_t vote(const std::vector<Candidate>& candidates);

class SearchThread {
public:
    // `cpus`: the processing units to bind to (one, or a NUMA node's), none to run unpinned.
    SearchThread(std::size_t index, ThreadPool& pool, std::vector<int> cpus);
    ~SearchThread();
    SearchThread(const SearchThread&) = delete;

    void startSearching();
    // Runs `job` on this thread instead of a search (clearing its slice of the hash table).
    void run(std::function<void()> job);
    void waitForSearchFinished();
    Worker& worker() { return *work; }
    bool bindFailed() const { return pinFailed; }
    // The one PU the thread is bound to; -1 when unpinned or bound to a whole node.
    int boundPu() const { return pinFailed || cpus.size() != 1 ? -1 : cpus[0]; }

private:
    void idleLoop();

    std::size_t index;
    ThreadPool& pool;
    std::vector<int> cpus;
    bool pinFailed = false;
    std::unique_ptr<Worker> work;
    std::function<void()> job;
    std::mutex mutex;
    std::condition_variable cv;
    bool searching = true;  // until the thread has set itself up
    bool exiting = false;
    std::thread thread;
};

class ThreadPool {
public:
    ~ThreadPool() { threads.clear(); }

    // Resizes the pool (threads bound by `mode` and placed on NUMA nodes by `numaPolicy`); on
    // failure returns an error and keeps the old size.
    std::string set(std::size_t count, BindMode mode);
    std::size_t size() const { return threads.size(); }
    // The PU each thread is bound to (-1: unpinned), for work that runs beside them (perft).
    std::vector<int> pus() const;
    // How the threads were placed, for `info string`.
    const std::string& placement() const { return placementSummary; }
    // Zeroes the hash table, each thread its own slice (first touch puts it near that thread).
    void clearHash();

    // Starts a search of `pos` in the background (after any search still winding down); the
    // main thread reports the best move through `callbacks` when done.
    void startThinking(const Position& pos, const SearchLimits& limits, TimePoint startTime);
    // Runs another stoppable job (perft) on the main thread as if it were a search.
    void startJob(std::function<void(const std::atomic<bool>& stop)> job);
    void waitForSearchFinished();
    bool searching() const { return busy.load(); }
    // Searching, and only `stop` or `ponderhit` can end it (go infinite, go ponder).
    // In a cluster the answer is the root's on every rank, though the other ranks search without
    // limits: the ranks then accept or refuse the same commands.
    bool searchingEndlessly() const { return busy && !stop && (ponder || untilStopped); }
    void requestStop() {
        ponder = false;  // stop during ponder ends the search too
        stop = true;
    }
    void ponderhit();
    void clear();  // forget what the threads learned (new game)
    // Over all threads, and in a cluster over all ranks (as last reported).
    std::uint64_t nodesSearched() const;
    std::uint64_t tbHits() const;
    // Over this process's threads only.
    std::uint64_t localNodes() const;
    std::uint64_t localTbHits() const;

    // Called by the main search thread.
    void mainThreadSearch();

    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> searchId{0};  // counts the searches started (the cluster's ranks match them up)
    std::atomic<bool> ponder{false};
    std::atomic<bool> stopOnPonderhit{false};
    SearchLimits limits;
    TimeManager time;
    std::size_t multiPV = 1;
    TimePoint moveOverhead = 10;
    int skillLevel = 20;                // Skill Level, or the level UCI_Elo asks for; 20 is full strength
    std::atomic<bool> analysis{false};  // UCI_AnalyseMode: report aspiration re-searches and the current move early
    std::atomic<bool> showWdl{false};   // UCI_ShowWDL; both may change while a search reports
    SearchCallbacks callbacks;
    // The network the search evaluates with (Use NNUE, EvalFile); none: the hand-written
    // evaluation. Set only while no search runs.
    const nnue::Network* network = nullptr;
    // Copies `network` onto each NUMA node the threads use, by one of that node's threads (so
    // that its pages are that node's); none with one node. Called whenever the network or the
    // threads change; returns a line for `info string` (empty when nothing was copied).
    std::string replicateNetwork();
    // The network thread `index` reads: its node's copy, or `network` itself.
    const nnue::Network* networkFor(std::size_t index) const;
    numa::Policy numaPolicy;  // NumaPolicy; takes effect at the next set()
    // Syzygy options (SyzygyProbeLimit, SyzygyProbeDepth, Syzygy50MoveRule), and what they mean
    // for the current search: the search probes positions of at most `cardinality` pieces (0: none).
    struct Tablebases {
        int cardinality = 0, probeDepth = 1;
        bool rule50 = true;
        bool rootInTB = false;  // the root moves are ranked by the tables; their tbScore is shown
    };
    int tbProbeLimit = 7, tbProbeDepth = 1;
    bool tbRule50 = true;
    Tablebases tb;
    // The pool's own table: two engines in one process (datagen's games) never share one.
    TranspositionTable tt;

private:
    Worker& bestWorker();
    // The line to play: the best thread's, or in a cluster the line the ranks vote for. Empty
    // PV on a rank other than the root, which has nothing to play.
    RootMove chooseLine();
    void rankRootMoves(const Position& pos, std::vector<RootMove>& rootMoves);

    std::vector<std::unique_ptr<SearchThread>> threads;
    std::atomic<bool> busy{false};
    bool untilStopped = false;  // the search asked for has no limit (go infinite)
    BindMode bind = BindMode::AUTO;
    std::string placementSummary;
    std::vector<int> threadNode;                               // each thread's NUMA node (all 0 with one node)
    std::vector<std::unique_ptr<nnue::Network>> nodeNetworks;  // a copy a node in use; none with one node
    const nnue::Network* copiedFrom = nullptr;                 // what they copy: never read for another
};
