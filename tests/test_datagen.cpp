// Self-play data generation end to end on a tiny budget: the game file, the training filters,
// determinism, resuming, and `quadbit data`.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>

#include <catch2/catch.hpp>
#include "bytes.h"
#include "datagen/data.h"
#include "datagen/datagen.h"
#include "datagen/gamefile.h"
#include "engine.h"
#include "position.h"
#include "support.h"

namespace {

const auto quiet = [](const std::string&) {};

// The games of a game file by chunk index.
std::map<std::uint64_t, std::vector<gamefile::Game>> chunksOf(const std::string& path) {
    std::map<std::uint64_t, std::vector<gamefile::Game>> chunks;
    std::uint64_t valid = 0;
    REQUIRE(gamefile::read(
                path, [&](const gamefile::Chunk& c) { chunks[c.index] = c.games; }, &valid)
                .empty());
    REQUIRE(valid == std::filesystem::file_size(path));
    return chunks;
}

std::map<std::uint64_t, std::vector<gamefile::Game>> generate(const std::string& name, std::vector<std::string> args) {
    const std::string path = tempPath(name);
    std::filesystem::remove(path);
    args.insert(args.end(), {"out", path});
    std::string why = runDatagen(args, quiet);
    INFO(why);
    REQUIRE(why.empty());
    auto chunks = chunksOf(path);
    std::filesystem::remove(path);
    return chunks;
}

// A chunk of short games: searches of 150 nodes, enough for real games (scores, decisive
// results, adjudication) at little cost under the sanitizers and the emulators.
const std::vector<std::string> SMALL = {"games", "8", "nodes", "150", "seed", "5", "randomplies", "6"};

}  // namespace

TEST_CASE("datagen: the game file is little-endian, byte for byte as gamefile.h documents it", "[datagen]") {
    // The same bytes on x86-64 and AArch64 (and any other byte order): a file made on one
    // machine trains on another.
    gamefile::Chunk chunk{0x0102030405060708ULL, 0x1112131415161718ULL, 5000, {}};
    chunk.games.push_back({"8/8/8/8/8/8/8/K1k5 w - - 0 1", 2, {{Move(0x1234), -2}, {Move(0x0abc), 300}}});
    const std::string payload = std::string("\x02\x1c") + "8/8/8/8/8/8/8/K1k5 w - - 0 1" +
                                std::string("\x02\x00\x34\x12\xfe\xff\xbc\x0a\x2c\x01", 10);
    REQUIRE(bytes::checksum("a", 1) == 0xe40c292cu);  // FNV-1a's published value for "a"
    const std::uint32_t sum = bytes::checksum(payload.data(), payload.size());
    std::string expected = "QBG1" + std::string("\x08\x07\x06\x05\x04\x03\x02\x01", 8) +
                           std::string("\x18\x17\x16\x15\x14\x13\x12\x11", 8) + std::string("\x88\x13\x00\x00", 4) +
                           std::string(1, char(payload.size())) + std::string(3, '\0');
    for (int i = 0; i < 4; ++i) expected += char(sum >> (8 * i) & 0xFF);
    REQUIRE(gamefile::encode(chunk) == expected + payload);

    const std::string path = tempPath("golden.bin");
    std::ofstream(path, std::ios::binary) << expected + payload;
    std::vector<gamefile::Chunk> read;
    REQUIRE(gamefile::read(path, [&](const gamefile::Chunk& c) { read.push_back(c); }).empty());
    std::filesystem::remove(path);
    REQUIRE(read.size() == 1);
    REQUIRE(read[0].index == chunk.index);
    REQUIRE(read[0].seed == chunk.seed);
    REQUIRE(read[0].nodes == 5000);
    REQUIRE(read[0].games == chunk.games);
}

TEST_CASE("datagen: whole games with every move's score, the same games for the same seed", "[datagen]") {
    auto run = [](const char* threads) {
        auto args = SMALL;
        args.insert(args.end(), {"threads", threads});
        return generate(std::string("datagen-") + threads, args);
    };
    const auto chunks = run("1");
    REQUIRE(chunks.size() == 1);
    const auto& games = chunks.at(0);
    REQUIRE(games.size() == gamefile::CHUNK_GAMES);
    std::size_t kept = 0;
    for (const gamefile::Game& g : games) {
        INFO(g.startFen);
        REQUIRE(g.plies.size() > 4);
        REQUIRE(g.result >= 0);
        REQUIRE(g.result <= 2);
        for (const gamefile::Ply& p : g.plies) REQUIRE(std::abs(p.score) <= VALUE_MATE);
        // Every move is legal where it stands; training sees no position in check, no mate score.
        REQUIRE(gamefile::forEachTrainingPosition(g, 0, [&](const Position& pos, Value white, double result) {
            ++kept;
            REQUIRE(!pos.inCheck());
            REQUIRE(std::abs(white) < VALUE_MATE_IN_MAX_PLY);
            REQUIRE(result == g.result / 2.0);
        }));
    }
    REQUIRE(kept > 30);
    REQUIRE(run("1") == chunks);  // the same seed, the same games
    REQUIRE(run("2") == chunks);  // whatever the threads
}

