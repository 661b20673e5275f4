// The MPI layer of the quadbit-mpi build (cluster.h); the normal build compiles none of it.
#ifdef QUADBIT_MPI

#include "cluster.h"

#include <mpi.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "threads.h"
#include "tt.h"

namespace cluster {

namespace {

// What the root says every round. A command line longer than the text continues in the next
// round; `quit` makes the round the last.
constexpr int TEXT_BYTES = 4000;
struct Control {
    std::uint64_t stopSearch;  // the root's search of this id is over: every rank stops it
    std::int32_t batchSize;    // entries per rank in the next round's hash exchange
    std::int32_t textBytes;
    std::int32_t quit;
    char text[TEXT_BYTES];
};

// What every rank says every round.
struct Status {
    std::uint64_t searchId, nodes, tbHits;
    std::uint64_t finished;  // the last search this rank has finished; its result follows
    std::int32_t score, depth, selDepth, pvLength;
    std::int32_t lowerbound, upperbound;
    std::uint16_t pv[MAX_PV];
};

// A hash entry on the wire (16 bytes); the value is relative to the node, as the table keeps it.
struct Shared {
    Key key;
    std::int16_t value, eval;
    std::uint16_t move;
    std::uint8_t depth, bound;
};
static_assert(sizeof(Shared) == 16);

// Each search thread's deepest recent entries. The thread only try-locks it: when the
// communication thread is emptying it, the entry is simply not offered.
constexpr int MAX_THREADS = 1024, BUFFER_ENTRIES = 64;
struct SendBuffer {
    std::atomic_flag busy = ATOMIC_FLAG_INIT;
    std::atomic<int> count{0};
    Shared entries[BUFFER_ENTRIES];
};
SendBuffer buffers[MAX_THREADS];
std::atomic<int> buffersUsed{0};  // one past the highest thread index that has offered an entry

int myRank = 0, rankCount = 1;
bool running = false;
std::atomic<int> shareDepth{DEFAULT_SHARE_DEPTH};
std::atomic<int> batchSize{DEFAULT_BATCH_SIZE};
ThreadPool* pool = nullptr;
std::thread communicator, reader;

// Lines: the root's reader thread queues what it reads; every rank's communication thread
// delivers what the root broadcast.
std::mutex linesMutex;
std::condition_variable linesChanged;
std::deque<std::string> outgoing, delivered;
std::atomic<bool> closed{false};  // the round with `quit` is done: no more lines, no more rounds

// This rank's search: its progress (from its main search thread) and its last result.
std::atomic<std::uint64_t> progressId{0}, progressNodes{0}, progressTbHits{0};
std::mutex statusMutex;
std::condition_variable statusChanged;
Status ownResult{};             // `finished` and the result fields
std::vector<Status> statuses;   // every rank's last status, by rank

// Entries received from the other ranks, inserted by this rank's main search thread.
std::mutex inboxMutex;
std::vector<Shared> inbox;

[[noreturn]] void fail(const std::string& what) {
    if (myRank == 0) std::cout << "info string error: cluster: " << what << "; exiting" << std::endl;
    std::_Exit(1);
}

void check(int code, const char* call) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    fail(std::string(call) + " failed: " + std::string(text, std::size_t(length)));
}

// mpirun ends every rank with SIGTERM when one of them has died: say so rather than vanish.
void onTerminate(int) {
    static const char message[] = "info string error: cluster: the MPI runtime ended this engine (a rank failed or was killed)\n";
    if (myRank == 0) (void)!write(STDOUT_FILENO, message, sizeof message - 1);
    _exit(1);
}

bool isQuit(const std::string& line) {
    std::istringstream in(line);
    std::string command;
    return in >> command && command == "quit";
}

void readInput() {
    for (std::string line; std::getline(std::cin, line);) {
        std::lock_guard<std::mutex> lock(linesMutex);
        outgoing.push_back(line);
        if (isQuit(line)) return;
    }
    std::lock_guard<std::mutex> lock(linesMutex);
    outgoing.push_back("quit");  // the GUI has gone
}

// The root's part of a round: as many whole lines as fit, or the next piece of a long one.
void fillControl(Control& c, std::string& partial) {
    std::memset(&c, 0, sizeof c - TEXT_BYTES);
    const std::uint64_t id = pool->searchId.load();
    c.stopSearch = pool->stop.load() ? id : 0;  // id first: see ThreadPool::startThinking
    c.batchSize = batchSize.load();
    std::lock_guard<std::mutex> lock(linesMutex);
    while (c.textBytes < TEXT_BYTES && !c.quit && (!partial.empty() || !outgoing.empty())) {
        if (partial.empty()) {
            c.quit = isQuit(outgoing.front());
            partial = outgoing.front() + "\n";
            outgoing.pop_front();
        }
        const int n = std::min<int>(TEXT_BYTES - c.textBytes, int(partial.size()));
        std::memcpy(c.text + c.textBytes, partial.data(), std::size_t(n));
        c.textBytes += n;
        partial.erase(0, std::size_t(n));
        if (!partial.empty()) c.quit = 0;  // the rest of it next round
    }
}

void fillStatus(Status& s) {
    std::lock_guard<std::mutex> lock(statusMutex);
    s = ownResult;
    s.searchId = progressId.load();
    s.nodes = progressNodes.load();
    s.tbHits = progressTbHits.load();
}

void fillBatch(std::vector<Shared>& batch, int entries) {
    batch.clear();
    for (int i = 0; i < buffersUsed.load(std::memory_order_relaxed); ++i) {
        SendBuffer& b = buffers[i];
        if (!b.count.load(std::memory_order_relaxed)) continue;
        while (b.busy.test_and_set(std::memory_order_acquire)) {}
        batch.insert(batch.end(), b.entries, b.entries + b.count.load(std::memory_order_relaxed));
        b.count.store(0, std::memory_order_relaxed);
        b.busy.clear(std::memory_order_release);
    }
    const std::size_t n = std::min(batch.size(), std::size_t(entries));
    std::partial_sort(batch.begin(), batch.begin() + std::ptrdiff_t(n), batch.end(),
                      [](const Shared& a, const Shared& b) { return a.depth > b.depth; });
    batch.resize(std::size_t(entries));  // padded with empty entries (key 0)
}

constexpr std::chrono::microseconds ROUND_INTERVAL{1000};

// Every rank: one round after another until the round that carries `quit`.
void communicate() {
    Control control{};
    std::vector<Status> gathered(static_cast<std::size_t>(rankCount));
    std::vector<Shared> batch, received;
    std::string partial, arriving;
    int currentBatch = DEFAULT_BATCH_SIZE;  // the root's choice of the previous round
    for (bool last = false; !last;) {
        if (myRank == 0) fillControl(control, partial);
        Status own;
        fillStatus(own);
        fillBatch(batch, currentBatch);
        received.resize(std::size_t(currentBatch) * std::size_t(rankCount));
        MPI_Request requests[3];
        check(MPI_Ibcast(&control, sizeof control, MPI_BYTE, 0, MPI_COMM_WORLD, &requests[0]), "MPI_Ibcast");
        check(MPI_Iallgather(&own, sizeof own, MPI_BYTE, gathered.data(), sizeof own, MPI_BYTE, MPI_COMM_WORLD, &requests[1]),
              "MPI_Iallgather");
        check(MPI_Iallgather(batch.data(), currentBatch * int(sizeof(Shared)), MPI_BYTE, received.data(),
                             currentBatch * int(sizeof(Shared)), MPI_BYTE, MPI_COMM_WORLD, &requests[2]),
              "MPI_Iallgather");
        // A round a millisecond: each wake-up of this thread takes its core from a search thread
        // for a moment, so it wakes rarely (the collectives themselves take microseconds).
        std::this_thread::sleep_for(ROUND_INTERVAL);
        for (int done = 0;;) {
            check(MPI_Testall(3, requests, &done, MPI_STATUSES_IGNORE), "MPI_Testall");
            if (done) break;
            std::this_thread::sleep_for(ROUND_INTERVAL / 4);
        }

        // The root's lines, whole ones only, in order.
        arriving.append(control.text, std::size_t(control.textBytes));
        {
            std::lock_guard<std::mutex> lock(linesMutex);
            for (std::size_t nl; (nl = arriving.find('\n')) != std::string::npos; arriving.erase(0, nl + 1))
                delivered.push_back(arriving.substr(0, nl));
            last = control.quit;
            closed = last;
        }
        linesChanged.notify_all();
        if (myRank != 0 && control.stopSearch && control.stopSearch == pool->searchId.load()) pool->requestStop();
        currentBatch = std::clamp<int>(control.batchSize, 1, MAX_BATCH_SIZE);
        {
            std::lock_guard<std::mutex> lock(statusMutex);
            statuses = gathered;
        }
        statusChanged.notify_all();
        {
            std::lock_guard<std::mutex> lock(inboxMutex);
            for (int r = 0; r < rankCount; ++r)
                if (r != myRank)
                    for (std::size_t i = 0; i < received.size() / std::size_t(rankCount); ++i) {
                        const Shared& e = received[std::size_t(r) * received.size() / std::size_t(rankCount) + i];
                        if (e.key) inbox.push_back(e);
                    }
            // A rank that is not searching does not drain its inbox: keep only the newest.
            if (inbox.size() > 1u << 16) inbox.erase(inbox.begin(), inbox.end() - (1 << 16));
        }
    }
    std::lock_guard<std::mutex> lock(statusMutex);
    statusChanged.notify_all();
}

}  // namespace

