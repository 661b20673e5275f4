#include "uci.h"

#include <algorithm>
#include <iostream>
#include <mutex>
#include <sstream>

#include "bench.h"
#include "buildinfo.h"
#include "cluster.h"
#include "engine.h"
#include "eval/eval.h"
#include "iolog.h"
#include "text.h"

namespace uci {

namespace {

std::mutex outputMutex;

std::string formatInfo(const SearchInfo& info) {
    std::ostringstream out;
    out << "info depth " << info.depth;
    if (info.pv.empty()) {  // no legal move: mate 0 or a stalemate's 0
        out << " score " << search::scoreToUci(info.score);
        return out.str();
    }
    out << " seldepth " << info.selDepth << " multipv " << info.multiPV << " score " << search::scoreToUci(info.score);
    if (info.hasWdl) out << " wdl " << info.wdl.win << " " << info.wdl.draw << " " << info.wdl.loss;
    if (info.lowerbound) out << " lowerbound";
    else if (info.upperbound) out << " upperbound";
    out << " nodes " << info.nodes << " nps " << info.nps << " hashfull " << info.hashfull << " tbhits " << info.tbHits
        << " time " << info.time << " pv";
    for (const std::string& m : info.pv) out << " " << m;
    return out.str();
}

const char* const GO_KEYWORDS[] = {"wtime", "btime",    "winc",     "binc",   "movestogo",   "depth", "nodes",
                                   "mate",  "movetime", "infinite", "ponder", "searchmoves", "perft"};

bool isGoKeyword(const std::string& token) {
    return std::find(std::begin(GO_KEYWORDS), std::end(GO_KEYWORDS), token) != std::end(GO_KEYWORDS);
}

std::vector<std::string> words(std::istringstream& in) {
    std::vector<std::string> list;
    for (std::string w; in >> w;) list.push_back(w);
    return list;
}

}  // namespace

Session::Session(Engine& e) : engine(e) {
    SearchCallbacks callbacks;
    callbacks.onInfo = [](const SearchInfo& info) { send(formatInfo(info)); };
    callbacks.onCurrMove = [](int depth, const std::string& move, int number) {
        send("info depth " + std::to_string(depth) + " currmove " + move + " currmovenumber " + std::to_string(number));
    };
    callbacks.onBestMove = [](const std::string& best, const std::string& ponder) {
        send("bestmove " + (best.empty() ? std::string("(none)") : best) + (ponder.empty() ? "" : " ponder " + ponder));
    };
    engine.setCallbacks(std::move(callbacks));
    engine.setMessageSink([](const std::string& text) { send("info string " + text); });
}

void Session::error(const std::string& what) {
    ++errorCount;
    send("info string error: " + what);
}

void Session::cmdUci() {
    send("id name Quadbit 0.1\nid author the Quadbit developers\n" + engine.options().describe() + "uciok");
    // After uciok, as information: whether the hash table got large pages (on Windows they
    // need a privilege the user must be granted; docs/usage.md says how).
    send("info string hash " + std::to_string(engine.hashTable().sizeMB()) + " MB in " + engine.hashTable().pages());
}

// A GUI that sends stop and then isready wants readyok once the search has wound down; a search
// that goes on (a timed one, or pondering) is not waited for: readyok comes at once.
void Session::cmdIsReady() {
    if (engine.searching() && engine.stopping()) engine.wait();
    send("readyok");
}

void Session::cmdSetOption(std::istringstream& in) {
    // setoption name <name, may contain spaces> [value <value, may contain spaces>]
    std::string token, name, value;
    bool inValue = false;
    in >> token;
    if (token != "name") return error("setoption needs 'name <option>'");
    while (in >> token) {
        if (!inValue && token == "value") {
            inValue = true;
            continue;
        }
        std::string& target = inValue ? value : name;
        target += (target.empty() ? "" : " ") + token;
    }
    if (std::string why = engine.options().set(name, value); !why.empty()) error(why);
}

void Session::cmdPosition(std::istringstream& in) {
    std::string token, fen;
    in >> token;
    if (token == "startpos") {
        fen = START_FEN;
        if (in >> token && token != "moves")
            return error("unexpected '" + token + "' after startpos (expected 'moves')");
    } else if (token == "fen") {
        while (in >> token && token != "moves") fen += token + " ";
    } else return error("position needs 'startpos' or 'fen <FEN>'");
    if (std::string why = engine.setPosition(fen, words(in)); !why.empty()) error(why);
}

void Session::cmdGo(std::istringstream& in) {
    const TimePoint start = now();
    SearchLimits limits;
    std::vector<std::string> bad;
    std::string token;
    bool pending = false;  // `token` holds a keyword already read (after searchmoves)
    // A GUI that sends a limit waits for bestmove, so a value that is not a whole number of at
    // least `min` is reported and read as `fallback`, the smallest limit of its kind, never as no
    // limit (Ethereal answers such a go at once too).
    auto number = [&](const std::string& name, long long min, long long fallback) {
        std::string text;
        long long n;
        if (in >> text && text::parseInt(text, n) && n >= min) return n;
        bad.push_back(name + " '" + text + "' (read as " + std::to_string(fallback) + ")");
        return fallback;
    };
    constexpr long long ANY = -TimeManager::MAX_CLOCK;  // a clock may be negative: read as 1 ms
    while (pending || in >> token) {
        pending = false;
        if (token == "perft") {
            std::string depth;
            in >> depth;
            return cmdPerft(depth);
        }
        if (token == "wtime") limits.time[WHITE] = std::max(1LL, number("wtime", ANY, 1));
        else if (token == "btime") limits.time[BLACK] = std::max(1LL, number("btime", ANY, 1));
        else if (token == "winc") limits.inc[WHITE] = number("winc", 0, 0);
        else if (token == "binc") limits.inc[BLACK] = number("binc", 0, 0);
        else if (token == "movestogo") limits.movestogo = int(std::min(number("movestogo", 1, 0), 1000LL));
        else if (token == "depth") limits.depth = int(std::min<long long>(number("depth", 1, 1), MAX_PLY - 1));
        else if (token == "nodes") limits.nodes = std::uint64_t(number("nodes", 1, 1));
        else if (token == "mate") limits.mate = int(std::min(number("mate", 1, 1), 500LL));
        else if (token == "movetime") limits.movetime = number("movetime", 1, 1);
        else if (token == "infinite") limits.infinite = true;
        else if (token == "ponder") limits.ponder = true;
        else if (token == "searchmoves") {
            // The move list ends at the next keyword: `go searchmoves e2e4 d2d4 depth 10`.
            while (in >> token) {
                if (isGoKeyword(token)) {
                    pending = true;
                    break;
                }
                Move m = engine.parseMove(token);
                if (m == MOVE_NONE) bad.push_back("searchmoves '" + token + "' (not legal here)");
                else limits.searchmoves.push_back(m);
            }
        } else bad.push_back("'" + token + "'");
    }
    for (const std::string& b : bad) error("go: " + b);
    if (std::string why = engine.go(limits, start); !why.empty()) error(why);
}

void Session::cmdPerft(const std::string& depthText) {
    long long depth;
    if (!text::parseInt(depthText, depth) || depth < 0)
        return error("perft needs a depth, e.g. 'go perft 6', got '" + depthText + "'");
    if (depth > 20) return error("perft depth " + depthText + " is too deep (at most 20)");
    if (std::string why = engine.perft(int(depth), [](const std::string& report) { send(report); }); !why.empty())
        error(why);
}

bool Session::execute(const std::string& line) {
    std::istringstream in(line);
    std::string cmd;
    if (!(in >> cmd)) return true;  // blank line

    if (cmd == "quit") {
        engine.stop();
        engine.wait();
        return false;
    }
    if (cmd == "uci") cmdUci();
    else if (cmd == "isready") cmdIsReady();
    else if (cmd == "ucinewgame") {
        if (std::string why = engine.newGame(); !why.empty()) error(why);
    } else if (cmd == "setoption") cmdSetOption(in);
    else if (cmd == "position") cmdPosition(in);
    else if (cmd == "go") cmdGo(in);
    else if (cmd == "stop") engine.stop();
    else if (cmd == "ponderhit") engine.ponderhit();
    else if (cmd == "bench" || cmd == "speedtest") {
        const auto args = words(in);
        const auto print = [](const std::string& text) { send(text); };
        std::string why = cmd == "bench" ? runBench(engine, args, print) : runSpeedtest(engine, args, print);
        if (!why.empty()) error(why);
    } else if (cmd == "d") send(engine.describePosition());
    else if (cmd == "compiler") send(buildDescription());
    else if (cmd == "eval") send(evalTrace(engine.position(), engine.network()));
    else if (cmd == "perft") {  // shorthand of `go perft N`
        std::string depth;
        in >> depth;
        cmdPerft(depth);
    } else error("unknown command '" + line.substr(0, 80) + "'");
    return true;
}

void send(const std::string& text) {
    if (!cluster::isRoot()) return;  // in a cluster the root alone speaks UCI
    std::lock_guard<std::mutex> lock(outputMutex);
    iolog::write('>', text);
    std::cout << text << std::endl;
}

int loop(int argc, char** argv) {
    Engine engine;
    Session session(engine);
    if (argc > 1) {
        std::string line;
        const std::string first = argv[1];
        if (first == "perft") {
            // quadbit perft DEPTH [FEN]
            std::string fen;
            for (int i = 3; i < argc; ++i) fen += std::string(argv[i]) + " ";
            if (!fen.empty() && !session.execute("position fen " + fen)) return 1;
            if (session.errors()) return 1;
            line = "go perft " + std::string(argc > 2 ? argv[2] : "");
        } else
            for (int i = 1; i < argc; ++i) line += std::string(argv[i]) + " ";
        session.execute(line);
        engine.wait();  // a command-line search or perft runs to its end
        return session.errors() ? 1 : 0;
    }
#ifdef QUADBIT_MPI
    // Every rank runs the root's commands in the same order (cluster.h).
    engine.joinCluster();
    for (std::string line; cluster::getline(line);) {
        if (cluster::isRoot()) iolog::write('<', line);
        if (!session.execute(line)) break;
    }
    cluster::stop();
    return 0;
#else
    for (std::string line; std::getline(std::cin, line);) {
        iolog::write('<', line);
        if (!session.execute(line)) return 0;
    }
    session.execute("quit");
    return 0;
#endif
}

}  // namespace uci
