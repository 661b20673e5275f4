// What real clients do to an engine: GUIs that pipeline commands without waiting for bestmove,
// clocks of every shape, exact node limits, the options players expect, the command line.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include "engine_process.h"
#include "movegen.h"
#include "position.h"
#include "support.h"

namespace {

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::string word(const std::string& line, int index) {
    std::istringstream in(line);
    std::string w;
    for (int i = 0; i <= index && in >> w;) ++i;
    return w;
}

// The value after `key` in an info line ("" if absent).
std::string field(const std::string& line, const std::string& key) {
    std::smatch m;
    return std::regex_search(line, m, std::regex(" " + key + " (\\S+)")) ? std::string(m[1]) : "";
}

bool legalIn(const std::string& fen, const std::string& move) {
    Position pos;
    return pos.setFen(fen) == "" && pos.parseUciMove(move) != MOVE_NONE;
}

int errorCount(const std::vector<std::string>& lines) {
    return int(std::count_if(lines.begin(), lines.end(), [](auto& l) { return startsWith(l, "info string error"); }));
}

long long millisSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
}

const char* const POSITIONS[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
};

}  // namespace

TEST_CASE("clients: stop, position, go sent without waiting are all obeyed (20 of 20)", "[uci][clients]") {
    // What polyglot does on every ponder miss and xboard's analysis on every board change: the
    // new position and go arrive before the old search has printed bestmove.
    EngineProcess e;
    e.send("setoption name Ponder value true");
    int right = 0;
    for (int round = 0; round < 20; ++round) {
        const std::string oldFen = POSITIONS[round % 5], newFen = POSITIONS[(round + 2) % 5];
        e.send("position fen " + oldFen);
        e.send(round % 2 ? "go infinite" : "go ponder wtime 10000 btime 10000 winc 100 binc 100");
        std::this_thread::sleep_for(std::chrono::milliseconds(5 + 7 * round));
        e.send("stop");
        e.send("position fen " + newFen);
        e.send("go depth 4");
        auto first = e.readUntil("bestmove", 5000);
        auto second = e.readUntil("bestmove", 10000);
        const bool ok =
            errorCount(first) + errorCount(second) == 0 && legalIn(oldFen, word(first.back(), 1)) &&
            legalIn(newFen, word(second.back(), 1)) &&
            std::any_of(second.begin(), second.end(), [](auto& l) { return startsWith(l, "info depth 4 "); });
        right += ok;
    }
    REQUIRE(right == 20);
    e.send("quit");
    REQUIRE(e.waitExit() == 0);
}

TEST_CASE("clients: isready after stop answers once the search has wound down", "[uci][clients]") {
    EngineProcess e;
    e.send("position startpos");
    for (int i = 0; i < 5; ++i) {
        e.send("go infinite");
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        e.send("stop");
        e.send("isready");
        auto lines = e.readUntil("readyok", 5000);
        REQUIRE(std::count_if(lines.begin(), lines.end(), [](auto& l) { return startsWith(l, "bestmove"); }) == 1);
        // setoption and ucinewgame right after stop wait too, instead of being refused.
        e.send("go infinite");
        e.send("stop");
        e.send("setoption name Hash value " + std::to_string(8 + i));
        e.send("ucinewgame");
        REQUIRE(errorCount(e.sync()) == 0);
    }
}

TEST_CASE("clients: go nodes is exact with one thread", "[uci][limits]") {
    EngineProcess e;
    std::vector<long long> counts;
    for (const char* fen : POSITIONS)
        for (int limit : {300, 1000, 5000}) {
            e.send("ucinewgame");
            e.send(std::string("position fen ") + fen);
            e.send("go nodes " + std::to_string(limit));
            auto lines = e.readUntil("bestmove");
            REQUIRE(startsWith(lines[lines.size() - 2], "info depth"));
            long long nodes = std::stoll(field(lines[lines.size() - 2], "nodes"));
            INFO(fen << " nodes " << limit << ": searched " << nodes);
            // Depth 1 always completes, which may take more than 300 nodes.
            if (limit >= 1000) REQUIRE(nodes >= limit);
            REQUIRE(nodes <= std::max(limit + 50, limit == 300 ? 1000 : 0));
            counts.push_back(nodes);
        }
    // `go nodes 1` still plays a move it has looked at, with its score.
    e.send("position startpos");
    e.send("go nodes 1");
    auto lines = e.readUntil("bestmove");
    REQUIRE(legalIn(START_FEN, word(lines.back(), 1)));
    REQUIRE(startsWith(lines[lines.size() - 2], "info depth 1 "));
}

