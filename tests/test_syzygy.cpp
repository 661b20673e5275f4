// Syzygy tablebases: every labelled position of ../shared/data/syzygy/probes.epd (made by an
// independent prober) gets the same WDL, and the same DTZ within the format's rounding; then the
// tables in use by the engine: options, root ranking, search scores, conversion.
#include <catch2/catch.hpp>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>

#include "engine_process.h"
#include "movegen.h"
#include "support.h"
#include "syzygy/syzygy.h"

namespace {

struct Labelled {
    std::string fen, id;
    int wdl, dtz;
};

std::vector<Labelled> probes() {
    std::vector<Labelled> out;
    std::ifstream in(sharedPath("data/syzygy/probes.epd"));
    const std::regex label(R"(id \"(\w+)\"; c0 \"wdl (-?\d) dtz (-?\d+)\")");
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, label)) continue;
        std::istringstream fields(line);
        std::string fen, f;
        for (int i = 0; i < 4 && fields >> f; ++i) fen += f + " ";
        out.push_back({fen + "0 1", m[1], std::stoi(m[2]), std::stoi(m[3])});
    }
    return out;
}

}  // namespace

TEST_CASE("syzygy: WDL and DTZ of every labelled position", "[syzygy]") {
    std::string summary;
    REQUIRE(syzygy::init(sharedPath("data/syzygy"), summary).empty());
    INFO(summary);
    REQUIRE(syzygy::maxPieces() == 5);
    const auto labelled = probes();
    REQUIRE(labelled.size() > 1000);
    int wdlRight = 0, dtzRight = 0;
    for (const Labelled& l : labelled) {
        Position pos;
        REQUIRE(pos.setFen(l.fen).empty());
        INFO(l.fen << " " << l.id << " wdl " << l.wdl << " dtz " << l.dtz);
        syzygy::Wdl wdl;
        int dtz;
        REQUIRE(syzygy::probeWdl(pos, wdl));
        REQUIRE(syzygy::probeDtz(pos, dtz));
        CHECK(int(wdl) == l.wdl);
        CHECK(std::abs(dtz - l.dtz) <= 1);
        wdlRight += int(wdl) == l.wdl;
        dtzRight += std::abs(dtz - l.dtz) <= 1;
        REQUIRE(pos.fen() == l.fen);  // probing leaves the position as it was
    }
    REQUIRE(wdlRight == int(labelled.size()));
    REQUIRE(dtzRight == int(labelled.size()));
}

// ---------------------------------------------------------------------------------------------
// The tables in use: the options, the search and the root, through the engine binary.

namespace {

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

const std::string TABLES = "setoption name SyzygyPath value " + sharedPath("data/syzygy");

// The legal move a SAN token names (any disambiguation the token gives; check marks ignored),
// MOVE_NONE if none or several.
Move parseSan(const Position& pos, const std::string& token) {
    static const std::regex form("([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])(=([NBRQ]))?[+#]?");
    std::smatch m;
    if (!std::regex_match(token, m, form)) return MOVE_NONE;
    const std::string pieces = "PNBRQK", promotions = "NBRQ";
    const PieceType pt = PieceType(PAWN + pieces.find(m[1].matched ? m[1].str()[0] : 'P'));
    Move found = MOVE_NONE;
    for (Move move : MoveList<LEGAL>(pos)) {
        const Square from = fromSq(move), to = toSq(move);
        if (typeOf(pos.movedPiece(move)) != pt || to != makeSquare(m[4].str()[0] - 'a', m[4].str()[1] - '1')) continue;
        if (m[2].matched && fileOf(from) != m[2].str()[0] - 'a') continue;
        if (m[3].matched && rankOf(from) != m[3].str()[0] - '1') continue;
        if (m[6].matched != (typeOf(move) == PROMOTION)) continue;
        if (m[6].matched && promotionType(move) != PieceType(KNIGHT + promotions.find(m[6].str()[0]))) continue;
        if (found) return MOVE_NONE;
        found = move;
    }
    return found;
}

// The score of the last info line that has one, as "cp N" or "mate N"; its tbhits.
std::string lastScore(const std::vector<std::string>& lines, std::uint64_t* tbHits = nullptr) {
    std::string score;
    const std::regex re("score ((cp|mate) -?\\d+).* tbhits (\\d+)");
    for (const auto& l : lines) {
        std::smatch m;
        if (startsWith(l, "info") && std::regex_search(l, m, re)) {
            score = m[1];
            if (tbHits) *tbHits = std::stoull(m[3]);
        }
    }
    return score;
}

int centipawns(const std::string& score) { return startsWith(score, "cp ") ? std::stoi(score.substr(3)) : 0; }

std::string bestMoveOf(const std::vector<std::string>& lines) {
    std::istringstream in(lines.back());
    std::string word, move;
    in >> word >> move;
    return move;
}

}  // namespace

