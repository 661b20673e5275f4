// Every weight of the evaluation, in one place for tuning. Scores are S(middlegame, endgame) in
// centipawns; tables are from White's point of view with a1 first (mirrored for Black).
#pragma once

#include "types.h"

namespace params {

// Material
inline constexpr Score PIECE_VALUE[PIECE_TYPE_NB] = {
    S(0, 0), S(82, 113), S(366, 391), S(374, 404), S(507, 680), S(1141, 1214), S(0, 0)};
// Piece values for SEE-like questions and the mating-potential rules (plain centipawns).
inline constexpr int SIMPLE_VALUE[PIECE_TYPE_NB] = {0, 100, 325, 325, 500, 975, 0};

// Game phase: what each piece contributes, 24 at the start.
inline constexpr int PHASE_WEIGHT[PIECE_TYPE_NB] = {0, 0, 1, 1, 2, 4, 0};
inline constexpr int MAX_PHASE = 24;

// Imbalance (material table): the bishop pair, and knights/rooks by the number of own pawns.
inline constexpr Score BISHOP_PAIR = S(27, 83);
inline constexpr Score KNIGHT_PER_PAWN = S(4, 12);   // above or below five pawns
inline constexpr Score ROOK_PER_PAWN = S(-1, 2);

// Piece-square tables, rank 1 first, files a-h.
// clang-format off
inline constexpr Score PST[PIECE_TYPE_NB][SQUARE_NB] = {
    {},
    { // Pawn
      S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0),
      S( -2,  8), S( -4, 13), S(-11, 13), S( -6, 12), S( -1, 33), S(  0, 17), S( 24,  7), S( -2, -2),
      S( -8, 10), S(-11,  4), S( -7,  3), S( -7,  1), S(  8,  0), S( 14, -2), S( 19,-14), S( -5, -9),
      S( -6, 13), S(-13,  8), S( -2, -8), S( -1, -6), S( -1, -8), S( 18,-12), S(  9, -7), S(-10, -5),
      S(  3, 16), S( -8, 19), S( -6, 10), S(  9, -9), S(  9,-15), S( 17, -7), S(  0,  5), S( -4, -1),
      S( 34, 39), S( 15, 59), S(  7, 47), S( 13, 53), S( 41, 27), S( 37, 29), S(  8, 48), S(  9, 41),
      S( 76, 15), S( 25, 83), S( 34, 96), S( 29, 99), S(120, 52), S(-32, 52), S( 15, 71), S( 24, 38),
      S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0) },
    { // Knight
      S(-41,-45), S(-10, -5), S(-27, -5), S(  6, -2), S(  3, 25), S(  1,-11), S( -9,-17), S( 12,-40),
      S(-22, 24), S(-11, -2), S( -6, 19), S( -1, 24), S(  0, 23), S( 13, 20), S(-12, 29), S(  0, 12),
      S(-17, -4), S(-12, 13), S( -2, 13), S( 10, 41), S( 21, 27), S(  5, 19), S(  6, 17), S(  5, -2),
      S(  2,  9), S( 16, 22), S( 15, 37), S( 11, 55), S( 18, 59), S( 25, 35), S( 21, 30), S(  5, 20),
      S( 41,  6), S(  9, 29), S( 18, 42), S( 44, 57), S( 21, 41), S( 18, 57), S( 11, 34), S( 24, 20),
      S(  3, -9), S(  9, 38), S( 15, 48), S( 32, 43), S( 61, 35), S( 37, 48), S(  8, 31), S(-18, 24),
      S(-57, 65), S(-43, 34), S(  6, 34), S( 48, 45), S( 38, 27), S( 37,  8), S(-26, 41), S(-18, 31),
      S(-163,-38),S(-72,  5), S(-93, 32), S( 98,  5), S(-32, 51), S(-168, 52), S(-35, 47), S(-238,  4) },
    { // Bishop
      S(-13,-37), S( 46,-33), S(  5,  4), S( -1, 30), S( 20,  0), S( -5, 25), S( 17,  6), S( 19,-26),
      S(  5,  5), S( 18,  0), S( 19, 10), S(  9, 20), S( 13, 13), S( 40,  5), S( 33, 17), S( 48,-19),
      S( 13,-19), S( 26, 11), S( 21, 21), S( 16, 24), S( 17, 29), S( 16, 28), S( 30, 13), S( 21,  7),
      S(  7, 17), S(  7, 13), S( 14, 29), S( 32, 33), S( 26, 36), S( 10, 36), S(  9, 22), S( 19,  6),
      S( -5,  9), S(  4, 36), S( 24, 29), S( 33, 38), S( 22, 34), S( 33, 24), S( 13, 27), S(  0, 19),
      S( 10, 19), S( 11, 19), S( -3, 49), S( 30, 24), S( 12, 25), S( 42, 28), S( 27, 19), S(  9, 11),
      S(-33, 21), S(-46, 58), S(-14, 32), S(  5, 41), S(-30, 25), S(-22, 28), S(-64, 27), S(-20, -3),
      S(-28, 54), S(-92, 49), S(-91, 52), S(-79, 28), S(-17, 25), S(-241, 51), S(-58, 36), S(  1,  5) },
    { // Rook
      S( -8, 39), S( -8, 38), S( -4, 39), S(  3, 35), S(  9, 24), S(  4, 31), S(-11, 41), S(  9, 17),
      S(-12, 32), S(-21, 49), S( -4, 45), S( -1, 40), S(  5, 33), S(  5, 26), S( -4, 49), S(-40, 41),
      S(-29, 41), S(-24, 50), S(-21, 58), S(-20, 47), S( -5, 46), S( -5, 45), S( 18, 27), S( -8, 28),
      S(-20, 63), S(-25, 69), S(-10, 61), S(  0, 51), S(-17, 58), S(-19, 48), S( 17, 39), S(-15, 55),
      S(-13, 76), S(  9, 63), S( 12, 57), S( 17, 53), S( 13, 55), S( 25, 49), S( 38, 42), S( -4, 66),
      S( -8, 74), S( 26, 57), S( 23, 61), S( 38, 50), S( 29, 47), S( 50, 38), S( 17, 50), S( 41, 49),
      S( -8, 69), S(  7, 64), S( 11, 68), S( 45, 57), S( 37, 54), S( 64, 37), S( 35, 55), S( 73, 40),
      S( 16, 70), S( 38, 64), S( 50, 56), S(-19, 79), S( 37, 58), S(  7, 69), S(-16, 78), S( 34, 66) },
    { // Queen
      S( 45,-32), S( 27, 17), S( 33,-18), S( 35,  7), S( 28, 34), S(  1, 22), S( 40,-52), S( 31, -8),
      S( 25,  0), S( 24, 46), S( 42, 23), S( 37, 40), S( 38, 52), S( 43, 23), S( 48, 28), S( 46, 20),
      S( 18, 24), S( 36, 62), S( 27, 81), S( 31, 61), S( 35, 78), S( 30, 80), S( 43, 71), S( 35, 42),
      S( 19, 73), S( 17, 82), S( 23, 86), S( 12,126), S( 23,117), S( 25, 89), S( 38, 90), S( 30, 81),
      S( 22, 94), S( 20,100), S( 11,119), S(  7,145), S( 26,127), S( 44,110), S(  7,132), S( 32,114),
      S( 20, 78), S( 35, 85), S( 13,117), S( 22,130), S( 16,130), S( 47,106), S( 29,116), S( 59, 65),
      S(  9, 88), S(-16,120), S(  2,142), S( 33,114), S( 32, 94), S( 41,128), S( 61, 83), S( 65, 91),
      S( -2, 89), S( 78, 48), S( -2,124), S( 37,108), S(-31,159), S(166,  1), S(139, 17), S( 68, 70) },
    { // King
      S( 30,-84), S( 70,-55), S( 39,-36), S(-33,-44), S( 24,-62), S(  0,-38), S( 74,-62), S( 63,-75),
      S( 56,-53), S( 14,-36), S( 14,-21), S(-36,-17), S(-51,-14), S( -9,-14), S( 32,-22), S( 54,-45),
      S(-23,-37), S( 41,-24), S(-58,  6), S(-80,  8), S(-88, 13), S(-21, 12), S(  0,  1), S(  8,-24),
      S( 19,-31), S( -4,  1), S(-113, 20), S(-159, 30), S(-158, 35), S(-92, 41), S(-12, 10), S(-79, -3),
      S(-103, 16), S(-166, 40), S(-151, 48), S(-223, 49), S(-193, 50), S(-157, 67), S(-121, 57), S(-176, 33),
      S(-181, 46), S(-142, 61), S(-172, 55), S(-95, 19), S(-247, 54), S(-166, 86), S(-83, 66), S(-297, 73),
      S(-98,-79), S(-54, 26), S( 78, -2), S(-99, 11), S( 46, -9), S(-113, 65), S( 23, 45), S(-139,  4),
      S( 38,-174), S(-78,-49), S(-131,  9), S( -7,-37),S(189,-61),S( 34, -6), S(-205, 56), S(-76,-118) },
};
// clang-format on

