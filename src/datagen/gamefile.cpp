#include "datagen/gamefile.h"

#include <cstdlib>
#include <fstream>

#include "bytes.h"

namespace gamefile {

using bytes::checksum;
using bytes::Cursor;
using bytes::put;

namespace {

constexpr std::uint32_t MAGIC = 0x31474251;  // "QBG1" in file order
constexpr std::size_t HEADER_BYTES = 4 + 8 + 8 + 4 + 4 + 4;

bool decodeGames(Cursor c, std::vector<Game>& games) {
    while (c.ok && c.at < c.end) {
        Game g;
        g.result = c.get<std::uint8_t>();
        const std::size_t length = c.get<std::uint8_t>();
        if (!c.ok || g.result > 2 || std::size_t(c.end - c.at) < length) return false;
        g.startFen.assign(c.at, length);
        c.at += length;
        const int plies = c.get<std::uint16_t>();
        for (int i = 0; i < plies && c.ok; ++i) {
            const Move m = Move(c.get<std::uint16_t>());
            g.plies.push_back({m, c.get<std::int16_t>()});
        }
        if (!c.ok) return false;
        games.push_back(std::move(g));
    }
    return c.ok;
}

}  // namespace

std::string encode(const Chunk& chunk) {
    std::string payload;
    for (const Game& g : chunk.games) {
        put<std::uint8_t>(payload, g.result);
        put<std::uint8_t>(payload, g.startFen.size());
        payload += g.startFen;
        put<std::uint16_t>(payload, g.plies.size());
        for (const Ply& p : g.plies) {
            put<std::uint16_t>(payload, p.move);
            put<std::uint16_t>(payload, std::uint16_t(p.score));
        }
    }
    std::string out;
    put<std::uint32_t>(out, MAGIC);
    put<std::uint64_t>(out, chunk.index);
    put<std::uint64_t>(out, chunk.seed);
    put<std::uint32_t>(out, chunk.nodes);
    put<std::uint32_t>(out, payload.size());
    put<std::uint32_t>(out, checksum(payload.data(), payload.size()));
    return out + payload;
}

bool isGameFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char head[4] = {};
    in.read(head, 4);
    Cursor c{head, head + in.gcount()};
    return c.get<std::uint32_t>() == MAGIC && c.ok;
}

std::string read(const std::string& path, const std::function<void(const Chunk&)>& onChunk, std::uint64_t* validBytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot read " + path;
    in.seekg(0, std::ios::end);
    const std::uint64_t fileBytes = std::uint64_t(in.tellg());
    in.seekg(0);
    // One chunk in memory at a time, so that a file of any size can be read.
    std::uint64_t offset = 0;
    std::string header(HEADER_BYTES, '\0'), payload;
    while (true) {
        in.read(header.data(), HEADER_BYTES);
        Cursor c{header.data(), header.data() + in.gcount()};
        const std::uint32_t magic = c.get<std::uint32_t>();
        if (c.ok && magic != MAGIC) {
            if (offset == 0) return path + " is not a Quadbit game file";
            break;
        }
        Chunk chunk;
        chunk.index = c.get<std::uint64_t>();
        chunk.seed = c.get<std::uint64_t>();
        chunk.nodes = c.get<std::uint32_t>();
        const std::uint32_t size = c.get<std::uint32_t>(), sum = c.get<std::uint32_t>();
        if (!c.ok || size > fileBytes - offset - HEADER_BYTES) break;  // the end, or a chunk cut short
        payload.resize(size);
        in.read(payload.data(), size);
        if (std::size_t(in.gcount()) < size || checksum(payload.data(), size) != sum ||
            !decodeGames(Cursor{payload.data(), payload.data() + size}, chunk.games))
            break;
        onChunk(chunk);
        offset += HEADER_BYTES + size;
    }
    if (validBytes) *validBytes = offset;
    return "";
}

std::string gameFromText(const std::string& line, Game& game) {
    const std::size_t a = line.find(" | "), b = line.rfind(" | ");
    if (a == std::string::npos || b <= a) return "not 'FEN | score | result'";
    Position pos;
    if (std::string why = pos.setFen(line.substr(0, a)); !why.empty()) return why;
    char* end = nullptr;
    const long score = std::strtol(line.c_str() + a + 3, &end, 10);
    if (end != line.c_str() + b || std::abs(score) >= VALUE_MATE) return "bad score";
    const std::string result = line.substr(b + 3);
    if (result != "1.0" && result != "0.5" && result != "0.0") return "bad result '" + result + "'";
    game.startFen = pos.fen();
    game.result = result == "1.0" ? 2 : result == "0.5" ? 1 : 0;
    game.plies = {{MOVE_NONE, std::int16_t(pos.sideToMove() == WHITE ? score : -score)}};
    return "";
}

bool forEachTrainingPosition(const Game& game, int minPly,
                             const std::function<void(const Position&, Value white, double result)>& onPosition) {
    Position pos;
    if (!pos.setFen(game.startFen).empty()) return false;
    const double result = game.result / 2.0;
    for (std::size_t ply = 0; ply < game.plies.size(); ++ply) {
        const auto [move, score] = game.plies[ply];
        if (move == MOVE_NONE) {  // a position without its game (gameFromText)
            if (!pos.inCheck() && !isMateScore(score))
                onPosition(pos, pos.sideToMove() == WHITE ? score : -score, result);
            return ply + 1 == game.plies.size();
        }
        if (!pos.isPseudoLegal(move) || !pos.isLegal(move)) return false;
        if (int(ply) >= minPly && !pos.inCheck() && !pos.isCaptureOrPromotion(move) && !isMateScore(score))
            onPosition(pos, pos.sideToMove() == WHITE ? score : -score, result);
        pos.makeMove(move);
    }
    return true;
}

}  // namespace gamefile
