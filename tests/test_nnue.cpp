// The network: the SIMD kernels against their scalar twin, the lazy accumulators against a full
// refresh, the network file, the seeds' knowledge on top, and a tiny training run end to end.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <functional>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

#include <catch2/catch.hpp>
#include "bench.h"
#include "buildinfo.h"
#include "datagen/datagen.h"
#include "datagen/gamefile.h"
#include "eval/eval.h"
#include "eval/evalparams.h"
#include "movegen.h"
#include "nnue/accumulator.h"
#include "nnue/nettool.h"
#include "nnue/stream.h"
#include "nnue/trainer.h"
#include "sha256.h"
#include "text.h"
#include "simd/nnue.h"
#include "support.h"

namespace {

// Weights of the sizes a trained network has, so that the values leave the activation's range
// both ways; the output weights stay within what the squared activation needs.
std::unique_ptr<nnue::Network> randomNetwork(nnue::Activation activation, std::uint64_t seed, int outputBuckets = 1,
                                             bool kingMirror = false, int hidden = nnue::DEFAULT_HIDDEN,
                                             int kingBuckets = 1) {
    auto net = std::make_unique<nnue::Network>(hidden, nnue::KingBuckets::layout(kingBuckets));
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> feature(-120, 120), output(-127, 127);
    net->activation = activation;
    net->outputBuckets = outputBuckets;
    net->kingMirror = kingMirror;
    for (int row = 0; row <= net->inputs(); ++row)  // the inputs' rows, then the biases
        for (int i = 0; i < hidden; ++i) net->featureWeights(row)[i] = std::int16_t(feature(rng));
    for (int bucket = 0; bucket < outputBuckets; ++bucket) {
        for (int side = 0; side < 2; ++side)
            for (int i = 0; i < hidden; ++i) net->outputWeights(bucket, side)[i] = std::int16_t(output(rng));
        net->outputBias[bucket] = 1234 * (bucket + 1);
    }
    return net;
}

// Walks every line to `depth`, making moves through the accumulator stack as the search does
// (a null move now and then), and compares the lazily updated evaluation with a full refresh
// at every node, or at every `every`-th (by key), so that updates are also replayed over
// several plies at once.
void walk(Position& pos, nnue::AccumulatorStack& stack, const nnue::Network& net, int depth, int every,
          std::uint64_t& checked) {
    if ((pos.key() >> 7) % every == 0) {
        INFO(pos.fen());
        REQUIRE(stack.evaluate(pos, net) == net.evaluate(pos));
        ++checked;
    }
    if (depth == 0) return;
    if (!pos.inCheck() && pos.key() % 5 == 0) {
        stack.push();
        pos.makeNullMove();
        walk(pos, stack, net, depth - 1, every, checked);
        pos.unmakeNullMove();
        stack.pop();
    }
    for (Move m : MoveList<LEGAL>(pos)) {
        pos.makeMove(m, pos.givesCheck(m), stack.push());
        walk(pos, stack, net, depth - 1, every, checked);
        pos.unmakeMove(m);
        stack.pop();
    }
}

const auto quiet = [](const std::string&) {};

// Games for a training test, made afresh at `path`: what training needs of them is positions with
// results, not good play, and searches of 100 nodes a move make them at a third of 300's cost
// (under the sanitizers, a datagen at 300 nodes took most of the training tests' time).
void makeTrainingGames(const std::string& path, int games, int seed, int threads = 1) {
    std::filesystem::remove(path);
    REQUIRE(runDatagen({"out", path, "games", std::to_string(games), "nodes", "100", "seed", std::to_string(seed),
                        "threads", std::to_string(threads)},
                       quiet) == "");
}

// A file's bytes, to compare two networks or training states whole.
std::string bytesOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The board's mirror image (a-file and h-file swapped) as a FEN: no castling (a king on the
// d-file cannot castle), the en passant file mirrored.
std::string mirrorFiles(const std::string& fen) {
    std::istringstream in(fen);
    std::string board, side, castling, ep;
    in >> board >> side >> castling >> ep;
    std::string mirrored, rank;
    for (char c : board + "/") {
        if (c != '/') {
            rank += c;
            continue;
        }
        mirrored += std::string(rank.rbegin(), rank.rend()) + (mirrored.size() + rank.size() < board.size() ? "/" : "");
        rank.clear();
    }
    return mirrored + " " + side + " - " + (ep == "-" ? ep : std::string(1, char('a' + 'h' - ep[0])) + ep[1]) + " 0 1";
}

// `check(pos, image)` for each bench position and its mirror image.
template <typename Check>
void forEachMirrorImage(Check check) {
    for (const std::string& fen : benchPositions()) {
        Position pos, image;
        REQUIRE(pos.setFen(fen) == "");
        INFO(fen << "  /  " << mirrorFiles(fen));
        REQUIRE(image.setFen(mirrorFiles(fen)) == "");
        check(pos, image);
    }
}

}  // namespace

TEST_CASE("nnue: every SIMD path equals the scalar twin on the bench positions, at every kind of width",
          "[nnue][simd]") {
    const simd::NnueKernels& scalar = simd::nnueKernels(simd::Isa::SCALAR);
    int paths = 0;
    for (simd::Isa isa : {simd::Isa::SSE2, simd::Isa::AVX2, simd::Isa::AVX512, simd::Isa::NEON}) {
        if (!simd::cpuSupports(isa)) continue;
        ++paths;
        const simd::NnueKernels& k = simd::nnueKernels(isa);
        // The narrowest row (one step), the default, one step short of the widest, the widest.
        for (int hidden :
             {nnue::HIDDEN_STEP, nnue::DEFAULT_HIDDEN, nnue::MAX_HIDDEN - nnue::HIDDEN_STEP, nnue::MAX_HIDDEN}) {
            const auto net = randomNetwork(nnue::Activation::SQUARED_CLIPPED_RELU, 1, 1, false, hidden);
            for (const std::string& fen : benchPositions()) {
                Position pos;
                REQUIRE(pos.setFen(fen) == "");
                INFO(simd::isaName(isa) << " " << hidden << " " << fen);
                // The first layer from every piece, then a move's worth of rows added and removed.
                const std::int16_t* rows[32];
                int count = 0;
                for (Bitboard b = pos.pieces(); b;) {
                    const Square s = popLsb(b);
                    rows[count++] = net->featureWeights(nnue::featureIndex(WHITE, pos.pieceOn(s), s));
                }
                alignas(64) std::int16_t expected[nnue::MAX_HIDDEN], actual[nnue::MAX_HIDDEN];
                scalar.updateRows(expected, net->featureBiases(), rows, count, rows + 2, 2, hidden);
                k.updateRows(actual, net->featureBiases(), rows, count, rows + 2, 2, hidden);
                REQUIRE(std::equal(expected, expected + hidden, actual));
                for (int side = 0; side < 2; ++side) {
                    REQUIRE(k.dotClipped(actual, net->outputWeights(0, side), hidden, 255) ==
                            scalar.dotClipped(actual, net->outputWeights(0, side), hidden, 255));
                    REQUIRE(k.dotSquaredClipped(actual, net->outputWeights(0, side), hidden, 255) ==
                            scalar.dotSquaredClipped(actual, net->outputWeights(0, side), hidden, 255));
                }
            }
        }
    }
    REQUIRE(paths >= 1);  // SSE2 at least on any x86-64, NEON on any AArch64
}

