// The cluster engine (quadbit-mpi, src/cluster.h) started by Open MPI's mpirun with two ranks
// and driven as a GUI drives one engine. Built only when the MPI build is (-DQUADBIT_MPI=ON).
#ifdef QUADBIT_MPI_ENGINE

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <random>
#include <regex>
#include <thread>

#include "engine_process.h"
#include "movegen.h"

namespace {

EngineProcess startCluster() {
    // Two ranks on however many cores there are; as root too (CI machines run tests as root).
    return EngineProcess(QUADBIT_MPIRUN, {"--oversubscribe", "--allow-run-as-root", "-np", "2", QUADBIT_MPI_ENGINE});
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The bestmove of a search in `fen`, checked to be legal there; also the last info line's nodes.
std::string legalBestMove(const std::vector<std::string>& lines, const std::string& fen,
                          std::uint64_t* nodes = nullptr) {
    REQUIRE(startsWith(lines.back(), "bestmove "));
    for (const auto& l : lines) REQUIRE(!startsWith(l, "info string error"));
    std::istringstream in(lines.back());
    std::string word, move;
    in >> word >> move;
    Position pos;
    REQUIRE(pos.setFen(fen).empty());
    INFO(fen << " bestmove " << move);
    REQUIRE(pos.parseUciMove(move) != MOVE_NONE);
    if (nodes)
        for (const auto& l : lines) {
            std::smatch m;
            if (std::regex_search(l, m, std::regex(" nodes (\\d+) "))) *nodes = std::stoull(m[1]);
        }
    return move;
}

long millisSince(std::chrono::steady_clock::time_point t) {
    return long(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t).count());
}

}  // namespace

TEST_CASE("cluster: two ranks behave as one UCI engine", "[cluster]") {
    EngineProcess e = startCluster();
    e.send("uci");
    auto lines = e.readUntil("uciok", 30000);
    for (const char* option : {"option name ClusterShareDepth type spin", "option name ClusterBatchSize type spin",
                               "option name ClusterNodeHash type check default true"})
        REQUIRE(std::any_of(lines.begin(), lines.end(), [&](auto& l) { return startsWith(l, option); }));
    lines = e.sync();  // the table's backing, and nothing else
    REQUIRE(lines.size() == 1);
    REQUIRE(startsWith(lines[0], "info string hash 16 MB in "));
    // The two ranks run on this one machine: they make one table together, in shared memory.
    e.send("setoption name Hash value 32");
    e.send("ucinewgame");
    REQUIRE(e.sync() ==
            std::vector<std::string>{"info string hash table of 32 MB shared by the 2 ranks of this machine"});

    const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const std::string middle = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9";
    auto search = [&](const std::string& fen, const std::string& go, int timeoutMs = 20000) {
        e.send("position fen " + fen);
        e.send(go);
        return e.readUntil("bestmove", timeoutMs);
    };

    // Every kind of limit.
    std::uint64_t nodes = 0;
    legalBestMove(search(middle, "go depth 9"), middle);
    legalBestMove(search(middle, "go nodes 200000"), middle, &nodes);
    REQUIRE(nodes >= 200000);  // the whole cluster's nodes
    auto t = std::chrono::steady_clock::now();
    legalBestMove(search(middle, "go movetime 300"), middle);
    REQUIRE(millisSince(t) < 1500);
    t = std::chrono::steady_clock::now();
    legalBestMove(search(start, "go wtime 3000 btime 3000 winc 30 binc 30"), start);
    REQUIRE(millisSince(t) < 3000);
    legalBestMove(search(start, "go wtime 5000 btime 5000 movestogo 20"), start);
    // A mate in two is reported as such and played.
    const std::string mateIn2 = "3R4/8/8/2p3K1/2p5/5B2/R1pPNB2/1b1k4 w - - 0 1";  // mates2000.epd
    lines = search(mateIn2, "go mate 2");
    REQUIRE(legalBestMove(lines, mateIn2) == "d2d4");
    REQUIRE(
        std::any_of(lines.begin(), lines.end(), [](auto& l) { return l.find("score mate 2 ") != std::string::npos; }));
    REQUIRE(legalBestMove(search(start, "go depth 6 searchmoves a2a3 h2h3"), start).substr(3, 1) == "3");

    // A command that waits for the search to end waits on every rank alike: the other ranks search
    // without limits until the root stops them, yet they too take the new table (else the root would
    // wait for them for ever).
    e.send("position fen " + middle);
    e.send("go movetime 300");
    e.send("setoption name Hash value 16");
    lines = e.sync();
    REQUIRE(std::count_if(lines.begin(), lines.end(), [](auto& l) { return startsWith(l, "bestmove "); }) == 1);
    REQUIRE(std::count(lines.begin(), lines.end(),
                       "info string hash table of 16 MB shared by the 2 ranks of this machine") == 1);
    // Each rank with a table of its own (the ranks then exchange entries, as machines do), and back.
    e.send("setoption name ClusterNodeHash value false");
    REQUIRE(e.sync() ==
            std::vector<std::string>{"info string each rank has a hash table of its own (ClusterNodeHash is off)"});
    legalBestMove(search(middle, "go nodes 300000"), middle, &nodes);
    REQUIRE(nodes >= 300000);
    e.send("setoption name ClusterNodeHash value true");
    REQUIRE(e.sync() ==
            std::vector<std::string>{"info string hash table of 16 MB shared by the 2 ranks of this machine"});
    legalBestMove(search(middle, "go depth 10"), middle);

    // Infinite and ponder searches end by stop and ponderhit only, and quickly.
    std::vector<long> latencies;
    for (int i = 0; i < 5; ++i) {
        e.send("position fen " + middle);
        e.send("go infinite");
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        REQUIRE(e.sync().size() > 0);  // info lines, no bestmove yet
        t = std::chrono::steady_clock::now();
        e.send("stop");
        legalBestMove(e.readUntil("bestmove", 5000), middle);
        latencies.push_back(millisSince(t));
    }
    std::sort(latencies.begin(), latencies.end());
    INFO("stop to bestmove, median of 5: " << latencies[2] << " ms");
    REQUIRE(latencies[2] <= 50);
    e.send("position fen " + middle);
    e.send("go ponder wtime 2000 btime 2000");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    for (const auto& l : e.sync()) REQUIRE(!startsWith(l, "bestmove"));
    e.send("ponderhit");
    legalBestMove(e.readUntil("bestmove", 5000), middle);

    // 20 cycles of position, go, stop as fast as a GUI can send them.
    std::mt19937 rng(11);
    Position pos;
    REQUIRE(pos.setFen(start).empty());
    std::string moves;
    for (int i = 0; i < 20; ++i) {
        const MoveList<LEGAL> legal(pos);
        if (!legal.size()) break;
        const Move m = *(legal.begin() + rng() % legal.size());
        moves += " " + pos.moveToUci(m);
        pos.makeMove(m);
        e.send("position startpos moves" + moves);
        e.send("go infinite");
        e.send("stop");
        lines = e.readUntil("bestmove", 5000);
        if (MoveList<LEGAL>(pos).size()) legalBestMove(lines, pos.fen());
    }
    REQUIRE(e.sync().empty());

    t = std::chrono::steady_clock::now();
    e.send("quit");
    REQUIRE(e.waitExit(10000) == 0);
    INFO("quit took " << millisSince(t) << " ms");
}

#endif  // QUADBIT_MPI_ENGINE
