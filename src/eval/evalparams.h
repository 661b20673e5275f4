// Every weight of the evaluation, in one place for tuning. Scores are S(middlegame, endgame) in
// centipawns; tables are from White's point of view with a1 first (mirrored for Black).
#pragma once

#include "types.h"

namespace params {

// Material
inline constexpr Score PIECE_VALUE[PIECE_TYPE_NB] = {S(0, 0),     S(83, 113),    S(362, 389), S(376, 407),
                                                     S(501, 681), S(1144, 1212), S(0, 0)};

// Game phase: what each piece contributes, 24 at the start.
inline constexpr int PHASE_WEIGHT[PIECE_TYPE_NB] = {0, 0, 1, 1, 2, 4, 0};
inline constexpr int MAX_PHASE = 24;

// Imbalance (material table): the bishop pair, and knights/rooks by the number of own pawns.
inline constexpr Score BISHOP_PAIR = S(27, 80);
inline constexpr Score KNIGHT_PER_PAWN = S(3, 11);  // above or below five pawns
inline constexpr Score ROOK_PER_PAWN = S(-1, 1);

// Piece-square tables, rank 1 first, files a-h.
// clang-format off
inline constexpr Score PST[PIECE_TYPE_NB][SQUARE_NB] = {
    {},
    { // Pawn
      S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0),
      S( -2,  8), S( -5, 13), S(-12, 15), S( -5, 10), S( -2, 35), S( -1, 18), S( 24,  7), S(  0, -1),
      S( -8, 11), S(-11,  4), S( -7,  5), S( -8,  1), S(  7,  0), S( 16, -1), S( 19,-14), S( -3, -9),
      S( -7, 15), S(-13,  9), S( -3, -6), S(  0, -4), S( -1, -7), S( 18,-12), S(  9, -7), S( -9, -5),
      S(  3, 15), S( -7, 17), S( -5,  9), S(  9, -9), S( 10,-16), S( 17, -7), S(  1,  3), S( -3, -1),
      S( 36, 35), S( 15, 56), S( 13, 46), S( 15, 50), S( 39, 24), S( 44, 26), S(  7, 47), S( 10, 40),
      S( 82, 10), S( 23, 83), S( 33, 95), S( 29, 93), S(116, 59), S(-32, 45), S( 12, 76), S( 18, 39),
      S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0) },
    { // Knight
      S(-40,-42), S(-11, -6), S(-27, -1), S(  8, -3), S(  7, 24), S( -2, -5), S( -9,-17), S(  3,-40),
      S(-19, 22), S( -7, -3), S( -4, 14), S( -2, 26), S(  0, 23), S( 11, 20), S( -9, 30), S(  5, 15),
      S(-14, -4), S(-10, 14), S( -1, 11), S(  8, 41), S( 19, 28), S(  7, 20), S(  8, 17), S(  7, -3),
      S(  3,  7), S( 14, 27), S( 16, 37), S( 11, 53), S( 19, 59), S( 29, 34), S( 20, 31), S(  9, 20),
      S( 34, 11), S( 10, 23), S( 17, 39), S( 41, 54), S( 19, 39), S( 20, 56), S( 11, 37), S( 18, 20),
      S( -1, -7), S(  6, 33), S( 15, 45), S( 30, 40), S( 54, 35), S( 29, 44), S(  3, 31), S(-19, 24),
      S(-53, 65), S(-38, 36), S( 11, 33), S( 46, 46), S( 40, 28), S( 38,  8), S(-28, 41), S(-19, 34),
      S(-166,-36),S(-71,  7), S(-92, 35), S( 94,  2), S(-30, 51), S(-169, 55), S(-36, 47), S(-236,  3) },
    { // Bishop
      S(-11,-41), S( 51,-35), S(  5,  9), S(  0, 35), S( 18,  5), S( -8, 23), S( 23, -1), S( 24,-26),
      S(  4,  2), S( 16,  1), S( 18,  7), S(  9, 20), S( 13, 12), S( 42,  0), S( 31, 14), S( 45,-22),
      S( 11,-17), S( 26, 12), S( 20, 25), S( 15, 22), S( 16, 31), S( 17, 29), S( 32, 13), S( 22,  6),
      S(  8, 15), S(  7, 17), S( 16, 28), S( 31, 33), S( 28, 37), S( 15, 37), S( 14, 22), S( 23,  1),
      S( -4, 13), S(  8, 31), S( 22, 29), S( 31, 37), S( 21, 34), S( 36, 20), S( 19, 22), S(  0, 22),
      S( 11, 22), S( 12, 19), S(  0, 49), S( 27, 24), S( 10, 26), S( 42, 31), S( 21, 21), S(  2, 12),
      S(-33, 22), S(-42, 61), S(-17, 32), S(  6, 44), S(-28, 24), S(-22, 30), S(-69, 28), S(-21, -1),
      S(-29, 48), S(-89, 50), S(-91, 58), S(-78, 24), S(-18, 30), S(-240, 53), S(-58, 36), S( -1,  7) },
    { // Rook
      S( -9, 39), S( -8, 39), S( -5, 39), S(  3, 33), S(  9, 23), S(  4, 31), S(-12, 40), S(  9, 16),
      S(-12, 31), S(-21, 50), S(  1, 42), S( -2, 40), S(  7, 32), S(  6, 26), S(  2, 50), S(-45, 42),
      S(-31, 46), S(-25, 52), S(-19, 55), S(-20, 46), S( -7, 47), S( -5, 47), S( 17, 26), S(-10, 33),
      S(-19, 63), S(-23, 71), S(-11, 64), S(  4, 50), S(-12, 58), S(-19, 51), S( 19, 43), S(-11, 55),
      S(-18, 80), S(  8, 66), S( 15, 56), S( 15, 55), S( 15, 57), S( 27, 50), S( 31, 44), S( -3, 68),
      S( -6, 74), S( 22, 58), S( 29, 59), S( 35, 51), S( 32, 45), S( 49, 39), S( 18, 47), S( 36, 51),
      S( -5, 64), S(  6, 61), S( 12, 64), S( 42, 54), S( 35, 53), S( 59, 34), S( 35, 54), S( 67, 38),
      S( 19, 69), S( 37, 64), S( 47, 57), S(-17, 79), S( 34, 59), S(  7, 70), S(-15, 78), S( 34, 66) },
    { // Queen
      S( 45,-28), S( 28, 20), S( 34,-22), S( 35,  4), S( 30, 27), S(  0, 23), S( 40,-50), S( 31, -6),
      S( 29,  2), S( 23, 46), S( 42, 21), S( 37, 39), S( 37, 56), S( 44, 21), S( 48, 29), S( 45, 20),
      S( 18, 26), S( 36, 63), S( 27, 80), S( 31, 63), S( 35, 78), S( 31, 79), S( 46, 69), S( 33, 41),
      S( 21, 73), S( 19, 86), S( 23, 92), S( 13,127), S( 28,112), S( 27, 90), S( 38, 94), S( 31, 82),
      S( 27, 96), S( 22,107), S( 12,115), S( 12,140), S( 26,128), S( 43,110), S(  8,131), S( 33,111),
      S( 15, 78), S( 34, 85), S( 11,121), S( 20,123), S( 12,128), S( 42,106), S( 30,113), S( 58, 63),
      S(  6, 90), S(-16,120), S(  4,144), S( 31,113), S( 28, 98), S( 41,128), S( 61, 83), S( 67, 89),
      S( -3, 89), S( 73, 46), S(  1,127), S( 33,103), S(-31,155), S(162, -1), S(139, 19), S( 68, 73) },
    { // King
      S( 31,-85), S( 67,-49), S( 38,-34), S(-34,-43), S( 23,-63), S(  2,-38), S( 74,-61), S( 63,-75),
      S( 58,-48), S( 12,-35), S( 13,-19), S(-35,-18), S(-53,-13), S(-10,-14), S( 33,-22), S( 54,-45),
      S(-23,-37), S( 38,-21), S(-53,  5), S(-81,  9), S(-82, 12), S(-16, 12), S( -2,  2), S(  1,-21),
      S( 19,-27), S( -4,  0), S(-113, 21), S(-157, 30), S(-157, 34), S(-93, 42), S(-15, 11), S(-79, -2),
      S(-102, 17), S(-166, 42), S(-149, 46), S(-221, 50), S(-193, 49), S(-157, 71), S(-119, 60), S(-175, 35),
      S(-182, 39), S(-141, 62), S(-169, 56), S(-95, 16), S(-246, 50), S(-165, 86), S(-83, 62), S(-297, 73),
      S(-98,-80), S(-53, 26), S( 78, -8), S(-98, 12), S( 46, -9), S(-115, 58), S( 21, 39), S(-140,  4),
      S( 38,-176), S(-78,-50), S(-130, 11), S( -7,-36),S(188,-64),S( 34, -6), S(-204, 57), S(-76,-121) },
};
// clang-format on