TEST_CASE("nnue: lazy accumulators equal a full refresh at the nodes of a perft", "[nnue]") {
    // A king-mirroring network with output buckets too: castling and every king move across the
    // board's middle recompute that side's half; and one with king buckets besides, where a king
    // move to another rank does.
    const std::unique_ptr<nnue::Network> nets[] = {
        randomNetwork(nnue::Activation::SQUARED_CLIPPED_RELU, 2),
        randomNetwork(nnue::Activation::SQUARED_CLIPPED_RELU, 2, 8, true),
        randomNetwork(nnue::Activation::SQUARED_CLIPPED_RELU, 2, 8, true, nnue::DEFAULT_HIDDEN, 4)};
    for (const auto& net : nets) {
        nnue::AccumulatorStack stack;
        std::uint64_t checked = 0;
        // Captures, promotions with and without capture, castling both ways, en passant, checks.
        for (const char* fen :
             {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
              "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
              "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
              "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", "4k3/1P6/8/2pP4/8/8/6p1/4K2R w K c6 0 1"}) {
            Position pos;
            REQUIRE(pos.setFen(fen) == "");
            for (auto [depth, every] : {std::pair{2, 1}, std::pair{3, 3}}) {
                stack.reset(pos, *net);
                walk(pos, stack, *net, depth, every, checked);
            }
        }
        // Chess960: the king and rook of a castling may land on each other's squares. 447 suite
        // positions, some 45 under emulation (scripts/cross), where a node costs twenty times as
        // much, and in the sanitized build (QUADBIT_EXPECT_ASSERTIONS), which looks for bad
        // memory accesses that the first positions show as well as all (15 of its 20 s here).
#if defined(QUADBIT_EMULATED) || defined(QUADBIT_EXPECT_ASSERTIONS)
        constexpr std::uint64_t CHESS960_NODES = 34'000;
#else
        constexpr std::uint64_t CHESS960_NODES = 340'000;
#endif
        const std::uint64_t before = checked;
        int chess960Positions = 0;
        for (const auto& line : readPerftSuite("data/perft/fischer.epd")) {
            if (checked - before > CHESS960_NODES) break;
            ++chess960Positions;
            Position pos;
            pos.setChess960(true);
            REQUIRE(pos.setFen(line.fen) == "");
            stack.reset(pos, *net);
            walk(pos, stack, *net, 2, 1, checked);
        }
        REQUIRE(checked - before > CHESS960_NODES);  // the walks did check nodes
        REQUIRE(chess960Positions >= 40);
    }
}

