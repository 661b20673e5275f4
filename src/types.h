// Basic chess types shared by every part of the engine.
#pragma once

#include <cassert>
#include <cstdint>

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

enum Color : int { WHITE, BLACK, COLOR_NB = 2 };

constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Piece types start at 1 so that index 0 of a by-type array can hold "all pieces".
enum PieceType : int { NO_PIECE_TYPE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB = 7 };

// A piece is colour * 8 + type: the colour is bit 3, the type the low three bits.
enum Piece : int {
    NO_PIECE,
    W_PAWN = 1,
    W_KNIGHT,
    W_BISHOP,
    W_ROOK,
    W_QUEEN,
    W_KING,
    B_PAWN = 9,
    B_KNIGHT,
    B_BISHOP,
    B_ROOK,
    B_QUEEN,
    B_KING,
    PIECE_NB = 16
};

constexpr Piece makePiece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr PieceType typeOf(Piece p) { return PieceType(p & 7); }
constexpr Color colorOf(Piece p) { return Color(p >> 3); }

// Squares: a1 = 0, b1 = 1, ..., h8 = 63.
enum Square : int {
    SQ_A1,
    SQ_B1,
    SQ_C1,
    SQ_D1,
    SQ_E1,
    SQ_F1,
    SQ_G1,
    SQ_H1,
    SQ_A2,
    SQ_B2,
    SQ_C2,
    SQ_D2,
    SQ_E2,
    SQ_F2,
    SQ_G2,
    SQ_H2,
    SQ_A3,
    SQ_B3,
    SQ_C3,
    SQ_D3,
    SQ_E3,
    SQ_F3,
    SQ_G3,
    SQ_H3,
    SQ_A4,
    SQ_B4,
    SQ_C4,
    SQ_D4,
    SQ_E4,
    SQ_F4,
    SQ_G4,
    SQ_H4,
    SQ_A5,
    SQ_B5,
    SQ_C5,
    SQ_D5,
    SQ_E5,
    SQ_F5,
    SQ_G5,
    SQ_H5,
    SQ_A6,
    SQ_B6,
    SQ_C6,
    SQ_D6,
    SQ_E6,
    SQ_F6,
    SQ_G6,
    SQ_H6,
    SQ_A7,
    SQ_B7,
    SQ_C7,
    SQ_D7,
    SQ_E7,
    SQ_F7,
    SQ_G7,
    SQ_H7,
    SQ_A8,
    SQ_B8,
    SQ_C8,
    SQ_D8,
    SQ_E8,
    SQ_F8,
    SQ_G8,
    SQ_H8,
    SQ_NONE,
    SQUARE_NB = 64
};

enum Direction : int {
    NORTH = 8,
    EAST = 1,
    SOUTH = -8,
    WEST = -1,
    NORTH_EAST = 9,
    NORTH_WEST = 7,
    SOUTH_EAST = -7,
    SOUTH_WEST = -9
};

constexpr Square operator+(Square s, Direction d) { return Square(int(s) + int(d)); }
constexpr Square operator-(Square s, Direction d) { return Square(int(s) - int(d)); }
inline Square& operator++(Square& s) { return s = Square(int(s) + 1); }

constexpr int fileOf(Square s) { return s & 7; }
constexpr int rankOf(Square s) { return s >> 3; }
constexpr Square makeSquare(int file, int rank) { return Square(rank * 8 + file); }
constexpr bool isOk(Square s) { return s >= SQ_A1 && s <= SQ_H8; }
// Mirror vertically: the same square seen from the other side.
constexpr Square flipRank(Square s) { return Square(s ^ 56); }
// Mirror horizontally: the a-file becomes the h-file.
constexpr Square flipFile(Square s) { return Square(s ^ 7); }
constexpr Square relativeSquare(Color c, Square s) { return Square(s ^ (c * 56)); }
constexpr int relativeRank(Color c, Square s) { return c == WHITE ? rankOf(s) : 7 - rankOf(s); }
constexpr int relativeRank(Color c, int rank) { return c == WHITE ? rank : 7 - rank; }
// Where castling takes the king and the rook, in standard chess and Chess960 alike: the king to
// the g- or c-file, the rook beside it towards the centre (FIDE Laws 3.8.2, Chess960 rule 3).
constexpr Square castlingKingTo(Color c, bool kingSide) { return relativeSquare(c, kingSide ? SQ_G1 : SQ_C1); }
constexpr Square castlingRookTo(Color c, bool kingSide) { return relativeSquare(c, kingSide ? SQ_F1 : SQ_D1); }
constexpr Direction pawnPush(Color c) { return c == WHITE ? NORTH : SOUTH; }
// Light squares are those with odd file + rank (h1 is light, a1 dark).
constexpr bool isLightSquare(Square s) { return ((fileOf(s) + rankOf(s)) & 1) != 0; }

