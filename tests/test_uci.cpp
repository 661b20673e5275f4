// The engine driven through pipes, as a GUI or match runner drives it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <regex>
#include <set>
#include <thread>
#include <utility>

#include "buildinfo.h"
#include "engine_process.h"
#include "movegen.h"
#include "nnue/network.h"
#include "simd/nnue.h"
#include "support.h"

namespace {

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::vector<std::string> errorsIn(const std::vector<std::string>& lines) {
    std::vector<std::string> errors;
    for (const auto& l : lines)
        if (startsWith(l, "info string error:")) errors.push_back(l);
    return errors;
}

std::string fenOf(EngineProcess& e) {
    e.send("d");
    for (const auto& l : e.readUntil("Fen:"))
        if (startsWith(l, "Fen: ")) return l.substr(5);
    return "";
}

// The score of the last complete info line (no bound), as "cp N" or "mate N".
std::string lastScore(const std::vector<std::string>& lines) {
    std::string score;
    std::regex re("score ((cp|mate) -?\\d+)");
    for (const auto& l : lines) {
        std::smatch m;
        if (startsWith(l, "info") && l.find("bound") == std::string::npos && std::regex_search(l, m, re)) score = m[1];
    }
    return score;
}

std::string bestMoveOf(const std::vector<std::string>& lines) {
    std::istringstream in(lines.back());
    std::string word, move;
    in >> word >> move;
    return move;
}

bool isLegal(const std::string& fen, const std::string& move) {
    Position pos;
    return pos.setFen(fen) == "" && pos.parseUciMove(move) != MOVE_NONE;
}

}  // namespace

TEST_CASE("uci: compiler names the level, the paths the binary's hot code takes and a thread's stack", "[uci]") {
    // The test program is compiled with the engine's flags, so its view of the build is the
    // engine's: the network kernels it names are the ones this CPU family runs.
    EngineProcess e;
    e.send("compiler");
    const auto lines = e.readUntil("Thread stack: ");
    const std::string text =
        std::accumulate(lines.begin(), lines.end(), std::string(), [](auto a, auto& b) { return a + b + "\n"; });
    INFO(text);
    // The commit, read at build time: a short hash (marked when the checkout had changes).
    REQUIRE(lines[0] == "Commit: " + buildCommit());
    REQUIRE(std::regex_match(buildCommit(), std::regex("[0-9a-f]{7,}(-modified)?|unknown")));
    REQUIRE(startsWith(lines[1], "Compiled by "));
    REQUIRE(text.find("Target: ") != std::string::npos);
    REQUIRE(text.find(std::string("network kernels: ") + simd::isaName(simd::BUILD_ISA) + ";") != std::string::npos);
#if defined(__aarch64__)
    REQUIRE(text.find("NEON") != std::string::npos);
    REQUIRE(text.find("Sliders: magic bitboards") != std::string::npos);
#endif
    // A search thread's stack, for lines that recurse to the deepest plies: 8 MB on Windows too,
    // where the default is 1 MB (the link sets the executable's reserve).
    std::smatch stack;
    REQUIRE(std::regex_match(lines.back(), stack, std::regex("Thread stack: (\\d+) KB \\(a search thread's\\)")));
#ifdef _WIN32
    REQUIRE(std::stol(stack[1]) >= 8192);
#else
    REQUIRE(std::stol(stack[1]) >= 1024);
#endif
    REQUIRE(e.sync().empty());  // nothing else said, no error
}

