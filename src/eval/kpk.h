// KPK: an exact bitbase of king and pawn against king, built at startup by retrograde
// classification (a few milliseconds) and checked against Debian's Gaviota tables in a test.
#pragma once

#include "types.h"

namespace kpk {

void init();

// Does the side with the pawn win? Squares as on the board; `strong` owns the pawn; `stm` is the
// side to move. Any placement is accepted: it is mirrored to white with the pawn on files a-d.
bool probe(Square strongKing, Square pawn, Square weakKing, Color strong, Color stm);

}  // namespace kpk