// Mobility: squares a piece attacks in its mobility area (not own pawns or king, not attacked by
// enemy pawns), by count.
inline constexpr Score KNIGHT_MOBILITY[9] = {S(-9, 22), S(-6, -8), S(5, 31),  S(12, 46), S(18, 61),
                                             S(27, 66), S(32, 72), S(42, 69), S(47, 67)};
inline constexpr Score BISHOP_MOBILITY[14] = {S(-14, 22), S(5, 6),   S(16, 24),  S(20, 38), S(29, 48),
                                              S(33, 59),  S(38, 58), S(37, 67),  S(42, 70), S(37, 74),
                                              S(47, 64),  S(53, 69), S(102, 58), S(34, 70)};
inline constexpr Score ROOK_MOBILITY[15] = {S(-70, 6),  S(-20, 32), S(0, 63),   S(6, 67),   S(7, 83),
                                            S(7, 94),   S(11, 96),  S(11, 104), S(14, 112), S(21, 116),
                                            S(22, 122), S(29, 123), S(29, 130), S(26, 127), S(36, 131)};
inline constexpr Score QUEEN_MOBILITY[28] = {S(51, 142), S(56, 142),  S(54, 141),  S(71, 31),   S(73, 30),   S(69, 59),
                                             S(67, 113), S(67, 131),  S(66, 145),  S(68, 152),  S(68, 164),  S(73, 164),
                                             S(74, 169), S(74, 181),  S(77, 185),  S(73, 185),  S(74, 183),  S(76, 182),
                                             S(84, 168), S(104, 157), S(111, 150), S(129, 128), S(155, 106), S(198, 58),
                                             S(249, 23), S(236, 10),  S(83, 125),  S(55, -6)};