TEST_CASE("clients: the clock is never used up, whatever its shape", "[uci][time]") {
    struct Case {
        const char* go;
        long long clock;  // our time left, ms
        double share;     // the most of it we may use
    } cases[] = {
        {"go wtime 1000 btime 1000 winc 1000 binc 1000", 1000, 0.5},  // increment as large as the clock
        {"go wtime 300 btime 300 winc 3000 binc 3000", 300, 0.5},     // increment far larger
        {"go wtime 100 btime 100", 100, 0.5},                         // a tiny clock
        {"go wtime 30 btime 30 winc 10 binc 10", 30, 1.0},            // almost nothing left
        {"go wtime 1000 btime 1000 movestogo 1", 1000, 0.8},          // the last move before a refill
        {"go wtime 2000 btime 2000 movestogo 2", 2000, 0.5},
        {"go wtime 1000 btime 1000 winc 200000000000000000 binc 200000000000000000", 1000, 0.5},  // overflow bait
        {"go wtime -50 btime -50", 1, 60},  // a negative clock (lag): move at once
    };
    EngineProcess e;
    e.sync(30000);  // the clock starts at go, not while the engine starts up
    for (const Case& c : cases) {
        for (const char* fen : {POSITIONS[0], POSITIONS[2]}) {
            INFO(c.go << " in " << fen);
            e.send(std::string("position fen ") + fen);
            auto start = std::chrono::steady_clock::now();
            e.send(c.go);
            auto lines = e.readUntil("bestmove", 10000);
            const long long used = millisSince(start);
            INFO("used " << used << " ms");
            REQUIRE(legalIn(fen, word(lines.back(), 1)));
            REQUIRE(errorCount(lines) == 0);
            // 50 ms for the pipes and the scheduling of a loaded machine.
            REQUIRE(used <= c.clock * c.share + 50);
        }
    }
}

TEST_CASE("clients: a stopped search ends with an info line for its move and a ponder move", "[uci][clients]") {
    EngineProcess e;
    for (const char* fen : POSITIONS) {
        INFO(fen);
        e.send(std::string("position fen ") + fen);
        e.send("go infinite");
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        e.send("stop");
        auto lines = e.readUntil("bestmove", 3000);
        REQUIRE(lines.size() >= 2);
        const std::string& last = lines[lines.size() - 2];
        REQUIRE(std::regex_search(last, std::regex("^info depth \\d+ seldepth \\d+ multipv 1 score (cp|mate) -?\\d+")));
        REQUIRE(last.substr(last.find(" pv ") + 4, 4) == word(lines.back(), 1).substr(0, 4));
        REQUIRE(word(lines.back(), 2) == "ponder");
    }
    // A one-move PV (the node limit ends the search as depth 2 starts) still gets a ponder move,
    // from the hash table.
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go nodes 1");
    auto lines = e.readUntil("bestmove");
    const std::string& info = lines[lines.size() - 2];
    REQUIRE(info.substr(info.find(" pv ") + 4).size() == 4);
    Position pos;
    pos.setFen(START_FEN);
    pos.makeMove(pos.parseUciMove(word(lines.back(), 1)));
    REQUIRE(word(lines.back(), 2) == "ponder");
    REQUIRE(pos.parseUciMove(word(lines.back(), 3)) != MOVE_NONE);
}

TEST_CASE("clients: searchmoves ends at the next keyword", "[uci][limits]") {
    EngineProcess e;
    e.send("position startpos");
    e.send("go searchmoves a2a3 h2h3 depth 3");
    auto lines = e.readUntil("bestmove");
    REQUIRE(errorCount(lines) == 0);
    const std::string best = word(lines.back(), 1);
    REQUIRE((best == "a2a3" || best == "h2h3"));
    REQUIRE(startsWith(lines[lines.size() - 2], "info depth 3 "));
}