// Mobility: squares a piece attacks in its mobility area (not own pawns or king, not attacked by
// enemy pawns), by count.
inline constexpr Score KNIGHT_MOBILITY[9] = {S( -9, 25), S(-6, -12), S(6, 28), S(12, 47), S(19, 62),
                                       S(28, 67), S(34, 72), S(44, 70), S(49, 68)};
inline constexpr Score BISHOP_MOBILITY[14] = {S(-15, 20), S(3, 5), S(15, 21), S(19, 36), S(29, 47), S(33, 58),
                                       S(38, 58), S(38, 68), S(42, 71), S(38, 75), S(48, 65), S(53, 71),
                                       S(103, 53), S(33, 72)};
inline constexpr Score ROOK_MOBILITY[15] = {S(-68, 7), S(-18, 29), S(0, 62), S(6, 66), S(7, 83), S(7, 94),
                                     S(11, 96), S(12, 104), S(15, 112), S(21, 116), S(22, 122), S(29, 123),
                                     S(29, 130), S(26, 128), S(39, 131)};
inline constexpr Score QUEEN_MOBILITY[28] = {S(50, 142), S(57, 141), S(54, 141), S(71, 31), S(72, 30), S(68, 56),
                                      S(66, 117), S(66, 130), S(66, 142), S(68, 152), S(68, 161), S(72, 167), S(74, 167),
                                      S(74, 182), S(75, 188), S(75, 182), S(74, 183), S(78, 180), S(90, 164),
                                      S(104, 158), S(109, 151), S(124, 130), S(155, 106), S(201, 65), S(250, 24),
                                      S(236, 13), S(83, 126), S(55, -6)};