// Pawn structure (seed pawnking.txt: set-wise from pawn spans and attack spans).
inline constexpr Score ISOLATED = S(-7, -16);
inline constexpr Score DOUBLED = S(-14, -5);
inline constexpr Score BACKWARD = S(-6, -21);
inline constexpr Score CONNECTED[8] = {S(0, 0),   S(3, -6),  S(6, 9),    S(12, 11),
                                       S(27, 19), S(66, 48), S(144, 63), S(0, 0)};
inline constexpr Score PASSED[8] = {S(0, 0),   S(2, 35),  S(-17, 59), S(-1, 77),
                                    S(23, 99), S(46, 73), S(84, 139), S(0, 0)};
inline constexpr Score CANDIDATE[8] = {S(0, 0), S(-1, 8), S(8, 6), S(4, 24), S(12, 29), S(32, 27), S(0, 0), S(0, 0)};

// Passed pawns beyond structure (endgame terms, by rank from the pawn's side).
inline constexpr int PASSED_OWN_KING_DISTANCE[8] = {0, 0, 9, 21, 27, 30, 49, 0};     // per square, subtracted
inline constexpr int PASSED_ENEMY_KING_DISTANCE[8] = {0, -1, 4, 20, 36, 59, 81, 0};  // per square, added
inline constexpr Score PASSED_FREE_PATH[8] = {S(0, 0),    S(-109, 48), S(-57, 20), S(-94, 42),
                                              S(-61, 46), S(20, 50),   S(228, 58), S(0, 0)};
inline constexpr Score PASSED_BLOCKED = S(-7, -19);
// A passer the defending king cannot catch (rule of the square) when it has no pieces.
inline constexpr int UNSTOPPABLE_PASSER = 600;

// Minor pieces. An outpost is a square of the fourth to sixth rank that an own pawn defends and
// no enemy pawn can ever attack; a minor behind an own pawn shields it and is shielded by it; a
// bishop is hemmed in by own pawns on its colour (counted per pawn).
inline constexpr Score KNIGHT_OUTPOST = S(8, 8);
inline constexpr Score BISHOP_OUTPOST = S(8, 8);
inline constexpr Score MINOR_BEHIND_PAWN = S(6, 8);
inline constexpr Score BISHOP_PAWNS = S(-2, -2);

