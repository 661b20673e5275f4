#include "uci.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <iostream>
#include <mutex>
#include <sstream>
#include <vector>

#include "bench.h"
#include "eval.h"
#include "movegen.h"
#include "perft.h"
#include "position.h"
#include "threads.h"
#include "topology.h"
#include "tt.h"

namespace uci {

namespace {

std::mutex outputMutex;
bool silent = false;  // bench hides the search output

void error(const std::string& what) { send("info string error: " + what); }

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// A whole-string integer parse: "12x" and "" are not numbers.
bool parseInt(const std::string& text, long long& out) {
    if (text.empty() || text.size() > 18) return false;
    std::size_t i = text[0] == '-' || text[0] == '+';
    if (i == text.size()) return false;
    for (std::size_t k = i; k < text.size(); ++k)
        if (!std::isdigit(static_cast<unsigned char>(text[k]))) return false;
    out = std::stoll(text);
    return true;
}

// One UCI option. `apply` may refuse a value (returning why); the option then keeps its value.
struct Option {
    std::string name, type, defaultValue;
    long long min = 0, max = 0;
    std::function<std::string(const std::string&)> apply;
    std::string value = {};

    std::string describe() const {
        std::string s = "option name " + name + " type " + type;
        if (type == "button") return s;
        s += " default " + (defaultValue.empty() ? std::string("<empty>") : defaultValue);
        if (type == "spin") s += " min " + std::to_string(min) + " max " + std::to_string(max);
        if (type == "combo") s += " var auto var none var compact var scatter";
        return s;
    }
};

class Engine {
public:
    Engine();
    bool execute(const std::string& line);  // false on quit

private:
    void cmdUci() const;
    void cmdSetOption(std::istringstream& in);
    void cmdPosition(std::istringstream& in);
    void cmdGo(std::istringstream& in);
    void cmdBench(std::istringstream& in);
    void cmdSpeedtest(std::istringstream& in);
    bool readArguments(std::istringstream& in, const char* command, const char* const names[3],
                       const long long ranges[3][2], long long values[3]);
    bool useThreadsAndHash(std::size_t threads, std::size_t hashMb);
    void restoreThreadsAndHash();
    std::uint64_t searchSilently(const Position& p, const SearchLimits& limits);
    void newGame();
    Option* findOption(const std::string& name);

