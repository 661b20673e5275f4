#include "eval/kpk.h"

#include <vector>

#include "attacks.h"

namespace kpk {

namespace {

// Index: side to move (1 bit), white king (6), black king (6), pawn file a-d (2), pawn rank 2-7.
constexpr int SIZE = 2 * 64 * 64 * 24;
std::vector<bool> winning;  // one bit per position: white (with the pawn) wins

int index(Color stm, Square wk, Square bk, Square pawn) {
    int pawnIndex = fileOf(pawn) * 6 + (rankOf(pawn) - 1);
    return ((int(stm) * 64 + wk) * 64 + bk) * 24 + pawnIndex;
}

enum Result : unsigned char { INVALID, UNKNOWN, DRAW, WIN };

// After a promotion on `promo` (black to move): a win unless black takes the new piece or has no
// move (stalemate), trying the queen and, for the stalemate case, the rook.
bool promotionWins(Square wk, Square bk, Square promo) {
    Bitboard occupied = squareBB(wk) | squareBB(promo);
    for (PieceType pt : {QUEEN, ROOK}) {
        Bitboard pieceAttacks = attacksBB(pt, promo, occupied ^ squareBB(bk));
        Bitboard whiteControl = pieceAttacks | kingAttacks(wk);
        bool canTake = (kingAttacks(bk) & squareBB(promo)) && !(kingAttacks(wk) & squareBB(promo));
        if (canTake) continue;
        Bitboard escapes = kingAttacks(bk) & ~whiteControl;
        bool inCheck = (attacksBB(pt, promo, occupied) & squareBB(bk)) != 0;
        if (escapes || inCheck) return true;  // black can move (and cannot draw at once) or is mated
    }
    return false;
}

Result initial(Color stm, Square wk, Square bk, Square pawn) {
    if (wk == bk || wk == pawn || bk == pawn || distance(wk, bk) <= 1) return INVALID;
    // The side not to move may not be in check: only the pawn can check.
    if (stm == WHITE && (pawnAttacks(WHITE, pawn) & squareBB(bk))) return INVALID;
    if (stm == WHITE && rankOf(pawn) == 6) {
        Square promo = pawn + NORTH;
        if (promo != wk && promo != bk && promotionWins(wk, bk, promo)) return WIN;
    }
    if (stm == BLACK) {
        // King moves, including taking the pawn when the white king does not guard it.
        Bitboard moves = kingAttacks(bk) & ~(kingAttacks(wk) | pawnAttacks(WHITE, pawn));
        if (!moves) return (pawnAttacks(WHITE, pawn) & squareBB(bk)) ? WIN : DRAW;  // mate or stalemate
        if (moves & squareBB(pawn)) return DRAW;                                    // K v K
    }
    return UNKNOWN;
}

}  // namespace

void init() {
    if (!winning.empty()) return;
    std::vector<Result> db(SIZE, INVALID);
    std::vector<Square> pawns;
    for (int f = 0; f < 4; ++f)
        for (int r = 1; r < 7; ++r) pawns.push_back(makeSquare(f, r));

    for (Color stm : {WHITE, BLACK})
        for (Square wk = SQ_A1; wk <= SQ_H8; ++wk)
            for (Square bk = SQ_A1; bk <= SQ_H8; ++bk)
                for (Square p : pawns) db[index(stm, wk, bk, p)] = initial(stm, wk, bk, p);

    // Repeated classification until nothing changes: white to move wins if some move reaches a
    // win; black to move is a draw if some move reaches a draw.
    for (bool changed = true; changed;) {
        changed = false;
        for (Color stm : {WHITE, BLACK})
            for (Square wk = SQ_A1; wk <= SQ_H8; ++wk)
                for (Square bk = SQ_A1; bk <= SQ_H8; ++bk)
                    for (Square p : pawns) {
                        Result& r = db[index(stm, wk, bk, p)];
                        if (r != UNKNOWN) continue;
                        bool anyGood = false, allBad = true;  // good = win for white, draw for black
                        auto look = [&](Result next) {
                            if (next == INVALID) return;
                            bool good = stm == WHITE ? next == WIN : next == DRAW;
                            bool bad = stm == WHITE ? next == DRAW : next == WIN;
                            anyGood |= good;
                            allBad &= bad;
                        };
                        if (stm == WHITE) {
                            for (Bitboard b = kingAttacks(wk) & ~squareBB(p); b;) {
                                Square to = popLsb(b);
                                if (distance(to, bk) > 1) look(db[index(BLACK, to, bk, p)]);
                            }
                            Square push = p + NORTH;
                            if (rankOf(p) < 6 && push != wk && push != bk) {
                                look(db[index(BLACK, wk, bk, push)]);
                                Square twice = push + NORTH;
                                if (rankOf(p) == 1 && twice != wk && twice != bk) look(db[index(BLACK, wk, bk, twice)]);
                            }
                        } else {
                            Bitboard whiteControl = kingAttacks(wk) | pawnAttacks(WHITE, p);
                            for (Bitboard b = kingAttacks(bk) & ~whiteControl & ~squareBB(p); b;)
                                look(db[index(WHITE, wk, popLsb(b), p)]);
                        }
                        if (anyGood) r = stm == WHITE ? WIN : DRAW, changed = true;
                        else if (allBad) r = stm == WHITE ? DRAW : WIN, changed = true;
                    }
    }

    winning.assign(SIZE, false);
    for (int i = 0; i < SIZE; ++i) winning[i] = db[i] == WIN;
}

bool probe(Square strongKing, Square pawn, Square weakKing, Color strong, Color stm) {
    if (strong == BLACK) {
        strongKing = flipRank(strongKing);
        pawn = flipRank(pawn);
        weakKing = flipRank(weakKing);
    }
    if (fileOf(pawn) > 3) {  // mirror to files a-d
        strongKing = Square(strongKing ^ 7);
        pawn = Square(pawn ^ 7);
        weakKing = Square(weakKing ^ 7);
    }
    Color relativeStm = stm == strong ? WHITE : BLACK;
    return winning[index(relativeStm, strongKing, weakKing, pawn)];
}

}  // namespace kpk