// Rooks (on the seventh: with the enemy king on the eighth or enemy pawns on the seventh)
inline constexpr Score ROOK_ON_SEVENTH = S(-2, 6);
inline constexpr Score ROOK_OPEN_FILE = S(31, -3);
inline constexpr Score ROOK_SEMI_OPEN_FILE = S(18, 5);

// Threats
inline constexpr Score THREAT_BY_PAWN = S(56, 47);  // a non-pawn attacked by a pawn
inline constexpr Score THREAT_BY_MINOR[PIECE_TYPE_NB] = {S(0, 0),   S(2, 21),  S(15, 29), S(29, 24),
                                                         S(69, -6), S(37, 23), S(0, 0)};
inline constexpr Score THREAT_BY_ROOK[PIECE_TYPE_NB] = {S(0, 0),  S(6, 19),  S(29, 23), S(24, 19),
                                                        S(-6, 7), S(62, -7), S(0, 0)};
inline constexpr Score HANGING = S(15, 33);            // attacked and not defended
inline constexpr Score THREAT_BY_PAWN_PUSH = S(9, 9);  // a safe push attacks a non-pawn

// King safety: enemy pieces attacking the squares around the king.
inline constexpr int KING_ATTACK_WEIGHT[PIECE_TYPE_NB] = {0, 0, 45, 26, 21, 40, 0};
inline constexpr int SAFE_CHECK[PIECE_TYPE_NB] = {0, 0, 111, 71, 107, 119, 0};
inline constexpr int KING_RING_ATTACKS = 22;  // per attack on a ring square
inline constexpr int WEAK_RING_SQUARE = 26;   // ring squares defended only by the king, attacked
inline constexpr int NO_ENEMY_QUEEN = -145;   // attacks without a queen are much less dangerous
// The danger's cost: danger^2 / 720 in the middlegame, danger / 16 in the endgame. The tuner fits
// the danger's weights above; these set their scale and stay.
inline constexpr int KING_DANGER_MG_DIVISOR = 720, KING_DANGER_EG_DIVISOR = 16;
inline constexpr Score PAWN_SHELTER[4][8] = {  // own pawn on a file by the king: by edge distance, rank
    {S(-12, 0), S(11, 0), S(18, 0), S(5, 0), S(9, 0), S(25, 0), S(90, 0), S(-10, 0)},
    {S(-36, 0), S(19, 0), S(9, 0), S(-19, 0), S(-17, 0), S(15, 0), S(45, 0), S(-20, 0)},
    {S(-16, 0), S(39, 0), S(-2, 0), S(-6, 0), S(-9, 0), S(-2, 0), S(116, 0), S(-12, 0)},
    {S(-4, 0), S(14, 0), S(17, 0), S(18, 0), S(11, 0), S(-18, 0), S(16, 0), S(-16, 0)}};
inline constexpr Score PAWN_STORM[8] = {S(0, 0), S(65, 0), S(-25, 0), S(-12, 0), S(5, 0), S(14, 0), S(8, 0), S(0, 0)};

inline constexpr Score TEMPO = S(15, 13);

// Endgame scale factors, in 1/64 (seeds mating-potential.txt and draw-evaluation.txt).
inline constexpr int SCALE_NORMAL = 64;
inline constexpr int SCALE_PAWNLESS_LEADER = 32;     // /2: without pawns you need twice the advantage
inline constexpr int SCALE_NO_MATING_POTENTIAL = 8;  // /8: pawnless and a minor or less ahead
inline constexpr int SCALE_MATING_IN_JEOPARDY = 16;  // /4: last pawn, a piece can be given for it
inline constexpr int SCALE_NEAR_DRAW = 4;            // the draw-evaluation heuristics
inline constexpr int SCALE_DRAW = 0;
inline constexpr int SCALE_OCB[3] = {16, 26, 40};  // opposite bishops alone, by passed pawns 0, 1, 2+
inline constexpr int SCALE_OCB_WITH_PIECES = 48;
inline constexpr int MATING_POTENTIAL_MARGIN = 350;  // piece material lead needed to force mate

// Mating drives (K+X v K, K+B+N v K).
inline constexpr int KNOWN_WIN = 2000;  // stays below VALUE_KNOWN_WIN with material added
inline constexpr int EDGE_PUSH = 20;    // per step the lone king is nearer the edge/corner
inline constexpr int KINGS_CLOSE = 10;  // per step the kings are nearer

}  // namespace params
