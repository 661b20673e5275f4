// The MPI layer of the quadbit-mpi build (cluster.h); the normal build compiles none of it.
#ifdef QUADBIT_MPI

#include "cluster.h"

#include <mpi.h>
#include <signal.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <fstream>
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
    std::int32_t pause;        // microseconds before the next round (the root's choice, see pace())
    std::int32_t textBytes;
    std::int32_t quit;
    char text[TEXT_BYTES];
};

// What every rank says every round.
struct Status {
    std::uint64_t searchId, nodes, tbHits;
    std::uint64_t finished;     // the last search this rank has finished; its result follows
    std::uint64_t tablesAsked;  // the hash tables this rank has asked for (nodeTable)
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
// The ranks of this machine (MPI_COMM_TYPE_SHARED: they can share memory) and, by rank, the
// machine each is on, named by the lowest rank there.
MPI_Comm machineComm = MPI_COMM_NULL;
int machineRank = 0, machineSize = 1, machineCount = 1;
std::vector<int> machineOf;
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
Status ownResult{};            // `finished` and the result fields
std::vector<Status> statuses;  // every rank's last status, by rank

// Entries received from the other ranks, inserted by this rank's main search thread.
std::mutex inboxMutex;
std::vector<Shared> inbox;

// The machine's table: asked for by each rank's main thread (nodeTable), made by the machine's
// communication threads together. All but the communication thread read it under tableMutex.
std::atomic<bool> nodeHash{true};
std::mutex tableMutex;
std::condition_variable tableReady;
std::atomic<std::uint64_t> tablesAsked{0};
std::uint64_t tablesMade = 0;
std::size_t tableBytes = 0;
void* tableBase = nullptr;
std::string tableNote, tableError;
MPI_Win window = MPI_WIN_NULL;        // the shared table's memory, MPI_WIN_NULL when each rank has its own
std::atomic<bool> sendEntries{true};  // some other rank has a table of its own

// The move the root would play now, as a whole `bestmove` line, while a search the GUI started
// waits for one: if the cluster dies mid-search, the GUI still gets a move. Two slots, the one
// being written never the one published, so that a signal handler reads a whole line.
struct StandingLine {
    char text[64];
    std::size_t length;
};
StandingLine standing[2];
std::atomic<int> standingSlot{-1};  // -1: no search waits for a bestmove

void sayStandingMove() {
    const int slot = standingSlot.exchange(-1);
    if (slot >= 0) (void)!write(STDOUT_FILENO, standing[slot].text, standing[slot].length);
}

// mpirun, when it started the root: once a host is lost it waits for that host's daemon for
// ever, and a GUI would wait on it in turn. The root ends it after its last words.
pid_t launcher = 0;

void findLauncher() {
    std::ifstream comm("/proc/" + std::to_string(getppid()) + "/comm");
    std::string name;
    if (comm >> name && (name == "mpirun" || name == "mpiexec" || name == "orterun" || name == "prterun"))
        launcher = getppid();
}

// The root's last words: the error, the move of the search under way, and the end of mpirun,
// once it has had the time to pass the words on (the root's output reaches the GUI through it).
// Where mpirun itself is ending the job (SIGTERM), it ends this rank within that time and passes
// the words on as it exits; where it waits for a lost host's daemon, it would wait for ever.
// Async-signal-safe: it runs in a signal handler too.
void lastWords(const char* message, std::size_t length) {
    (void)!write(STDOUT_FILENO, message, length);
    sayStandingMove();
    if (launcher && getppid() == launcher) {
        const timespec forwarding{2, 0};
        nanosleep(&forwarding, nullptr);
        kill(launcher, SIGKILL);
    }
}

[[noreturn]] void fail(const std::string& what) {
    if (myRank == 0) {
        const std::string line = "info string error: cluster: " + what + "; exiting\n";
        std::cout.flush();
        lastWords(line.data(), line.size());
    }
    std::_Exit(1);
}

void check(int code, const char* call) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    fail(std::string(call) + " failed: " + std::string(text, std::size_t(length)));
}