// Pawn structure (seed pawnking.txt: set-wise from pawn spans and attack spans).
inline constexpr Score ISOLATED = S(-8, -16);
inline constexpr Score DOUBLED = S(-13, -6);
inline constexpr Score BACKWARD = S(-8, -21);
inline constexpr Score CONNECTED[8] = {S(0, 0), S(3, -5), S(7, 9), S(13, 12), S(27, 18), S(70, 45), S(145, 60), S(0, 0)};
inline constexpr Score PASSED[8] = {S(0, 0), S(3, 36), S(-15, 60), S(0, 78), S(26, 99), S(50, 74), S(90, 143), S(0, 0)};
inline constexpr Score CANDIDATE[8] = {S(0, 0), S(-1, 8), S(9, 7), S(4, 25), S(11, 31), S(33, 24), S(0, 0), S(0, 0)};

// Passed pawns beyond structure (endgame terms, by rank from the pawn's side).
inline constexpr int PASSED_OWN_KING_DISTANCE[8] = {0, 0, 9, 21, 27, 31, 50, 0};      // per square, subtracted
inline constexpr int PASSED_ENEMY_KING_DISTANCE[8] = {0, -1, 4, 20, 36, 59, 80, 0};  // per square, added
inline constexpr Score PASSED_FREE_PATH[8] = {S(0, 0), S(-112, 45), S(-55, 17), S(-91, 41), S(-60, 45), S(19, 52), S(231, 62), S(0, 0)};
inline constexpr Score PASSED_BLOCKED = S(-10, -21);
// A passer the defending king cannot catch (rule of the square) when it has no pieces.
inline constexpr int UNSTOPPABLE_PASSER = 600;