TEST_CASE("syzygy: the options, the load message, a bad folder and d", "[syzygy][uci]") {
    EngineProcess e;
    e.send("uci");
    auto lines = e.readUntil("uciok");
    for (const char* option : {"option name SyzygyPath type string default <empty>",
                               "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
                               "option name Syzygy50MoveRule type check default true",
                               "option name SyzygyProbeLimit type spin default 7 min 0 max 7"})
        REQUIRE(std::find(lines.begin(), lines.end(), option) != lines.end());

    const std::string kbnk = "position fen 8/8/8/4k3/8/8/2N5/1BK5 w - - 0 1";
    auto tableLines = [&] {
        e.send(kbnk);
        e.send("d");
        std::vector<std::string> found;
        for (const auto& l : e.sync())
            if (startsWith(l, "Tablebases")) found.push_back(l);
        return found;
    };
    REQUIRE(tableLines().empty());

    e.send(TABLES);
    lines = e.sync();
    REQUIRE(lines.size() == 1);
    REQUIRE(std::regex_match(lines[0],
                             std::regex("info string found 38 WDL and 38 DTZ tablebase files \\(up to 5 pieces\\)")));
    const std::vector<std::string> expected{"Tablebases WDL: 2", "Tablebases DTZ: 56"};
    REQUIRE(tableLines() == expected);

    // A folder that does not exist is an error and leaves the tables in use.
    e.send("setoption name SyzygyPath value /no/such/folder");
    lines = e.sync();
    REQUIRE(lines.size() == 1);
    REQUIRE(startsWith(lines[0], "info string error: SyzygyPath: no folder '/no/such/folder'"));
    REQUIRE(tableLines() == expected);

    e.send("setoption name SyzygyPath value <empty>");
    REQUIRE(e.sync() == std::vector<std::string>{"info string found 0 WDL and 0 DTZ tablebase files (up to 0 pieces)"});
    REQUIRE(tableLines().empty());
}

TEST_CASE("syzygy: files whose names are not tables are passed over", "[syzygy][uci]") {
    // Only "K<pieces>vK<pieces>.rtbw" names a table (parseName in syzygy.cpp); the other names
    // are passed over before any file is opened, so these empty ones never count.
    namespace fs = std::filesystem;
    const fs::path folder = tempPath("syzygy-names");
    fs::remove_all(folder);
    fs::create_directories(folder);
    for (const char* ext : {".rtbw", ".rtbz"}) {  // copies, writable so that they can be removed on Windows too
        const fs::path table = folder / (std::string("KQvK") + ext);
        fs::copy_file(sharedPath("data/syzygy/KQvK") + ext, table);
        fs::permissions(table, fs::perms::owner_write, fs::perm_options::add);
    }
    for (const char* name : {"KQvKvK", "KQK", "QvK", "KQv", "Kv", "vK", "KKvK", "KQvKX", "kqvk", "KQ vK"})
        std::ofstream(folder / (std::string(name) + ".rtbw"));
    EngineProcess e;
    e.send("setoption name SyzygyPath value " + folder.string());
    const std::vector<std::string> lines = e.sync();
    fs::remove_all(folder);
    REQUIRE(lines == std::vector<std::string>{"info string found 1 WDL and 1 DTZ tablebase files (up to 3 pieces)"});
}

TEST_CASE("syzygy: at depth 1 every move played keeps the table value (probes.epd bm)", "[syzygy][uci]") {
    EngineProcess e;
    e.send(TABLES);
    e.sync();
    std::ifstream in(sharedPath("data/syzygy/probes.epd"));
    int positions = 0, kept = 0;
    for (std::string line; std::getline(in, line);) {
        const auto bm = line.find(" bm ");
        if (bm == std::string::npos) continue;
        std::istringstream fields(line);
        std::string fen, f;
        for (int i = 0; i < 4 && fields >> f; ++i) fen += f + " ";
        std::istringstream list(line.substr(bm + 4, line.find(';', bm) - bm - 4));
        Position pos;
        REQUIRE(pos.setFen(fen + "0 1").empty());
        std::vector<Move> good;
        for (std::string token; list >> token;) {
            INFO(fen << " " << token);
            REQUIRE(parseSan(pos, token) != MOVE_NONE);
            good.push_back(parseSan(pos, token));
        }
        e.send("position fen " + fen + "0 1");
        e.send("go depth 1");
        const std::string best = bestMoveOf(e.readUntil("bestmove"));
        INFO(fen << " bm " << line.substr(bm + 4) << " played " << best);
        const bool keeps = std::find(good.begin(), good.end(), pos.parseUciMove(best)) != good.end();
        CHECK(keeps);
        ++positions;
        kept += keeps;
    }
    REQUIRE(positions == 481);
    REQUIRE(kept == positions);
}