TEST_CASE("datagen: adjudication cuts decided games short, and without it every game is played out", "[datagen]") {
    // Whether a game stopped where chess ends it: mate, stalemate, a draw by rule or a dead
    // position, or the ply cap.
    auto playedOut = [](const gamefile::Game& g) {
        Position pos;
        REQUIRE(pos.setFen(g.startFen).empty());
        for (const gamefile::Ply& p : g.plies) pos.makeMove(p.move);
        return gameOver(pos, int(g.plies.size()));
    };
    auto args = SMALL;
    const auto adjudicated = generate("datagen-adjudicated", args).at(0);
    args.push_back("noadjudication");
    const auto played = generate("datagen-played-out", args).at(0);
    REQUIRE(std::any_of(adjudicated.begin(), adjudicated.end(), [&](const auto& g) { return !playedOut(g); }));
    for (const gamefile::Game& g : played) {
        INFO(g.startFen << ", " << g.plies.size() << " plies");
        REQUIRE(playedOut(g));
    }
}

TEST_CASE("datagen: a file made from scratch is the same bytes whatever the threads", "[datagen]") {
    // The chunks are written in their order, not as the threads finish them: a file remade
    // from the manifest's command has the manifest's sha256.
    std::string made[2];
    for (int i = 0; i < 2; ++i) {
        const std::string path = tempPath("bytes.bin");
        std::filesystem::remove(path);
        REQUIRE(runDatagen({"games", "48", "nodes", "150", "seed", "9", "randomplies", "6", "threads", i ? "4" : "1",
                            "out", path},
                           quiet) == "");
        {  // closed before the file is removed, as Windows requires
            std::ifstream in(path, std::ios::binary);
            made[i].assign(std::istreambuf_iterator<char>(in), {});
        }
        std::filesystem::remove(path);
    }
    REQUIRE(made[0].size() > 48 * 50);
    REQUIRE(made[0] == made[1]);
}

TEST_CASE("datagen: a stopped run resumes with the games it would have played", "[datagen]") {
    const std::string path = tempPath("datagen-resume");
    std::filesystem::remove(path);
    auto args = SMALL;
    args[1] = "16";
    args.insert(args.end(), {"threads", "1"});
    const auto whole = generate("datagen-whole", args);
    REQUIRE(whole.size() == 2);
    args.insert(args.end(), {"out", path});

    // A run of the first chunk, stopped in the middle of writing the second.
    auto first = args;
    first[1] = "8";
    REQUIRE(runDatagen(first, quiet).empty());
    const auto size = std::filesystem::file_size(path);
    REQUIRE(runDatagen(args, quiet).empty());
    std::filesystem::resize_file(path, size + (std::filesystem::file_size(path) - size) / 2);
    std::string log;
    REQUIRE(runDatagen(args, [&](const std::string& line) { log += line + "\n"; }).empty());
    REQUIRE(log.find("dropping") != std::string::npos);
    REQUIRE(chunksOf(path) == whole);

    // Another seed or node budget would not continue the same games: refused, the file kept.
    auto other = args;
    other[5] = "6";
    REQUIRE(!runDatagen(other, quiet).empty());
    REQUIRE(chunksOf(path) == whole);
    other.push_back("force");  // starts afresh
    REQUIRE(runDatagen(other, quiet).empty());
    REQUIRE(chunksOf(path) != whole);
    std::filesystem::remove(path);
}

