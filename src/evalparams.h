// Every weight of the evaluation, in one place for tuning. Scores are S(middlegame, endgame) in
// centipawns; tables are from White's point of view with a1 first (mirrored for Black).
#pragma once

#include "types.h"

namespace params {

// Material
inline constexpr Score PIECE_VALUE[PIECE_TYPE_NB] = {
    S(0, 0), S(80, 118), S(361, 384), S(378, 398), S(515, 664), S(1128, 1205), S(0, 0)};
// Piece values for SEE-like questions and the mating-potential rules (plain centipawns).
inline constexpr int SIMPLE_VALUE[PIECE_TYPE_NB] = {0, 100, 325, 325, 500, 975, 0};

// Game phase: what each piece contributes, 24 at the start.
inline constexpr int PHASE_WEIGHT[PIECE_TYPE_NB] = {0, 0, 1, 1, 2, 4, 0};
inline constexpr int MAX_PHASE = 24;

// Imbalance (material table): the bishop pair, and knights/rooks by the number of own pawns.
inline constexpr Score BISHOP_PAIR = S(17, 82);
inline constexpr Score KNIGHT_PER_PAWN = S(5, 13);   // above or below five pawns
inline constexpr Score ROOK_PER_PAWN = S(-2, 0);

// Piece-square tables, rank 1 first, files a-h.
// clang-format off
inline constexpr Score PST[PIECE_TYPE_NB][SQUARE_NB] = {
    {},
    { // Pawn
      S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0),
      S( -6,  9), S( -2,  9), S( -7,  6), S(-12, 15), S(  2, 22), S(  4, 11), S( 26,  8), S( -8, -3),
      S( -7,  8), S( -7,  3), S( -2, -6), S( -5,  0), S(  7,  1), S(  5, -3), S( 12,-10), S( -7, -8),
      S( -3,  4), S(-10,  8), S(  2,-10), S(  5,-11), S(  7, -7), S( 13, -9), S( 10, -8), S(-17, -6),
      S( -1, 16), S(-12, 24), S( -5, 10), S( 10,-10), S( 13, -9), S( 23, -5), S( -4, 10), S( -5,  2),
      S( 31, 46), S( 17, 65), S( -6, 41), S( 12, 57), S( 47, 35), S( 26, 32), S( 12, 52), S( 13, 40),
      S( 68, 19), S( 27, 83), S( 35, 98), S( 30,107), S(123, 43), S(-31, 61), S( 17, 65), S( 30, 37),
      S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0) },
    { // Knight
      S(-42,-48), S(-14, -6), S(-27, -9), S(  4,  0), S( -6, 25), S( -2,-20), S(-18,-19), S( 40,-39),
      S(-27, 24), S(-16, -3), S(-15, 26), S( -5, 19), S( -6, 23), S( 25, 26), S(-19, 26), S(-16,  7),
      S(-30, -7), S( -8, 13), S( -4, 21), S( 17, 43), S( 25, 26), S(  3, 25), S(  2, 17), S( -3, -2),
      S(  4, 11), S( 18, 16), S( 17, 34), S( 16, 50), S( 18, 58), S( 20, 35), S( 28, 32), S(  7, 21),
      S( 54,  1), S(  8, 36), S( 18, 44), S( 43, 59), S( 28, 48), S( 20, 54), S(  9, 26), S( 34, 21),
      S(  6,-11), S(  7, 44), S( 13, 51), S( 29, 46), S( 68, 34), S( 46, 50), S( 11, 29), S(-19, 24),
      S(-60, 65), S(-48, 31), S(  1, 36), S( 49, 45), S( 36, 25), S( 37,  9), S(-23, 43), S(-18, 28),
      S(-160,-40),S(-73,  3), S(-94, 30), S(102,  9), S(-34, 51), S(-167, 49), S(-34, 48), S(-240,  5) },
    { // Bishop
      S(-14,-34), S( 34,-32), S(  8, -5), S( -5, 22), S( 31, -2), S(-12, 29), S( 11, 14), S( 10,-27),
      S(  5,  7), S( 21, -3), S( 21, 17), S( 12, 32), S(  9, 15), S( 32, 10), S( 29, 10), S( 44,-17),
      S( 19,-20), S( 32, 13), S( 23, 13), S( 12, 32), S( 23, 31), S( 17, 22), S( 36, 16), S( 15,  6),
      S(  6, 18), S( 10,  8), S( 12, 30), S( 37, 34), S( 25, 32), S( 17, 40), S(  4, 22), S( 19, 11),
      S( -7,  4), S(  7, 42), S( 27, 28), S( 31, 36), S( 27, 38), S( 33, 31), S( 15, 34), S( -1, 15),
      S(  5, 12), S(  8, 17), S( -9, 44), S( 33, 24), S( 13, 24), S( 39, 21), S( 32, 16), S( 20,  9),
      S(-31, 21), S(-51, 52), S( -8, 37), S(  3, 36), S(-31, 27), S(-21, 27), S(-59, 26), S(-18, -4),
      S(-27, 61), S(-94, 48), S(-92, 44), S(-79, 34), S(-16, 21), S(-242, 49), S(-58, 37), S(  3,  3) },
    { // Rook
      S(-10, 39), S( -9, 36), S( -6, 38), S(  1, 41), S(  7, 32), S(  3, 31), S( -1, 43), S(  2, 19),
      S( -2, 38), S(-23, 46), S(-12, 49), S(  1, 40), S(  1, 37), S(  0, 25), S(-14, 45), S(-30, 42),
      S(-26, 34), S(-22, 48), S(-20, 66), S(-16, 52), S( -1, 46), S( -4, 43), S( 23, 31), S( -5, 22),
      S(-20, 62), S(-28, 64), S( -8, 56), S( -6, 53), S(-20, 60), S(-14, 48), S( 16, 34), S(-20, 54),
      S( -8, 66), S( 11, 57), S(  8, 58), S( 18, 49), S( 11, 54), S( 23, 47), S( 50, 43), S( -7, 60),
      S(-12, 72), S( 31, 59), S( 14, 59), S( 40, 49), S( 27, 50), S( 51, 35), S( 17, 56), S( 46, 48),
      S(-12, 74), S(  6, 64), S(  9, 69), S( 47, 59), S( 37, 51), S( 70, 42), S( 35, 54), S( 80, 43),
      S( 12, 66), S( 38, 63), S( 53, 55), S(-21, 78), S( 40, 58), S(  7, 68), S(-18, 76), S( 34, 66) },
    { // Queen
      S( 42,-36), S( 22, 14), S( 33,-14), S( 32, 11), S( 20, 42), S(  4, 22), S( 40,-54), S( 30,-10),
      S( 19, -2), S( 28, 47), S( 41, 25), S( 37, 41), S( 39, 47), S( 38, 24), S( 45, 26), S( 48, 20),
      S( 16, 22), S( 35, 60), S( 26, 82), S( 29, 58), S( 31, 77), S( 25, 79), S( 34, 71), S( 42, 44),
      S( 12, 72), S( 13, 77), S( 23, 79), S( 11,125), S( 22,124), S( 25, 89), S( 46, 88), S( 31, 80),
      S( 13, 90), S( 13, 90), S( 12,123), S(  1,148), S( 27,126), S( 48,111), S( 11,134), S( 42,119),
      S( 28, 79), S( 36, 85), S( 14,113), S( 25,138), S( 21,132), S( 51,106), S( 27,118), S( 62, 68),
      S( 11, 86), S(-15,119), S( -2,138), S( 35,115), S( 35, 90), S( 40,127), S( 60, 82), S( 62, 92),
      S( -1, 89), S( 83, 50), S( -5,121), S( 41,113), S(-30,162), S(169,  3), S(139, 16), S( 67, 67) },
    { // King
      S( 30,-82), S( 79,-68), S( 43,-40), S(-32,-45), S( 21,-59), S( -7,-37), S( 73,-56), S( 61,-73),
      S( 51,-63), S( 19,-33), S( 17,-23), S(-40,-15), S(-42,-13), S( -3,-13), S( 32,-18), S( 51,-41),
      S(-23,-38), S( 42,-29), S(-62,  9), S(-79,  7), S(-94, 15), S(-27,  5), S(  3,  3), S( 18,-27),
      S( 19,-36), S( -4,  2), S(-113, 18), S(-161, 30), S(-159, 36), S(-92, 36), S(-10,  8), S(-79, -6),
      S(-104, 14), S(-167, 36), S(-152, 53), S(-225, 48), S(-192, 53), S(-158, 57), S(-124, 49), S(-177, 31),
      S(-180, 56), S(-143, 59), S(-174, 53), S(-95, 23), S(-247, 59), S(-167, 84), S(-83, 70), S(-297, 74),
      S(-98,-78), S(-55, 26), S( 79,  4), S(-100, 10), S( 46, -8), S(-111, 74), S( 25, 52), S(-138,  4),
      S( 38,-173), S(-78,-48), S(-132,  8), S( -7,-38),S(190,-59),S( 34, -6), S(-206, 54), S(-76,-116) },
};
// clang-format on