TEST_CASE("syzygy: table scores, tbhits, the fifty-move option, and no change without tables", "[syzygy][uci]") {
    EngineProcess e;
    // K+R+P v K+R is not in the tables, but its captures lead into them.
    const std::string krpkr = "position fen 8/8/4k3/8/2r5/8/3RP3/4K3 w - - 0 1";
    auto search = [&](const std::string& position, const std::string& go, std::uint64_t& tbHits,
                      std::uint64_t* nodes = nullptr) {
        e.send("ucinewgame");
        e.send(position);
        e.send(go);
        auto lines = e.readUntil("bestmove", 60000);
        if (nodes)
            for (const auto& l : lines) {
                std::smatch m;
                if (std::regex_search(l, m, std::regex(" nodes (\\d+) "))) *nodes = std::stoull(m[1]);
            }
        return lastScore(lines, &tbHits);
    };
    std::uint64_t before = 0, after = 0, hits = 0;
    search(krpkr, "go depth 10", hits, &before);
    REQUIRE(hits == 0);

    e.send(TABLES);
    e.sync();
    search(krpkr, "go depth 10", hits);
    REQUIRE(hits > 0);
    // A table win scores below every mate; the loser sees the same from its side.
    std::string score = search("position fen 8/8/8/4k3/8/8/8/1QK5 w - - 0 1", "go depth 6", hits);
    REQUIRE(centipawns(score) > 20000);
    score = search("position fen 8/8/8/4k3/8/8/8/1QK5 b - - 0 1", "go depth 6", hits);
    REQUIRE(centipawns(score) < -20000);
    // A mate the search sees is still shown as a mate.
    REQUIRE(search("position fen 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", "go depth 6", hits) == "mate 1");

    // A win the fifty-move rule spoils (a cursed win) is a draw a shade above zero with the rule
    // on, a win with it off.
    std::string cursed;
    std::mt19937 rng(7);
    std::string summary;
    REQUIRE(syzygy::init(sharedPath("data/syzygy"), summary).empty());
    while (cursed.empty()) {
        std::array<int, 5> sq;
        for (int& s : sq) s = int(rng() % 64);
        std::string board(64, '.');
        const char pieces[] = "KBNkn";
        bool clash = false;
        for (int i = 0; i < 5; ++i) {
            clash |= board[sq[i]] != '.';
            board[sq[i]] = pieces[i];
        }
        if (clash) continue;
        std::string fen;
        for (int r = 7; r >= 0; --r) {
            for (int f = 0, empty = 0; f < 8; ++f) {
                const char c = board[r * 8 + f];
                if (c == '.') ++empty;
                if (c != '.' || f == 7) {
                    if (empty) fen += char('0' + empty), empty = 0;
                    if (c != '.') fen += c;
                }
            }
            if (r) fen += '/';
        }
        fen += " w - - 0 1";
        Position pos;
        syzygy::Wdl wdl;
        if (pos.setFen(fen).empty() && syzygy::probeWdl(pos, wdl) && wdl == syzygy::CURSED_WIN) cursed = fen;
    }
    INFO(cursed);
    score = search("position fen " + cursed, "go depth 4", hits);
    REQUIRE(centipawns(score) > 0);
    REQUIRE(centipawns(score) <= 50);
    e.send("setoption name Syzygy50MoveRule value false");
    score = search("position fen " + cursed, "go depth 4", hits);
    REQUIRE(centipawns(score) > 20000);

    // Without tables the search is the same as before they were loaded.
    e.send("setoption name SyzygyPath value <empty>");
    e.sync();
    search(krpkr, "go depth 10", hits, &after);
    REQUIRE(hits == 0);
    REQUIRE(after == before);
}

TEST_CASE("syzygy: table wins are mated within the fifty-move rule", "[syzygy][uci]") {
    // The longest wins of probes.epd for K+B+N v K, K+Q v K+R and K+R v K, played out by Quadbit
    // with tables on both sides at a fixed node count.
    std::map<std::string, Labelled> longest;
    for (const Labelled& l : probes())
        if (l.wdl == 2 && (l.id == "KBNvK" || l.id == "KQvKR" || l.id == "KRvK") && l.dtz > longest[l.id].dtz)
            longest[l.id] = l;
    REQUIRE(longest.size() == 3);
    EngineProcess e;
    e.send(TABLES);
    e.sync();
    for (const auto& [id, start] : longest) {
        INFO(id << " " << start.fen << " dtz " << start.dtz);
        Position pos;
        REQUIRE(pos.setFen(start.fen).empty());
        const Color winner = pos.sideToMove();
        std::string moves;
        e.send("ucinewgame");
        while (MoveList<LEGAL>(pos).size() > 0) {
            REQUIRE(pos.rule50() < 100);
            REQUIRE(!pos.isDraw(0));
            e.send("position fen " + start.fen + (moves.empty() ? "" : " moves" + moves));
            e.send("go nodes 20000");
            const std::string best = bestMoveOf(e.readUntil("bestmove"));
            const Move m = pos.parseUciMove(best);
            REQUIRE(m != MOVE_NONE);
            pos.makeMove(m);
            moves += " " + best;
            REQUIRE(pos.gamePly() < 200);
        }
        REQUIRE(pos.inCheck());
        REQUIRE(pos.sideToMove() != winner);
    }
}