// Castling rights, one bit each.
enum CastlingRights : int {
    NO_CASTLING = 0,
    WHITE_OO = 1,
    WHITE_OOO = 2,
    BLACK_OO = 4,
    BLACK_OOO = 8,
    KING_SIDE = WHITE_OO | BLACK_OO,
    QUEEN_SIDE = WHITE_OOO | BLACK_OOO,
    WHITE_CASTLING = WHITE_OO | WHITE_OOO,
    BLACK_CASTLING = BLACK_OO | BLACK_OOO,
    ANY_CASTLING = 15,
    CASTLING_RIGHT_NB = 16
};

// A move in 16 bits: from (6), to (6), promotion piece - KNIGHT (2), move type (2).
// Castling is encoded as "king takes own rook", which serves standard chess and Chess960 alike.
enum MoveType : int { NORMAL = 0, PROMOTION = 1 << 14, EN_PASSANT = 2 << 14, CASTLING = 3 << 14 };

enum Move : std::uint16_t { MOVE_NONE = 0, MOVE_NULL = 65 };

constexpr Square fromSq(Move m) { return Square(m & 63); }
constexpr Square toSq(Move m) { return Square((m >> 6) & 63); }
constexpr MoveType typeOf(Move m) { return MoveType(m & (3 << 14)); }
constexpr PieceType promotionType(Move m) { return PieceType(((m >> 12) & 3) + KNIGHT); }
constexpr Move makeMove(Square from, Square to) { return Move(from | (to << 6)); }
template <MoveType T>
constexpr Move makeMove(Square from, Square to, PieceType promo = KNIGHT) {
    assert(isOk(from) && isOk(to) && promo >= KNIGHT && promo <= QUEEN);
    return Move(T | ((promo - KNIGHT) << 12) | (to << 6) | from);
}
constexpr bool isOk(Move m) { return fromSq(m) != toSq(m); }

// Search values. A mate found `ply` plies from the root is worth MATE - ply.
using Value = int;
constexpr Value VALUE_ZERO = 0;
constexpr Value VALUE_DRAW = 0;
constexpr Value VALUE_MATE = 32000;
constexpr Value VALUE_INFINITE = 32001;
constexpr Value VALUE_NONE = 32002;
constexpr int MAX_PLY = 246;
constexpr Value VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY;
constexpr Value VALUE_MATED_IN_MAX_PLY = -VALUE_MATE_IN_MAX_PLY;
// The evaluation never reaches this, so scores above it are mates.
constexpr Value VALUE_KNOWN_WIN = 10000;
// Tablebase wins and losses (syzygy.h): just below the mate range and by ply, so that the nearer
// table win scores higher and no table result reads as a mate.
constexpr Value VALUE_TB_WIN = VALUE_MATE_IN_MAX_PLY - 1;
constexpr Value VALUE_TB_WIN_IN_MAX_PLY = VALUE_TB_WIN - MAX_PLY;

constexpr Value mateIn(int ply) { return VALUE_MATE - ply; }
constexpr Value matedIn(int ply) { return -VALUE_MATE + ply; }
constexpr bool isMateScore(Value v) { return v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY; }

// Plain piece values for the questions that need no evaluation: exchanges (SEE), capture order,
// futility, the mating-potential rules of the endgames, how far apart Skill's moves may be.
inline constexpr int SIMPLE_VALUE[PIECE_TYPE_NB] = {0, 100, 325, 325, 500, 975, 0};

// An evaluation term with a middlegame and an endgame part packed in one integer, so that
// terms add up with one instruction; the game phase blends them at the end.
enum Score : int { SCORE_ZERO };

constexpr Score S(int mg, int eg) { return Score(int((unsigned)eg << 16) + mg); }
inline int egValue(Score s) {
    union {
        std::uint16_t u;
        std::int16_t s;
    } eg = {std::uint16_t(unsigned(s + 0x8000) >> 16)};
    return eg.s;
}
inline int mgValue(Score s) {
    union {
        std::uint16_t u;
        std::int16_t s;
    } mg = {std::uint16_t(unsigned(s))};
    return mg.s;
}
constexpr Score operator+(Score a, Score b) { return Score(int(a) + int(b)); }
constexpr Score operator-(Score a, Score b) { return Score(int(a) - int(b)); }
constexpr Score operator-(Score a) { return Score(-int(a)); }
inline Score& operator+=(Score& a, Score b) { return a = a + b; }
inline Score& operator-=(Score& a, Score b) { return a = a - b; }
constexpr Score operator*(Score s, int i) { return Score(int(s) * i); }
constexpr Score operator*(int i, Score s) { return Score(int(s) * i); }
