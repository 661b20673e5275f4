// Quadbit's self-play game file: whole games, a few bytes a position, in chunks that a run
// appends one at a time, so that a stopped run resumes where it stopped (datagen.h).
//
// A file is a sequence of chunks, all integers little-endian:
//   chunk:  u32 magic "QBG1" | u64 chunk index | u64 seed | u32 nodes (SOFT_NODES set: a soft
//           budget; SYZYGY set: played with tablebases) | u32 payload bytes | u32 FNV-1a
//           checksum of the payload | payload
//   payload, one game after another:
//           u8 result (0 Black won, 1 draw, 2 White won) | u8 length | start FEN (length bytes) |
//           u16 plies | plies x (u16 move, Quadbit's encoding | i16 score, centipawns or mate,
//           from the side to move's view, as the search gave it)
// Chunk k holds games k * CHUNK_GAMES onwards of the run with that seed and node budget. Nothing
// is filtered when writing: the filters (in check, best move a capture or promotion, early plies,
// mate scores) are applied by the reader, at training time.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "position.h"

namespace gamefile {

constexpr int CHUNK_GAMES = 8;
// Set in a chunk's node budget when it was soft (datagen's `softnodes`): each search stopped at
// the end of the first iteration past the budget.
constexpr std::uint32_t SOFT_NODES = 1u << 31;
// Set in a chunk's node budget when its games were played with Syzygy tables (datagen's `syzygy`):
// from a position the tables cover, the play and so the result are the tables'.
constexpr std::uint32_t SYZYGY = 1u << 30;

struct Ply {
    Move move;
    std::int16_t score;  // side to move's view
    bool operator==(const Ply&) const = default;
};

struct Game {
    std::string startFen;
    int result = 1;  // White's points times two: 0, 1 or 2
    std::vector<Ply> plies;
    bool operator==(const Game&) const = default;
};

struct Chunk {
    std::uint64_t index = 0, seed = 0;
    std::uint32_t nodes = 0;
    std::vector<Game> games;
};

// The bytes of one chunk.
std::string encode(const Chunk& chunk);

// The file begins like a game file (its first four bytes), so that a reader of both this and the
// text format can tell them apart.
bool isGameFile(const std::string& path);

// Reads every whole chunk of `path` in file order. Stops at the first chunk that is cut short or
// fails its checksum (a run stopped while writing): `validBytes` is where that chunk starts.
// Returns an error only when the file cannot be read or does not start like a game file.
std::string read(const std::string& path, const std::function<void(const Chunk&)>& onChunk,
                 std::uint64_t* validBytes = nullptr);

// Where a whole chunk lies in its file, and how many positions its games hold: what a reader
// that takes the chunks in another order (the trainer's stream) plans its reads by.
struct ChunkSpan {
    std::uint64_t offset, index;
    std::uint32_t plies;
};

// The spans of every whole chunk of `path`, appended to `spans` in file order; stops and
// returns as read() does.
std::string index(const std::string& path, std::vector<ChunkSpan>& spans, std::uint64_t* validBytes = nullptr);

// Reads the chunk at `offset` of an open game file (a span of index()); false where no whole
// chunk is.
bool readAt(std::istream& in, std::uint64_t offset, Chunk& chunk);

// A position without its game (a line of the text format) is stored as a game of one ply whose
// move is MOVE_NONE: training takes the position with its score, whatever `minPly`, and the
// game ends there. Reads a `FEN | score | result` line (White's view; result 1.0, 0.5 or 0.0)
// as such a game; returns why it cannot.
std::string gameFromText(const std::string& line, Game& game);

// What training keeps of a game: not in check, the best move neither a capture nor a promotion,
// no mate score, from ply `minPly` of the stored game on. `onPosition` gets the position, the
// score from White's view and White's result (1, 0.5 or 0). A move that is not legal where it
// stands ends the game there (a corrupt record) and the function returns false.
bool forEachTrainingPosition(const Game& game, int minPly,
                             const std::function<void(const Position&, Value white, double result)>& onPosition);

}  // namespace gamefile