TEST_CASE("uci: a whole protocol conversation", "[uci]") {
    EngineProcess e;
    e.send("uci");
    auto lines = e.readUntil("uciok");
    REQUIRE(startsWith(lines[0], "id name Quadbit"));
    REQUIRE(std::count_if(lines.begin(), lines.end(), [](auto& l) { return startsWith(l, "id author"); }) == 1);
    for (const char* option :
         {"option name Hash type spin default 16 min 1 max ", "option name Threads type spin default 1 min 1 max 1024",
          "option name Clear Hash type button", "option name Ponder type check default false",
          "option name MultiPV type spin default 1 min 1 max ", "option name Move Overhead type spin default ",
          "option name UCI_Chess960 type check default false"})
        REQUIRE(std::any_of(lines.begin(), lines.end(), [&](auto& l) { return startsWith(l, option); }));
    // Then, as information, how the hash table's memory is backed (large pages or not, and why).
    lines = e.sync();
    REQUIRE(lines.size() == 1);
    REQUIRE(std::regex_match(
        lines[0],
        std::regex("info string hash 16 MB in (transparent huge pages|large pages|normal pages \\(.+\\)).*")));

    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 6");
    lines = e.readUntil("bestmove");
    // Every info line with a score carries the standard fields.
    std::regex info(
        "^info depth \\d+ seldepth \\d+ multipv 1 score (cp|mate) -?\\d+( lowerbound| upperbound)? nodes \\d+ nps \\d+ hashfull \\d+ tbhits \\d+ time \\d+ pv( [a-h][1-8][a-h][1-8][nbrq]?)+$");
    int infos = 0;
    for (const auto& l : lines)
        if (startsWith(l, "info depth")) {
            REQUIRE(std::regex_match(l, info));
            ++infos;
        }
    REQUIRE(infos >= 6);
    REQUIRE(isLegal("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", bestMoveOf(lines)));

    // MultiPV: three distinct lines per depth.
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 5");
    lines = e.readUntil("bestmove");
    std::set<std::string> firstMoves;
    for (const auto& l : lines)
        if (startsWith(l, "info depth 5 ")) {
            REQUIRE(std::regex_search(l, std::regex("multipv [123] ")));
            firstMoves.insert(l.substr(l.find(" pv ") + 4, 4));
        }
    REQUIRE(firstMoves.size() == 3);
    e.send("setoption name MultiPV value 1");

    // Infinite and ponder searches wait for stop / ponderhit before bestmove.
    e.send("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    REQUIRE(e.sync().size() >= 1);  // info lines, but no bestmove yet
    e.send("stop");
    lines = e.readUntil("bestmove", 2000);
    REQUIRE(isLegal(START_FEN, bestMoveOf(lines)));

    e.send("go ponder wtime 1000 btime 1000");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    for (const auto& l : e.sync()) REQUIRE(!startsWith(l, "bestmove"));
    e.send("ponderhit");
    lines = e.readUntil("bestmove", 3000);
    REQUIRE(isLegal(START_FEN, bestMoveOf(lines)));

    // Movetime is respected.
    auto start = std::chrono::steady_clock::now();
    e.send("go movetime 300");
    e.readUntil("bestmove", 3000);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    REQUIRE(ms >= 290);
    REQUIRE(ms < 1000);

    // Extensions: perft, d, eval.
    e.send("go perft 3");
    lines = e.readUntil("Nodes searched");
    REQUIRE(lines.back() == "Nodes searched: 8902");
    REQUIRE(fenOf(e) == START_FEN);
    e.send("eval");
    REQUIRE(startsWith(e.readUntil("Final evaluation").back(), "Final evaluation: "));

    e.send("quit");
    REQUIRE(e.waitExit() == 0);
}

TEST_CASE("uci: Chess960 castling is written king-takes-rook", "[uci]") {
    EngineProcess e;
    e.send("setoption name UCI_Chess960 value true");
    e.send("position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    e.send("go perft 1");
    auto lines = e.readUntil("Nodes searched");
    REQUIRE(lines.back() == "Nodes searched: 21");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1");
    REQUIRE(fenOf(e) == "r3k2r/8/8/8/8/8/8/R4RK1 b ha - 1 1");
    e.send("setoption name UCI_Chess960 value false");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8");
    REQUIRE(fenOf(e) == "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
}

TEST_CASE("uci: every kind of bad input is answered with an error and changes nothing", "[uci][robust]") {
    EngineProcess e;
    const std::string base = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    e.send("position fen " + base + " moves a1a2");
    const std::string before = fenOf(e);
    REQUIRE(before == "r3k2r/8/8/8/8/8/R7/4K2R b Kkq - 1 1");

    const char* bad[] = {
        "foo",
        "position",
        "position nonsense",
        "position startpos e2e4",
        "position fen",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBXR w KQkq - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K2R w KQ - 0 1",
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e2e4 zz",
        "position startpos moves e2e5",
        "position startpos moves e7e5",
        "setoption name NoSuchOption value 3",
        "setoption nonsense",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999999",
        "setoption name Hash value lots",
        "setoption name Hash value 33554432",
        "setoption name Threads value 0",
        "setoption name Threads value 5000",
        "setoption name MultiPV value -1",
        "setoption name UCI_Chess960 value maybe",
        "setoption name NumaPolicy value sideways",
        "setoption name NumaPolicy value 0-3:2-5",
        "setoption name Clear Hash value 3",
        "go perft x",
        "go perft 99",
        "perft",
    };
    for (const char* line : bad) {
        INFO(line);
        e.send(line);
        auto lines = e.sync();
        REQUIRE(errorsIn(lines).size() == 1);
        REQUIRE(fenOf(e) == before);
    }

    // Options keep their old values after a refused change: a search still works.
    e.send("go depth 3");
    REQUIRE(isLegal(before, bestMoveOf(e.readUntil("bestmove"))));

    // stop and ponderhit while idle are harmless and print nothing.
    e.send("stop");
    e.send("ponderhit");
    REQUIRE(e.sync().empty());

    // During a search that only stop can end, go, setoption and ucinewgame are refused (waiting
    // would hang the GUI); position is taken for the next search. The running search goes on
    // and ends once, on the position it started from.
    e.send("go infinite");
    e.send("go depth 1");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    e.send("position startpos");
    e.send("setoption name Hash value 32");
    e.send("ucinewgame");
    auto during = e.sync();
    REQUIRE(errorsIn(during).size() == 3);
    for (const auto& l : during) REQUIRE(!startsWith(l, "bestmove"));
    e.send("stop");
    REQUIRE(isLegal(before, bestMoveOf(e.readUntil("bestmove"))));
    REQUIRE(fenOf(e) == START_FEN);
    e.send("position fen " + base + " moves a1a2");

    // A malformed go still searches (a GUI is waiting), with the bad parts reported.
    e.send("go depth 2 wtime abc frobnicate");
    auto lines = e.readUntil("bestmove");
    REQUIRE(errorsIn(lines).size() == 2);
    REQUIRE(isLegal(before, bestMoveOf(lines)));

    e.send("quit");
    REQUIRE(e.waitExit() == 0);
}

TEST_CASE("uci: a malformed or zero limit is the smallest limit, never none", "[uci][robust]") {
    // A GUI that sent a limit waits for bestmove: each of these is answered at once (depth 1
    // completes), with the bad value reported, and the next go is taken as usual.
    const char* limits[] = {"depth 0", "depth -3",  "movetime 0",         "movetime -100",
                            "nodes 0", "nodes abc", "wtime abc btime -5", "movetime"};
    EngineProcess e;
    for (const char* limit : limits) {
        INFO(limit);
        e.send("position startpos moves e2e4");
        e.send(std::string("go ") + limit);
        const auto start = std::chrono::steady_clock::now();
        auto lines = e.readUntil("bestmove", 1000);
        REQUIRE(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
        REQUIRE(std::count_if(lines.begin(), lines.end(),
                              [](const std::string& l) { return startsWith(l, "info depth 1 "); }) >= 1);
        Position pos;
        pos.setFen(START_FEN);
        pos.makeMove(pos.parseUciMove("e2e4"));
        REQUIRE(pos.parseUciMove(bestMoveOf(lines)) != MOVE_NONE);
        e.send("go depth 4");
        auto next = e.readUntil("bestmove", 5000);
        REQUIRE(errorsIn(next).empty());
        REQUIRE(pos.parseUciMove(bestMoveOf(next)) != MOVE_NONE);
    }
    // wtime abc is reported; btime -5 is a clock in arrears, read as 1 ms without a report.
    e.send("go wtime abc btime -5");
    REQUIRE(errorsIn(e.readUntil("bestmove", 1000)).size() == 1);
    e.send("quit");
    REQUIRE(e.waitExit() == 0);
}

TEST_CASE("uci: random garbage never crashes or hangs the engine", "[uci][robust]") {
    EngineProcess e;
    std::mt19937 rng(99);
    const std::vector<std::string> words = {"go",          "position",
                                            "fen",         "startpos",
                                            "moves",       "setoption",
                                            "name",        "value",
                                            "Hash",        "Threads",
                                            "depth",       "nodes",
                                            "perft",       "e2e4",
                                            "e7e5",        "8/8/8",
                                            "w",           "-",
                                            "0",           "1",
                                            "-5",          "99999999999999999999",
                                            "searchmoves", "mate",
                                            "movetime",    "wtime",
                                            "btime",       "ponder",
                                            "stop",        "\t",
                                            "d",           "eval"};
    for (int i = 0; i < 400; ++i) {
        std::string line;
        int n = rng() % 8;
        for (int k = 0; k < n; ++k) {
            if (rng() % 5 == 0) {
                for (int c = rng() % 6; c > 0; --c) line += char(1 + rng() % 254);
            } else line += words[rng() % words.size()];
            line += ' ';
        }
        // Keep searches short: anything that starts a search gets a depth limit or is stopped.
        if (line.rfind("go", 0) == 0) line += " depth 2";
        std::replace(line.begin(), line.end(), '\n', ' ');
        e.send(line);
        e.send("stop");
        e.sync(20000);
    }
    e.send("position startpos");
    e.send("go depth 2");
    REQUIRE(isLegal(START_FEN, bestMoveOf(e.readUntil("bestmove"))));
}

TEST_CASE("uci: draws by repetition, fifty moves and dead material score 0", "[uci][draw]") {
    EngineProcess e;
    // Knights out and back twice: f6g8 repeats the start position a third time.
    e.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    e.send("go depth 8 searchmoves f6g8");
    auto lines = e.readUntil("bestmove");
    REQUIRE(lastScore(lines) == "cp 0");
    REQUIRE(bestMoveOf(lines) == "f6g8");

    // Fifty-move rule: no mate in one, so every line is a draw.
    e.send("position fen 8/8/8/8/8/5k2/8/4K2R w - - 99 80");
    e.send("go depth 12");
    REQUIRE(lastScore(e.readUntil("bestmove")) == "cp 0");
    // ...but a mate given on the hundredth half-move is still a mate.
    e.send("position fen 7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    e.send("go depth 8");
    lines = e.readUntil("bestmove");
    REQUIRE(lastScore(lines) == "mate 1");
    REQUIRE(bestMoveOf(lines) == "a1a8");

    // Dead positions (FIDE 5.2b) and near-dead ones.
    for (const char* fen : {"8/8/8/4k3/8/8/8/4KB2 w - - 0 1", "8/8/8/4k3/8/8/8/4KN2 b - - 0 1",
                            "8/8/8/4k3/8/8/8/4K3 w - - 0 1", "2b5/8/8/4k3/8/8/8/3BKB2 w - - 0 1"}) {
        INFO(fen);
        e.send(std::string("position fen ") + fen);
        e.send("go depth 10");
        REQUIRE(lastScore(e.readUntil("bestmove")) == "cp 0");
    }
}

TEST_CASE("uci: no legal move answers bestmove (none) with the right score", "[uci]") {
    EngineProcess e;
    e.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");  // checkmated
    e.send("go depth 5");
    auto lines = e.readUntil("bestmove");
    REQUIRE(lines.back() == "bestmove (none)");
    REQUIRE(lastScore(lines) == "mate 0");
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");  // stalemated
    e.send("go wtime 1000 btime 1000");
    lines = e.readUntil("bestmove");
    REQUIRE(lines.back() == "bestmove (none)");
    REQUIRE(lastScore(lines) == "cp 0");
}

TEST_CASE("uci: stop is answered within 10 ms", "[uci][latency]") {
    EngineProcess e;
    e.send("position startpos");
    long median = e.medianStopLatencyMicros();
    INFO("median " << median << " us");
    REQUIRE(median < 10000);
}

TEST_CASE("uci: mates from mates2000.epd are found with their exact length", "[uci][mate]") {
    // Every fifth position with a mate of at most 5 moves (the file is sorted by mate length),
    // each searched to a fixed node count so that the result is deterministic. A reported mate
    // must never be shorter than the known one or for the wrong side; most must be exact, and an
    // exact mate must come with a move that keeps a mate (after it the opponent is being mated).
    // The longer mates are measured by scripts/lab games mate-suite.
    std::ifstream in(sharedPath("data/suites/mates2000.epd"));
    REQUIRE(in);
    EngineProcess e;
    int shortMates = 0, tried = 0, exact = 0;
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, std::regex("bm #(-?\\d+);"))) continue;
        int n = std::stoi(m[1]);
        if (std::abs(n) > 5 || shortMates++ % 5) continue;
        std::istringstream fields(line);
        std::string fen, f;
        for (int i = 0; i < 4 && fields >> f; ++i) fen += f + " ";
        fen += "0 1";
        ++tried;
        INFO(fen << " bm #" << n);
        e.send("ucinewgame");
        e.send("position fen " + fen);
        e.send("go nodes 500000");
        auto lines = e.readUntil("bestmove", 60000);
        std::string score = lastScore(lines), best = bestMoveOf(lines);
        REQUIRE(isLegal(fen, best));
        if (score.rfind("mate ", 0) == 0) {
            int reported = std::stoi(score.substr(5));
            REQUIRE(reported * n > 0);                   // the right side mates
            REQUIRE(std::abs(reported) >= std::abs(n));  // never shorter than possible
        }
        if (score != "mate " + std::to_string(n)) continue;
        ++exact;
        if (n == 1) {  // the move mates
            Position pos;
            pos.setFen(fen);
            pos.makeMove(pos.parseUciMove(best));
            REQUIRE(pos.inCheck());
            REQUIRE(MoveList<LEGAL>(pos).size() == 0);
        } else if (n > 1) {
            e.send("ucinewgame");
            e.send("position fen " + fen + " moves " + best);
            e.send("go nodes 500000");
            std::string reply = lastScore(e.readUntil("bestmove", 60000));
            REQUIRE(reply.rfind("mate -", 0) == 0);  // the opponent is still being mated
        }
    }
    REQUIRE(tried >= 45);
    INFO(exact << " of " << tried << " exact");
    // A floor against a broken mate search, not a target: the tuned evaluation finds 39 of 49
    // here at 500,000 nodes while its scripts/lab games mate-suite figure rose from 246/300 to 250/300.
    REQUIRE(exact * 100 >= tried * 75);
}

TEST_CASE("uci: once a mate is found, the search goes on to the shortest", "[uci][mate]") {
    // Positions of mates2000.epd where the first mate the search finds is the longer one (a
    // mate in 8 for a mate in 4, in 11 for 6) and where it reports the shortest by 102,000
    // nodes at the latest, at bench 955148 and 857458: a tenfold margin at 1M nodes. Within an
    // iteration it is alpha-beta with mate distance pruning that finds the shorter mate; after a
    // mate the next window's near side is the mate itself (search.cpp), which matters little at
    // this budget: of the 450 mates in 4 or more among the suite's first 500 lines, the search
    // reports the shortest in 400 with it and in 401 without (bench 857458). One position may
    // miss by an ordering's luck; a search that kept its first mate would miss them all.
    // The hand-written evaluation is kept: the search is measured here (the network's mate
    // finding by scripts/lab games mate-suite).
    const std::pair<const char*, const char*> mates[] = {
        {"4b3/2N1P2n/3p2pP/n2N1kP1/3B2R1/7B/7p/1Kb5 b - - 0 1", "mate -4"},
        {"5B2/1p5p/1p6/1K2N2k/2P5/5Np1/6P1/8 b - - 0 1", "mate -4"},
        {"8/4B3/8/6R1/7k/8/5rPK/6N1 b - - 0 1", "mate -4"},
        {"8/BB6/8/1k6/8/1K6/1P6/8 b - - 0 1", "mate -4"},
        {"1R1N3r/2p5/1k6/8/8/3N4/8/2Kb4 b - - 0 1", "mate -5"},
        {"4K3/3N4/4kB2/1P6/4P3/8/5P2/8 b - - 0 1", "mate -5"},
        {"8/2p5/B1K5/2B5/k7/3P4/P7/8 b - - 0 1", "mate -5"},
        {"8/6K1/8/7k/8/5pPP/5P2/5B2 w - - 0 1", "mate 6"}};
    EngineProcess e;
    e.send("setoption name Hash value 64");
    e.send("setoption name Use NNUE value false");
    int shortest = 0;
    for (const auto& [fen, mate] : mates) {
        e.send("ucinewgame");
        e.send("position fen " + std::string(fen));
        e.send("go nodes 1000000");
        const std::string score = lastScore(e.readUntil("bestmove", 60000));
        UNSCOPED_INFO(fen << ": " << score << ", the shortest " << mate);
        shortest += score == mate;
    }
    REQUIRE(shortest >= 7);
}

TEST_CASE("uci: a search stopped mid-iteration claims no mate against itself it has not proven", "[uci][mate]") {
    // Black is mated in 8 (mates2000.epd; Stockfish agrees). At this budget the search stops in
    // its 27th iteration after the first root move, a7a6, has come back mated in 7 and before
    // the others (Kf2 holds out to 8) are searched; that score went out as the search's, a mate
    // shorter than the position's. The 26th iteration's line is what stands (search.cpp).
    const std::string fen = "8/rp4p1/6K1/P1B5/4p3/1p2R1Np/1P4pr/6kq b - - 0 1";
    EngineProcess e;
    e.send("position fen " + fen);
    e.send("go nodes 6000000");
    auto lines = e.readUntil("bestmove", 120000);
    REQUIRE(isLegal(fen, bestMoveOf(lines)));
    REQUIRE(lastScore(lines) == "mate -8");
}

TEST_CASE("uci: Use NNUE and EvalFile choose the evaluation, and a bad file changes nothing", "[uci][nnue]") {
    EngineProcess e;
    const auto finalLine = [&] {
        e.send("eval");
        for (const auto& l : e.readUntil("Final evaluation"))
            if (startsWith(l, "Final evaluation")) return l;
        return std::string();
    };
    // The embedded network by default; the hand-written evaluation with Use NNUE off.
    e.send("position startpos moves e2e4");
    const std::string embedded = finalLine();
    REQUIRE(embedded.find("network") != std::string::npos);
    e.send("setoption name Use NNUE value false");
    const std::string handWritten = finalLine();
    REQUIRE(handWritten.find("network") == std::string::npos);

    e.send("setoption name Use NNUE value true");
    auto lines = e.sync();
    REQUIRE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
        return l.find("NNUE evaluation using <embedded>") != std::string::npos;
    }));
    REQUIRE(finalLine() == embedded);

    for (const char* bad : {"setoption name EvalFile value /no/such/file.nnue",
                            "setoption name EvalFile value " QUADBIT_SOURCE_DIR "/README.md"}) {
        INFO(bad);
        e.send(bad);
        REQUIRE(errorsIn(e.sync()).size() == 1);
        REQUIRE(finalLine() == embedded);
    }
    e.send("setoption name EvalFile value " QUADBIT_SOURCE_DIR "/src/nnue/default.nnue");
    lines = e.sync();
    REQUIRE(errorsIn(lines).empty());
    REQUIRE(finalLine() == embedded);
    // The file's shape and description, where it comes from, are said at load and by eval.
    const std::string& about = nnue::embedded().description;
    const std::string shape = nnue::embedded().shape();
    REQUIRE(about.find("quadbit train") != std::string::npos);
    REQUIRE(shape == "(768 -> 256) x 2 -> 1 of 8 buckets");
    REQUIRE(std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
        return startsWith(l, "info string NNUE evaluation using ") &&
               l.find(", " + shape + "): " + about) != std::string::npos;
    }));
    e.send("eval");
    lines = e.readUntil("Final evaluation");
    REQUIRE(std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
        return startsWith(l, "Network ") && l.find(", " + shape + ": " + about) != std::string::npos;
    }));
    e.send("go depth 6");
    REQUIRE(isLegal("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", bestMoveOf(e.readUntil("bestmove"))));

    // A wider file: the embedded network's neurons, and as many more whose output weights are
    // zero, evaluates as the embedded one and, one thread searching deterministically, searches
    // the very same tree; each search thread's accumulators take its width, and give it back.
    const nnue::Network& base = nnue::embedded();
    const int hidden = base.hidden();
    // The embedded network's output layer and its options, in a network of its width or wider.
    const auto copyOutputLayer = [&](nnue::Network& to) {
        to.scale = base.scale;
        to.outputBuckets = base.outputBuckets;
        to.kingMirror = base.kingMirror;
        for (int bucket = 0; bucket < base.outputBuckets; ++bucket) {
            for (int side = 0; side < 2; ++side)
                std::copy_n(base.outputWeights(bucket, side), hidden, to.outputWeights(bucket, side));
            to.outputBias[bucket] = base.outputBias[bucket];
        }
    };
    nnue::Network wider(2 * hidden);
    copyOutputLayer(wider);
    for (int row = 0; row <= nnue::INPUTS; ++row) {
        std::copy_n(base.featureWeights(row), hidden, wider.featureWeights(row));
        std::fill_n(wider.featureWeights(row) + hidden, hidden, std::int16_t(row % 7 - 3));
    }
    const std::string widerPath = tempPath("uci-wider.nnue");
    std::ofstream(widerPath, std::ios::binary) << nnue::encode(wider);
    const auto searchNodes = [&] {
        e.send("ucinewgame");
        e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        e.send("go depth 9");
        std::string nodes;
        for (const auto& l : e.readUntil("bestmove"))
            if (auto at = l.find(" nodes "); startsWith(l, "info") && at != std::string::npos)
                nodes = l.substr(at + 7, l.find(' ', at + 7) - at - 7);
        return nodes;
    };
    const std::string embeddedNodes = searchNodes();
    e.send("setoption name EvalFile value " + widerPath);
    lines = e.sync();
    REQUIRE(errorsIn(lines).empty());
    REQUIRE(std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
        return l.find("(768 -> " + std::to_string(2 * hidden) + ") x 2 -> 1") != std::string::npos;
    }));
    e.send("position startpos moves e2e4");
    REQUIRE(finalLine() == embedded);
    REQUIRE(searchNodes() == embeddedNodes);
    e.send("setoption name Threads value 2");
    e.send("position startpos moves e2e4");
    e.send("go depth 8");
    REQUIRE(isLegal("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", bestMoveOf(e.readUntil("bestmove"))));
    e.send("setoption name Threads value 1");
    // King buckets: the embedded network's inputs in each of 4, so that a king move to another
    // rank redraws its side's view (the accumulator computed afresh) and changes nothing else.
    nnue::Network kings(hidden, nnue::KingBuckets::layout(4));
    copyOutputLayer(kings);
    for (int row = 0; row <= kings.inputs(); ++row)
        std::copy_n(base.featureWeights(row == kings.inputs() ? nnue::INPUTS : row % nnue::INPUTS), hidden,
                    kings.featureWeights(row));
    const std::string kingsPath = tempPath("uci-kings.nnue");
    std::ofstream(kingsPath, std::ios::binary) << nnue::encode(kings);
    e.send("setoption name EvalFile value " + kingsPath);
    lines = e.sync();
    REQUIRE(errorsIn(lines).empty());
    REQUIRE(std::any_of(lines.begin(), lines.end(),
                        [&](const std::string& l) { return l.find("(4 x 768 -> ") != std::string::npos; }));
    REQUIRE(searchNodes() == embeddedNodes);
    e.send("setoption name EvalFile value <embedded>");
    REQUIRE(searchNodes() == embeddedNodes);
    std::filesystem::remove(widerPath);
    std::filesystem::remove(kingsPath);
    e.send("position startpos moves e2e4");

    e.send("setoption name Use NNUE value false");
    REQUIRE(finalLine() == handWritten);
    e.send("quit");
    REQUIRE(e.waitExit() == 0);
}