bool init(int& argc, char**& argv, std::string& error) {
    int provided = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        error = "MPI_Init_thread failed";
        return false;
    }
    if (provided < MPI_THREAD_SERIALIZED) {
        error = "the MPI library cannot be called from a thread other than main (MPI_THREAD_SERIALIZED)";
        return false;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &myRank);
    MPI_Comm_size(MPI_COMM_WORLD, &rankCount);
    signal(SIGTERM, onTerminate);
    return true;
}

int rank() { return myRank; }
int size() { return rankCount; }
bool active() { return running; }

void start(ThreadPool& p) {
    pool = &p;
    statuses.assign(std::size_t(rankCount), Status{});
    running = true;
    if (myRank == 0) reader = std::thread(readInput);
    communicator = std::thread(communicate);
}

bool getline(std::string& line) {
    std::unique_lock<std::mutex> lock(linesMutex);
    linesChanged.wait(lock, [] { return !delivered.empty() || closed; });
    if (delivered.empty()) return false;
    line = delivered.front();
    delivered.pop_front();
    return true;
}

void stop() {
    if (!running) return;
    communicator.join();
    if (reader.joinable()) reader.join();  // it has read `quit`, or standard input has ended
    running = false;
}

void finalize() { MPI_Finalize(); }

void setShareDepth(int depth) { shareDepth = depth; }
void setBatchSize(int entries) { batchSize = entries; }

