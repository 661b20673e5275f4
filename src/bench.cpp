#include "bench.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "engine.h"
#include "perft.h"
#include "text.h"
#include "topology.h"

const std::vector<std::string>& benchPositions() {
    static const std::vector<std::string> positions = {
        // Openings
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bq1rk1/pp1nppbp/2p3pn/8/P2PN3/3B1N1P/1PP2PP1/R1BQK2R w KQ - 1 9",
        "r1b1kb1r/pp3pp1/1qnppn1p/8/2P1P3/2N2P2/PPN3PP/R1BQKB1R w KQkq - 0 9",
        "r1bq1rk1/pp3pbp/n2p1np1/2pPp3/2P1PB2/P1NB4/1P3PPP/R2QK1NR w KQ e6 0 9",
        "r3kb1r/ppp1pppp/2n5/q7/2BP2b1/2N2N2/PPPQ1PPP/R3K2R w KQkq - 1 9",
        "r1bq1rk1/1pp1npbp/p1n1p1p1/3p4/3PPB2/P1NQ1N2/1PP2PPP/2KR1B1R w - - 0 9",
        // Middlegames
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
        "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
        "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
        "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
        "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
        // Endgames
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
        "8/8/8/5N2/8/p7/8/2NK3k w - - 0 1",
        "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1",
        "1k6/1b6/8/8/7R/8/8/4K2R b K - 0 1",
        "6k1/5pp1/8/8/8/8/1R3PP1/6K1 w - - 0 1",
        "8/8/1p1k4/p1pP4/P1P2K2/8/8/8 w - - 0 1",
        "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
        "3k4/8/8/8/8/8/3P4/3K4 w - - 0 1",
        "8/8/8/4k3/8/8/8/KBN5 w - - 0 1",
        // Mates
        "8/7B/2R5/4Nr1p/4kb1Q/8/1B6/4K2R w K - 0 1",
        "2k5/2N5/1PKP4/2P5/8/8/8/8 w - - 0 1",
        "1r4Rk/4Nq2/7K/8/8/8/b5Q1/6R1 b - - 0 1",
        "7Q/6p1/4n1p1/4p3/3Ppbp1/4pkN1/4N3/5K2 b - - 0 1",
    };
    return positions;
}

const std::vector<std::string>& speedtestPositions() {
    static const std::vector<std::string> positions = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R b KQkq - 0 5",
        "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8",
        "r2q1rk1/pb1nbppp/1p2pn2/2pp4/3P4/1PNBPN2/PB3PPP/R2Q1RK1 w - - 0 11",
        "r4rk1/pbq1bppp/1p2pn2/2p5/2PP4/1P1BPN2/PB1Q1PPP/R4RK1 w - - 1 15",
        "2r2rk1/pb2bppp/1pq1pn2/8/2PP4/1P2PN2/PB1Q1PPP/2RR2K1 w - - 4 19",
        "3r1rk1/pb3ppp/1p2pn2/3q4/3P4/1P2PN2/PB2QPPP/3R1RK1 w - - 0 22",
        "3r2k1/p4ppp/1p2p3/3n4/3P4/1P2P3/P4PPP/3R2K1 w - - 0 28",
        "6k1/p4pp1/1p2p2p/3n4/3P4/1P2PK2/P4PPP/8 w - - 0 33",
        "8/p4pk1/1p2p1pp/8/3P4/1P2PK1P/P4PP1/8 b - - 3 38",
        "8/5pk1/pp2p1pp/8/P2P4/1P2P2P/5PP1/5K2 w - - 0 42",
    };
    return positions;
}

namespace {

// Reads the numeric arguments in order, each within its range; returns why one is not.
std::string readNumbers(const std::vector<std::string>& args, const char* command, const char* const names[],
                        const long long ranges[][2], long long values[], std::size_t count) {
    for (std::size_t i = 0; i < count && i < args.size(); ++i)
        if (!text::parseInt(args[i], values[i]) || values[i] < ranges[i][0] || values[i] > ranges[i][1])
            return std::string(command) + " " + names[i] + " '" + args[i] + "' is not a number in range " +
                   std::to_string(ranges[i][0]) + ".." + std::to_string(ranges[i][1]);
    return "";
}

// Runs `body` with Threads and Hash set for a benchmark, then puts the user's values back.
std::string withThreadsAndHash(Engine& engine, long long threads, long long hashMb, const std::function<void()>& body) {
    OptionsMap& options = engine.options();
    const std::string oldThreads = options["Threads"].asString(), oldHash = options["Hash"].asString();
    std::string why = options.set("Threads", std::to_string(threads));
    if (why.empty()) why = options.set("Hash", std::to_string(hashMb));
    if (why.empty()) body();
    options.set("Threads", oldThreads);
    options.set("Hash", oldHash);
    return why;
}

std::string readPositions(const Engine& engine, const std::string& source, std::vector<std::string>& fens) {
    if (source == "default") fens = benchPositions();
    else if (source == "current") fens = {engine.position().fen()};
    else {
        std::ifstream in(source);
        if (!in) return "bench: cannot read positions from '" + source + "'";
        for (std::string line; std::getline(in, line);) {
            // An EPD line has four fields and operations after them: keep the position only.
            std::istringstream fields(line);
            std::string fen, field;
            for (int i = 0; i < 6 && fields >> field && field.find(';') == std::string::npos; ++i) {
                if (i >= 4 && !std::all_of(field.begin(), field.end(), ::isdigit)) break;
                fen += field + " ";
            }
            if (fen.empty()) continue;
            Position check;
            if (std::string why = check.setFen(fen); !why.empty())
                return "bench: bad position '" + line.substr(0, 80) + "' in " + source + ": " + why;
            fens.push_back(fen);
        }
        if (fens.empty()) return "bench: no positions in '" + source + "'";
    }
    return "";
}

}  // namespace

