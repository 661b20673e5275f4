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

namespace {

std::uint64_t sizeOf(std::istream& in) {
    in.seekg(0, std::ios::end);
    const std::uint64_t size = std::uint64_t(in.tellg());
    in.clear();
    return size;
}

// The chunk at `offset` of a file of `fileBytes`: its bytes, header included, or 0 where there is
// no whole chunk (the end, a chunk cut short, a checksum or magic that fails).
std::uint64_t chunkAt(std::istream& in, std::uint64_t offset, std::uint64_t fileBytes, Chunk& chunk) {
    in.clear();
    in.seekg(std::streamoff(offset));
    std::string header(HEADER_BYTES, '\0'), payload;
    in.read(header.data(), HEADER_BYTES);
    Cursor c{header.data(), header.data() + in.gcount()};
    if (c.get<std::uint32_t>() != MAGIC || !c.ok) return 0;
    chunk.index = c.get<std::uint64_t>();
    chunk.seed = c.get<std::uint64_t>();
    chunk.nodes = c.get<std::uint32_t>();
    chunk.games.clear();
    const std::uint32_t size = c.get<std::uint32_t>(), sum = c.get<std::uint32_t>();
    if (!c.ok || size > fileBytes - offset - HEADER_BYTES) return 0;  // a chunk cut short
    payload.resize(size);
    in.read(payload.data(), size);
    if (std::size_t(in.gcount()) < size || checksum(payload.data(), size) != sum ||
        !decodeGames(Cursor{payload.data(), payload.data() + size}, chunk.games))
        return 0;
    return HEADER_BYTES + size;
}

}  // namespace

namespace {

// Every whole chunk of `path` in file order, with where it lies: `onChunk(chunk, offset, length)`.
std::string walk(const std::string& path,
                 const std::function<void(const Chunk&, std::uint64_t, std::uint64_t)>& onChunk,
                 std::uint64_t* validBytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot read " + path;
    // One chunk in memory at a time, so that a file of any size can be read.
    const std::uint64_t fileBytes = sizeOf(in);
    if (fileBytes >= 4 && !isGameFile(path)) return path + " is not a Quadbit game file";
    std::uint64_t offset = 0;
    Chunk chunk;
    for (std::uint64_t length; (length = chunkAt(in, offset, fileBytes, chunk)); offset += length)
        onChunk(chunk, offset, length);
    if (validBytes) *validBytes = offset;
    return "";
}

}  // namespace

std::string read(const std::string& path, const std::function<void(const Chunk&)>& onChunk, std::uint64_t* validBytes) {
    return walk(
        path, [&](const Chunk& chunk, std::uint64_t, std::uint64_t) { onChunk(chunk); }, validBytes);
}

std::string index(const std::string& path, std::vector<ChunkSpan>& spans, std::uint64_t* validBytes) {
    return walk(
        path,
        [&](const Chunk& chunk, std::uint64_t offset, std::uint64_t) {
            std::uint32_t plies = 0;
            for (const Game& g : chunk.games) plies += std::uint32_t(g.plies.size());
            spans.push_back({offset, chunk.index, plies});
        },
        validBytes);
}

bool readAt(std::istream& in, std::uint64_t offset, Chunk& chunk) {
    return chunkAt(in, offset, sizeOf(in), chunk) != 0;
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
