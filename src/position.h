// The board: piece placement, side to move, castling, en passant, clocks, and everything that
// make/unmake keep incrementally (Zobrist keys, per-type piece counters, the material index).
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "attacks.h"
#include "types.h"

// The material index: a mixed-radix number over the piece counts of both sides, with bishops
// split by square colour so that same- and opposite-coloured bishop endings are distinct
// configurations. Each make/unmake adds or subtracts a precomputed weight, so the evaluation can
// read a plain array (src/eval/material.h) without hashing. Counts beyond a slot's range (a third
// knight, a second queen after a promotion) are tracked as an overflow and map to OVERFLOW_INDEX.
namespace materialindex {

enum Slot : int { PAWNS, KNIGHTS, LIGHT_BISHOPS, DARK_BISHOPS, ROOKS, QUEENS, SLOT_NB };

constexpr int maxCount[SLOT_NB] = {8, 2, 1, 1, 2, 1};

// weight[colour][slot]: how much one more piece in that slot moves the index. A table, not a
// function: make/unmake ask with a slot known only at run time, where a loop would cost a capture
// some fifty instructions.
constexpr auto weight = [] {
    std::array<std::array<int, SLOT_NB>, COLOR_NB> w{};
    int product = 1;
    for (int c = 0; c < COLOR_NB; ++c)
        for (int slot = 0; slot < SLOT_NB; ++slot) {
            w[c][slot] = product;
            product *= maxCount[slot] + 1;
        }
    return w;
}();
constexpr int SIZE = weight[BLACK][QUEENS] * (maxCount[QUEENS] + 1);  // number of in-range configurations
constexpr int OVERFLOW_INDEX = SIZE;                                  // one entry past the last: "compute it slowly"

inline Slot slotOf(PieceType pt, Square s) {
    return pt == BISHOP ? (isLightSquare(s) ? LIGHT_BISHOPS : DARK_BISHOPS)
                        : Slot(pt == PAWN     ? PAWNS
                               : pt == KNIGHT ? KNIGHTS
                               : pt == ROOK   ? ROOKS
                                              : QUEENS);
}

}  // namespace materialindex

// What a move changed on the board, filled where the move is made (Stockfish's DirtyPiece) and
// read by the network's accumulators: the pieces taken off and put on, two of each at most
// (castling: the king and the rook; a capture: the mover and the captured piece, en passant's
// beside the target square; a promotion puts on another piece than it takes off).
struct DirtyPieces {
    struct Placement {
        Piece piece;
        Square square;
    };
    Placement added[2], removed[2];
    int addedCount = 0, removedCount = 0;
};

// What make/unmake must restore: one entry per ply on the position's state stack.
struct StateInfo {
    Key key;
    Key pawnKey;
    Key materialKey;
    int materialIndex;
    int materialOverflow;  // number of slots whose count is beyond the index's range
    int castlingRights;
    int rule50;
    int pliesFromNull;
    Square epSquare;
    // The fields above are carried over to the next position (see Next below), the rest is set
    // afresh by every move.
    Piece captured;
    Bitboard checkers;
    // Check information, once per position (Stockfish's set_check_info): the pieces of either
    // colour that alone shield each king from a slider, and the squares from which each piece
    // type of the side to move would check the other king. The side to move's blockers (its
    // pins) are set by every move, for move generation and legality; the rest, which only
    // givesCheck reads, on its first call in the position (perft never asks for it).
    Bitboard kingBlockers[COLOR_NB];
    Bitboard checkSquares[PIECE_TYPE_NB];
    bool checkInfoComplete;

    StateInfo() = default;
    // The next position's entry: a copy of what a move carries over (the keys, the material
    // index, the rights and clocks, the en passant square); the move sets the rest.
    struct Next {};
    StateInfo(const StateInfo& previous, Next) { std::memcpy(this, &previous, offsetof(StateInfo, captured)); }
};
static_assert(std::is_trivially_copyable_v<StateInfo>, "StateInfo is copied with memcpy");

class Position {
public:
    static void init();  // Zobrist tables; attacks::init() must have run

    Position();

    // Sets the position from a FEN (or EPD's first four fields); on error returns a message that
    // names the problem and leaves the position unchanged. An empty string means success.
    std::string setFen(const std::string& fen);
    std::string fen() const;
    void setChess960(bool on) { chess960 = on; }
    bool isChess960() const { return chess960; }

