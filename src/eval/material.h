// The material table: for every material configuration in range of the material index (pawns,
// knights, light and dark bishops, rooks and queens of each colour), one precomputed entry with
// the game phase, the imbalance, the scale factor for each side as the side ahead, and the id of
// a special endgame where one applies. The evaluation reads it with the position's material
// index: no hashing, no branch in the common path. Configurations beyond the index's range
// (a third knight, a second queen) take a slow path that computes the same entry on the fly.
#pragma once

#include <cstdint>

#include "eval/endgame.h"
#include "eval/evaltrace.h"
#include "position.h"

namespace material {

struct Entry {
    Score imbalance;               // White's point of view
    std::uint8_t phase;            // 0 (bare kings) .. MAX_PHASE (all pieces)
    std::uint8_t scale[COLOR_NB];  // 1/64 units, applied when that colour is ahead
    std::uint8_t special;          // endgame::Id (low 5 bits) and the colours it is for (bits 5, 6)

    endgame::Id endgameId() const { return endgame::Id(special & 31); }
    bool appliesTo(Color c) const { return special >> (5 + c) & 1; }
    Color strongSide() const { return appliesTo(WHITE) ? WHITE : BLACK; }
};
static_assert(sizeof(Entry) == 8, "the material entry stays one word");

// Builds the table; call once at startup.
void init();

// The entry for the position (the slow path for out-of-range material is computed each time).
Entry probe(const Position& pos);

// The entry for explicit counts (index order of materialindex::Slot, per colour): what init()
// stores and the slow path computes.
Entry compute(const int counts[COLOR_NB][materialindex::SLOT_NB]);

// Records the imbalance's weights for each side (the tuner; the table holds only their sum).
void traceImbalance(const Position& pos, EvalTrace& trace);

}  // namespace material