// Minor pieces. An outpost is a square of the fourth to sixth rank that an own pawn defends and
// no enemy pawn can ever attack; a minor behind an own pawn shields it and is shielded by it; a
// bishop is hemmed in by own pawns on its colour (counted per pawn).
inline constexpr Score KNIGHT_OUTPOST = S(0, 0);
inline constexpr Score BISHOP_OUTPOST = S(0, 0);
inline constexpr Score MINOR_BEHIND_PAWN = S(0, 0);
inline constexpr Score BISHOP_PAWNS = S(0, 0);

// Rooks (on the seventh: with the enemy king on the eighth or enemy pawns on the seventh)
inline constexpr Score ROOK_ON_SEVENTH = S(0, 0);
inline constexpr Score ROOK_OPEN_FILE = S(31, -3);
inline constexpr Score ROOK_SEMI_OPEN_FILE = S(18, 5);

// Threats
inline constexpr Score THREAT_BY_PAWN = S(56, 48);                   // a non-pawn attacked by a pawn
inline constexpr Score THREAT_BY_MINOR[PIECE_TYPE_NB] = {S(0, 0), S(1, 22), S(16, 30), S(31, 26), S(72, -8), S(38, 24), S(0, 0)};
inline constexpr Score THREAT_BY_ROOK[PIECE_TYPE_NB] = {S(0, 0), S(5, 21), S(31, 25), S(26, 20), S(-5, 10), S(62, -6), S(0, 0)};
inline constexpr Score HANGING = S(15, 33);                          // attacked and not defended
inline constexpr Score THREAT_BY_PAWN_PUSH = S(0, 0);                // a safe push attacks a non-pawn

// King safety: enemy pieces attacking the squares around the king.
inline constexpr int KING_ATTACK_WEIGHT[PIECE_TYPE_NB] = {0, 0, 40, 25, 25, 47, 0};
inline constexpr int SAFE_CHECK[PIECE_TYPE_NB] = {0, 0, 103, 68, 101, 111, 0};
inline constexpr int KING_RING_ATTACKS = 21;    // per attack on a ring square
inline constexpr int WEAK_RING_SQUARE = 26;    // ring squares defended only by the king, attacked
inline constexpr int NO_ENEMY_QUEEN = -136;    // attacks without a queen are much less dangerous
// The danger's cost: danger^2 / 720 in the middlegame, danger / 16 in the endgame. The tuner fits
// the danger's weights above; these set their scale and stay.
inline constexpr int KING_DANGER_MG_DIVISOR = 720, KING_DANGER_EG_DIVISOR = 16;
inline constexpr Score PAWN_SHELTER[4][8] = {   // own pawn on a file by the king: by edge distance, rank
    {S(-13, 0), S(10, 0), S(18, 0), S(4, 0), S(7, 0), S(29, 0), S(90, 0), S(-10, 0)},
    {S(-36, 0), S(18, 0), S(9, 0), S(-20, 0), S(-22, 0), S(21, 0), S(45, 0), S(-20, 0)},
    {S(-18, 0), S(37, 0), S(-2, 0), S(-8, 0), S(-13, 0), S(-1, 0), S(120, 0), S(-12, 0)},
    {S(-5, 0), S(12, 0), S(16, 0), S(17, 0), S(10, 0), S(-23, 0), S(17, 0), S(-16, 0)}};
inline constexpr Score PAWN_STORM[8] = {S(0, 0), S(62, 0), S(-25, 0), S(-12, 0), S(5, 0), S(14, 0), S(8, 0), S(0, 0)};

inline constexpr Score TEMPO = S(15, 13);

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
