// Lazy SMP across machines on MPI (the quadbit-mpi build, -DQUADBIT_MPI=ON). Every rank runs its
// own Lazy-SMP threads; the ranks on one machine share one hash table in MPI shared memory, as the
// threads of one process share theirs, and the machines exchange their deep hash entries in
// batches. The root (rank 0) alone speaks UCI and keeps the clock, and the best move is chosen by
// the threads' vote over all ranks. After the design of Stockfish's cluster branch
// (src/cluster.cpp), which gives every rank a table of its own; sharing the table within a machine
// (MPI-3 shared windows) makes ranks there as good as threads, so one rank per socket or NUMA
// node costs nothing in search quality.
//
// One communication thread per rank does all the MPI work in rounds, every millisecond: the
// root's new command lines and stop requests (a broadcast), each rank's search status (an
// all-gather) and each rank's batch of hash entries (an all-gather), all non-blocking. Search
// threads never call MPI: they leave entries in a buffer of their own and read counters.
//
// In the normal build ENABLED is false and every call below is an inline no-op that the compiler
// removes: the normal engine has no MPI dependency and searches exactly as before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "types.h"

class ThreadPool;
class TranspositionTable;
enum Bound : int;

namespace cluster {

// The longest PV a rank reports with its result.
constexpr int MAX_PV = 64;

// One rank's answer to a search: its own vote winner, the line and the depth it comes from.
struct Result {
    Move move = MOVE_NONE;
    Value score = VALUE_NONE;
    int depth = 0, selDepth = 0;
    bool lowerbound = false, upperbound = false;
    std::vector<Move> pv;
};

#ifdef QUADBIT_MPI

// Starts MPI; false (with a message) if it cannot. Call first thing in main().
bool init(int& argc, char**& argv, std::string& error);
int rank();
int size();
inline bool isRoot() { return rank() == 0; }
// Starts the communication thread for `pool` (the interactive UCI loop only); the root reads
// standard input from then on.
void start(ThreadPool& pool);
// The next command line, the same on every rank in the same order; false when there is none
// (after `quit` or the end of the root's input).
bool getline(std::string& line);
// Waits for the communication thread to end (after the round that carried `quit`).
void stop();
// Ends MPI; the last call.
void finalize();
// The communication thread runs: the searches are the cluster's.
bool active();

// Search threads: an entry just stored, offered to the other ranks if deep enough.
void share(std::size_t thread, Key key, Value value, Bound bound, int depth, Move move, Value eval);
// This rank's main search thread, now and then: its nodes and table hits so far, and the entries
// received from the other ranks put into its table (never waiting for the communication thread).
void progress(std::uint64_t searchId, std::uint64_t nodes, std::uint64_t tbHits, TranspositionTable& tt);
// Nodes and table hits of the other ranks in the search `searchId`, as last reported.
std::uint64_t remoteNodes(std::uint64_t searchId);
std::uint64_t remoteTbHits(std::uint64_t searchId);
// A rank's search `searchId` is over: its result goes to the root. On the root, waits for every
// rank's result and returns them all (the root's own first); elsewhere returns at once.
std::vector<Result> finishSearch(std::uint64_t searchId, const Result& own);
// The root: the move it would play now in the search under way (after each iteration), and that
// the search's bestmove has gone out. If the cluster dies mid-search (a rank killed, a host lost),
// the root says so and still gives the GUI this move before it ends.
void standingMove(const std::string& best);
void noStandingMove();
// Options (the hash exchange): the least depth of an entry worth sending, and the entries each
// rank sends per round.
void setShareDepth(int depth);
void setBatchSize(int entries);
constexpr int DEFAULT_SHARE_DEPTH = 8, DEFAULT_BATCH_SIZE = 32, MAX_BATCH_SIZE = 1024;

// The hash table of the ranks on one machine. Whether they share one (ClusterNodeHash, on by
// default) applies from the next table made.
void setNodeHash(bool on);
// Every rank of this machine calls it for the same table (the ranks run the same commands): frees
// the table they shared, if any, and returns a new one of `bytes` that they all share, or nullptr
// when each rank is to make its own (alone on its machine, ClusterNodeHash off, too little shared
// memory: `note` says which). `error` is set when not even that is possible. Outside a running
// cluster, nullptr at once.
void* nodeTable(std::size_t bytes, std::string& note, std::string& error);
// Of the processes that share this rank's table, this one's index and how many there are (0 and 1
// when the table is its own).
int tableSharer();
int tableSharers();

#else
inline int rank() { return 0; }
inline int size() { return 1; }
inline bool isRoot() { return true; }
inline bool active() { return false; }
inline void share(std::size_t, Key, Value, Bound, int, Move, Value) {}
inline void progress(std::uint64_t, std::uint64_t, std::uint64_t, TranspositionTable&) {}
inline std::vector<Result> finishSearch(std::uint64_t, const Result& own) { return {own}; }
inline std::uint64_t remoteNodes(std::uint64_t) { return 0; }
inline std::uint64_t remoteTbHits(std::uint64_t) { return 0; }
inline void* nodeTable(std::size_t, std::string&, std::string&) { return nullptr; }
inline int tableSharer() { return 0; }
inline int tableSharers() { return 1; }
inline void standingMove(const std::string&) {}
inline void noStandingMove() {}

#endif

}  // namespace cluster