    // Board
    Bitboard pieces() const { return byType[NO_PIECE_TYPE]; }
    Bitboard pieces(PieceType pt) const { return byType[pt]; }
    Bitboard pieces(PieceType a, PieceType b) const { return byType[a] | byType[b]; }
    Bitboard pieces(Color c) const { return byColor[c]; }
    Bitboard pieces(Color c, PieceType pt) const { return byColor[c] & byType[pt]; }
    Bitboard pieces(Color c, PieceType a, PieceType b) const { return byColor[c] & (byType[a] | byType[b]); }
    Piece pieceOn(Square s) const { return board[s]; }
    bool empty(Square s) const { return board[s] == NO_PIECE; }
    Square kingSquare(Color c) const { return lsb(pieces(c, KING)); }
    Color sideToMove() const { return side; }
    int count(Color c, PieceType pt) const { return pieceCount[c][pt]; }
    int lightBishops(Color c) const { return lightBishopCount[c]; }
    int gamePly() const { return ply; }

    // State
    Key key() const { return st->key; }
    // The key after `m` (or a null move), before it is made, so that the table's bucket can be
    // fetched while the move is made (Stockfish's key_after). Exact for a null move and for a
    // quiet move or capture that neither changes a castling right nor makes an en passant square;
    // castling, promotions, en passant captures, double pushes and moves that lose a right come
    // out inexact: a wasted fetch at worst.
    Key keyAfter(Move m) const;
    Key pawnKey() const { return st->pawnKey; }
    Key materialKey() const { return st->materialKey; }
    // The dense material index, or OVERFLOW_INDEX when some count is out of the table's range.
    int materialIndex() const { return st->materialOverflow ? materialindex::OVERFLOW_INDEX : st->materialIndex; }
    Bitboard checkers() const { return st->checkers; }
    // Our pieces that may not leave the line to our king: the pinned ones.
    Bitboard pinned() const { return st->kingBlockers[side] & pieces(side); }
    bool inCheck() const { return st->checkers != 0; }
    Piece capturedPiece() const { return st->captured; }  // by the last move, NO_PIECE if none
    int castlingRights() const { return st->castlingRights; }
    bool canCastle(int cr) const { return st->castlingRights & cr; }
    Square castlingRookSquare(int cr) const { return castlingRookSq[cr]; }
    // Squares that must be empty (besides the castling king and rook) for this castling.
    Bitboard castlingPath(int cr) const { return castlingPathBB[cr]; }
    Square epSquare() const { return st->epSquare; }
    int rule50() const { return st->rule50; }

    // Attacks
    Bitboard attackersTo(Square s, Bitboard occupied) const;
    Bitboard attackersTo(Square s) const { return attackersTo(s, pieces()); }
    // Squares among `candidates` the king of colour c could step to: not held by its own
    // pieces, not attacked once the king has left its square.
    Bitboard kingFlightSquares(Color c, Bitboard candidates = ~Bitboard(0)) const;
    // Whether a piece of colour `by` attacks square s, its sliders seeing through `occupied`:
    // the leapers by table, and a slider lookup only when a slider of `by` stands on one of the
    // square's lines (for the squares a king steps or castles to, often none does).
    bool isAttacked(Square s, Color by, Bitboard occupied) const {
        const Bitboard leapers = (pawnAttacks(~by, s) & pieces(by, PAWN)) | (knightAttacks(s) & pieces(by, KNIGHT)) |
                                 (kingAttacks(s) & pieces(by, KING));
        return leapers || isAttackedBySlider(s, by, occupied);
    }
    bool isAttackedBySlider(Square s, Color by, Bitboard occupied) const {
        const Bitboard rooks = pieces(by, ROOK, QUEEN), bishops = pieces(by, BISHOP, QUEEN);
        return ((emptyBoardAttacks(ROOK, s) & rooks) && (rookAttacks(s, occupied) & rooks)) ||
               ((emptyBoardAttacks(BISHOP, s) & bishops) && (bishopAttacks(s, occupied) & bishops));
    }
    // Pieces of either colour that alone stand between a slider of `sliders` and square s.
    Bitboard blockersFor(Square s, Bitboard sliders, Bitboard* pinners = nullptr) const;

