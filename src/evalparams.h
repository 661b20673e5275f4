// Every weight of the evaluation, in one place for tuning. Scores are S(middlegame, endgame) in
// centipawns; tables are from White's point of view with a1 first (mirrored for Black).
#pragma once

#include "types.h"

namespace params {

// Material
inline constexpr Score PIECE_VALUE[PIECE_TYPE_NB] = {
    S(0, 0), S(82, 104), S(330, 320), S(345, 335), S(470, 560), S(1000, 1030), S(0, 0)};
// Piece values for SEE-like questions and the mating-potential rules (plain centipawns).
inline constexpr int SIMPLE_VALUE[PIECE_TYPE_NB] = {0, 100, 325, 325, 500, 975, 0};

// Game phase: what each piece contributes, 24 at the start.
inline constexpr int PHASE_WEIGHT[PIECE_TYPE_NB] = {0, 0, 1, 1, 2, 4, 0};
inline constexpr int MAX_PHASE = 24;

// Imbalance (material table): the bishop pair, and knights/rooks by the number of own pawns.
inline constexpr Score BISHOP_PAIR = S(30, 55);
inline constexpr Score KNIGHT_PER_PAWN = S(3, 3);   // above or below five pawns
inline constexpr Score ROOK_PER_PAWN = S(-4, -4);

// Piece-square tables, rank 1 first, files a-h.
// clang-format off
inline constexpr Score PST[PIECE_TYPE_NB][SQUARE_NB] = {
    {},
    { // Pawn
      S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0),
      S( -8,  6), S( -2,  4), S( -6,  4), S(-10,  2), S(-10,  2), S(  8,  2), S( 12,  2), S( -6, -4),
      S( -8,  2), S( -6,  2), S(  0, -2), S(  2, -2), S(  4, -2), S(  2, -2), S(  8, -2), S( -6, -4),
      S( -8,  8), S( -2,  6), S(  4, -2), S( 14, -6), S( 16, -6), S(  8, -2), S(  0,  2), S(-10,  0),
      S( -2, 18), S(  4, 12), S(  8,  6), S( 18,  0), S( 20,  0), S( 12,  4), S(  6,  8), S( -4, 12),
      S(  4, 40), S( 10, 38), S( 20, 28), S( 26, 18), S( 26, 18), S( 20, 28), S( 10, 38), S(  4, 40),
      S( 30, 70), S( 36, 70), S( 40, 60), S( 44, 50), S( 44, 50), S( 40, 60), S( 36, 70), S( 30, 70),
      S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0) },
    { // Knight
      S(-90,-60), S(-30,-40), S(-40,-25), S(-25,-15), S(-25,-15), S(-40,-25), S(-30,-40), S(-90,-60),
      S(-35,-35), S(-25,-15), S( -5, -8), S(  0,  2), S(  0,  2), S( -5, -8), S(-25,-15), S(-35,-35),
      S(-25,-22), S( -2, -4), S(  8,  4), S( 14, 12), S( 14, 12), S(  8,  4), S( -2, -4), S(-25,-22),
      S(-12,-12), S(  6,  4), S( 18, 14), S( 20, 22), S( 20, 22), S( 18, 14), S(  6,  4), S(-12,-12),
      S( -8,-12), S( 12,  4), S( 24, 14), S( 30, 22), S( 30, 22), S( 24, 14), S( 12,  4), S( -8,-12),
      S(-20,-20), S(  8, -4), S( 30,  6), S( 34, 12), S( 34, 12), S( 30,  6), S(  8, -4), S(-20,-20),
      S(-30,-30), S(-15,-18), S( 10,-10), S( 14,  0), S( 14,  0), S( 10,-10), S(-15,-18), S(-30,-30),
      S(-120,-60),S(-50,-40), S(-40,-30), S(-20,-20), S(-20,-20), S(-40,-30), S(-50,-40), S(-120,-60) },
    { // Bishop
      S(-20,-20), S( -6,-10), S(-12,-12), S(-10, -6), S(-10, -6), S(-12,-12), S( -6,-10), S(-20,-20),
      S( -4,-10), S( 12, -6), S(  6, -4), S(  2,  0), S(  2,  0), S(  6, -4), S( 12, -6), S( -4,-10),
      S( -6, -6), S(  8,  0), S( 10,  4), S(  8,  6), S(  8,  6), S( 10,  4), S(  8,  0), S( -6, -6),
      S( -4, -4), S(  4,  2), S( 10,  6), S( 16, 10), S( 16, 10), S( 10,  6), S(  4,  2), S( -4, -4),
      S( -6, -4), S(  6,  2), S( 10,  6), S( 18, 10), S( 18, 10), S( 10,  6), S(  6,  2), S( -6, -4),
      S(-10, -6), S(  4,  0), S(  8,  2), S(  8,  4), S(  8,  4), S(  8,  2), S(  4,  0), S(-10, -6),
      S(-16,-10), S(-10, -6), S( -4, -4), S( -6, -2), S( -6, -2), S( -4, -4), S(-10, -6), S(-16,-10),
      S(-30,-20), S(-20,-16), S(-20,-14), S(-20,-10), S(-20,-10), S(-20,-14), S(-20,-16), S(-30,-20) },
    { // Rook
      S( -8, -4), S( -4, -2), S(  0, -2), S(  6, -2), S(  6, -2), S(  2, -2), S( -4, -2), S( -8, -4),
      S(-16, -4), S( -8, -4), S( -4, -2), S(  0, -2), S(  0, -2), S( -4, -2), S( -8, -4), S(-16, -4),
      S(-16, -2), S( -8, -2), S( -4,  0), S(  0,  0), S(  0,  0), S( -4,  0), S( -8, -2), S(-16, -2),
      S(-14,  2), S( -6,  2), S( -2,  2), S(  2,  2), S(  2,  2), S( -2,  2), S( -6,  2), S(-14,  2),
      S(-10,  4), S( -2,  4), S(  2,  4), S(  6,  4), S(  6,  4), S(  2,  4), S( -2,  4), S(-10,  4),
      S( -4,  6), S(  4,  6), S(  8,  6), S( 10,  6), S( 10,  6), S(  8,  6), S(  4,  6), S( -4,  6),
      S( 12, 10), S( 18, 12), S( 22, 12), S( 24, 12), S( 24, 12), S( 22, 12), S( 18, 12), S( 12, 10),
      S(  6,  8), S(  8,  8), S( 10,  8), S( 12,  8), S( 12,  8), S( 10,  8), S(  8,  8), S(  6,  8) },
    { // Queen
      S( -6,-30), S( -8,-24), S( -6,-18), S(  2,-14), S(  2,-14), S( -6,-18), S( -8,-24), S( -6,-30),
      S( -8,-22), S(  0,-14), S(  4,-10), S(  4, -4), S(  4, -4), S(  4,-10), S(  0,-14), S( -8,-22),
      S( -6,-16), S(  2, -6), S(  4,  0), S(  2,  4), S(  2,  4), S(  4,  0), S(  2, -6), S( -6,-16),
      S( -4,-10), S(  0,  0), S(  2,  8), S(  0, 14), S(  0, 14), S(  2,  8), S(  0,  0), S( -4,-10),
      S( -6, -8), S( -2,  4), S(  0, 12), S( -2, 18), S( -2, 18), S(  0, 12), S( -2,  4), S( -6, -8),
      S( -8,-10), S( -4,  2), S( -2,  8), S( -2, 14), S( -2, 14), S( -2,  8), S( -4,  2), S( -8,-10),
      S(-10,-16), S(-14, -8), S( -4, -2), S( -2,  4), S( -2,  4), S( -4, -2), S(-14, -8), S(-10,-16),
      S(-16,-24), S(-10,-18), S( -8,-14), S( -6,-10), S( -6,-10), S( -8,-14), S(-10,-18), S(-16,-24) },
    { // King
      S( 30,-60), S( 45,-35), S( 20,-20), S(-10,-20), S(  0,-20), S(-10,-20), S( 45,-35), S( 30,-60),
      S( 25,-30), S( 20,-12), S(-10, -2), S(-25,  2), S(-25,  2), S(-10, -2), S( 20,-12), S( 25,-30),
      S(-10,-20), S(-20,  2), S(-35, 12), S(-45, 18), S(-45, 18), S(-35, 12), S(-20,  2), S(-10,-20),
      S(-30,-14), S(-40, 10), S(-50, 22), S(-60, 28), S(-60, 28), S(-50, 22), S(-40, 10), S(-30,-14),
      S(-40,-10), S(-50, 14), S(-60, 26), S(-70, 30), S(-70, 30), S(-60, 26), S(-50, 14), S(-40,-10),
      S(-50, -8), S(-60, 14), S(-70, 24), S(-80, 28), S(-80, 28), S(-70, 24), S(-60, 14), S(-50, -8),
      S(-60,-14), S(-70,  6), S(-80, 12), S(-90, 16), S(-90, 16), S(-80, 12), S(-70,  6), S(-60,-14),
      S(-70,-40), S(-80,-20), S(-90,-14), S(-100,-10),S(-100,-10),S(-90,-14), S(-80,-20), S(-70,-40) },
};
// clang-format on

