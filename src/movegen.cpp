#include "movegen.h"

#include "simd/popcount.h"

namespace {

// Where generated moves go: written to a list, or only counted (perft's last ply counts whole
// target sets with one popcount instead of writing each move).
struct ListSink {
    Move* cur;
    void add(Move m) { *cur++ = m; }
    void targets(Square from, Bitboard b) {
        while (b) *cur++ = makeMove(from, popLsb(b));
    }
    template <Direction D>
    void pawnTargets(Bitboard b) {
        while (b) {
            Square to = popLsb(b);
            *cur++ = makeMove(to - D, to);
        }
    }
    template <Direction Up>
    void pawnPushes(Bitboard single, Bitboard twice) {
        pawnTargets<Up>(single);
        pawnTargets<Direction(Up + Up)>(twice);
    }
    template <Direction UpWest, Direction UpEast>
    void pawnCaptures(Bitboard west, Bitboard east) {
        pawnTargets<UpWest>(west);
        pawnTargets<UpEast>(east);
    }
    template <GenType T, Direction D>
    void promotions(Bitboard b) {
        while (b) {
            Square to = popLsb(b);
            if (T != QUIETS) *cur++ = makeMove<PROMOTION>(to - D, to, QUEEN);
            if (T != NOISY) {
                *cur++ = makeMove<PROMOTION>(to - D, to, ROOK);
                *cur++ = makeMove<PROMOTION>(to - D, to, BISHOP);
                *cur++ = makeMove<PROMOTION>(to - D, to, KNIGHT);
            }
        }
    }
};

// Counts instead: one move a bit of each target set, the sets summed by simd/popcount.h (in
// the generic build, which has no POPCNT, all together with SSE2). A side has at most 16 pieces: the
// king's set, and at most 14 other pieces' sets and 2 of pawns (15 when no pawn is left).
struct CountSink {
    int n = 0;  // moves counted one by one: castling, en passant, promotions
    simd::BitCountSum<17> sets;
    void add(Move) { ++n; }
    void targets(Square, Bitboard b) { sets.add(b); }
    // Two sets for four: a square cannot be reached both by a single and by a double push (the
    // double push needs the square in front empty, where the single pusher would stand), and
    // pushes go to empty squares, captures to occupied ones. Only the two capture directions
    // can share a square (two pawns attacking one piece). The generator always gives the
    // captures after the pushes, so the pushes wait for the first capture direction.
    Bitboard pushes = 0;
    template <Direction>
    void pawnPushes(Bitboard single, Bitboard twice) {
        pushes = single | twice;
    }
    template <Direction, Direction>
    void pawnCaptures(Bitboard west, Bitboard east) {
        sets.add(pushes | west);
        sets.add(east);
    }
    template <GenType T, Direction>
    void promotions(Bitboard b) {
        n += (T == LEGAL ? 4 : T == NOISY ? 1 : 3) * popcount(b);
    }
    int total() const { return n + sets.total(); }
};

template <Color Us, GenType T, typename Sink>
void generatePawnMoves(const Position& pos, Sink& sink, Bitboard checkMask, Bitboard pinned, Square ksq) {
    constexpr Color Them = ~Us;
    constexpr Direction Up = Us == WHITE ? NORTH : SOUTH;
    constexpr Direction UpWest = Us == WHITE ? NORTH_WEST : SOUTH_WEST;
    constexpr Direction UpEast = Us == WHITE ? NORTH_EAST : SOUTH_EAST;
    constexpr Bitboard Rank7 = rankBB(relativeRank(Us, 6));
    constexpr Bitboard Rank3 = rankBB(relativeRank(Us, 2));

    const Bitboard emptySquares = ~pos.pieces();
    const Bitboard enemies = pos.pieces(Them) & checkMask;
    const Bitboard pawns = pos.pieces(Us, PAWN);
    // Pinned pawns move only along their pin line; pawns pinned on a rank cannot move at all.
    const Bitboard freePawns = pawns & ~pinned;
    const Bitboard filePinned = pawns & pinned & fileBB(ksq);
    const Bitboard diagPinned = pawns & pinned & ~fileBB(ksq) & ~rankBB(ksq);
    // Most positions have no pawn on the seventh rank: skipping the promotions then saves perft's
    // last ply three bit counts, each a dozen instructions in the generic build (no POPCNT).
    const bool promoting = pawns & Rank7;

    // Pushes: free pawns, and pawns pinned on the king's file. Both calls to the sink come
    // always, with empty sets for the kind of move not generated (see CountSink).
    constexpr Bitboard Quiet = T != NOISY ? ~Bitboard(0) : 0, Noisy = T != QUIETS ? ~Bitboard(0) : 0;
    {
        Bitboard pushers = (freePawns | filePinned) & ~Rank7;
        Bitboard single = shift<Up>(pushers) & emptySquares;
        Bitboard twice = shift<Up>(single & Rank3) & emptySquares;
        sink.template pawnPushes<Up>(single & checkMask & Quiet, twice & checkMask & Quiet);
        if (promoting) {
            Bitboard promoPushers = (freePawns | filePinned) & Rank7;
            sink.template promotions<T, Up>(shift<Up>(promoPushers) & emptySquares & checkMask);
        }
    }

    // Captures: free pawns anywhere, diagonally pinned pawns only along their pin line.
    {
        Bitboard westCapturers = freePawns, eastCapturers = freePawns;
        for (Bitboard b = diagPinned; b;) {
            Square s = popLsb(b);
            Bitboard pinLine = lineBB(ksq, s);
            if (shift<UpWest>(squareBB(s)) & pinLine) westCapturers |= squareBB(s);
            if (shift<UpEast>(squareBB(s)) & pinLine) eastCapturers |= squareBB(s);
        }
        Bitboard west = shift<UpWest>(westCapturers) & enemies;
        Bitboard east = shift<UpEast>(eastCapturers) & enemies;
        constexpr Bitboard Rank8 = rankBB(relativeRank(Us, 7));
        sink.template pawnCaptures<UpWest, UpEast>(west & ~Rank8 & Noisy, east & ~Rank8 & Noisy);
        if (promoting) {
            sink.template promotions<T, UpWest>(west & Rank8);
            sink.template promotions<T, UpEast>(east & Rank8);
        }

        // En passant: rare, so every candidate is checked by removing both pawns from the board.
        Square ep = pos.epSquare();
        if (T != QUIETS && ep != SQ_NONE) {
            Square capSq = ep - Up;
            for (Bitboard b = pawnAttacks(Them, ep) & pawns; b;) {
                Square from = popLsb(b);
                Bitboard occ = (pos.pieces() ^ squareBB(from) ^ squareBB(capSq)) | squareBB(ep);
                if (!(pos.attackersTo(ksq, occ) & pos.pieces(Them) & ~squareBB(capSq)))
                    sink.add(makeMove<EN_PASSANT>(from, ep));
            }
        }
    }
}

template <Color Us, PieceType Pt, typename Sink>
void generatePieceMoves(const Position& pos, Sink& sink, Bitboard targets, Bitboard pinned, Square ksq) {
    Bitboard pieces = pos.pieces(Us, Pt);
    if (Pt == KNIGHT) pieces &= ~pinned;  // a pinned knight can never move
    for (Bitboard b = pieces & ~pinned; b;) {
        Square from = popLsb(b);
        sink.targets(from, attacksBB(Pt, from, pos.pieces()) & targets);
    }
    for (Bitboard b = pieces & pinned; b;) {
        Square from = popLsb(b);
        sink.targets(from, attacksBB(Pt, from, pos.pieces()) & targets & lineBB(ksq, from));
    }
}

// Whether the king crosses only safe squares castling with the rook on rookFrom. Attacks are seen
// with both castling pieces lifted: in Chess960 the rook may shield the king's destination. Out
// of line: inlined, the generator compiles worse for every position.
[[gnu::noinline]] bool castlingPathIsSafe(const Position& pos, Color us, Square ksq, Square rookFrom, Square kingTo) {
    const Bitboard lifted = pos.pieces() ^ squareBB(ksq) ^ squareBB(rookFrom);
    for (Bitboard path = betweenBB(ksq, kingTo) | squareBB(kingTo); path;)
        if (pos.isAttacked(popLsb(path), ~us, lifted)) return false;
    return true;
}

template <Color Us, GenType T, typename Sink>
void generateAll(const Position& pos, Sink& sink) {
    constexpr Color Them = ~Us;
    const Square ksq = pos.kingSquare(Us);
    const Bitboard checkers = pos.checkers();
    const Bitboard occ = pos.pieces();
    const Bitboard kingTargetsAll = T == NOISY ? pos.pieces(Them) : T == QUIETS ? ~occ : ~pos.pieces(Us);

    sink.targets(ksq, pos.kingFlightSquares(Us, kingTargetsAll));
    if (moreThanOne(checkers)) return;

    const Bitboard checkMask = checkers ? betweenBB(ksq, lsb(checkers)) | checkers : ~Bitboard(0);
    const Bitboard pinned = pos.pinned();
    const Bitboard targets = kingTargetsAll & checkMask;

    generatePawnMoves<Us, T>(pos, sink, checkMask, pinned, ksq);
    generatePieceMoves<Us, KNIGHT>(pos, sink, targets, pinned, ksq);
    generatePieceMoves<Us, BISHOP>(pos, sink, targets, pinned, ksq);
    generatePieceMoves<Us, ROOK>(pos, sink, targets, pinned, ksq);
    generatePieceMoves<Us, QUEEN>(pos, sink, targets, pinned, ksq);

    if (T != NOISY && !checkers && (pos.castlingRights() & (Us == WHITE ? WHITE_CASTLING : BLACK_CASTLING))) {
        for (int cr : {Us == WHITE ? WHITE_OO : BLACK_OO, Us == WHITE ? WHITE_OOO : BLACK_OOO}) {
            if (!pos.canCastle(cr) || (pos.castlingPath(cr) & occ)) continue;
            Square rookFrom = pos.castlingRookSquare(cr);
            if (castlingPathIsSafe(pos, Us, ksq, rookFrom, castlingKingTo(Us, cr & KING_SIDE)))
                sink.add(makeMove<CASTLING>(ksq, rookFrom));
        }
    }
}

}  // namespace

template <GenType T>
Move* generate(const Position& pos, Move* list) {
    ListSink sink{list};
    if (pos.sideToMove() == WHITE) generateAll<WHITE, T>(pos, sink);
    else generateAll<BLACK, T>(pos, sink);
    return sink.cur;
}

template Move* generate<NOISY>(const Position&, Move*);
template Move* generate<QUIETS>(const Position&, Move*);
template Move* generate<LEGAL>(const Position&, Move*);

int countLegalMoves(const Position& pos) {
    CountSink sink;
    if (pos.sideToMove() == WHITE) generateAll<WHITE, LEGAL>(pos, sink);
    else generateAll<BLACK, LEGAL>(pos, sink);
    return sink.total();
}