    // Moves
    // `givesCheck`, when the caller already knows it, saves looking for checkers after a quiet one.
    void makeMove(Move m) { makeMove(m, givesCheck(m)); }
    void makeMove(Move m, bool givesCheck);
    // The same, recording what the move changed in `dirty` (the search, with a network).
    void makeMove(Move m, bool givesCheck, DirtyPieces& dirty);
    void unmakeMove(Move m);
    void makeNullMove();
    void unmakeNullMove();
    bool isPseudoLegal(Move m) const;  // safe on any 16-bit value, e.g. a TT move from a race
    bool isLegal(Move m) const;        // for a pseudo-legal move
    // A normal move, most of them, checks directly with one AND and by discovery with two more.
    bool givesCheck(Move m) const {
        if (typeOf(m) != NORMAL) return specialMoveGivesCheck(m);
        const StateInfo& ci = checkInfo();
        const Square from = fromSq(m), to = toSq(m);
        return (ci.checkSquares[typeOf(board[from])] & squareBB(to)) || discoversCheck(from, to);
    }
    bool isCapture(Move m) const { return (!empty(toSq(m)) && typeOf(m) != CASTLING) || typeOf(m) == EN_PASSANT; }
    bool isCaptureOrPromotion(Move m) const { return isCapture(m) || typeOf(m) == PROMOTION; }
    Piece movedPiece(Move m) const { return board[fromSq(m)]; }
    // The type of the piece a capture takes (NO_PIECE_TYPE for a quiet move or castling).
    PieceType capturedType(Move m) const {
        return typeOf(m) == EN_PASSANT ? PAWN : typeOf(m) == CASTLING ? NO_PIECE_TYPE : typeOf(board[toSq(m)]);
    }
    // Static exchange evaluation: does the move win at least `threshold`?
    bool seeGe(Move m, int threshold = 0) const;

    // Draws by rule: fifty moves, or a repetition (once inside the search tree, i.e. within
    // `plyFromRoot` plies, or twice counting the game history).
    bool isDraw(int plyFromRoot) const;
    // Some position since the last capture or pawn move has occurred twice (the root's tablebase
    // ranking then takes the shortest win, as a repeating winner could be drawn by a third time).
    bool hasRepeated() const;
    // FIDE 5.2b dead positions: no sequence of legal moves can mate.
    bool isDeadPosition() const;
    bool hasNonPawnMaterial(Color c) const { return pieces(c) != pieces(c, KING, PAWN); }

    // Notation
    std::string moveToUci(Move m) const;
    Move parseUciMove(const std::string& text) const;  // MOVE_NONE unless legal here

    // Debugging
    std::string pretty() const;
    // Recomputes every incremental value from scratch; returns "" when all match, else what differs.
    std::string verify() const;
    void assertConsistent(const char* where, Move m) const;  // verify() where assertions are on

private:
    struct Blank {};
    explicit Position(Blank) { clear(); }
    void clear();
    void putPiece(Piece pc, Square s);
    void removePiece(Square s);
    void movePiece(Square from, Square to);
    void addMaterial(Color c, materialindex::Slot slot);
    void removeMaterial(Color c, materialindex::Slot slot);
    int slotCount(Color c, materialindex::Slot slot) const;
    void setCastlingRight(Color c, Square rookSq);
    void castle(bool doIt, Color us, Square kingFrom, Square rookFrom, Square& kingTo, Square& rookTo);
    template <bool Record>
    void doMove(Move m, bool givesCheck, DirtyPieces* dirty);
    bool epCapturePossible(Square epSq, Color capturer) const;
    void computeState(StateInfo& s) const;
    void setPins(StateInfo& s) const;
    void completeCheckInfo(StateInfo& s) const;
    bool specialMoveGivesCheck(Move m) const;  // promotion, en passant or castling
    // Whether a piece leaving `from` for `to` uncovers a slider of ours on the enemy king.
    bool discoversCheck(Square from, Square to) const {
        return (checkInfo().kingBlockers[~side] & squareBB(from)) && !aligned(from, to, kingSquare(~side));
    }
    const StateInfo& checkInfo() const {
        if (!st->checkInfoComplete) completeCheckInfo(*st);
        return *st;
    }
    std::string validate() const;

    Bitboard byType[PIECE_TYPE_NB];
    Bitboard byColor[COLOR_NB];
    Piece board[SQUARE_NB];
    int pieceCount[COLOR_NB][PIECE_TYPE_NB];
    int lightBishopCount[COLOR_NB];
    Color side;
    int ply;  // game ply: 0 at the start position
    bool chess960;
    int castlingRightsMask[SQUARE_NB];
    Square castlingRookSq[CASTLING_RIGHT_NB];
    Bitboard castlingPathBB[CASTLING_RIGHT_NB];
    std::vector<StateInfo> history;
    StateInfo* st;

public:
    Position(const Position& other) { *this = other; }
    Position& operator=(const Position& other);
};

extern const char* const START_FEN;
// The largest halfmove clock and fullmove number a FEN may give: far beyond any game, with room
// for the moves played after it before a count could overflow.
constexpr int MAX_CLOCK_FIELD = 1 << 29;