// Mobility: squares a piece attacks in its mobility area (not own pawns or king, not attacked by
// enemy pawns), by count.
inline constexpr Score KNIGHT_MOBILITY[9] = {S(-40, -50), S(-25, -30), S(-10, -15), S(-2, -5), S(4, 4),
                                       S(10, 10), S(16, 14), S(21, 17), S(26, 18)};
inline constexpr Score BISHOP_MOBILITY[14] = {S(-35, -50), S(-20, -30), S(-8, -15), S(0, -5), S(6, 4), S(12, 10),
                                       S(17, 15), S(21, 20), S(24, 24), S(27, 27), S(30, 29), S(33, 30),
                                       S(35, 31), S(38, 32)};
inline constexpr Score ROOK_MOBILITY[15] = {S(-30, -60), S(-18, -36), S(-10, -20), S(-5, -8), S(-2, 2), S(1, 10),
                                     S(4, 18), S(7, 25), S(10, 31), S(13, 36), S(15, 40), S(17, 44),
                                     S(19, 47), S(21, 49), S(23, 50)};
inline constexpr Score QUEEN_MOBILITY[28] = {S(-20, -40), S(-14, -28), S(-9, -18), S(-5, -10), S(-2, -4), S(0, 0),
                                      S(2, 4), S(4, 8), S(6, 12), S(8, 15), S(9, 18), S(10, 21), S(11, 24),
                                      S(12, 26), S(13, 28), S(14, 30), S(15, 32), S(16, 33), S(17, 34),
                                      S(18, 35), S(19, 36), S(20, 37), S(21, 38), S(22, 38), S(23, 39),
                                      S(24, 39), S(25, 40), S(26, 40)};