// mpirun ends every rank with SIGTERM when one of them has died or its host is lost: say so
// rather than vanish.
void onTerminate(int) {
    static const char message[] =
        "info string error: cluster: the MPI runtime ended this engine (a rank failed, was killed or lost its "
        "host)\n";
    if (myRank == 0) lastWords(message, sizeof message - 1);
    _exit(1);
}

// The doorbell of this machine, in shared memory. The communication threads of its ranks sleep
// on `ring` between rounds (a futex across processes); ringing wakes them all at once, so that a
// command, a stop or a result goes round in microseconds while the rounds are otherwise rare.
// `stopped` is the root's last search that is over: the machine's ranks stop it at once, without
// waiting for their communication thread to be given a core. A rank alone on its machine, or one
// that could not map the window, has a doorbell of its own.
struct Doorbell {
    std::atomic<std::uint32_t> ring{0};
    std::atomic<std::uint64_t> stopped{0};
};
static_assert(sizeof(Doorbell) <= 64);
Doorbell ownDoorbell;
Doorbell* doorbell = &ownDoorbell;
MPI_Win doorbellWindow = MPI_WIN_NULL;

void ring() {
    doorbell->ring.fetch_add(1);
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&doorbell->ring), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

// Sleeps for `pause` unless the bell has rung since this thread last heard it.
void pauseFor(std::chrono::microseconds pause, std::uint32_t& heard) {
    const timespec timeout{0, long(pause.count()) * 1000};
    if (doorbell->ring.load() == heard)
        syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&doorbell->ring), FUTEX_WAIT, heard, &timeout, nullptr, 0);
    heard = doorbell->ring.load();
}

bool isQuit(const std::string& line) {
    std::istringstream in(line);
    std::string command;
    return in >> command && command == "quit";
}

void readInput() {
    for (std::string line; std::getline(std::cin, line);) {
        bool quit = isQuit(line);
        {
            std::lock_guard<std::mutex> lock(linesMutex);
            outgoing.push_back(line);
        }
        ring();
        if (quit) return;
    }
    {
        std::lock_guard<std::mutex> lock(linesMutex);
        outgoing.push_back("quit");  // the GUI has gone
    }
    ring();
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
    s.tablesAsked = tablesAsked.load();
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

constexpr const char* OWN_TABLES = "each rank has a hash table of its own (ClusterNodeHash is off)";

std::string megabytes(std::size_t bytes) { return std::to_string(bytes >> 20) + " MB"; }

// Maps every page of a shared table into this process now. Each process has its own page table:
// a rank would otherwise take a fault on each page another rank cleared, on its first probe of it
// in a search (shared memory comes in 4 KB pages: 16,384 faults for 64 MB).
void populate(void* base, std::size_t bytes) {
#ifdef MADV_POPULATE_WRITE
    if (madvise(base, bytes, MADV_POPULATE_WRITE) == 0) return;  // Linux 5.14 and later
#endif
    volatile char* page = static_cast<char*>(base);
    const std::size_t step = std::size_t(sysconf(_SC_PAGESIZE));
    for (std::size_t offset = 0; offset < bytes; offset += step) page[offset] = page[offset];
}

// Makes the machine's next table: a window of shared memory that the machine's first rank
// allocates and every rank maps (MPI-3), in place of the one before. Open MPI keeps such windows
// in files in /dev/shm (osc_sm_backing_directory): a table larger than its free space would fault
// when first touched, so the first rank checks and the others follow its word.
void makeTable() {
    tableError.clear();
    std::uint64_t freeBytes = 0;
    if (machineRank == 0) {
        struct statvfs fs;
        if (nodeHash && statvfs("/dev/shm", &fs) == 0) freeBytes = std::uint64_t(fs.f_bavail) * fs.f_frsize;
    }
    check(MPI_Bcast(&freeBytes, 1, MPI_UINT64_T, 0, machineComm), "MPI_Bcast");
    constexpr std::size_t ALIGN = 4096;  // each process maps the window at its own address
    MPI_Win fresh = MPI_WIN_NULL;
    void* base = nullptr;
    if (nodeHash && freeBytes >= tableBytes + ALIGN) {
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "alloc_shared_noncontig", "false");
        const int code = MPI_Win_allocate_shared(MPI_Aint(machineRank == 0 ? tableBytes + ALIGN : 0), 1, info,
                                                 machineComm, &base, &fresh);
        MPI_Info_free(&info);
        if (code != MPI_SUCCESS) {
            tableError = "cannot allocate " + megabytes(tableBytes) + " of shared memory for the hash table";
            return;  // the old table stays
        }
        MPI_Aint size = 0;
        int unit = 0;
        check(MPI_Win_shared_query(fresh, 0, &size, &unit, &base), "MPI_Win_shared_query");
        base =
            reinterpret_cast<void*>((reinterpret_cast<std::uintptr_t>(base) + ALIGN - 1) & ~std::uintptr_t(ALIGN - 1));
#ifdef MADV_HUGEPAGE
        madvise(base, tableBytes, MADV_HUGEPAGE);  // where shared memory may use huge pages
#endif
        populate(base, tableBytes);
    }
    if (window != MPI_WIN_NULL) check(MPI_Win_free(&window), "MPI_Win_free");
    window = fresh;
    tableBase = base;
    sendEntries = window == MPI_WIN_NULL || machineCount > 1;
    if (window != MPI_WIN_NULL)
        tableNote = "hash table of " + megabytes(tableBytes) + " shared by the " + std::to_string(machineSize) +
                    " ranks of this machine";
    else if (!nodeHash) tableNote = OWN_TABLES;
    else tableNote = "each rank has a hash table of its own: /dev/shm has " + megabytes(freeBytes) + " free";
}

