// Endgame knowledge that depends on where the pieces stand, chosen by the material table's id:
// evaluators that replace the evaluation (K+X v K mating drives, K+B+N v K, KPK, K+R v K+P, the
// last pawn no minor catches) and scalers that refine the table's scale factor (wrong rook pawn,
// K+Q v K+P on the seventh, the last pawn against a piece, opposite-coloured bishops, K+R+P v K+R,
// K+N+N v K+P, K+R v K+N, K+R v K+B, K+Q v K+R).
#pragma once

#include "eval/pawns.h"
#include "position.h"

namespace endgame {

enum Id : int {
    NONE,
    // Evaluators
    KXK,   // mating material against a bare king: drive it to the edge
    KBNK,  // bishop and knight: drive it to a corner of the bishop's colour
    KPK,   // the bitbase
    KRKP,  // rook against pawn: who gets there first
    KPSK,  // pawns against a bare king: the bitbase for each pawn
    KPKP,  // pawn against pawn: the bitbase for each side, and the race
    // An evaluator that, where it does not know, also scales
    LAST_PAWN,  // the last pawn against a minor: queens if nothing catches it, else the path rule
    FIRST_SCALER,
    // Scalers
    KBPSK = FIRST_SCALER,  // bishop and rook pawn(s) of the wrong colour
    KQKP,                  // queen against a pawn on the seventh
    OCB,                   // opposite-coloured bishops
    KRPKR,                 // rook and pawn against rook
    KNNKP,                 // two knights against a pawn (Troitzky line)
    KRKN,                  // rook against knight: won when the knight strays from its king
    KRKB,                  // rook against bishop: won by a pin, or the opposition on the edge
    KNPK,                  // knight and pawn against king: the pawn can be lost, the rook pawn draws
    MINORS_KN,             // two minors against a knight: drawn unless the king is caught in a corner
    KQKRP,                 // queen against rook and an advanced pawn
    KQKR,                  // queen against rook: a pin the rook's king guards draws
    ID_NB
};

inline bool isEvaluator(int id) { return id != NONE && id < FIRST_SCALER; }

// Score of an evaluator endgame, from White's point of view, or VALUE_NONE when the position is
// outside what the evaluator knows (the general evaluation then applies).
Value evaluate(Id id, Color strong, const Position& pos);

// Scale factor (in 1/64) for `strong` as the side ahead; `tableScale` is the material table's.
int scale(Id id, Color strong, const Position& pos, const pawns::Entry& pawnEntry, int tableScale);

// Can the defender stop `us`'s passed pawn on `pawn` before it queens (the rule of the square, and
// the minors' reach)? `ourAttacks`: the squares `us` guards, where a minor cannot go.
bool passerStoppable(const Position& pos, Color us, Square pawn, Bitboard ourAttacks);

}  // namespace endgame