TEST_CASE("clients: Chess960 notation follows UCI_Chess960, not the last FEN", "[uci][chess960]") {
    EngineProcess e;
    // A Chess960 start position read in standard mode (its castling rights need file letters)...
    e.send("position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    e.send("go perft 1");
    REQUIRE(e.readUntil("Nodes searched").back() == "Nodes searched: 21");
    // ...leaves a later standard game standard: e1g1 castles, and the engine writes it so.
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1");
    e.send("d");
    auto lines = e.readUntil("Fen:");
    REQUIRE(lines.back() == "Fen: r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    e.send("position fen 4k3/8/8/8/8/8/5PPP/4K2R w K - 0 1");
    e.send("go searchmoves e1g1 depth 2");
    REQUIRE(e.readUntil("bestmove").back().rfind("bestmove e1g1", 0) == 0);
    e.send("setoption name UCI_Chess960 value true");
    e.send("position fen 4k3/8/8/8/8/8/5PPP/4K2R w K - 0 1");
    e.send("go searchmoves e1h1 depth 2");
    REQUIRE(e.readUntil("bestmove").back().rfind("bestmove e1h1", 0) == 0);
}

TEST_CASE("clients: perft runs like a search: stop and quit end it", "[uci][perft]") {
    EngineProcess e;
    e.send("go perft 20");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    e.send("isready");
    REQUIRE(e.readLine(2000) == "readyok");  // the command reader is free
    e.send("stop");
    REQUIRE(startsWith(e.readLine(2000), "info string perft stopped"));
    e.send("go perft 3");
    REQUIRE(e.readUntil("Nodes searched").back() == "Nodes searched: 8902");
    e.send("go perft 20");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto start = std::chrono::steady_clock::now();
    e.send("quit");
    REQUIRE(e.waitExit(3000) == 0);
    REQUIRE(millisSince(start) < 1000);
}

TEST_CASE("clients: a FEN the engine prints after long games is a FEN it reads", "[fen]") {
    EngineProcess e;
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 999999 999999 moves h1h2 e8e7 h2h1 e7e8");
    e.send("d");
    auto lines = e.readUntil("Fen:");
    const std::string fen = lines.back().substr(5);
    REQUIRE(fen == "4k3/8/8/8/8/8/8/4K2R w - - 1000003 1000001");
    e.send("position fen " + fen);
    REQUIRE(errorCount(e.sync()) == 0);
    e.send("d");
    REQUIRE(e.readUntil("Fen:").back() == "Fen: " + fen);
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 99999999999");
    REQUIRE(errorCount(e.sync()) == 1);
}

TEST_CASE("clients: Debug Log File records every line in and out with a time stamp", "[uci][options]") {
    const std::string path = tempPath("debug-log.txt");
    std::remove(path.c_str());
    {
        EngineProcess e;
        e.send("setoption name Debug Log File value " + path);
        e.send("position startpos");
        e.send("go depth 2");
        e.readUntil("bestmove");
        e.send("setoption name Debug Log File value /nonexistent-folder/log.txt");
        REQUIRE(errorCount(e.sync()) == 1);  // and the old log goes on
        e.send("quit");
        REQUIRE(e.waitExit() == 0);
    }
    std::ifstream in(path);
    REQUIRE(in);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    std::remove(path.c_str());
    const std::regex stamp("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} [<>] .*");
    for (const auto& l : lines) REQUIRE(std::regex_match(l, stamp));
    auto has = [&](const std::string& tail) {
        return std::any_of(lines.begin(), lines.end(), [&](auto& l) { return l.size() > 24 && l.substr(24) == tail; });
    };
    REQUIRE(has("< position startpos"));
    REQUIRE(has("< go depth 2"));
    REQUIRE(
        std::any_of(lines.begin(), lines.end(), [](auto& l) { return l.find("> bestmove ") != std::string::npos; }));
    REQUIRE(has("< isready"));
    REQUIRE(has("> readyok"));
    REQUIRE(has("< quit"));
}

TEST_CASE("clients: UCI_AnalyseMode is offered and reports the search early", "[uci][options]") {
    EngineProcess e;
    e.send("uci");
    auto lines = e.readUntil("uciok");
    REQUIRE(std::count(lines.begin(), lines.end(), "option name UCI_AnalyseMode type check default false") == 1);
    REQUIRE(std::count(lines.begin(), lines.end(), "option name Debug Log File type string default <empty>") == 1);
    REQUIRE(std::count(lines.begin(), lines.end(),
                       "option name Bind type combo default auto var auto var none var compact var scatter") == 1);
    e.send("setoption name UCI_AnalyseMode value true");
    e.send("setoption name UCI_AnalyseMode value perhaps");
    REQUIRE(errorCount(e.sync()) == 1);
    // In analysis mode the current move is reported after a second instead of three.
    e.send("position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10");
    e.send("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(2800));
    e.send("stop");
    lines = e.readUntil("bestmove", 3000);
    REQUIRE(std::any_of(lines.begin(), lines.end(), [](auto& l) { return l.find(" currmove ") != std::string::npos; }));
}

TEST_CASE("clients: the command line refuses wrong arguments with a non-zero exit", "[cli]") {
    for (std::vector<std::string> args :
         std::vector<std::vector<std::string>>{{"frobnicate"},
                                               {"bench", "x"},
                                               {"bench", "16", "1", "3", "no-such-file.epd"},
                                               {"bench", "16", "1", "3", "default", "hours"},
                                               {"perft", "x"},
                                               {"perft", "3", "not", "a", "fen"},
                                               {"speedtest", "0"}}) {
        std::string joined;
        for (auto& a : args) joined += a + " ";
        INFO(joined);
        EngineProcess e(args);
        REQUIRE(startsWith(e.readLine(), "info string error"));
        REQUIRE(e.waitExit() == 1);
    }
    // Stockfish's bench arguments: the current position, a node limit.
    EngineProcess bench({"bench", "16", "1", "2000", "current", "nodes"});
    auto lines = bench.readUntil("Nodes searched", 10000);
    REQUIRE(lines.back() == "Nodes searched  : 2000");
    REQUIRE(bench.waitExit() == 0);
    // perft 1 takes no measurable time: no speed is printed, rather than a division by zero.
    EngineProcess perft({"perft", "1"});
    lines = perft.readUntil("Time (ms)");
    if (lines.back() == "Time (ms): 0") REQUIRE_THROWS(perft.readLine(2000));  // the engine exits, nothing more
    REQUIRE(perft.waitExit() == 0);
}

TEST_CASE("clients: Skill Level plays good moves, not always the best, and full strength is unchanged",
          "[uci][options]") {
    EngineProcess e;
    e.send("uci");
    auto lines = e.readUntil("uciok");
    for (const char* option :
         {"option name Skill Level type spin default 20 min 0 max 20",
          "option name UCI_LimitStrength type check default false", "option name UCI_Elo type spin default "})
        REQUIRE(std::any_of(lines.begin(), lines.end(), [&](auto& l) { return startsWith(l, option); }));
    std::string lowestElo;  // UCI_Elo's minimum: the measured strength of level 0
    for (const auto& l : lines)
        if (startsWith(l, "option name UCI_Elo ")) lowestElo = word(l, 8);
    REQUIRE(!lowestElo.empty());

    // The four best moves of each position, by a full-strength MultiPV search at the depth where
    // level 2 chooses (1 + level).
    auto topMoves = [&](const std::string& fen) {
        e.send("setoption name Skill Level value 20");
        e.send("setoption name MultiPV value 4");
        e.send("ucinewgame");
        e.send("position fen " + fen);
        e.send("go depth 3");
        std::set<std::string> top;
        for (const auto& l : e.readUntil("bestmove"))
            if (startsWith(l, "info depth 3 ")) top.insert(l.substr(l.find(" pv ") + 4, 4));
        e.send("setoption name MultiPV value 1");
        return top;
    };
    int differs = 0, tries = 0;
    for (const char* fen : POSITIONS) {
        const auto top = topMoves(fen);
        REQUIRE(top.size() >= 2);
        e.send("position fen " + std::string(fen));
        e.send("go depth 3");
        const std::string strongest = word(e.readUntil("bestmove").back(), 1);
        e.send("setoption name Skill Level value 2");
        for (int i = 0; i < 6; ++i) {
            e.send("ucinewgame");
            e.send("position fen " + std::string(fen));
            e.send("go depth 3");
            lines = e.readUntil("bestmove");
            const std::string chosen = word(lines.back(), 1);
            INFO(fen << " level 2 chose " << chosen);
            REQUIRE(top.count(chosen) == 1);  // always one of the good moves
            // ...and the last info line is that move's own line.
            REQUIRE(lines[lines.size() - 2].substr(lines[lines.size() - 2].find(" pv ") + 4, 4) == chosen);
            differs += chosen != strongest;
            ++tries;
        }
        e.send("setoption name Skill Level value 20");
    }
    REQUIRE(differs * 5 >= tries);  // a weak level often plays another move than the best
    // UCI_Elo at its lowest, with UCI_LimitStrength on, plays weakly too; off, it is ignored.
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value " + lowestElo);
    REQUIRE(e.sync().empty());
    std::set<std::string> chosen;
    for (int i = 0; i < 12; ++i) {
        e.send("ucinewgame");
        e.send(std::string("position fen ") + POSITIONS[2]);
        e.send("go depth 3");
        chosen.insert(word(e.readUntil("bestmove").back(), 1));
    }
    REQUIRE(chosen.size() >= 2);
    e.send("setoption name UCI_LimitStrength value false");
    chosen.clear();
    for (int i = 0; i < 4; ++i) {
        e.send("ucinewgame");
        e.send(std::string("position fen ") + POSITIONS[2]);
        e.send("go depth 3");
        chosen.insert(word(e.readUntil("bestmove").back(), 1));
    }
    REQUIRE(chosen.size() == 1);
}

TEST_CASE("clients: UCI_ShowWDL adds win/draw/loss chances that follow the score", "[uci][options]") {
    EngineProcess e;
    e.send("position startpos");
    e.send("go depth 4");
    for (const auto& l : e.readUntil("bestmove")) REQUIRE(l.find(" wdl ") == std::string::npos);
    e.send("setoption name UCI_ShowWDL value true");
    std::vector<int> wins;
    for (const char* fen :
         {"4k3/8/8/8/8/8/8/3QK3 w - - 0 40", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
          "3qk3/8/8/8/8/8/8/4K3 w - - 0 40"}) {
        e.send(std::string("position fen ") + fen);
        e.send("go depth 4");
        auto lines = e.readUntil("bestmove");
        const std::string& last = lines[lines.size() - 2];
        INFO(last);
        std::smatch m;
        REQUIRE(std::regex_search(last, m, std::regex(" score (cp|mate) -?\\d+ wdl (\\d+) (\\d+) (\\d+) ")));
        const int w = std::stoi(m[2]), d = std::stoi(m[3]), l = std::stoi(m[4]);
        REQUIRE(w + d + l == 1000);
        wins.push_back(w);
    }
    REQUIRE(wins[0] > 900);  // a queen up
    REQUIRE(wins[2] < 100);  // a queen down
    REQUIRE(wins[1] > wins[2]);
    REQUIRE(wins[1] < wins[0]);
}

TEST_CASE("clients: the same go nodes twice gives the same search", "[uci][limits]") {
    // Stockfish's reprosearch check: with one thread, a node-limited search depends on nothing
    // but the position and the hash table, so data generation and node-limited tests repeat.
    auto run = [](const std::string& fen) {
        EngineProcess e;
        std::vector<std::string> result;
        for (int limit : {3000, 20000}) {
            e.send("ucinewgame");
            e.send("position fen " + fen);
            e.send("go nodes " + std::to_string(limit));
            for (auto l : e.readUntil("bestmove")) {
                l = std::regex_replace(l, std::regex(" (nps|time) \\d+"), "");
                result.push_back(l);
            }
        }
        return result;
    };
    for (const char* fen : POSITIONS) {
        INFO(fen);
        REQUIRE(run(fen) == run(fen));
    }
}

TEST_CASE("uci: a long forced mate is found at high depth, on the search threads' own stacks", "[uci]") {
    // K+Q against K: the mate in 9 to 13 moves appears by depth 24, a recursion some 20 plies deep
    // with its checks and quiescence below; on Windows (under Wine in CI) it runs on the 8 MB
    // stacks that the compiler test measures.
    EngineProcess e;
    e.send("position fen 8/8/8/3k4/8/8/8/4K1Q1 w - - 0 1");
    e.send("go depth 24");
    const auto lines = e.readUntil("bestmove", 60000);
    REQUIRE(lines.size() >= 2);
    const std::string& last = lines[lines.size() - 2];
    INFO(last);
    REQUIRE(startsWith(last, "info depth 24 "));
    const int mate = std::stoi(field(last, "mate"));
    REQUIRE((mate >= 9 && mate <= 13));
    REQUIRE(std::stoi(field(last, "seldepth")) >= 2 * mate - 1);
    REQUIRE(legalIn("8/8/8/3k4/8/8/8/4K1Q1 w - - 0 1", word(lines.back(), 1)));
}
