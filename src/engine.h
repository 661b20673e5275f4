// The engine as an object: the position, the search threads and the options, with the calls a
// client makes (setPosition, go, stop, ponderhit, wait). It neither reads nor prints: the search
// reports through callbacks, and the UCI text layer (uci.cpp) sits on top. Modelled on
// Stockfish's src/engine.h.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "options.h"
#include "position.h"
#include "search.h"
#include "threads.h"

class Engine {
public:
    // Fills the tables everything else reads (attacks, keys, reductions, KPK, material); once
    // per process, before any position is made.
    static void initTables();

    Engine();
    ~Engine();
    Engine(const Engine&) = delete;

    OptionsMap& options() { return optionList; }
    void setCallbacks(SearchCallbacks callbacks);
    // Where `info string` messages of the engine itself go (thread placement).
    void setMessageSink(std::function<void(const std::string&)> sink) { message = std::move(sink); }

    // A position from a FEN and UCI moves; on any error the position stays as it was. Always
    // accepted, even while a search runs: the search has its own copy.
    std::string setPosition(const std::string& fen, const std::vector<std::string>& moves);
    const Position& position() const { return pos; }
    // The board, FEN, keys and checkers, and the tables' WDL and DTZ where they cover it (`d`).
    std::string describePosition() const;
    // The legal move `text` names in the current position (MOVE_NONE if none).
    Move parseMove(const std::string& text) const { return pos.parseUciMove(text); }

    // Starts a search after any search still winding down. Refused only while a search runs
    // that nothing but stop or ponderhit can end (go infinite, go ponder).
    std::string go(const SearchLimits& limits, TimePoint startTime);
    void stop() { threads.requestStop(); }
    void ponderhit() { threads.ponderhit(); }
    void wait() { threads.waitForSearchFinished(); }
    bool searching() const { return threads.searching(); }
    // A stop has been asked for (by `stop` or a limit) and the search is winding down.
    bool stopping() const { return threads.stop; }
    // Waits for a search that will end by itself; while one runs that only stop can end (go
    // infinite, go ponder), returns why `what` cannot be done now.
    std::string whenIdle(const std::string& what);

    // Forgets the hash table and the move-ordering statistics.
    std::string newGame();
    // Divided perft of the current position on the search thread, stoppable; `out` receives the
    // report when done.
    std::string perft(int depth, std::function<void(const std::string&)> out);
    // Searches `p` to the end with no reports (bench, speedtest); returns the nodes searched.
    std::uint64_t searchQuietly(const Position& p, const SearchLimits& limits);
    int hashfull() const;
    const TranspositionTable& hashTable() const { return threads.tt; }
#ifdef QUADBIT_MPI
    // Searches from now on as one rank of the cluster (cluster.h).
    void joinCluster();
#endif
    const std::string& placement() const { return threads.placement(); }
    // The network the search evaluates with, or none (Use NNUE, EvalFile).
    const nnue::Network* network() const { return threads.network; }

private:
    // A new table of `mb` megabytes, cleared (in a cluster, the machine's ranks make it together).
    std::string remakeHash(std::size_t mb);
    // `count` search threads placed by the options Bind and CPUs; says the placement.
    std::string placeThreads(std::size_t count);
    void say(const std::string& text) const {
        if (message) message(text);
    }

    // Use NNUE and EvalFile: which network the search uses.
    std::string selectNetwork();

    Position pos;
    ThreadPool threads;
    std::unique_ptr<nnue::Network> fileNetwork;  // from EvalFile; none: the embedded one
    OptionsMap optionList;
    SearchCallbacks reporting;
    std::function<void(const std::string&)> message;
};