TEST_CASE("nnue: lazy accumulators equal a full refresh along random games, both activations, king mirroring, "
          "king buckets, every width",
          "[nnue]") {
    std::mt19937_64 rng(7);
    // One stack for all: a network of another width resizes it at the root.
    nnue::AccumulatorStack stack;
    for (auto [activation, mirror, hidden, kingBuckets] :
         {std::tuple{nnue::Activation::CLIPPED_RELU, false, nnue::DEFAULT_HIDDEN, 1},
          std::tuple{nnue::Activation::SQUARED_CLIPPED_RELU, false, nnue::DEFAULT_HIDDEN, 1},
          std::tuple{nnue::Activation::SQUARED_CLIPPED_RELU, true, nnue::DEFAULT_HIDDEN, 1},
          std::tuple{nnue::Activation::SQUARED_CLIPPED_RELU, true, nnue::MAX_HIDDEN, 1},
          std::tuple{nnue::Activation::SQUARED_CLIPPED_RELU, false, nnue::HIDDEN_STEP, 1},
          std::tuple{nnue::Activation::CLIPPED_RELU, true, 512, 1},
          std::tuple{nnue::Activation::SQUARED_CLIPPED_RELU, false, nnue::DEFAULT_HIDDEN, 8},
          std::tuple{nnue::Activation::SQUARED_CLIPPED_RELU, true, 512, 2}}) {
        const auto net = randomNetwork(activation, 3, mirror ? 8 : 1, mirror, hidden, kingBuckets);
        INFO("hidden " << hidden << ", king buckets " << kingBuckets);
        for (int game = 0; game < 40; ++game) {
            Position pos;
            REQUIRE(pos.setFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") == "");
            stack.reset(pos, *net);
            std::vector<Move> played;
            for (int ply = 0; ply < 200; ++ply) {
                const MoveList<LEGAL> moves(pos);
                if (moves.size() == 0 || played.size() >= MAX_PLY) break;
                const Move m = *(moves.begin() + rng() % moves.size());
                pos.makeMove(m, pos.givesCheck(m), stack.push());
                played.push_back(m);
                if (rng() % 4 == 0) REQUIRE(stack.evaluate(pos, *net) == net->evaluate(pos));
                // Now and then back up a few plies, as the search does.
                for (int back = rng() % 8 == 0 ? 3 : 0; back > 0 && !played.empty(); --back) {
                    pos.unmakeMove(played.back());
                    played.pop_back();
                    stack.pop();
                }
            }
            REQUIRE(stack.evaluate(pos, *net) == net->evaluate(pos));
        }
    }
}

TEST_CASE("nnue: a network file round-trips, and a cut, corrupt or foreign one is refused and changes nothing",
          "[nnue]") {
    const auto net = randomNetwork(nnue::Activation::CLIPPED_RELU, 4, 5, true);
    net->description = "a test network\nof two lines";
    const std::string bytes = nnue::encode(*net);
    nnue::Network read;
    REQUIRE(nnue::decode(bytes, read) == "");
    REQUIRE(read.outputBuckets == 5);
    REQUIRE(read.kingMirror);
    // Every width the engine runs reads back as written (a 1024-wide file into a 256-wide network).
    const auto wide = randomNetwork(nnue::Activation::SQUARED_CLIPPED_RELU, 9, 8, true, nnue::MAX_HIDDEN),
               narrow = randomNetwork(nnue::Activation::SQUARED_CLIPPED_RELU, 9, 1, false, nnue::HIDDEN_STEP);
    nnue::Network wideRead, narrowRead;
    REQUIRE(nnue::decode(nnue::encode(*wide), wideRead) == "");
    REQUIRE(nnue::decode(nnue::encode(*narrow), narrowRead) == "");
    REQUIRE(wideRead.hidden() == nnue::MAX_HIDDEN);
    REQUIRE(wideRead.shape() == "(768 -> 1024) x 2 -> 1 of 8 buckets, king mirroring");
    REQUIRE(narrowRead.shape() == "(768 -> 32) x 2 -> 1");
    REQUIRE(nnue::encode(wideRead) == nnue::encode(*wide));
    for (const char* fen : {"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                            "8/5k2/8/8/2R5/8/6K1/8 b - - 0 1", "r4rk1/pp3ppp/2n5/8/8/2N5/PP3PPP/R4RK1 w - - 0 1"}) {
        Position pos;
        REQUIRE(pos.setFen(fen) == "");
        REQUIRE(read.evaluate(pos) == net->evaluate(pos));
        REQUIRE(wideRead.evaluate(pos) == wide->evaluate(pos));
        REQUIRE(narrowRead.evaluate(pos) == narrow->evaluate(pos));
    }
    REQUIRE(read.checksum != 0);
    REQUIRE(read.description == "a test network of two lines");  // one line: it is shown in an info string

    // One version is read: 3, written before king buckets were part of every file, is refused
    // with a clear error (its weights are the same, its header 68 bytes shorter).
    const std::size_t descriptionAt = 112;  // 9 fields, the king squares' buckets, QA, QB, SCALE
    nnue::Network old;
    std::string version3 = bytes.substr(0, 36) + bytes.substr(36 + 64);
    version3[4] = 3;
    REQUIRE(nnue::decode(version3, old) == "network format version 3, this engine reads version 4");
    net->description = std::string(5000, 'x');
    REQUIRE(nnue::decode(nnue::encode(*net), old) == "");
    REQUIRE(old.description == std::string(nnue::MAX_DESCRIPTION, 'x'));
    std::string several = bytes;
    several[descriptionAt + 4 + 6] = '\n';  // "a test\nnetwork ..."
    REQUIRE(nnue::decode(several, old).find("several lines") != std::string::npos);
    std::string overlong = bytes;
    overlong[descriptionAt + 1] = 0x10;  // 4,096 and more bytes of description
    REQUIRE(nnue::decode(overlong, old).find("description") != std::string::npos);
    std::string future = bytes;
    future[4] = 5;
    REQUIRE(nnue::decode(future, old).find("version 5") != std::string::npos);

    Position pos;
    REQUIRE(pos.setFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3") == "");
    const Value before = read.evaluate(pos);
    std::string corrupt = bytes;
    corrupt[corrupt.size() / 2] ^= 1;
    REQUIRE(nnue::decode(corrupt, read).find("checksum") != std::string::npos);
    REQUIRE(nnue::decode(bytes.substr(0, bytes.size() - 1), read).find("cut short") != std::string::npos);
    REQUIRE(nnue::decode("QBG1 not a network", read) == "not a Quadbit network file");
    // Foreign shapes: 257 hidden (not a whole step), 2,048 (wider than the widest) or 0 hidden,
    // 9 or no output buckets, a mirroring other than 0 or 1.
    for (auto [at, value] :
         {std::pair{16, 1}, std::pair{17, 8}, std::pair{17, 0}, std::pair{24, 9}, std::pair{24, 0}, std::pair{28, 2}}) {
        std::string foreign = bytes;
        foreign[at] = char(value);
        REQUIRE(nnue::decode(foreign, read).find("architecture") != std::string::npos);
    }
    REQUIRE(nnue::load(tempPath("no-such.nnue"), read).find("cannot open") != std::string::npos);
    REQUIRE(read.evaluate(pos) == before);
}

TEST_CASE("nnue: king buckets give each group of a side's king squares its own inputs, in a file of version 4",
          "[nnue]") {
    using nnue::KingBuckets;
    // The layouts by the king's rank as its side sees it; Black's first rank is the eighth.
    const KingBuckets two = KingBuckets::layout(2), four = KingBuckets::layout(4), eight = KingBuckets::layout(8);
    for (const KingBuckets& layout : {two, four, eight, KingBuckets::layout(1)}) REQUIRE(layout.invalid() == "");
    REQUIRE(KingBuckets::layout(3).count == 0);
    REQUIRE((two.of[SQ_G1] == 0 && two.of[SQ_G2] == 1 && two.of[SQ_E8] == 1));
    REQUIRE((four.of[SQ_E1] == 0 && four.of[SQ_E2] == 1 && four.of[SQ_E3] == 2 && four.of[SQ_E4] == 3));
    REQUIRE(four.of[SQ_H8] == 3);
    REQUIRE((eight.of[SQ_C1] == 0 && eight.of[SQ_G1] == 4 && eight.of[SQ_A5] == 3 && eight.of[SQ_H5] == 7));
    REQUIRE(nnue::inputView(false, four, WHITE, SQ_G1) == nnue::inputView(false, four, BLACK, SQ_G8));
    REQUIRE(nnue::inputView(false, four, BLACK, SQ_E7).base == nnue::INPUTS);
    REQUIRE(nnue::inputView(true, eight, WHITE, SQ_G1) == nnue::InputView{0, true});  // mirrored to b1
    KingBuckets unused = four;
    unused.count = 5;
    REQUIRE(unused.invalid().find("has no square") != std::string::npos);

    // A bucket's inputs move the evaluation only while a king stands in it: bucket 3's
    // (a king on its fourth rank or beyond) not a middlegame's with both kings at home.
    const auto net = randomNetwork(nnue::Activation::SQUARED_CLIPPED_RELU, 11, 8, true, nnue::DEFAULT_HIDDEN, 4);
    REQUIRE(net->shape() == "(4 x 768 -> 256) x 2 -> 1 of 8 buckets, king mirroring");
    Position home, open;
    REQUIRE(home.setFen("r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 1") == "");
    REQUIRE(open.setFen("8/5p2/4k3/1p5p/1P1K3P/8/8/8 w - - 0 1") == "");
    const Value homeBefore = net->evaluate(home), openBefore = net->evaluate(open);
    for (int row = 3 * nnue::INPUTS; row < 4 * nnue::INPUTS; ++row)
        for (int i = 0; i < net->hidden(); ++i)
            net->featureWeights(row)[i] = std::int16_t(-net->featureWeights(row)[i]);
    REQUIRE(net->evaluate(home) == homeBefore);
    REQUIRE(net->evaluate(open) != openBefore);

    // The file: version 4 whatever the count (one king bucket is a map of zeros), the map and
    // every bucket's rows read back.
    const std::string bytes = nnue::encode(*net);
    REQUIRE(bytes[4] == 4);
    const std::string oneBucket = nnue::encode(*randomNetwork(nnue::Activation::SQUARED_CLIPPED_RELU, 11));
    REQUIRE((oneBucket[4] == 4 && oneBucket[32] == 1 && oneBucket.substr(36, 64) == std::string(64, '\0')));
    nnue::Network read;
    REQUIRE(nnue::decode(bytes, read) == "");
    REQUIRE(read.kingBuckets() == four);
    REQUIRE(nnue::encode(read) == bytes);
    REQUIRE((read.evaluate(home) == homeBefore && read.evaluate(open) == net->evaluate(open)));
    // The count after the first 32 bytes, then the map: none, more than a file
    // may hold, a square's bucket beyond the count, a bucket no square has.
    const std::size_t countAt = 32, mapAt = 36;
    for (auto [at, value] :
         {std::pair{countAt, 0}, std::pair{countAt, 17}, std::pair{mapAt + 9, 4}, std::pair{countAt, 5}}) {
        std::string foreign = bytes;
        foreign[at] = char(value);
        INFO(at << " " << value);
        REQUIRE(nnue::decode(foreign, read).find("king bucket") != std::string::npos);
    }
    REQUIRE(read.kingBuckets() == four);
}

TEST_CASE("nnue: the embedded network is the one tests/network.expected names", "[nnue]") {
    std::ifstream in(std::string(QUADBIT_SOURCE_DIR) + "/tests/network.expected");
    std::string expected;
    REQUIRE(in >> expected);
    char checksum[16];
    std::snprintf(checksum, sizeof checksum, "%08x", nnue::embedded().checksum);
    REQUIRE(checksum == expected);
}

TEST_CASE("nnue: the seeds' knowledge applies on top of the network", "[nnue][eval]") {
    EvalCache cache;
    Position pos;
    // K+N+N cannot force mate (../shared/seeds/mating-potential.txt): the table's scale factor.
    REQUIRE(pos.setFen("8/8/3k4/8/8/2NNK3/8/8 w - - 0 1") == "");
    REQUIRE(std::abs(withKnowledge(pos, cache, 800)) < 800 / 4);
    // K+Q v K: the special evaluator replaces whatever the network says, for either side to move.
    REQUIRE(pos.setFen("8/8/3k4/8/8/2QK4/8/8 w - - 0 1") == "");
    const Value win = withKnowledge(pos, cache, -300);
    REQUIRE(win > 1000);
    REQUIRE(withKnowledge(pos, cache, 300) == win);
    // Nothing special: the network's score as it is, and never a tablebase or mate score.
    REQUIRE(pos.setFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3") == "");
    REQUIRE(withKnowledge(pos, cache, 37) == 37);
    REQUIRE(withKnowledge(pos, cache, 40000) < VALUE_TB_WIN_IN_MAX_PLY);
}

TEST_CASE("train: a tiny run lowers the loss, writes a network the engine reads as trained, resumes exactly",
          "[nnue][train]") {
    const std::string data = tempPath("train.bin"), out = tempPath("train.nnue");
    makeTrainingGames(data, 200, 3);

    nnue::TrainConfig cfg;
    cfg.recipe.data.files = {data};
    cfg.run.out = out;
    cfg.recipe.epochs = 4;
    cfg.recipe.batch = 512;
    cfg.run.threads = 2;
    cfg.recipe.data.holdoutShare = 0.1;
    nnue::TrainReport report;
    REQUIRE(nnue::train(cfg, report, quiet) == "");
    REQUIRE(report.trainPositions > 8000);
    REQUIRE(report.validationPositions > 500);
    REQUIRE(report.epochs.size() == 4);
    // So few positions teach the training set, not chess: the training loss falls, the held-out
    // one is only reported.
    REQUIRE(report.epochs.back().trainLoss < 0.8 * report.epochs.front().trainLoss);

    // The file holds the quantised network; its output follows the float network's within the
    // quantisation's error. It is mostly the output weights' step of 1/QB = 1/64: some 0.005
    // (its standard deviation) times 512 hidden values of about 0.3, times SCALE 400, gives about
    // 12 cp at worst on this overfitted little network; the rows of the first layer, at 1/255,
    // add less.
    nnue::Network net;
    REQUIRE(nnue::load(out, net) == "");
    double worst = 0, total = 0;
    for (const std::string& fen : benchPositions()) {
        Position pos;
        REQUIRE(pos.setFen(fen) == "");
        const double error = std::abs(report.network.output(pos) * net.scale - net.evaluate(pos));
        worst = std::max(worst, error);
        total += error;
    }
    INFO("worst " << worst << " cp, mean " << total / double(benchPositions().size()) << " cp");
    CHECK(total / double(benchPositions().size()) <= 10.0);
    CHECK(worst <= 40.0);

    // Stopped after an epoch and resumed, the run makes the very network of the whole run.
    const std::string whole = bytesOf(out), split = tempPath("train-split.nnue");
    nnue::TrainConfig first = cfg;
    first.run.out = split;
    first.run.stopAfter = 2;
    nnue::TrainReport part;
    REQUIRE(nnue::train(first, part, quiet) == "");
    REQUIRE(part.epochs.size() == 2);
    REQUIRE(bytesOf(split) != whole);
    first.run.stopAfter = 0;
    first.run.resume = true;
    REQUIRE(nnue::train(first, part, quiet) == "");
    REQUIRE(bytesOf(split) == whole);
    first.recipe.lr = 0.002;  // other settings: the state is refused
    REQUIRE(nnue::train(first, part, quiet).find("other data or settings") != std::string::npos);
    for (const std::string& f : {split, split + ".state", out + ".state"}) std::filesystem::remove(f);

    // Bad arguments change nothing.
    REQUIRE(nnue::runTrain({"data", data}, quiet).find("needs") != std::string::npos);
    REQUIRE(nnue::runTrain({"data", out, "out", out}, quiet).find("not a game file") != std::string::npos);
    REQUIRE(nnue::runTrain({"data", data, "out", out, "wdl", "2"}, quiet).find("wdl") != std::string::npos);
    REQUIRE(nnue::runTrain({"data", data, "out", out, "minply", "1000"}, quiet).find("no training positions") !=
            std::string::npos);
    nnue::Network again;
    REQUIRE(nnue::load(out, again) == "");
    REQUIRE(again.checksum == net.checksum);
    std::filesystem::remove(data);
    std::filesystem::remove(out);
}

TEST_CASE("train: the data streams through a bounded buffer, each position once a pass, the files mixed",
          "[nnue][train]") {
    const std::string a = tempPath("stream-a.bin"), b = tempPath("stream-b.bin");
    for (const auto& [path, seed] : {std::pair{a, 3}, {b, 4}}) makeTrainingGames(path, 40, seed, 2);
    const auto key = [](const nnue::Sample& s) { return std::string(reinterpret_cast<const char*>(&s), sizeof s); };
    // A pass: its buffers' positions, one after another, and each buffer's.
    const auto pass = [&](const nnue::StreamConfig& cfg, int number, int threads = 2) {
        nnue::SampleStream stream;
        REQUIRE(stream.open(cfg, threads, quiet) == "");
        std::vector<std::vector<std::string>> buffers;
        double last = 0;
        stream.pass(number, [&](std::vector<nnue::Sample>& buffer, double done) {
            REQUIRE(done > last);
            last = done;
            buffers.emplace_back();
            for (const nnue::Sample& s : buffer) buffers.back().push_back(key(s));
        });
        REQUIRE(last == Approx(1.0));
        return buffers;
    };
    const auto joined = [](const std::vector<std::vector<std::string>>& buffers) {
        std::vector<std::string> all;
        for (const auto& buffer : buffers) all.insert(all.end(), buffer.begin(), buffer.end());
        return all;
    };
    const auto sorted = [](std::vector<std::string> v) {
        std::sort(v.begin(), v.end());
        return v;
    };
    const nnue::StreamConfig whole{.files = {a, b}, .holdoutShare = 0.0, .buffer = 1u << 30, .maxHeldOut = 1000};
    const auto everything = joined(pass(whole, 1));
    REQUIRE(everything.size() > 3000);

    // Buffers of about a quarter of the positions: every position once, in another order each pass,
    // the same order whatever the threads.
    std::vector<gamefile::ChunkSpan> spans;
    for (const std::string& f : {a, b}) REQUIRE(gamefile::index(f, spans) == "");
    std::uint32_t largest = 0, plies = 0;
    for (const gamefile::ChunkSpan& span : spans) {
        largest = std::max(largest, span.plies);
        plies += span.plies;
    }
    nnue::StreamConfig small = whole;
    small.buffer = plies / 4;
    const auto buffers = pass(small, 1);
    REQUIRE(buffers.size() >= 3);
    for (const auto& buffer : buffers) REQUIRE(buffer.size() < small.buffer + largest);  // a chunk over at most
    REQUIRE(sorted(joined(buffers)) == sorted(everything));
    REQUIRE(joined(pass(small, 2)) != joined(buffers));
    REQUIRE(pass(small, 1, 3) == buffers);

    // The files are mixed: the first buffer holds positions of both (a stream reading the files in
    // turn would fill it from the first file alone).
    nnue::StreamConfig onlyA = whole;
    onlyA.files = {a};
    const auto fromA = sorted(joined(pass(onlyA, 1)));
    const auto count = std::count_if(buffers[0].begin(), buffers[0].end(), [&](const std::string& k) {
        return std::binary_search(fromA.begin(), fromA.end(), k);
    });
    REQUIRE(count > 0);
    REQUIRE(std::size_t(count) < buffers[0].size());

    // The held-out part is whole chunks, capped; the mirror images double the training buffers.
    nnue::StreamConfig heldOut = whole;
    heldOut.holdoutShare = 0.5;
    heldOut.maxHeldOut = 100;
    nnue::SampleStream stream;
    REQUIRE(stream.open(heldOut, 2, quiet) == "");
    REQUIRE(stream.heldOut().size() == 100);
    nnue::StreamConfig mirrored = whole;
    mirrored.mirror = true;
    REQUIRE(joined(pass(mirrored, 1)).size() == 2 * everything.size());
    for (const std::string& f : {a, b}) std::filesystem::remove(f);
}

TEST_CASE("train: warm restarts keep each cycle's network, whose file says how it was made", "[nnue][train]") {
    nnue::TrainConfig cfg;
    cfg.recipe.cycles = 2;
    REQUIRE(nnue::learningRate(cfg.recipe, 0.0) == Approx(cfg.recipe.lr));
    REQUIRE(nnue::learningRate(cfg.recipe, 0.4999) == Approx(0.02 * cfg.recipe.lr).epsilon(0.01));
    REQUIRE(nnue::learningRate(cfg.recipe, 0.5) == Approx(0.02 * cfg.recipe.lr));  // the first cycle's last batch
    REQUIRE(nnue::learningRate(cfg.recipe, 0.5001) == Approx(cfg.recipe.lr).epsilon(0.01));
    REQUIRE(nnue::learningRate(cfg.recipe, 0.75) == Approx(0.51 * cfg.recipe.lr));
    REQUIRE(nnue::learningRate(cfg.recipe, 1.0) == Approx(0.02 * cfg.recipe.lr));
    cfg.recipe.cycles = 1;
    REQUIRE(nnue::learningRate(cfg.recipe, 0.5) == Approx(0.51 * cfg.recipe.lr));

    const std::string data = tempPath("cycles.bin"), out = tempPath("cycles.nnue");
    makeTrainingGames(data, 16, 6, 2);
    const std::vector<std::string> args = {"data",   data, "out",   out,   "epochs",  "2",
                                           "cycles", "2",  "batch", "256", "holdout", "0"};
    REQUIRE(nnue::runTrain(args, quiet) == "");
    const std::string first = tempPath("cycles-cycle1.nnue"), second = tempPath("cycles-cycle2.nnue");
    REQUIRE(bytesOf(second) == bytesOf(out));
    REQUIRE(!bytesOf(first).empty());
    REQUIRE(bytesOf(first) != bytesOf(out));
    nnue::Network net;
    REQUIRE(nnue::load(out, net) == "");
    INFO(net.description);
    // Files by name: the directories of the machine that trained it say nothing elsewhere.
    const auto name = [](const std::string& path) { return std::filesystem::path(path).filename().string(); };
    const std::string command = "quadbit train data " + name(data) +
                                " epochs 2 cycles 2 batch 256 lr 0.001 wdl 0.3 activation screlu hidden 256 buckets 1 "
                                "kingbuckets 1 minply 8 holdout 0 maxheldout 1000000 buffer 4000000 seed 1 (";
    REQUIRE(net.description.find(command) == 0);
    // The description's command, its file named where it lies, makes the same network again.
    std::vector<std::string> again = text::split(
        command.substr(std::string("quadbit train ").size(), command.size() - std::string("quadbit train  (").size()),
        ' ');
    again[1] = data;
    const std::string remade = tempPath("cycles-remade.nnue");
    again.insert(again.end(), {"out", remade});
    REQUIRE(nnue::runTrain(again, quiet) == "");
    nnue::Network remadeNet;
    REQUIRE(nnue::load(remade, remadeNet) == "");
    REQUIRE(remadeNet.checksum == net.checksum);
    REQUIRE(remadeNet.description == net.description);
    REQUIRE(net.description.find(std::filesystem::path(data).parent_path().string()) == std::string::npos);
    // The data by name and sha256, as the manifest and `sha256sum` know it, and the trainer's commit.
    REQUIRE(net.description.find(" chunks; data " + name(data) + " sha256 " + sha256::ofFile(data) + "; trainer " +
                                 buildCommit() + ")") != std::string::npos);

    // Stopped and resumed, the run writes the same file, description and all.
    const std::string whole = bytesOf(out);
    auto split = args;
    split.insert(split.end(), {"stopafter", "1"});
    REQUIRE(nnue::runTrain(split, quiet) == "");
    REQUIRE(bytesOf(out) != whole);
    REQUIRE(nnue::runTrain(
                {"resume", "data", data, "out", out, "epochs", "2", "cycles", "2", "batch", "256", "holdout", "0"},
                quiet) == "");
    REQUIRE(bytesOf(out) == whole);

    auto odd = args;
    odd[5] = "3";
    REQUIRE(nnue::runTrain(odd, quiet).find("multiple of the cycles") != std::string::npos);
    for (const std::string& f : {data, out, out + ".state", first, second}) std::filesystem::remove(f);
}


TEST_CASE("train: mirror adds each training position's mirror image, and only training's", "[nnue][train]") {
    const std::string data = tempPath("train-mirror.bin");
    makeTrainingGames(data, 20, 5);
    nnue::TrainConfig cfg;
    cfg.recipe.data.files = {data};
    cfg.recipe.epochs = 1;
    cfg.recipe.data.holdoutShare = 0.2;
    nnue::TrainReport plain, mirrored;
    REQUIRE(nnue::train(cfg, plain, quiet) == "");
    cfg.recipe.data.mirror = true;
    REQUIRE(nnue::train(cfg, mirrored, quiet) == "");
    REQUIRE(plain.trainPositions > 500);
    REQUIRE(mirrored.trainPositions == 2 * plain.trainPositions);
    REQUIRE(mirrored.validationPositions == plain.validationPositions);
    // A cap on positions takes the first chunks holding that many positions as played: here the
    // held-out chunk 0 and chunk 1, whose training positions are half of the whole's with chunk 2.
    std::vector<gamefile::ChunkSpan> spans;
    REQUIRE(gamefile::index(data, spans).empty());
    REQUIRE(spans.size() == 3);
    cfg.recipe.data.maxPositions = spans[0].plies + 1;
    nnue::TrainReport capped;
    REQUIRE(nnue::train(cfg, capped, quiet) == "");
    REQUIRE(capped.validationPositions == mirrored.validationPositions);
    REQUIRE(capped.trainPositions < mirrored.trainPositions * 3 / 4);
    REQUIRE(capped.trainPositions > mirrored.trainPositions / 4);
    std::filesystem::remove(data);

    // The trainer shows the network the mirror image: the inputs of the mirrored board (the
    // same sum in another order, hence equal to rounding), which a random network tells apart
    // from the board as it stands.
    nnue::FloatNetwork net;
    std::mt19937 rng(7);
    std::normal_distribution<float> weight(0.0f, 0.1f);
    for (float& w : net.params) w = weight(rng);
    int told = 0;
    forEachMirrorImage([&](const Position& pos, const Position& image) {
        REQUIRE(net.output(pos, true) == Approx(net.output(image)).epsilon(1e-5));
        REQUIRE(net.output(image, true) == Approx(net.output(pos)).epsilon(1e-5));
        told += net.output(pos) != Approx(net.output(image)).epsilon(1e-3);
    });
    REQUIRE(told > int(benchPositions().size()) * 9 / 10);
    REQUIRE(nnue::runTrain({"data", data, "out", data, "mirror", "yes"}, quiet) != "");
}

TEST_CASE("train: the network learns what the seeds' knowledge leaves to it", "[nnue][train]") {
    // K+B+B v K+N: the bishop pair wins most of these, but the material table scales the side
    // ahead by a quarter (SCALE_MATING_IN_JEOPARDY). Taught a search score of +150 for each, the
    // network must learn four times that, so that the engine's score (withKnowledge) is +150
    // again; a trainer blind to the scale factor teaches +150, which the engine then quarters.
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> square(0, 63);
    std::vector<std::string> fens;
    while (fens.size() < 200) {
        const int wk = square(rng), light = square(rng), dark = square(rng), bk = square(rng), bn = square(rng);
        if ((light % 8 + light / 8) % 2 == 0 || (dark % 8 + dark / 8) % 2 == 1) continue;
        std::string board(64, '.');
        bool clash = false;
        for (auto [sq, pc] : {std::pair{wk, 'K'}, {light, 'B'}, {dark, 'B'}, {bk, 'k'}, {bn, 'n'}}) {
            clash |= board[sq] != '.';
            board[sq] = pc;
        }
        Position pos;
        const std::string side = fens.size() % 2 ? " b" : " w";
        std::string fen;
        for (int rank = 7; rank >= 0; --rank) {
            for (int file = 0; file < 8; ++file) fen += board[8 * rank + file] == '.' ? '1' : board[8 * rank + file];
            fen += rank ? "/" : "";
        }
        if (clash || !pos.setFen(fen + side + " - - 0 1").empty() || pos.inCheck()) continue;
        fens.push_back(pos.fen());
    }
    // Two positions the network is never asked about: K+Q v K (an exact evaluator) and K+B v K
    // (a draw whoever is ahead).
    std::vector<std::string> known = {"8/8/3k4/8/8/2QK4/8/8 w - - 0 1", "8/8/3k4/8/8/2BK4/8/8 w - - 0 1"};

    gamefile::Chunk chunk{0, 1, 1, {}};
    for (const std::string& fen : fens) {
        gamefile::Game g;
        REQUIRE(gamefile::gameFromText(fen + " | 150 | 0.5", g) == "");
        chunk.games.push_back(g);
    }
    for (const std::string& fen : known) {
        gamefile::Game g;
        REQUIRE(gamefile::gameFromText(fen + " | 900 | 1.0", g) == "");
        chunk.games.push_back(g);
    }
    const std::string data = tempPath("train-knowledge.bin");
    {
        std::ofstream out(data, std::ios::binary | std::ios::trunc);
        const std::string bytes = gamefile::encode(chunk);
        out.write(bytes.data(), std::streamsize(bytes.size()));
    }
    nnue::TrainConfig cfg;
    cfg.recipe.data.files = {data};
    cfg.recipe.epochs = 40;
    cfg.recipe.batch = 32;
    cfg.recipe.lr = 0.01;
    cfg.recipe.wdl = 0;
    cfg.recipe.data.holdoutShare = 0;
    cfg.recipe.data.minPly = 0;
    nnue::TrainReport report;
    REQUIRE(nnue::train(cfg, report, quiet) == "");
    std::filesystem::remove(data);
    REQUIRE(report.trainPositions == fens.size());
    REQUIRE(report.knownPositions == known.size());

    EvalCache cache;
    const float toCentipawns = float(std::make_unique<nnue::Network>()->scale);
    double total = 0;
    for (const std::string& fen : fens) {
        Position pos;
        REQUIRE(pos.setFen(fen) == "");
        REQUIRE(knownScale(pos, cache, WHITE) == params::SCALE_MATING_IN_JEOPARDY);
        const Value network = Value(std::lround(report.network.output(pos) * toCentipawns));  // side to move's
        total += withKnowledge(pos, cache, network) * (pos.sideToMove() == WHITE ? 1 : -1);
    }
    const double mean = total / double(fens.size());
    INFO("the engine's mean score " << mean << " cp, taught +150");
    REQUIRE(mean > 120);
    REQUIRE(mean < 180);
}

TEST_CASE("nnue: a king-mirroring network sees a board and its mirror image alike", "[nnue]") {
    // Each side's inputs are those of the mirror image's same side: the same integer sums. A
    // network without the mirroring tells the two apart.
    const auto mirroring = randomNetwork(nnue::Activation::SQUARED_CLIPPED_RELU, 5, 8, true);
    const auto plain = randomNetwork(nnue::Activation::SQUARED_CLIPPED_RELU, 5, 8, false);
    int told = 0;
    forEachMirrorImage([&](const Position& pos, const Position& image) {
        REQUIRE(mirroring->evaluate(pos) == mirroring->evaluate(image));
        told += plain->evaluate(pos) != plain->evaluate(image);
    });
    REQUIRE(told > int(benchPositions().size()) * 9 / 10);
}

TEST_CASE("nnue: output buckets divide the 2 to 32 pieces evenly, each bucket its own weights", "[nnue]") {
    REQUIRE(nnue::outputBucket(1, 2) == 0);
    REQUIRE(nnue::outputBucket(1, 32) == 0);
    REQUIRE(nnue::outputBucket(8, 2) == 0);
    REQUIRE(nnue::outputBucket(8, 5) == 0);
    REQUIRE(nnue::outputBucket(8, 6) == 1);
    REQUIRE(nnue::outputBucket(8, 32) == 7);
    for (int buckets = 1; buckets <= nnue::MAX_OUTPUT_BUCKETS; ++buckets)
        for (int pieces = 2; pieces <= 32; ++pieces) {
            REQUIRE(nnue::outputBucket(buckets, pieces) >= nnue::outputBucket(buckets, pieces - 1 + (pieces == 2)));
            REQUIRE(nnue::outputBucket(buckets, pieces) < buckets);
        }
    // Changing bucket 7's output bias moves the start position's score (32 pieces), not a rook
    // ending's (4 pieces: bucket 0).
    const auto net = randomNetwork(nnue::Activation::SQUARED_CLIPPED_RELU, 6, 8, true);
    Position opening, ending;
    REQUIRE(opening.setFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") == "");
    REQUIRE(ending.setFen("8/5k2/8/3r4/8/2R5/6K1/8 w - - 0 1") == "");
    const Value openingBefore = net->evaluate(opening), endingBefore = net->evaluate(ending);
    net->outputBias[7] += 100 * net->qa * net->qb / net->scale;
    REQUIRE(net->evaluate(opening) == openingBefore + 100);
    REQUIRE(net->evaluate(ending) == endingBefore);
}

TEST_CASE("train: compare measures network files on the held-out positions as training does", "[nnue][train]") {
    const std::string data = tempPath("train-compare.bin"), out = tempPath("train-compare.nnue"),
                      zero = tempPath("train-compare-zero.nnue"), real = tempPath("train-compare-real.nnue");
    makeTrainingGames(data, 80, 7);
    nnue::TrainConfig cfg;  // wdl 0.3 and one thread, the defaults
    cfg.recipe.data.files = {data};
    cfg.run.out = out;
    cfg.recipe.epochs = 2;
    cfg.recipe.data.holdoutShare = 0.2;
    cfg.recipe.outputBuckets = 4;
    nnue::TrainReport report;
    REQUIRE(nnue::train(cfg, report, quiet) == "");

    // The file's network in floats is the file's network: quantised again, the same bytes.
    nnue::Network net;
    REQUIRE(nnue::load(out, net) == "");
    nnue::Network again = nnue::FloatNetwork::dequantise(net).quantise();
    again.description = net.description;
    REQUIRE(nnue::encode(again) == nnue::encode(net));

    // A network of zero weights (as a network is made) says 0.5 everywhere: against the results
    // alone its loss is a quarter of the decisive games' share of the held-out positions.
    auto flat = std::make_unique<nnue::Network>();
    for (const auto& [path, network] :
         {std::pair<std::string, const nnue::Network*>{zero, flat.get()}, {real, &nnue::embedded()}}) {
        std::ofstream file(path, std::ios::binary);
        file << nnue::encode(*network);
    }
    nnue::SampleStream stream;
    REQUIRE(stream.open(cfg.recipe.data, cfg.run.threads, quiet) == "");
    const std::vector<nnue::Sample> heldOut = stream.heldOut();
    REQUIRE(heldOut.size() > 500);
    const double decisive =
        double(std::count_if(heldOut.begin(), heldOut.end(), [](const nnue::Sample& s) { return s.result != 1; }));

    std::vector<nnue::HeldOutLoss> losses;
    REQUIRE(nnue::compare(cfg, {out, zero, real}, losses, quiet) == "");
    REQUIRE(losses.size() == 3);
    REQUIRE(losses[0].positions == heldOut.size());
    // The trained network's loss is the one training reported, but for the quantisation.
    CHECK(losses[0].atWdl == Approx(report.epochs.back().validationLoss).epsilon(0.01));
    CHECK(losses[1].results == Approx(0.25 * decisive / double(heldOut.size())).epsilon(1e-6));
    // The embedded network, whose searches scored these games, foresees them far better.
    CHECK(losses[2].scores < 0.5 * losses[1].scores);
    CHECK(losses[2].results < losses[1].results);
    // At wdl w the target blends the two, and the squared error is convex in the target.
    CHECK(losses[2].atWdl <= std::max(losses[2].scores, losses[2].results));

    // Bad arguments: a network that is not there, or an output to write, change nothing.
    std::vector<nnue::HeldOutLoss> none;
    REQUIRE(nnue::compare(cfg, {out, data}, none, quiet).find(data) != std::string::npos);
    REQUIRE(none.empty());
    REQUIRE(nnue::runTrain({"data", data, "compare", out, "out", out}, quiet).find("trains none") != std::string::npos);
    REQUIRE(nnue::runTrain({"data", data, "compare", out + "," + zero, "holdout", "0.2"}, quiet) == "");
    REQUIRE(nnue::runTrain({"data", data, "compare", out, "holdout", "0"}, quiet).find("held-out") !=
            std::string::npos);
    for (const std::string& f : {data, out, out + ".state", zero, real}) std::filesystem::remove(f);
}

TEST_CASE("train: output buckets and king mirroring train into the network the engine reads", "[nnue][train]") {
    const std::string data = tempPath("train-buckets.bin"), out = tempPath("train-buckets.nnue");
    makeTrainingGames(data, 40, 6);
    REQUIRE(nnue::runTrain(
                {"data", data, "out", out, "epochs", "2", "batch", "256", "threads", "2", "buckets", "8", "kingmirror"},
                quiet) == "");
    nnue::Network net;
    REQUIRE(nnue::load(out, net) == "");
    REQUIRE(net.outputBuckets == 8);
    REQUIRE(net.kingMirror);
    REQUIRE(net.shape() == "(768 -> 256) x 2 -> 1 of 8 buckets, king mirroring");
    REQUIRE(net.description.find("buckets 8 kingmirror") != std::string::npos);

    // The trainer's float network and the engine's quantised one agree (within the quantisation's
    // error, as for the plain network), and the float one sees the mirror image alike too.
    nnue::TrainConfig cfg;
    cfg.recipe.data.files = {data};
    cfg.recipe.epochs = 2;
    cfg.recipe.batch = 256;
    cfg.recipe.outputBuckets = 8;
    cfg.recipe.kingMirror = true;
    nnue::TrainReport report;
    REQUIRE(nnue::train(cfg, report, quiet) == "");
    const nnue::Network quantised = report.network.quantise();
    REQUIRE(nnue::encode(quantised).substr(0, 32) == bytesOf(out).substr(0, 32));  // the same shape
    double total = 0;
    // The image's sums run in another order: a float rounding apart, which near a zero output is
    // more than the relative bound (0.00199 against 0.001989 once), hence the absolute margin,
    // a hundredth of a centipawn.
    forEachMirrorImage([&](const Position& pos, const Position& image) {
        total += std::abs(report.network.output(pos) * quantised.scale - quantised.evaluate(pos));
        REQUIRE(report.network.output(pos) == Approx(report.network.output(image)).epsilon(1e-5).margin(2e-5));
    });
    CHECK(total / double(benchPositions().size()) <= 10.0);

    // A mirror image adds nothing to a king-mirroring network; 9 buckets are more than a file holds.
    REQUIRE(nnue::runTrain({"data", data, "out", out, "kingmirror", "mirror"}, quiet).find("adds nothing") !=
            std::string::npos);
    REQUIRE(nnue::runTrain({"data", data, "out", out, "buckets", "9"}, quiet).find("buckets") != std::string::npos);
    for (const std::string& f : {data, out, out + ".state"}) std::filesystem::remove(f);
}

TEST_CASE("train: from a network, a run starts from its weights, its output layer in every bucket, its inputs in "
          "every king bucket",
          "[nnue][train]") {
    const std::string data = tempPath("train-from.bin"), out = tempPath("train-from.nnue"),
                      scratch = tempPath("train-from-scratch.nnue"), four = tempPath("train-from-four.nnue"),
                      refused = tempPath("train-from-refused.nnue"), bucketed = tempPath("train-from-kings.nnue");
    makeTrainingGames(data, 40, 8);

    // At the smallest learning rate an epoch moves no weight by a quantisation step: the file
    // written is the embedded network's weights in each of 8 buckets (its one output layer in
    // all of them, if it has one), and says where it began.
    nnue::TrainConfig cfg;
    cfg.recipe.data.files = {data};
    cfg.run.out = out;
    cfg.recipe.epochs = 1;
    cfg.recipe.batch = 256;
    cfg.run.threads = 2;
    cfg.recipe.lr = 1e-7;
    cfg.recipe.outputBuckets = 8;
    cfg.recipe.from = nnue::EMBEDDED_NAME;
    nnue::TrainReport started;
    REQUIRE(nnue::train(cfg, started, quiet) == "");
    nnue::Network net;
    REQUIRE(nnue::load(out, net) == "");
    REQUIRE(net.outputBuckets == 8);
    const nnue::Network& embedded = nnue::embedded();
    const int hidden = embedded.hidden();
    REQUIRE(net.hidden() == hidden);
    REQUIRE(net.scale == embedded.scale);  // the embedded file's own (312), not the trainer's unit
    for (int bucket = 0; bucket < 8; ++bucket) {
        const int from = embedded.outputBuckets == 1 ? 0 : bucket;
        for (int side = 0; side < 2; ++side)
            REQUIRE(std::equal(net.outputWeights(bucket, side), net.outputWeights(bucket, side) + hidden,
                               embedded.outputWeights(from, side)));
        REQUIRE(net.outputBias[bucket] == embedded.outputBias[from]);
    }
    REQUIRE(std::equal(net.featureWeights(0), net.featureWeights(nnue::INPUTS) + hidden, embedded.featureWeights(0)));
    for (const std::string& fen : benchPositions()) {
        Position pos;
        REQUIRE(pos.setFen(fen) == "");
        REQUIRE(net.evaluate(pos) == embedded.evaluate(pos));
    }
    char checksum[16];
    std::snprintf(checksum, sizeof checksum, "%08x", unsigned(embedded.checksum));
    REQUIRE(net.description.find("from network " + std::string(checksum)) != std::string::npos);

    // Into king buckets: the embedded network's one set of inputs in each, so that every king
    // square sees the board as before and the output is the embedded network's.
    nnue::TrainConfig kings = cfg;
    kings.run.out = bucketed;
    kings.recipe.kingBuckets = nnue::KingBuckets::layout(4);
    nnue::TrainReport kingsStarted;
    REQUIRE(nnue::train(kings, kingsStarted, quiet) == "");
    nnue::Network kingNet;
    REQUIRE(nnue::load(bucketed, kingNet) == "");
    REQUIRE(kingNet.kingBuckets() == kings.recipe.kingBuckets);
    for (int bucket = 0; bucket < 4; ++bucket)
        REQUIRE(std::equal(embedded.featureWeights(0), embedded.featureWeights(nnue::INPUTS),
                           kingNet.featureWeights(bucket * nnue::INPUTS)));
    REQUIRE(std::equal(embedded.featureBiases(), embedded.featureBiases() + hidden, kingNet.featureBiases()));
    for (const std::string& fen : benchPositions()) {
        Position pos;
        REQUIRE(pos.setFen(fen) == "");
        REQUIRE(kingNet.evaluate(pos) == embedded.evaluate(pos));
    }
    // At a learning rate that teaches, the buckets part: a king's bucket learns from the
    // positions with the king in it (the games' kings stand mostly on their first rank).
    kings.recipe.lr = 0.002;
    REQUIRE(nnue::train(kings, kingsStarted, quiet) == "");
    REQUIRE(nnue::load(bucketed, kingNet) == "");
    const auto rowsOf = [&](int bucket) {
        return std::vector<std::int16_t>(kingNet.featureWeights(bucket * nnue::INPUTS),
                                         kingNet.featureWeights((bucket + 1) * nnue::INPUTS));
    };
    CHECK(rowsOf(0) != rowsOf(1));
    CHECK(rowsOf(0) != rowsOf(3));

    // At a rate far above any recipe's the output weights reach their bound, which is the
    // file's: at the embedded SCALE (312) they are written 400/312 times the trainer's values,
    // and a bound in the trainer's units wrote files the engine refused (gen13a, 2026-12-04).
    // At a rate of 1 each Adam step moves a weight about 1, past the bound whatever the games
    // (at 0.1 they stopped short of it on the games of bench 857458's search).
    nnue::TrainConfig pressed = cfg;
    pressed.recipe.lr = 1.0;
    pressed.recipe.batch = 16;
    pressed.recipe.epochs = 4;
    nnue::TrainReport pressedReport;
    REQUIRE(nnue::train(pressed, pressedReport, quiet) == "");
    REQUIRE(nnue::load(out, net) == "");
    REQUIRE(net.scale == embedded.scale);
    int largest = 0;
    for (int bucket = 0; bucket < 8; ++bucket)
        for (int side = 0; side < 2; ++side)
            for (int i = 0; i < hidden; ++i) largest = std::max(largest, std::abs(net.outputWeights(bucket, side)[i]));
    CHECK(largest * net.qa > 30000);  // at the bound, so the bound was tested

    // The same epoch from random weights ends far from what the embedded network knows.
    nnue::TrainConfig fresh = cfg;
    fresh.recipe.from.clear();
    fresh.run.out = scratch;
    nnue::TrainReport random;
    REQUIRE(nnue::train(fresh, random, quiet) == "");
    CHECK(started.epochs[0].validationLoss < 0.5 * random.epochs[0].validationLoss);

    // A network the run cannot start from is refused before any data is read, and nothing is written.
    {
        std::ofstream file(four, std::ios::binary);
        file << nnue::encode(*randomNetwork(nnue::Activation::SQUARED_CLIPPED_RELU, 5, 4));
    }
    const std::vector<std::string> run = {"data", data, "out", refused, "buckets", "8"};
    const auto refusal = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = run;
        args.insert(args.end(), extra.begin(), extra.end());
        return nnue::runTrain(args, quiet);
    };
    CHECK(refusal({"from", four}).find("the run has 8 buckets") != std::string::npos);
    CHECK(refusal({"from", "<embedded>", "activation", "crelu"}).find("activation") != std::string::npos);
    CHECK(refusal({"from", "<embedded>", "kingmirror"}).find("the run has king mirroring") != std::string::npos);
    CHECK(refusal({"from", data + ".none"}).find(data + ".none") != std::string::npos);
    CHECK(refusal({"from", bucketed, "kingbuckets", "2"}).find("2 king buckets of its own") != std::string::npos);
    CHECK(refusal({"kingbuckets", "3"}).find("must be 1, 2, 4 or 8") != std::string::npos);
    CHECK(refusal({"kingbuckets", "8", "kingmirror"}).find("already does") != std::string::npos);
    CHECK(nnue::runTrain({"data", data, "compare", out, "from", out}, quiet).find("trains none") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(refused));
    for (const std::string& f :
         {data, out, out + ".state", scratch, scratch + ".state", four, bucketed, bucketed + ".state"})
        std::filesystem::remove(f);
}

TEST_CASE("train: hidden sets the width, and a wider run from a narrower network starts from its very function",
          "[nnue][train]") {
    const std::string data = tempPath("train-wide.bin"), narrow = tempPath("train-wide-64.nnue"),
                      widened = tempPath("train-wide-128.nnue"), grown = tempPath("train-wide-grown.nnue"),
                      refused = tempPath("train-wide-refused.nnue");
    makeTrainingGames(data, 40, 9);
    const std::vector<std::string> run = {"data", data, "epochs", "1", "batch", "64", "threads", "2", "buckets", "2"};
    const auto train = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = run;
        args.insert(args.end(), extra.begin(), extra.end());
        return nnue::runTrain(args, quiet);
    };
    REQUIRE(train({"out", narrow, "hidden", "64"}) == "");
    nnue::Network small;
    REQUIRE(nnue::load(narrow, small) == "");
    REQUIRE(small.shape() == "(768 -> 64) x 2 -> 1 of 2 buckets");
    REQUIRE(small.description.find("hidden 64") != std::string::npos);

    // Widened to 128 at the smallest learning rate (no weight moves by a quantisation step): the
    // narrower network's neurons as they were, the new ones with input weights and no output
    // weight, so that it evaluates every position exactly as the narrower one does.
    REQUIRE(train({"out", widened, "hidden", "128", "from", narrow, "lr", "1e-7"}) == "");
    nnue::Network wide;
    REQUIRE(nnue::load(widened, wide) == "");
    REQUIRE(wide.hidden() == 128);
    int newInputWeights = 0;
    for (int row = 0; row <= nnue::INPUTS; ++row) {
        REQUIRE(std::equal(small.featureWeights(row), small.featureWeights(row) + 64, wide.featureWeights(row)));
        newInputWeights += int(std::count_if(wide.featureWeights(row) + 64, wide.featureWeights(row) + 128,
                                             [](std::int16_t w) { return w != 0; }));
    }
    CHECK(newInputWeights > 768 * 64 / 2);  // random rows, so that the new neurons can learn
    for (int bucket = 0; bucket < 2; ++bucket)
        for (int side = 0; side < 2; ++side) {
            REQUIRE(std::equal(small.outputWeights(bucket, side), small.outputWeights(bucket, side) + 64,
                               wide.outputWeights(bucket, side)));
            REQUIRE(std::all_of(wide.outputWeights(bucket, side) + 64, wide.outputWeights(bucket, side) + 128,
                                [](std::int16_t w) { return w == 0; }));
        }
    for (const std::string& fen : benchPositions()) {
        Position pos;
        REQUIRE(pos.setFen(fen) == "");
        REQUIRE(wide.evaluate(pos) == small.evaluate(pos));
    }
    // Ranked on the held-out positions (networks of any width compare), the two are one network.
    nnue::TrainConfig measure;
    measure.recipe.data.files = {data};
    measure.run.threads = 2;
    std::vector<nnue::HeldOutLoss> losses;
    REQUIRE(nnue::compare(measure, {narrow, widened}, losses, quiet) == "");
    REQUIRE(losses.size() == 2);
    REQUIRE(losses[0].positions > 0);
    REQUIRE(losses[1].atWdl == losses[0].atWdl);
    REQUIRE(losses[1].results == losses[0].results);

    // At a learning rate that teaches, the new neurons grow output weights of their own.
    REQUIRE(train({"out", grown, "hidden", "128", "from", narrow, "lr", "0.002"}) == "");
    nnue::Network trained;
    REQUIRE(nnue::load(grown, trained) == "");
    int newOutputWeights = 0;
    for (int bucket = 0; bucket < 2; ++bucket)
        for (int side = 0; side < 2; ++side)
            newOutputWeights +=
                int(std::count_if(trained.outputWeights(bucket, side) + 64, trained.outputWeights(bucket, side) + 128,
                                  [](std::int16_t w) { return w != 0; }));
    INFO(newOutputWeights << " of the new neurons' 256 output weights moved");
    CHECK(newOutputWeights > 128);

    // A narrower run than its start would drop neurons; a width the kernels cannot step through,
    // or beyond the widest, is refused; nothing is written.
    CHECK(train({"out", refused, "hidden", "64", "from", widened}).find("wider than the run's 64") !=
          std::string::npos);
    CHECK(train({"out", refused, "hidden", "100"}).find("multiple of 32") != std::string::npos);
    CHECK(train({"out", refused, "hidden", "2048"}).find("hidden") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(refused));
    for (const std::string& f : {data, narrow, widened, grown})
        for (const std::string& name : {f, f + ".state"}) std::filesystem::remove(name);
}

TEST_CASE("sha256: the digests of FIPS 180-4's examples, and of a file as sha256sum gives it", "[nnue]") {
    REQUIRE(sha256::ofBytes("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    REQUIRE(sha256::ofBytes("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    REQUIRE(sha256::ofBytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    // A million 'a's: many blocks, read in pieces from a file.
    const std::string path = tempPath("sha256-million.txt");
    std::ofstream(path, std::ios::binary) << std::string(1'000'000, 'a');
    REQUIRE(sha256::ofFile(path) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    REQUIRE(sha256::ofFile(tempPath("no-such-file")) == "");
}

TEST_CASE("nnue: net scale changes the output SCALE alone, notes it, and refuses what it cannot do", "[nnue]") {
    std::vector<std::string> said;
    const auto keep = [&](const std::string& line) { said.push_back(line); };
    const std::string half = tempPath("net-half.nnue");
    REQUIRE(nnue::runNet({"scale", nnue::EMBEDDED_NAME, "x0.5", half}, keep) == "");
    nnue::Network read;
    REQUIRE(nnue::load(half, read) == "");
    const nnue::Network& embedded = nnue::embedded();
    REQUIRE(read.checksum == embedded.checksum);  // the same weights
    REQUIRE(std::abs(2 * read.scale - embedded.scale) <= 1);
    REQUIRE(read.description == embedded.description + "; output SCALE " + std::to_string(embedded.scale) + " -> " +
                                    std::to_string(read.scale));
    said.clear();
    REQUIRE(nnue::runNet({"show", half}, keep) == "");
    REQUIRE(said.size() == 2);
    REQUIRE(said[0].find("output SCALE " + std::to_string(read.scale)) != std::string::npos);
    // A factor of zero, a SCALE that is no whole number, a file that is none: refused, nothing written.
    const std::string refused = tempPath("net-refused.nnue");
    for (const char* wanted : {"x0", "12.5", "abc", "0", "x"})
        REQUIRE(nnue::runNet({"scale", half, wanted, refused}, keep).find("net: ") == 0);
    REQUIRE(nnue::runNet({"scale", refused + ".missing", "300", refused}, keep).find("net: ") == 0);
    REQUIRE(!std::filesystem::exists(refused));
    REQUIRE(nnue::runNet({"scale"}, keep).find("net: show") == 0);
    // A description at its limit gives up its oldest text's tail, never the new note.
    const std::string full = nnue::withNote(std::string(nnue::MAX_DESCRIPTION - 5, 'x'), "; output SCALE 3 -> 4");
    REQUIRE(full.size() == nnue::MAX_DESCRIPTION);
    REQUIRE(full.ends_with("...; output SCALE 3 -> 4"));
}

TEST_CASE("nnue: the embedded network names its data by sha256, its parent and the trainer, no machine's path",
          "[nnue]") {
    const std::string& about = nnue::embedded().description;
    INFO(about);
    REQUIRE(about.find("/") == std::string::npos);  // no path of any machine, absolute or relative
    REQUIRE(
        about.find(
            "; data gen11d312-s21-n5000-c21534.bin sha256 96da1702efd5cdbdc4cb3e7c1ebc20675e59c188d9c7de1a44989a2312a60ae6") !=
        std::string::npos);
    REQUIRE(about.find("; from network df310675; trainer ") != std::string::npos);
    REQUIRE(about.ends_with("; output SCALE 312 -> 243"));
}

TEST_CASE("train: every setting of a recipe is in the command its network's description gives", "[nnue][train]") {
    const nnue::Recipe base;
    std::vector<std::function<void(nnue::Recipe&)>> changes = {
        [](nnue::Recipe& r) { r.data.files = {"other.bin"}; },
        [](nnue::Recipe& r) { r.data.minPly = 9; },
        [](nnue::Recipe& r) { r.data.holdoutShare = 0.1; },
        [](nnue::Recipe& r) { r.data.seed = 2; },
        [](nnue::Recipe& r) { r.data.maxPositions = 1000; },
        [](nnue::Recipe& r) { r.data.buffer = 1000; },
        [](nnue::Recipe& r) { r.data.maxHeldOut = 1000; },
        [](nnue::Recipe& r) { r.data.mirror = true; },
        [](nnue::Recipe& r) { r.epochs = 11; },
        [](nnue::Recipe& r) { r.cycles = 2; },
        [](nnue::Recipe& r) { r.batch = 1024; },
        [](nnue::Recipe& r) { r.lr = 0.0005; },
        [](nnue::Recipe& r) { r.wdl = 0.2; },
        [](nnue::Recipe& r) { r.activation = nnue::Activation::CLIPPED_RELU; },
        [](nnue::Recipe& r) { r.hidden = 512; },
        [](nnue::Recipe& r) { r.outputBuckets = 8; },
        [](nnue::Recipe& r) { r.kingMirror = true; },
        [](nnue::Recipe& r) { r.kingBuckets = nnue::KingBuckets::layout(4); },
        [](nnue::Recipe& r) { r.from = nnue::EMBEDDED_NAME; },
    };
    std::set<std::string> commands = {nnue::recipeCommand(base)};
    for (const auto& change : changes) {
        nnue::Recipe changed = base;
        change(changed);
        INFO(nnue::recipeCommand(changed));
        REQUIRE(commands.insert(nnue::recipeCommand(changed)).second);
    }
    // A file by its name only: where it lies on the machine that trained says nothing elsewhere.
    nnue::Recipe placed = base;
    placed.data.files = {"/some/folder/games.bin"};
    placed.from = "/some/folder/parent.nnue";
    REQUIRE(nnue::recipeCommand(placed).find("/") == std::string::npos);
    REQUIRE(nnue::recipeCommand(placed).find("train data games.bin epochs") == 0);
}
