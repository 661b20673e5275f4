// Syzygy endgame tablebases: WDL (.rtbw) and DTZ (.rtbz) tables of up to seven pieces, probed
// from memory-mapped files. Written from the format as the generator defines it
// (github.com/syzygy1/tb); the files are opened when first probed, under a lock taken only then,
// so that many search threads probe at once without one.
#pragma once

#include <string>

#include "position.h"

namespace syzygy {

// Win/draw/loss from the side to move's view; the cursed win and the blessed loss are results
// that the fifty-move rule turns into draws.
enum Wdl : int { LOSS = -2, BLESSED_LOSS = -1, DRAW = 0, CURSED_WIN = 1, WIN = 2 };

// Finds the tables in `paths` (folders separated by ':'). On success the tables found replace
// those in use and `summary` says how many there are; a folder that does not exist is an error
// and leaves the tables as they were. An empty `paths` unloads every table. Not thread-safe:
// call it while no search runs.
std::string init(const std::string& paths, std::string& summary);

// The most pieces (kings included) of any table loaded; 0 without tables.
int maxPieces();

// The position's WDL value; false when no table answers (too many pieces, castling rights, a
// table missing here or after a capture or promotion). `pos` is left as it was.
bool probeWdl(Position& pos, Wdl& wdl);

// Distance to a zeroing move (capture or pawn move) in plies, signed as the WDL value: positive
// when winning, negative when losing, 0 for a draw, beyond 100 for a cursed win or a blessed
// loss; -1 when the side to move is mated. As the tables store it, a value may be one ply more
// than the truth where the table stores moves rather than plies. False when no table answers.
bool probeDtz(Position& pos, int& dtz);

// The DTZ of a zeroing move (a capture or a pawn move) from the WDL value after it: the count
// restarts there, so one ply to it, beyond 100 when the fifty-move rule turns the result.
constexpr int dtzBeforeZeroing(Wdl wdl) {
    return wdl == WIN ? 1 : wdl == CURSED_WIN ? 101 : wdl == BLESSED_LOSS ? -101 : wdl == LOSS ? -1 : 0;
}

}  // namespace syzygy