// After a round: when every rank of this machine has asked for the next table, they make it now.
// All decide from the same gathered statuses, so they make it after the same round.
void makeTableIfAsked(const std::vector<Status>& gathered) {
    std::lock_guard<std::mutex> lock(tableMutex);
    for (int r = 0; r < rankCount; ++r)
        if (machineOf[std::size_t(r)] == machineOf[std::size_t(myRank)] &&
            gathered[std::size_t(r)].tablesAsked <= tablesMade)
            return;
    makeTable();
    ++tablesMade;
    tableReady.notify_all();
}

// The pace of the rounds. Each wake-up of the communication thread takes its core from a search
// thread for a moment and leaves the caches colder: rounds a millisecond apart cost 2 ranks x 1
// thread about 8% of their nodes per second here (docs/results/scaling.md). So rounds are rare while
// the ranks search, quick while something is in flight (a command, a stop, results awaited), and
// between searches frequent enough that a command is not kept waiting.
constexpr std::chrono::microseconds FAST_PAUSE{250}, IDLE_PAUSE{1000}, SEARCH_PAUSE{5000}, POLL_TIME{200};
// A round that has not completed for this long means a rank is gone or its host cut off (a round
// takes milliseconds, even across a data centre). Rounds pause while a machine's ranks make their
// table in shared memory (makeTable maps every page), so a second more is allowed for each GB of
// it. Ten seconds lose a fast game on time; waiting for ever would lose the engine.
constexpr std::chrono::seconds SILENCE_LIMIT{10};
std::chrono::milliseconds silenceLimit() {
    std::lock_guard<std::mutex> lock(tableMutex);
    return SILENCE_LIMIT + std::chrono::milliseconds(tableBytes >> 20);
}

// A non-blocking collective advances one step per call: a few calls in a row finish a round whose
// messages have all arrived, without a second wake-up.
constexpr int PROGRESS_CALLS = 4;

// The root's choice of the next pause, sent with the round.
std::chrono::microseconds pace(const Control& c, const std::string& partial) {
    {
        std::lock_guard<std::mutex> lock(linesMutex);
        if (c.textBytes || !partial.empty() || !outgoing.empty()) return FAST_PAUSE;
    }
    if (!pool->searching()) return IDLE_PAUSE;
    return pool->stop.load() ? FAST_PAUSE : SEARCH_PAUSE;  // stopping: the ranks' results are awaited
}