// Pawn structure (seed pawnking.txt: set-wise from pawn spans and attack spans).
inline constexpr Score ISOLATED = S(-6, -12);
inline constexpr Score DOUBLED = S(-8, -22);
inline constexpr Score BACKWARD = S(-8, -10);
inline constexpr Score CONNECTED[8] = {S(0, 0), S(4, 2), S(6, 4), S(10, 8), S(20, 18), S(36, 34), S(60, 60), S(0, 0)};
inline constexpr Score PASSED[8] = {S(0, 0), S(4, 12), S(6, 18), S(10, 30), S(28, 52), S(60, 100), S(100, 160), S(0, 0)};
inline constexpr Score CANDIDATE[8] = {S(0, 0), S(2, 6), S(4, 8), S(6, 14), S(12, 24), S(24, 44), S(0, 0), S(0, 0)};

// Passed pawns beyond structure (endgame terms, by rank from the pawn's side).
inline constexpr int PASSED_OWN_KING_DISTANCE[8] = {0, 0, 1, 3, 6, 9, 12, 0};      // per square, subtracted
inline constexpr int PASSED_ENEMY_KING_DISTANCE[8] = {0, 0, 4, 8, 14, 22, 30, 0};  // per square, added
inline constexpr Score PASSED_FREE_PATH[8] = {S(0, 0), S(0, 4), S(2, 6), S(4, 12), S(10, 24), S(20, 48), S(30, 80), S(0, 0)};
inline constexpr Score PASSED_BLOCKED = S(-6, -16);
// A passer the defending king cannot catch (rule of the square) when it has no pieces.
inline constexpr int UNSTOPPABLE_PASSER = 600;