TEST_CASE("uci: switching the evaluation clears the hash table, keeping it does not", "[uci][nnue]") {
    // The table stores static evaluations, on the scale of the evaluator that made them. One
    // thread searches deterministically: after a search, a second one of the same position
    // takes as many nodes as after Clear Hash when the table was cleared, fewer when it was kept
    // (the history tables stay in all three). How many fewer is the tree's business: 0.66 of
    // them at bench 955148, 0.79 at 857458 (Stockfish 11's LMR terms).
    const auto secondSearchNodes = [](const std::vector<std::string>& between) {
        EngineProcess e;
        e.send("setoption name Use NNUE value false");
        e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        e.send("go depth 9");
        e.readUntil("bestmove");
        for (const std::string& command : between) e.send(command);
        e.send("go depth 9");
        std::uint64_t nodes = 0;
        for (const auto& l : e.readUntil("bestmove"))
            if (auto at = l.find(" nodes "); startsWith(l, "info") && at != std::string::npos)
                nodes = std::stoull(l.substr(at + 7));
        return nodes;
    };
    const std::uint64_t cleared = secondSearchNodes({"setoption name Clear Hash"});
    REQUIRE(secondSearchNodes({"setoption name Use NNUE value true", "setoption name Use NNUE value false"}) ==
            cleared);
    REQUIRE(secondSearchNodes({"setoption name Use NNUE value false"}) < cleared);
}