// Mobility: squares a piece attacks in its mobility area (not own pawns or king, not attacked by
// enemy pawns), by count.
inline constexpr Score KNIGHT_MOBILITY[9] = {S(-15, 27), S(-2, -17), S(6, 21), S(11, 50), S(21, 64),
                                       S(27, 69), S(37, 69), S(44, 71), S(43, 65)};
inline constexpr Score BISHOP_MOBILITY[14] = {S(-17, 16), S(2, 7), S(13, 18), S(18, 36), S(29, 50), S(34, 57),
                                       S(37, 60), S(43, 65), S(41, 72), S(42, 75), S(50, 65), S(53, 73),
                                       S(103, 47), S(32, 73)};
inline constexpr Score ROOK_MOBILITY[15] = {S(-66, 8), S(-16, 24), S(3, 59), S(4, 64), S(6, 81), S(7, 94),
                                     S(10, 97), S(12, 102), S(15, 110), S(21, 117), S(25, 118), S(26, 125),
                                     S(31, 128), S(27, 130), S(42, 129)};
inline constexpr Score QUEEN_MOBILITY[28] = {S(49, 142), S(58, 140), S(53, 141), S(71, 31), S(65, 30), S(66, 54),
                                      S(65, 121), S(64, 129), S(66, 137), S(68, 153), S(70, 156), S(70, 171), S(74, 163),
                                      S(72, 181), S(70, 190), S(76, 177), S(75, 182), S(80, 177), S(99, 161),
                                      S(102, 157), S(105, 150), S(118, 131), S(155, 106), S(204, 73), S(251, 25),
                                      S(236, 15), S(83, 127), S(55, -6)};

