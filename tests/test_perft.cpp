#include <catch2/catch.hpp>

#include <random>

#include "perft.h"
#include "simd/popcount.h"
#include "support.h"

namespace {

// Every depth up to about this many leaves; a million under emulation (scripts/cross), where a
// node costs some twenty times as much.
// The walks checked at every make and unmake, a recomputation at each node, stop at 200,000
// leaves (5,000 emulated, two plies of most positions: the Chess960 walk 40 -> 4 s under qemu):
// each suite position is still walked through its castlings, captures and promotions.
#if defined(QUADBIT_EMULATED)
constexpr std::uint64_t FAST_LIMIT = 1'000'000;
constexpr std::uint64_t VERIFY_LIMIT = 5'000;
#else
constexpr std::uint64_t FAST_LIMIT = 20'000'000;
constexpr std::uint64_t VERIFY_LIMIT = 200'000;
#endif

// Runs every count of every `shards`-th line (starting at `shard`) up to the node limit.
void runSuite(const std::string& file, bool chess960, int shard, int shards) {
    auto lines = readPerftSuite(file);
    REQUIRE(lines.size() >= 100);
    for (size_t i = shard; i < lines.size(); i += shards) {
        Position pos;
        pos.setChess960(chess960);
        REQUIRE(pos.setFen(lines[i].fen) == "");
        for (auto [depth, expected] : lines[i].counts) {
            if (expected > FAST_LIMIT) continue;
            INFO(file << " line " << i + 1 << ": " << lines[i].fen << " depth " << depth);
            REQUIRE(perft(pos, depth) == expected);
        }
    }
}

void runVerified(const std::string& file, bool chess960) {
    for (const auto& line : readPerftSuite(file)) {
        Position pos;
        pos.setChess960(chess960);
        REQUIRE(pos.setFen(line.fen) == "");
        int depth = 0;
        std::uint64_t expected = 0;
        for (auto [d, n] : line.counts)
            if (n <= VERIFY_LIMIT && d > depth) depth = d, expected = n;
        if (!depth) continue;
        std::string error;
        INFO(line.fen << " depth " << depth);
        std::uint64_t nodes = perftVerified(pos, depth, &error);
        REQUIRE(error == "");
        REQUIRE(nodes == expected);
    }
}

std::uint64_t deepest(const std::string& file, size_t index, int depth) {
    auto lines = readPerftSuite(file);
    for (auto [d, n] : lines.at(index).counts)
        if (d == depth) return n;
    FAIL("no such depth");
    return 0;
}

}  // namespace

TEST_CASE("perft: standard suite, every depth up to 20M nodes (1M emulated)", "[perft]") {
    runSuite("data/perft/standard.epd", false, 0, 1);
}

TEST_CASE("perft: Chess960 suite, part 1 of 4", "[perft]") { runSuite("data/perft/fischer.epd", true, 0, 4); }
TEST_CASE("perft: Chess960 suite, part 2 of 4", "[perft]") { runSuite("data/perft/fischer.epd", true, 1, 4); }
TEST_CASE("perft: Chess960 suite, part 3 of 4", "[perft]") { runSuite("data/perft/fischer.epd", true, 2, 4); }
TEST_CASE("perft: Chess960 suite, part 4 of 4", "[perft]") { runSuite("data/perft/fischer.epd", true, 3, 4); }

TEST_CASE("perft: incremental state equals recomputation, standard suite", "[perft][incremental]") {
    runVerified("data/perft/standard.epd", false);
}

TEST_CASE("perft: incremental state equals recomputation, Chess960 suite", "[perft][incremental]") {
    runVerified("data/perft/fischer.epd", true);
}

TEST_CASE("perft: the deepest counts", "[perft][deep]") {
    struct Case {
        const char* file;
        size_t line;
        int depth;
        bool chess960;
    };
    const Case cases[] = {
        {"data/perft/standard.epd", 0, 6, false},  // start position, 119,060,324
        {"data/perft/standard.epd", 1, 5, false},  // Kiwipete, 193,690,690
        {"data/perft/fischer.epd", 0, 6, true},    // 227,689,589
        {"data/perft/fischer.epd", 2, 6, true},    // 177,654,692
    };
    for (const Case& c : cases) {
        auto lines = readPerftSuite(c.file);
        Position pos;
        pos.setChess960(c.chess960);
        REQUIRE(pos.setFen(lines.at(c.line).fen) == "");
        INFO(lines[c.line].fen << " depth " << c.depth);
        REQUIRE(perft(pos, c.depth) == deepest(c.file, c.line, c.depth));
    }
}

TEST_CASE("perft: threads split the root and agree with one thread", "[perft][threads]") {
    Position pos;
    std::ostringstream out1, out2;
    REQUIRE(perftDivide(pos, 5, 1, out1) == 4865609);
    REQUIRE(perftDivide(pos, 5, 2, out2) == 4865609);
    // Same per-move lines, in the same order.
    auto moves = [](const std::string& s) { return s.substr(0, s.find("\nNodes searched")); };
    REQUIRE(moves(out1.str()) == moves(out2.str()));
    REQUIRE(out1.str().find("e2e4: 405385\n") != std::string::npos);
}

TEST_CASE("perft: the SSE2 sum of bit counts equals the scalar twin", "[perft][simd]") {
#if defined(__SSE2__)
    std::mt19937_64 rng(20261126);
    std::vector<Bitboard> sets(60);
    for (int trial = 0; trial < 2000; ++trial) {
        for (Bitboard& b : sets) {
            Bitboard a = rng(), c = rng();
            b = trial % 4 == 0 ? a & c : trial % 4 == 1 ? a | c : trial % 4 == 2 ? ~Bitboard(0) : a;
        }
        for (int n = 0; n <= 60; ++n) {
            int bits = 0;
            for (int i = 0; i < n; ++i)
                for (int s = 0; s < 64; ++s) bits += (sets[i] >> s) & 1;
            INFO("trial " << trial << ", " << n << " sets");
            REQUIRE(simd::popcountSumScalar(sets.data(), n) == bits);
            REQUIRE(simd::popcountSumSse2(sets.data(), n) == bits);
        }
    }
#else
    WARN("no SSE2 in this build: only the scalar path exists");
#endif
}