// Every rank: one round after another until the round that carries `quit`.
void communicate() {
    Control control{};
    std::vector<Status> gathered(static_cast<std::size_t>(rankCount));
    std::vector<Shared> batch, received;
    std::string partial, arriving;
    int currentBatch = DEFAULT_BATCH_SIZE;         // the root's choice of the previous round
    std::chrono::microseconds pause = FAST_PAUSE;  // likewise
    std::uint64_t stopSent = 0;                    // the root's stopSearch of the previous round
    std::uint32_t heard = doorbell->ring.load();
    for (bool last = false; !last;) {
        if (myRank == 0) {
            fillControl(control, partial);
            control.pause = int(pace(control, partial).count());
        }
        Status own;
        fillStatus(own);
        fillBatch(batch, currentBatch);
        received.resize(std::size_t(currentBatch) * std::size_t(rankCount));
        MPI_Request requests[3];
        check(MPI_Ibcast(&control, sizeof control, MPI_BYTE, 0, MPI_COMM_WORLD, &requests[0]), "MPI_Ibcast");
        check(MPI_Iallgather(&own, sizeof own, MPI_BYTE, gathered.data(), sizeof own, MPI_BYTE, MPI_COMM_WORLD,
                             &requests[1]),
              "MPI_Iallgather");
        check(MPI_Iallgather(batch.data(), currentBatch * int(sizeof(Shared)), MPI_BYTE, received.data(),
                             currentBatch * int(sizeof(Shared)), MPI_BYTE, MPI_COMM_WORLD, &requests[2]),
              "MPI_Iallgather");
        // The collectives themselves take microseconds: the pause is the round's length. For news
        // (a line, a stop) the root rings, and the machine's ranks take the round now. A round
        // takes a few calls on each side to complete (the collectives' steps): while something is
        // in flight the threads poll for a moment rather than sleep between the calls.
        if (myRank == 0 && (control.textBytes || control.stopSearch != stopSent)) ring();
        stopSent = control.stopSearch;
        const bool urgent = pause == FAST_PAUSE;
        pauseFor(pause, heard);
        const auto started = std::chrono::steady_clock::now(), pollUntil = started + POLL_TIME;
        const std::chrono::milliseconds silence = silenceLimit();
        for (int done = 0, calls = 0;; ++calls) {
            check(MPI_Testall(3, requests, &done, MPI_STATUSES_IGNORE), "MPI_Testall");
            if (done) break;
            if (calls % PROGRESS_CALLS == 0 && std::chrono::steady_clock::now() - started > silence)
                fail("no word from the other ranks for " + std::to_string(silence.count() / 1000) +
                     " s (a rank or its host is lost)");
            if (calls % PROGRESS_CALLS == PROGRESS_CALLS - 1 &&
                (!urgent || std::chrono::steady_clock::now() > pollUntil))
                pauseFor(FAST_PAUSE, heard);
        }
        pause =
            std::chrono::microseconds(std::clamp(control.pause, int(FAST_PAUSE.count()), int(SEARCH_PAUSE.count())));

        // The root's lines, whole ones only, in order.
        arriving.append(control.text, std::size_t(control.textBytes));
        bool news = false;  // waking the main thread for nothing would cost as much as the round
        {
            std::lock_guard<std::mutex> lock(linesMutex);
            for (std::size_t nl; (nl = arriving.find('\n')) != std::string::npos;
                 arriving.erase(0, nl + 1), news = true)
                delivered.push_back(arriving.substr(0, nl));
            last = control.quit;
            closed = last;
        }
        if (news || last) linesChanged.notify_all();
        if (myRank != 0 && control.stopSearch && control.stopSearch == pool->searchId.load()) pool->requestStop();
        currentBatch = std::clamp<int>(control.batchSize, 1, MAX_BATCH_SIZE);
        {
            std::lock_guard<std::mutex> lock(statusMutex);
            statuses = gathered;
        }
        statusChanged.notify_all();
        makeTableIfAsked(gathered);
        {
            // Entries from the ranks that do not share this rank's table; where the machine shares
            // one, its first rank alone puts them in.
            std::lock_guard<std::mutex> lock(inboxMutex);
            const bool shared = window != MPI_WIN_NULL;
            for (int r = 0; r < rankCount; ++r)
                if (r != myRank &&
                    !(shared && (machineOf[std::size_t(r)] == machineOf[std::size_t(myRank)] || machineRank != 0)))
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
    std::lock_guard<std::mutex> tableLock(tableMutex);
    tableReady.notify_all();
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
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, myRank, MPI_INFO_NULL, &machineComm) != MPI_SUCCESS) {
        error = "MPI_Comm_split_type failed";
        return false;
    }
    MPI_Comm_set_errhandler(machineComm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(machineComm, &machineRank);
    MPI_Comm_size(machineComm, &machineSize);
    int machine = myRank;
    machineOf.assign(std::size_t(rankCount), 0);
    if (MPI_Bcast(&machine, 1, MPI_INT, 0, machineComm) != MPI_SUCCESS ||
        MPI_Allgather(&machine, 1, MPI_INT, machineOf.data(), 1, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS) {
        error = "cannot learn which ranks share a machine";
        return false;
    }
    machineCount = int(std::count_if(machineOf.begin(), machineOf.end(), [r = 0](int m) mutable { return m == r++; }));
    if (machineSize > 1) {
        void* base = nullptr;
        MPI_Aint size = 0;
        int unit = 0;
        // New shared memory is zero, a doorbell with nothing rung and nothing stopped.
        if (MPI_Win_allocate_shared(machineRank == 0 ? 64 : 0, 1, MPI_INFO_NULL, machineComm, &base, &doorbellWindow) ==
                MPI_SUCCESS &&
            MPI_Win_shared_query(doorbellWindow, 0, &size, &unit, &base) == MPI_SUCCESS)
            doorbell = static_cast<Doorbell*>(base);
    }
    if (myRank == 0) findLauncher();
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

void finalize() {
    if (window != MPI_WIN_NULL) MPI_Win_free(&window);
    if (doorbellWindow != MPI_WIN_NULL) MPI_Win_free(&doorbellWindow);
    if (machineComm != MPI_COMM_NULL) MPI_Comm_free(&machineComm);
    MPI_Finalize();
}

void standingMove(const std::string& best) {
    const std::string line = "bestmove " + best + "\n";
    const int slot = standingSlot.load() == 0 ? 1 : 0;
    const std::size_t length = std::min(line.size(), sizeof standing[slot].text);
    std::memcpy(standing[slot].text, line.data(), length);
    standing[slot].length = length;
    standingSlot = slot;
}

void noStandingMove() { standingSlot = -1; }

void setShareDepth(int depth) { shareDepth = depth; }
void setBatchSize(int entries) { batchSize = entries; }
void setNodeHash(bool on) { nodeHash = on; }

void* nodeTable(std::size_t bytes, std::string& note, std::string& error) {
    // Alone on its machine, or no shared table to give back and none wanted: nothing to agree on.
    if (!running || machineSize == 1) return nullptr;
    std::unique_lock<std::mutex> lock(tableMutex);
    if (!nodeHash && window == MPI_WIN_NULL) {
        note = OWN_TABLES;
        return nullptr;
    }
    tableBytes = bytes;
    const std::uint64_t serial = tablesAsked.load() + 1;
    tablesAsked = serial;
    tableReady.wait(lock, [&] { return tablesMade >= serial || closed; });
    if (tablesMade < serial) {
        error = "the cluster is closing: no new hash table";
        return nullptr;
    }
    note = tableNote;
    error = tableError;
    return tableBase;
}

int tableSharer() { return machineRank; }
int tableSharers() { return machineSize; }

void share(std::size_t thread, Key key, Value value, Bound bound, int depth, Move move, Value eval) {
    if (depth < shareDepth.load(std::memory_order_relaxed) || thread >= MAX_THREADS ||
        !sendEntries.load(std::memory_order_relaxed))
        return;
    SendBuffer& b = buffers[thread];
    for (int used = buffersUsed.load(std::memory_order_relaxed); used <= int(thread);)
        buffersUsed.compare_exchange_weak(used, int(thread) + 1, std::memory_order_relaxed);
    if (b.busy.test_and_set(std::memory_order_acquire)) return;
    const Shared e{
        key, std::int16_t(value), std::int16_t(eval), std::uint16_t(move), std::uint8_t(depth), std::uint8_t(bound)};
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
    if (myRank != 0 && doorbell->stopped.load(std::memory_order_relaxed) == searchId) pool->requestStop();
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
    if (myRank == 0) doorbell->stopped = searchId;  // the ranks of this machine stop now
    ring();                                         // and the results go out in a round that comes now
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