    Position pos;
    std::vector<Option> options;
};

Engine::Engine() {
    options.push_back({"Threads", "spin", "1", 1, 1024, [](const std::string& v) {
                           std::string why = Threads.set(std::stoul(v), Threads.bindMode());
                           if (why.empty()) send("info string " + Threads.placement());
                           return why;
                       }});
    options.push_back({"Bind", "combo", "auto", 0, 0, [](const std::string& v) {
                           BindMode mode;
                           if (!parseBindMode(v, mode)) return "option Bind must be auto, none, compact or scatter, got '" + v + "'";
                           std::string why = Threads.set(Threads.size(), mode);
                           if (why.empty()) send("info string " + Threads.placement());
                           return why;
                       }});
    options.push_back({"Hash", "spin", "16", 1, 33554432, [](const std::string& v) {
                           Threads.waitForSearchFinished();
                           std::string why = TT.resize(std::stoull(v));
                           if (why.empty()) Threads.clearHash();
                           return why;
                       }});
    options.push_back({"Clear Hash", "button", "", 0, 0, [](const std::string&) {
                           Threads.clearHash();
                           return std::string();
                       }});
    options.push_back({"Ponder", "check", "false", 0, 0, nullptr});
    options.push_back({"MultiPV", "spin", "1", 1, 256, [](const std::string& v) {
                           Threads.multiPV = std::stoul(v);
                           return std::string();
                       }});
    options.push_back({"Move Overhead", "spin", "10", 0, 5000, [](const std::string& v) {
                           Threads.moveOverhead = std::stoll(v);
                           return std::string();
                       }});
    options.push_back({"UCI_Chess960", "check", "false", 0, 0, [this](const std::string& v) {
                           pos.setChess960(v == "true");
                           return std::string();
                       }});
    for (Option& o : options) o.value = o.defaultValue;

    Threads.set(1, BindMode::AUTO);
    TT.resize(16);
    Threads.clearHash();
}

Option* Engine::findOption(const std::string& name) {
    for (Option& o : options)
        if (lower(o.name) == lower(name)) return &o;
    return nullptr;
}

void Engine::cmdUci() const {
    std::string text = "id name Quadbit 0.1\nid author the Quadbit developers\n";
    for (const Option& o : options) text += o.describe() + "\n";
    send(text + "uciok");
}

void Engine::cmdSetOption(std::istringstream& in) {
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
    Option* o = findOption(name);
    if (!o) return error("unknown option '" + name + "'");
    if (Threads.searching()) return error("cannot change options while searching");

    if (o->type == "spin") {
        long long n;
        if (!parseInt(value, n)) return error("option " + o->name + " needs an integer value, got '" + value + "'");
        if (n < o->min || n > o->max)
            return error("option " + o->name + " value " + value + " is out of range " + std::to_string(o->min) + ".." +
                         std::to_string(o->max));
        value = std::to_string(n);
    } else if (o->type == "check") {
        value = lower(value);
        if (value != "true" && value != "false")
            return error("option " + o->name + " needs true or false, got '" + value + "'");
    } else if (o->type == "combo") {
        value = lower(value);
    } else if (o->type == "button" && !value.empty())
        return error("option " + o->name + " is a button and takes no value");

    if (o->apply) {
        std::string why = o->apply(value);
        if (!why.empty()) return error(why);
    }
    o->value = value;
}

void Engine::cmdPosition(std::istringstream& in) {
    if (Threads.searching()) return error("cannot set a position while searching");
    std::string token, fen;
    in >> token;
    if (token == "startpos") {
        fen = START_FEN;
        if (in >> token && token != "moves") return error("unexpected '" + token + "' after startpos (expected 'moves')");
    } else if (token == "fen") {
        while (in >> token && token != "moves") fen += token + " ";
    } else
        return error("position needs 'startpos' or 'fen <FEN>'");

    // Build the new position aside; adopt it only if the FEN and every move are valid.
    Position next = pos;
    std::string why = next.setFen(fen);
    if (!why.empty()) return error("bad FEN: " + why);
    int index = 0;
    while (in >> token) {
        ++index;
        Move m = next.parseUciMove(token);
        if (m == MOVE_NONE) return error("illegal or malformed move '" + token + "' (move " + std::to_string(index) + ") in position");
        next.makeMove(m);
    }
    pos = next;
}

void Engine::cmdGo(std::istringstream& in) {
    if (Threads.searching()) return error("already searching; send stop first");
    const TimePoint start = now();
    SearchLimits limits;
    std::string token;
    std::vector<std::string> bad;
    auto number = [&](const std::string& name, long long min, long long& out) {
        std::string text;
        long long n;
        if (!(in >> text) || !parseInt(text, n) || n < min) {
            bad.push_back(name + " '" + text + "'");
            return false;
        }
        out = n;
        return true;
    };
    while (in >> token) {
        long long n;
        if (token == "perft") {
            if (!number("perft depth", 0, n)) return error("go perft needs a depth, e.g. 'go perft 6'");
            if (n > 20) return error("perft depth " + std::to_string(n) + " is too deep (at most 20)");
            perftDivide(pos, int(n), int(Threads.size()), std::cout);
            return;
        }
        if (token == "wtime" && number("wtime", -1000000000, n)) limits.time[WHITE] = std::max(1LL, n);
        else if (token == "btime" && number("btime", -1000000000, n)) limits.time[BLACK] = std::max(1LL, n);
        else if (token == "winc" && number("winc", 0, n)) limits.inc[WHITE] = n;
        else if (token == "binc" && number("binc", 0, n)) limits.inc[BLACK] = n;
        else if (token == "movestogo" && number("movestogo", 1, n)) limits.movestogo = int(std::min(n, 1000LL));
        else if (token == "depth" && number("depth", 1, n)) limits.depth = int(std::min<long long>(n, MAX_PLY - 1));
        else if (token == "nodes" && number("nodes", 1, n)) limits.nodes = std::uint64_t(n);
        else if (token == "mate" && number("mate", 1, n)) limits.mate = int(std::min(n, 500LL));
        else if (token == "movetime" && number("movetime", 1, n)) limits.movetime = n;
        else if (token == "infinite") limits.infinite = true;
        else if (token == "ponder") limits.ponder = true;
        else if (token == "searchmoves") {
            while (in >> token) {
                Move m = pos.parseUciMove(token);
                if (m == MOVE_NONE) bad.push_back("searchmoves '" + token + "' (not legal here)");
                else limits.searchmoves.push_back(m);
            }
        } else if (token != "wtime" && token != "btime" && token != "winc" && token != "binc" && token != "movestogo" &&
                   token != "depth" && token != "nodes" && token != "mate" && token != "movetime")
            bad.push_back("'" + token + "'");
    }
    // A GUI waits for bestmove, so a partly malformed go still searches, without the bad parts.
    for (const std::string& b : bad) error("go: ignored " + b);
    Threads.startThinking(pos, limits, start);
}

// Reads up to three numeric arguments (each with its range) after a command; false after an error.
bool Engine::readArguments(std::istringstream& in, const char* command, const char* const names[3],
                           const long long ranges[3][2], long long values[3]) {
    std::string token;
    for (int i = 0; i < 3 && in >> token; ++i)
        if (!parseInt(token, values[i]) || values[i] < ranges[i][0] || values[i] > ranges[i][1]) {
            error(std::string(command) + " " + names[i] + " '" + token + "' is not a number in range " +
                  std::to_string(ranges[i][0]) + ".." + std::to_string(ranges[i][1]));
            return false;
        }
    return true;
}

// Benchmarks run with their own threads and hash; the options' values come back afterwards.
bool Engine::useThreadsAndHash(std::size_t threads, std::size_t hashMb) {
    std::string why = Threads.set(threads, Threads.bindMode());
    if (why.empty()) why = TT.resize(hashMb);
    if (!why.empty()) {
        error(why);
        restoreThreadsAndHash();
        return false;
    }
    send("info string " + Threads.placement());
    return true;
}

void Engine::restoreThreadsAndHash() {
    Threads.set(std::stoul(findOption("Threads")->value), Threads.bindMode());
    TT.resize(std::stoull(findOption("Hash")->value));
    Threads.clearHash();
}

std::uint64_t Engine::searchSilently(const Position& p, const SearchLimits& limits) {
    silent = true;
    Threads.startThinking(p, limits, now());
    Threads.waitForSearchFinished();
    silent = false;
    return Threads.nodesSearched();
}

void Engine::cmdBench(std::istringstream& in) {
    if (Threads.searching()) return error("cannot run bench while searching");
    // bench [hash MB] [threads] [depth], as Stockfish orders them
    long long values[3] = {16, 1, 11};
    const char* const names[3] = {"hash", "threads", "depth"};
    const long long ranges[3][2] = {{1, 65536}, {1, 1024}, {1, 64}};
    if (!readArguments(in, "bench", names, ranges, values) || !useThreadsAndHash(std::size_t(values[1]), std::size_t(values[0])))
        return;

    std::uint64_t nodes = 0;
    const TimePoint start = now();
    const auto& fens = benchPositions();
    for (std::size_t i = 0; i < fens.size(); ++i) {
        Position p;
        p.setChess960(false);
        p.setFen(fens[i]);
        send("Position: " + std::to_string(i + 1) + "/" + std::to_string(fens.size()) + " (" + fens[i] + ")");
        newGame();
        SearchLimits limits;
        limits.depth = int(values[2]);
        nodes += searchSilently(p, limits);
    }
    const TimePoint elapsed = std::max<TimePoint>(1, now() - start);
    send("\n===========================\nTotal time (ms) : " + std::to_string(elapsed) +
         "\nNodes searched  : " + std::to_string(nodes) + "\nNodes/second    : " + std::to_string(nodes * 1000 / elapsed));
    restoreThreadsAndHash();
}

// speedtest [threads] [hash MB] [seconds]: game positions searched for a fixed time each on all
// threads, keeping the hash between them as in a game: sustained nodes per second, a hardware
// benchmark unlike `bench`.
void Engine::cmdSpeedtest(std::istringstream& in) {
    if (Threads.searching()) return error("cannot run speedtest while searching");
    const long long allPus = std::max(1, machineTopology().pus());
    long long values[3] = {allPus, 64 * allPus, 60};
    const char* const names[3] = {"threads", "hash", "seconds"};
    const long long ranges[3][2] = {{1, 1024}, {1, 33554432}, {1, 86400}};
    if (!readArguments(in, "speedtest", names, ranges, values) || !useThreadsAndHash(std::size_t(values[0]), std::size_t(values[1])))
        return;
    newGame();

    const auto& fens = speedtestPositions();
    const TimePoint perPosition = std::max<TimePoint>(1, values[2] * 1000 / TimePoint(fens.size()));
    std::uint64_t nodes = 0;
    long hashfullSum = 0;
    const TimePoint start = now();
    for (const std::string& fen : fens) {
        Position p;
        p.setFen(fen);
        SearchLimits limits;
        limits.movetime = perPosition;
        nodes += searchSilently(p, limits);
        hashfullSum += TT.hashfull();
    }
    const TimePoint elapsed = std::max<TimePoint>(1, now() - start);
    send("\n===========================\nThreads         : " + std::to_string(values[0]) + "\nBinding         : " +
         Threads.placement() + "\nHash (MB)       : " + std::to_string(values[1]) + "\nTotal time (ms) : " +
         std::to_string(elapsed) + "\nNodes searched  : " + std::to_string(nodes) +
         "\nNodes/second    : " + std::to_string(nodes * 1000 / elapsed) +
         "\nHashfull (avg)  : " + std::to_string(hashfullSum / long(fens.size())));
    restoreThreadsAndHash();
}

void Engine::newGame() {
    Threads.clearHash();
    Threads.clear();
}

bool Engine::execute(const std::string& line) {
    std::istringstream in(line);
    std::string cmd;
    if (!(in >> cmd)) return true;  // blank line

    if (cmd == "quit") {
        Threads.stop = true;
        Threads.ponder = false;
        Threads.waitForSearchFinished();
        return false;
    }
    if (cmd == "uci") cmdUci();
    else if (cmd == "isready") send("readyok");
    else if (cmd == "ucinewgame") {
        if (Threads.searching()) error("cannot start a new game while searching");
        else newGame();
    } else if (cmd == "setoption") cmdSetOption(in);
    else if (cmd == "position") cmdPosition(in);
    else if (cmd == "go") cmdGo(in);
    else if (cmd == "stop") {
        Threads.ponder = false;  // stop during ponder ends the search too
        Threads.stop = true;
    } else if (cmd == "ponderhit") {
        Threads.ponder = false;
        if (Threads.stopOnPonderhit) Threads.stop = true;
    } else if (cmd == "bench") cmdBench(in);
    else if (cmd == "speedtest") cmdSpeedtest(in);
    else if (cmd == "d") send(pos.pretty());
    else if (cmd == "eval") send(evalTrace(pos));
    else if (cmd == "perft") {  // shorthand of `go perft N`
        std::istringstream again("perft " + line.substr(line.find("perft") + 5));
        cmdGo(again);
    } else
        error("unknown command '" + line.substr(0, 80) + "'");
    return true;
}

}  // namespace

void send(const std::string& text) {
    if (silent && (text.rfind("info", 0) == 0 || text.rfind("bestmove", 0) == 0)) return;
    std::lock_guard<std::mutex> lock(outputMutex);
    std::cout << text << std::endl;
}

int loop(int argc, char** argv) {
    Engine engine;
    if (argc > 1) {
        std::string first = argv[1];
        if (first == "perft") {
            // quadbit perft DEPTH [FEN]
            std::string depth = argc > 2 ? argv[2] : "";
            std::string fen;
            for (int i = 3; i < argc; ++i) fen += std::string(argv[i]) + " ";
            Position probe;
            std::string why = fen.empty() ? "" : probe.setFen(fen);
            if (!why.empty()) {
                error("bad FEN: " + why);
                return 1;
            }
            if (!fen.empty()) engine.execute("position fen " + fen);
            engine.execute("go perft " + depth);
        } else {
            std::string line;
            for (int i = 1; i < argc; ++i) line += std::string(argv[i]) + " ";
            engine.execute(line);
        }
        engine.execute("quit");
        return 0;
    }
    for (std::string line; std::getline(std::cin, line);)
        if (!engine.execute(line)) return 0;
    engine.execute("quit");
    return 0;
}

}  // namespace uci