TEST_CASE("datagen: a soft node budget ends each search with a whole iteration, as go depth would", "[datagen]") {
    // The same search as `go depth D` for the depth D it reached past the budget: the same nodes
    // and move, so no iteration was cut short. A hard budget stops inside one.
    Engine engine;
    std::uint64_t nodes = 0;
    int depth = 0;
    std::string best;
    SearchCallbacks callbacks;
    callbacks.onInfo = [&](const SearchInfo& info) {
        nodes = info.nodes;
        depth = info.depth;
    };
    callbacks.onBestMove = [&](const std::string& move, const std::string&) { best = move; };
    engine.setCallbacks(callbacks);
    auto search = [&](const char* fen, const SearchLimits& limits) {
        engine.newGame();
        REQUIRE(engine.setPosition(fen, {}) == "");
        REQUIRE(engine.go(limits, now()) == "");
        engine.wait();
    };
    for (const char* fen : {"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                            "8/2k5/3p4/p2P1p2/P2P1P2/8/4K3/8 w - - 0 1"}) {
        INFO(fen);
        SearchLimits soft;
        soft.softNodes = 5000;
        soft.nodes = 5000 * SOFT_NODES_CAP;
        search(fen, soft);
        const std::uint64_t softNodes = nodes;
        const int softDepth = depth;
        const std::string softBest = best;
        REQUIRE(softNodes >= 5000);
        SearchLimits whole;
        whole.depth = softDepth;
        search(fen, whole);
        REQUIRE(nodes == softNodes);
        REQUIRE(best == softBest);
        SearchLimits hard;
        hard.nodes = 5000;
        search(fen, hard);
        REQUIRE(nodes < softNodes);
    }

    // Its games are others than the hard budget's, and its chunks say the budget was soft: a
    // file of one is not continued as the other.
    const std::string path = tempPath("datagen-soft");
    std::filesystem::remove(path);
    auto args = SMALL;
    args.insert(args.end(), {"threads", "1", "out", path, "softnodes"});
    REQUIRE(runDatagen(args, quiet).empty());
    const std::uint32_t budget = std::uint32_t(std::stoul(SMALL[3]));
    REQUIRE(gamefile::read(path, [&](const gamefile::Chunk& c) {
                REQUIRE(c.nodes == (budget | gamefile::SOFT_NODES));
            }).empty());
    REQUIRE(chunksOf(path) != generate("datagen-hard", std::vector<std::string>(args.begin(), args.end() - 3)));
    args.pop_back();
    REQUIRE(runDatagen(args, quiet).find("nodes " + SMALL[3] + " softnodes") != std::string::npos);
    std::filesystem::remove(path);
}

TEST_CASE("datagen: with Syzygy tables an ending they cover gets their result, and the chunks say so",
          "[datagen][syzygy]") {
    // K+R v K+B, drawn by the tables (the bishop is not caught in the rook's net), that a 300-node
    // search often plays on as a win and whose defence it often loses: games of it would teach the
    // network a won ending. The book is every such draw of dev.epd, 100 of them, so that the games
    // without tables lose some whatever the tree (16 of 32 at bench 857458, 22 at 955148, when a
    // single start was drawn by one tree and lost by the other). With the tables each side plays
    // their moves, and every game is drawn.
    const std::string book = tempPath("datagen-krkb.epd");
    {
        std::ifstream labelled(sharedPath("data/endgames/dev.epd"));
        std::ofstream out(book);
        for (std::string line; std::getline(labelled, line);) {
            std::string board = line.substr(0, line.find(' ')), pieces;
            std::copy_if(board.begin(), board.end(), std::back_inserter(pieces), ::isalpha);
            std::sort(pieces.begin(), pieces.end());
            if ((pieces == "KRbk" || pieces == "BKkr") && line.find("wdl 0;") != std::string::npos)
                out << line.substr(0, line.find(';')) << "\n";
        }
    }
    const std::vector<std::string> args = {"games",       "32", "nodes",   "300", "seed", "1",
                                           "randomplies", "0",  "threads", "1",   "book", book};
    auto drawn = [](const gamefile::Game& g) { return g.result == 1; };
    const auto gamesOf = [](const std::map<std::uint64_t, std::vector<gamefile::Game>>& chunks) {
        std::vector<gamefile::Game> games;
        for (const auto& [index, chunk] : chunks) games.insert(games.end(), chunk.begin(), chunk.end());
        return games;
    };
    const auto without = gamesOf(generate("datagen-no-tables", args));
    REQUIRE(without.size() == 32);
    REQUIRE(!std::all_of(without.begin(), without.end(), drawn));

    const std::string path = tempPath("datagen-tables");
    std::filesystem::remove(path);
    auto withTables = args;
    withTables.insert(withTables.end(), {"syzygy", sharedPath("data/syzygy"), "out", path});
    std::string tables;
    REQUIRE(runDatagen(withTables, [&](const std::string& line) { tables += line; }).empty());
    REQUIRE(tables.find("tablebase files (up to 5 pieces)") != std::string::npos);
    const auto with = gamesOf(chunksOf(path));
    REQUIRE(with.size() == 32);
    REQUIRE(std::all_of(with.begin(), with.end(), drawn));
    REQUIRE(
        gamefile::read(path, [](const gamefile::Chunk& c) { REQUIRE(c.nodes == (300 | gamefile::SYZYGY)); }).empty());

    // A file played with the tables is not continued without them; a folder without tables, or none,
    // is refused before anything is written.
    auto more = args;
    more[1] = "40";  // more games of the same run
    more.insert(more.end(), {"out", path});
    REQUIRE(runDatagen(more, quiet).find("nodes 300 with syzygy") != std::string::npos);
    const std::string empty = tempPath("datagen-no-tables-here");
    std::filesystem::create_directories(empty);
    for (const std::string& folder : {empty, std::string("/nonexistent")}) {
        const std::string fresh = tempPath("datagen-refused");
        std::filesystem::remove(fresh);
        auto refused = args;
        refused.insert(refused.end(), {"syzygy", folder, "out", fresh});
        REQUIRE(!runDatagen(refused, quiet).empty());
        REQUIRE(!std::filesystem::exists(fresh));
    }
    std::filesystem::remove(path);
    std::filesystem::remove(book);
    std::filesystem::remove(empty);
}

TEST_CASE("datagen: index and readAt find every chunk that read finds, and no other", "[datagen]") {
    // The trainer streams the chunks in an order of its own (nnue/stream.h): what it reads at a
    // span must be the chunk read() finds there, and a chunk cut short must have no span.
    const std::string path = tempPath("datagen-index");
    std::filesystem::remove(path);
    auto args = SMALL;
    args[1] = "24";
    args.insert(args.end(), {"out", path});
    REQUIRE(runDatagen(args, quiet).empty());
    std::vector<gamefile::Chunk> chunks;
    REQUIRE(gamefile::read(path, [&](const gamefile::Chunk& c) { chunks.push_back(c); }).empty());
    REQUIRE(chunks.size() == 3);
    std::filesystem::resize_file(path, std::filesystem::file_size(path) - 1);  // the last one cut short

    std::vector<gamefile::ChunkSpan> spans = {{7, 7, 7}};  // appended to, not replaced
    std::uint64_t valid = 0;
    REQUIRE(gamefile::index(path, spans, &valid).empty());
    REQUIRE(spans.size() == 3);
    std::ifstream in(path, std::ios::binary);
    gamefile::Chunk chunk;
    for (std::size_t k = 0; k < 2; ++k) {  // in reverse order, as a stream may take them
        const gamefile::ChunkSpan& span = spans[2 - k];
        REQUIRE(gamefile::readAt(in, span.offset, chunk));
        REQUIRE(chunk.index == chunks[1 - k].index);
        REQUIRE(chunk.games == chunks[1 - k].games);
        std::uint32_t plies = 0;
        for (const gamefile::Game& g : chunk.games) plies += std::uint32_t(g.plies.size());
        REQUIRE(span.plies == plies);
    }
    REQUIRE(spans[1].offset == 0);
    REQUIRE(spans[2].offset + gamefile::encode(chunks[1]).size() == valid);
    REQUIRE(!gamefile::readAt(in, valid, chunk));                // the chunk cut short
    REQUIRE(!gamefile::readAt(in, spans[2].offset + 1, chunk));  // not where a chunk starts
    in.close();                                                  // before the file is removed, as Windows requires
    std::filesystem::remove(path);
}

TEST_CASE("data: stats, the training positions as text in order or shuffled, and back", "[datagen]") {
    const std::string path = tempPath("data-games"), text = tempPath("data-text"), shuffled = tempPath("data-shuffled");
    std::filesystem::remove(path);
    auto args = SMALL;
    args.insert(args.end(), {"threads", "1", "out", path});
    REQUIRE(runData({"stats", path}, quiet) != "");  // no file yet
    REQUIRE(runDatagen(args, quiet).empty());

    std::string report;
    REQUIRE(runData({"stats", path}, [&](const std::string& line) { report = line; }).empty());
    REQUIRE(report.find("1 chunks, 8 games") != std::string::npos);

    REQUIRE(runData({"text", path, text, "minply", "4", "force"}, quiet).empty());
    REQUIRE(runData({"text", path, shuffled, "shuffle", "7", "force"}, quiet).empty());
    REQUIRE(!runData({"text", path, text}, quiet).empty());  // exists: not overwritten without force
    REQUIRE(!runData({"text", path, text, "shuffle", "x", "force"}, quiet).empty());
    REQUIRE(!runData({"convert", path}, quiet).empty());
    auto linesOf = [](const std::string& file) {
        std::vector<std::string> lines;
        std::ifstream in(file);
        for (std::string line; std::getline(in, line);) lines.push_back(line);
        return lines;
    };
    const auto lines = linesOf(text), all = linesOf(shuffled);
    REQUIRE(lines.size() > 30);
    REQUIRE(all.size() > lines.size());  // minply 4 leaves out the first plies of every game
    const std::regex format(R"((.+) \| (-?\d+) \| (1\.0|0\.5|0\.0))");
    for (const auto& line : all) {
        INFO(line);
        std::smatch m;
        REQUIRE(std::regex_match(line, m, format));
        Position p;
        REQUIRE(p.setFen(m[1]).empty());
        REQUIRE(!p.inCheck());
        REQUIRE(std::abs(std::stoi(m[2])) < VALUE_MATE_IN_MAX_PLY);
    }
    auto sorted = all;
    std::sort(sorted.begin(), sorted.end());
    REQUIRE(sorted != all);  // shuffled, and a permutation of the file-order positions
    std::vector<std::string> inOrder;
    REQUIRE(runData({"text", path, text, "force"}, quiet).empty());
    inOrder = linesOf(text);
    std::sort(inOrder.begin(), inOrder.end());
    REQUIRE(sorted == inOrder);

    // Back to a game file: the same training positions, in the same order, whatever minply.
    const std::string back = tempPath("data-back"), again = tempPath("data-again");
    REQUIRE(runData({"binary", shuffled, back, "force"}, quiet).empty());
    REQUIRE(runData({"text", back, again, "minply", "30", "force"}, quiet).empty());
    REQUIRE(linesOf(again) == all);
    REQUIRE(runData({"stats", back}, [&](const std::string& line) { report = line; }).empty());
    REQUIRE(report.find(std::to_string(all.size()) + " kept for training") != std::string::npos);
    // A bad line is refused with its number, and nothing is written.
    std::ofstream(text) << all[0] << "\n" << all[1].substr(0, all[1].size() - 3) << "2.0\n";
    std::filesystem::remove(again);
    REQUIRE(runData({"binary", text, again}, quiet).find("line 2: bad result") != std::string::npos);
    REQUIRE(!std::filesystem::exists(again));
    std::filesystem::remove(back);

    // A corrupt game (an illegal move) fails the check.
    std::filesystem::remove(path);
    gamefile::Chunk bad{0, 5, 400, {{START_FEN, 1, {{makeMove(SQ_E2, SQ_E5), 0}}}}};
    std::ofstream(path, std::ios::binary) << gamefile::encode(bad);
    REQUIRE(runData({"stats", path}, quiet).find("illegal move") != std::string::npos);
    for (const auto& f : {path, text, shuffled}) std::filesystem::remove(f);
}

TEST_CASE("datagen: the network plays by default, the hand-written evaluation with evalfile none", "[datagen][nnue]") {
    auto args = SMALL;
    args.insert(args.end(), {"threads", "1"});
    const auto network = generate("datagen-nnue", args);
    auto named = args;
    named.insert(named.end(), {"evalfile", "<embedded>"});
    REQUIRE(generate("datagen-nnue-named", named) == network);
    args.insert(args.end(), {"evalfile", "none"});
    const auto handWritten = generate("datagen-hce", args);
    REQUIRE(handWritten.at(0).size() == gamefile::CHUNK_GAMES);
    REQUIRE(network != handWritten);
    for (const auto* games : {&network, &handWritten})
        for (const gamefile::Game& g : games->at(0))
            REQUIRE(gamefile::forEachTrainingPosition(g, 0, [](const Position&, Value, double) {}));
}

TEST_CASE("datagen: bad arguments change nothing", "[datagen]") {
    const std::string path = tempPath("datagen-existing");
    std::ofstream(path) << "keep me\n";
    REQUIRE(!runDatagen({"out", path, "games", "1"}, quiet).empty());  // no overwrite without force
    REQUIRE(!runDatagen({"out", path, "nodes", "0", "force"}, quiet).empty());
    REQUIRE(!runDatagen({"out", path, "book", "/nonexistent.epd", "force"}, quiet).empty());
    REQUIRE(!runDatagen({"out", path, "colour", "blue", "force"}, quiet).empty());
    // A table for each thread, more than the machine holds (64 TB in all).
    REQUIRE(
        runDatagen({"out", path, "threads", "1024", "hash", "65536", "force"}, quiet).find("more than this machine") !=
        std::string::npos);
    REQUIRE(runDatagen({"out", path, "evalfile", path, "force"}, quiet).find("not a Quadbit network") !=
            std::string::npos);
    REQUIRE(!runDatagen({"games", "1"}, quiet).empty());
    std::string line;
    {  // closed before the file is removed, as Windows requires
        std::ifstream in(path);
        std::getline(in, line);
    }
    REQUIRE(line == "keep me");
    std::filesystem::remove(path);
}