// Rooks
inline constexpr Score ROOK_OPEN_FILE = S(38, 14);
inline constexpr Score ROOK_SEMI_OPEN_FILE = S(16, 10);

// Threats
inline constexpr Score THREAT_BY_PAWN = S(60, 40);                   // a non-pawn attacked by a pawn
inline constexpr Score THREAT_BY_MINOR[PIECE_TYPE_NB] = {S(0, 0), S(2, 14), S(20, 24), S(22, 24), S(40, 40), S(40, 40), S(0, 0)};
inline constexpr Score THREAT_BY_ROOK[PIECE_TYPE_NB] = {S(0, 0), S(2, 16), S(14, 24), S(14, 24), S(0, 10), S(40, 30), S(0, 0)};
inline constexpr Score HANGING = S(30, 16);                          // attacked and not defended

// King safety: enemy pieces attacking the squares around the king.
inline constexpr int KING_ATTACK_WEIGHT[PIECE_TYPE_NB] = {0, 0, 20, 18, 40, 80, 0};
inline constexpr int SAFE_CHECK[PIECE_TYPE_NB] = {0, 0, 80, 60, 90, 80, 0};
inline constexpr int KING_RING_ATTACKS = 8;    // per attack on a ring square
inline constexpr int WEAK_RING_SQUARE = 12;    // ring squares defended only by the king, attacked
inline constexpr int NO_ENEMY_QUEEN = -120;    // attacks without a queen are much less dangerous
inline constexpr Score PAWN_SHELTER[4][8] = {   // own pawn on a file by the king: by edge distance, rank
    {S(-4, 0), S(24, 0), S(18, 0), S(6, 0), S(2, 0), S(0, 0), S(0, 0), S(-10, 0)},
    {S(-20, 0), S(30, 0), S(14, 0), S(-6, 0), S(-10, 0), S(-14, 0), S(-20, 0), S(-20, 0)},
    {S(-10, 0), S(34, 0), S(8, 0), S(0, 0), S(-2, 0), S(-10, 0), S(-16, 0), S(-12, 0)},
    {S(-8, 0), S(20, 0), S(4, 0), S(-6, 0), S(-12, 0), S(-16, 0), S(-20, 0), S(-16, 0)}};
inline constexpr Score PAWN_STORM[8] = {S(0, 0), S(0, 0), S(-30, 0), S(-16, 0), S(-8, 0), S(-2, 0), S(0, 0), S(0, 0)};

inline constexpr Score TEMPO = S(20, 10);

// Endgame scale factors, in 1/64 (seeds mating-potential.txt and draw-evaluation.txt).
inline constexpr int SCALE_NORMAL = 64;
inline constexpr int SCALE_PAWNLESS_LEADER = 32;       // /2: without pawns you need twice the advantage
inline constexpr int SCALE_NO_MATING_POTENTIAL = 8;    // /8: pawnless and a minor or less ahead
inline constexpr int SCALE_MATING_IN_JEOPARDY = 16;    // /4: last pawn, a piece can be given for it
inline constexpr int SCALE_NEAR_DRAW = 4;              // the draw-evaluation heuristics
inline constexpr int SCALE_DRAW = 0;
inline constexpr int SCALE_OCB[3] = {16, 26, 40};      // opposite bishops alone, by passed pawns 0, 1, 2+
inline constexpr int SCALE_OCB_WITH_PIECES = 48;
inline constexpr int MATING_POTENTIAL_MARGIN = 350;    // piece material lead needed to force mate

// Mating drives (K+X v K, K+B+N v K).
inline constexpr int KNOWN_WIN = 2000;                 // stays below VALUE_KNOWN_WIN with material added
inline constexpr int EDGE_PUSH = 20;                   // per step the lone king is nearer the edge/corner
inline constexpr int KINGS_CLOSE = 10;                 // per step the kings are nearer

}  // namespace params