std::string runBench(Engine& engine, const std::vector<std::string>& args,
                     const std::function<void(const std::string&)>& out) {
    if (args.size() > 5) return "bench takes at most 5 arguments: hash threads limit positions limittype";
    const std::string limitType = args.size() > 4 ? text::lower(args[4]) : "depth";
    long long maxLimit = limitType == "depth"      ? 64
                         : limitType == "perft"    ? 20
                         : limitType == "nodes"    ? 1LL << 40
                         : limitType == "movetime" ? 86400000
                                                   : 0;
    if (!maxLimit) return "bench limit type must be depth, nodes, movetime or perft, got '" + args[4] + "'";
    long long values[3] = {16, 1, 11};
    const char* const names[3] = {"hash", "threads", "limit"};
    const long long ranges[3][2] = {{1, 65536}, {1, 1024}, {1, maxLimit}};
    if (std::string why = readNumbers(args, "bench", names, ranges, values, 3); !why.empty()) return why;
    std::vector<std::string> fens;
    if (std::string why = readPositions(engine, args.size() > 3 ? args[3] : "default", fens); !why.empty()) return why;

    std::uint64_t nodes = 0;
    const TimePoint start = now();
    std::string why = withThreadsAndHash(engine, values[1], values[0], [&] {
        for (std::size_t i = 0; i < fens.size(); ++i) {
            Position p;
            p.setFen(fens[i]);
            out("Position: " + std::to_string(i + 1) + "/" + std::to_string(fens.size()) + " (" + fens[i] + ")");
            engine.newGame();
            if (limitType == "perft") {
                std::ostringstream ignored;
                nodes += perftDivide(p, int(values[2]), int(values[1]), ignored);
                continue;
            }
            SearchLimits limits;
            if (limitType == "depth") limits.depth = int(values[2]);
            else if (limitType == "nodes") limits.nodes = std::uint64_t(values[2]);
            else limits.movetime = values[2];
            nodes += engine.searchQuietly(p, limits);
        }
    });
    if (!why.empty()) return why;
    const TimePoint elapsed = std::max<TimePoint>(1, now() - start);
    out("\n===========================\nTotal time (ms) : " + std::to_string(elapsed) + "\nNodes searched  : " +
        std::to_string(nodes) + "\nNodes/second    : " + std::to_string(nodes * 1000 / std::uint64_t(elapsed)));
    return "";
}

std::string runSpeedtest(Engine& engine, const std::vector<std::string>& args,
                         const std::function<void(const std::string&)>& out) {
    if (args.size() > 3) return "speedtest takes at most 3 arguments: threads hash seconds";
    const long long allPus = std::max(1, machineTopology().pus());
    long long values[3] = {allPus, 64 * allPus, 60};
    const char* const names[3] = {"threads", "hash", "seconds"};
    const long long ranges[3][2] = {{1, 1024}, {1, 33554432}, {1, 86400}};
    if (std::string why = readNumbers(args, "speedtest", names, ranges, values, 3); !why.empty()) return why;

    const auto& fens = speedtestPositions();
    const TimePoint perPosition = std::max<TimePoint>(1, values[2] * 1000 / TimePoint(fens.size()));
    std::uint64_t nodes = 0;
    long hashfullSum = 0;
    std::string placement;
    const TimePoint start = now();
    std::string why = withThreadsAndHash(engine, values[0], values[1], [&] {
        engine.newGame();
        placement = engine.placement();
        for (const std::string& fen : fens) {
            Position p;
            p.setFen(fen);
            SearchLimits limits;
            limits.movetime = perPosition;
            nodes += engine.searchQuietly(p, limits);
            hashfullSum += engine.hashfull();
        }
    });
    if (!why.empty()) return why;
    const TimePoint elapsed = std::max<TimePoint>(1, now() - start);
    out("\n===========================\nThreads         : " + std::to_string(values[0]) +
        "\nBinding         : " + placement + "\nHash (MB)       : " + std::to_string(values[1]) +
        "\nTotal time (ms) : " + std::to_string(elapsed) + "\nNodes searched  : " + std::to_string(nodes) +
        "\nNodes/second    : " + std::to_string(nodes * 1000 / std::uint64_t(elapsed)) +
        "\nHashfull (avg)  : " + std::to_string(hashfullSum / long(fens.size())));
    return "";
}