void share(std::size_t thread, Key key, Value value, Bound bound, int depth, Move move, Value eval) {
    if (depth < shareDepth.load(std::memory_order_relaxed) || thread >= MAX_THREADS) return;
    SendBuffer& b = buffers[thread];
    for (int used = buffersUsed.load(std::memory_order_relaxed); used <= int(thread);)
        buffersUsed.compare_exchange_weak(used, int(thread) + 1, std::memory_order_relaxed);
    if (b.busy.test_and_set(std::memory_order_acquire)) return;
    const Shared e{key, std::int16_t(value), std::int16_t(eval), std::uint16_t(move), std::uint8_t(depth), std::uint8_t(bound)};
    if (const int n = b.count.load(std::memory_order_relaxed); n < BUFFER_ENTRIES) {
        b.entries[n] = e;
        b.count.store(n + 1, std::memory_order_relaxed);
    } else {
        Shared* shallowest = std::min_element(b.entries, b.entries + BUFFER_ENTRIES,
                                              [](const Shared& x, const Shared& y) { return x.depth < y.depth; });
        if (shallowest->depth < e.depth) *shallowest = e;
    }
    b.busy.clear(std::memory_order_release);
}

void progress(std::uint64_t searchId, std::uint64_t nodes, std::uint64_t tbHits, TranspositionTable& tt) {
    progressNodes = nodes;
    progressTbHits = tbHits;
    progressId = searchId;
    std::vector<Shared> entries;
    {
        std::unique_lock<std::mutex> lock(inboxMutex, std::try_to_lock);
        if (!lock.owns_lock() || inbox.empty()) return;
        entries.swap(inbox);
    }
    for (const Shared& e : entries) {
        TTData old;
        void* slot = nullptr;
        if (tt.probe(e.key, old, slot) && old.depth >= e.depth) continue;
        tt.store(slot, e.key, Value(e.value), Bound(e.bound), e.depth, Move(e.move), Value(e.eval), false);
    }
}

std::uint64_t remoteNodes(std::uint64_t searchId) {
    std::lock_guard<std::mutex> lock(statusMutex);
    std::uint64_t total = 0;
    for (int r = 0; r < rankCount; ++r)
        if (r != myRank && statuses[std::size_t(r)].searchId == searchId) total += statuses[std::size_t(r)].nodes;
    return total;
}

std::uint64_t remoteTbHits(std::uint64_t searchId) {
    std::lock_guard<std::mutex> lock(statusMutex);
    std::uint64_t total = 0;
    for (int r = 0; r < rankCount; ++r)
        if (r != myRank && statuses[std::size_t(r)].searchId == searchId) total += statuses[std::size_t(r)].tbHits;
    return total;
}

std::vector<Result> finishSearch(std::uint64_t searchId, const Result& own) {
    std::unique_lock<std::mutex> lock(statusMutex);
    ownResult.finished = searchId;
    ownResult.score = own.score;
    ownResult.depth = own.depth;
    ownResult.selDepth = own.selDepth;
    ownResult.lowerbound = own.lowerbound;
    ownResult.upperbound = own.upperbound;
    ownResult.pvLength = std::min<int>(int(own.pv.size()), MAX_PV);
    for (int i = 0; i < ownResult.pvLength; ++i) ownResult.pv[i] = std::uint16_t(own.pv[std::size_t(i)]);
    if (myRank != 0) return {};
    // The root waits for every rank's result of this search (or for the last round, at quit).
    statusChanged.wait(lock, [&] {
        if (closed) return true;
        for (int r = 1; r < rankCount; ++r)
            if (statuses[std::size_t(r)].finished != searchId) return false;
        return true;
    });
    std::vector<Result> results{own};
    for (int r = 1; r < rankCount; ++r) {
        const Status& s = statuses[std::size_t(r)];
        if (s.finished != searchId || s.pvLength == 0) continue;
        Result res;
        res.score = Value(s.score);
        res.depth = s.depth;
        res.selDepth = s.selDepth;
        res.lowerbound = s.lowerbound;
        res.upperbound = s.upperbound;
        for (int i = 0; i < s.pvLength; ++i) res.pv.push_back(Move(s.pv[i]));
        res.move = res.pv[0];
        results.push_back(res);
    }
    return results;
}

}  // namespace cluster

#endif  // QUADBIT_MPI