// Pawn structure (seed pawnking.txt: set-wise from pawn spans and attack spans).
inline constexpr Score ISOLATED = S(-9, -14);
inline constexpr Score DOUBLED = S(-8, -13);
inline constexpr Score BACKWARD = S(-9, -18);
inline constexpr Score CONNECTED[8] = {S(0, 0), S(2, -2), S(8, 7), S(13, 10), S(29, 20), S(71, 40), S(146, 58), S(0, 0)};
inline constexpr Score PASSED[8] = {S(0, 0), S(8, 40), S(-3, 62), S(0, 78), S(33, 98), S(57, 79), S(99, 150), S(0, 0)};
inline constexpr Score CANDIDATE[8] = {S(0, 0), S(1, 6), S(6, 11), S(8, 28), S(14, 38), S(35, 21), S(0, 0), S(0, 0)};

// Passed pawns beyond structure (endgame terms, by rank from the pawn's side).
inline constexpr int PASSED_OWN_KING_DISTANCE[8] = {0, 3, 8, 17, 22, 26, 43, 0};      // per square, subtracted
inline constexpr int PASSED_ENEMY_KING_DISTANCE[8] = {0, -1, 2, 16, 30, 53, 71, 0};  // per square, added
inline constexpr Score PASSED_FREE_PATH[8] = {S(0, 0), S(-115, 40), S(-53, 12), S(-88, 40), S(-59, 43), S(19, 58), S(234, 68), S(0, 0)};
inline constexpr Score PASSED_BLOCKED = S(-8, -21);
// A passer the defending king cannot catch (rule of the square) when it has no pieces.
inline constexpr int UNSTOPPABLE_PASSER = 600;

// Rooks
inline constexpr Score ROOK_OPEN_FILE = S(35, 2);
inline constexpr Score ROOK_SEMI_OPEN_FILE = S(18, 8);

// Threats
inline constexpr Score THREAT_BY_PAWN = S(60, 49);                   // a non-pawn attacked by a pawn
inline constexpr Score THREAT_BY_MINOR[PIECE_TYPE_NB] = {S(0, 0), S(0, 21), S(22, 32), S(33, 29), S(80, -7), S(39, 25), S(0, 0)};
inline constexpr Score THREAT_BY_ROOK[PIECE_TYPE_NB] = {S(0, 0), S(6, 20), S(29, 26), S(30, 25), S(-3, 13), S(59, -6), S(0, 0)};
inline constexpr Score HANGING = S(16, 30);                          // attacked and not defended

// King safety: enemy pieces attacking the squares around the king.
inline constexpr int KING_ATTACK_WEIGHT[PIECE_TYPE_NB] = {0, 0, 20, 18, 40, 80, 0};
inline constexpr int SAFE_CHECK[PIECE_TYPE_NB] = {0, 0, 80, 60, 90, 80, 0};
inline constexpr int KING_RING_ATTACKS = 8;    // per attack on a ring square
inline constexpr int WEAK_RING_SQUARE = 12;    // ring squares defended only by the king, attacked
inline constexpr int NO_ENEMY_QUEEN = -120;    // attacks without a queen are much less dangerous
// The danger's cost: danger^2 / 720 in the middlegame, danger / 16 in the endgame. The tuner fits
// the danger's weights above; these set their scale and stay.
inline constexpr int KING_DANGER_MG_DIVISOR = 720, KING_DANGER_EG_DIVISOR = 16;
inline constexpr Score PAWN_SHELTER[4][8] = {   // own pawn on a file by the king: by edge distance, rank
    {S(-22, 0), S(13, 0), S(17, 0), S(3, 0), S(1, 0), S(37, 0), S(90, 0), S(-10, 0)},
    {S(-40, 0), S(15, 0), S(10, 0), S(-18, 0), S(-36, 0), S(29, 0), S(45, 0), S(-20, 0)},
    {S(-27, 0), S(30, 0), S(-2, 0), S(-14, 0), S(-16, 0), S(0, 0), S(124, 0), S(-12, 0)},
    {S(-8, 0), S(10, 0), S(12, 0), S(11, 0), S(6, 0), S(-28, 0), S(19, 0), S(-16, 0)}};
inline constexpr Score PAWN_STORM[8] = {S(0, 0), S(59, 0), S(-30, 0), S(-11, 0), S(1, 0), S(9, 0), S(5, 0), S(0, 0)};

inline constexpr Score TEMPO = S(17, 12);

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
