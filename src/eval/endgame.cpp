#include "eval/endgame.h"

#include <algorithm>

#include "eval/evalparams.h"
#include "eval/kpk.h"

namespace endgame {

namespace {

using namespace params;

// 0 in the four centre squares, 6 in the corners.
int centreDistance(Square s) {
    int f = fileOf(s), r = rankOf(s);
    return std::max(3 - f, f - 4) + std::max(3 - r, r - 4);
}

int nonPawnValue(const Position& pos, Color c) {
    int v = 0;
    for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) v += SIMPLE_VALUE[pt] * pos.count(c, pt);
    return v;
}

// Mating material against a bare king: drive the king to the edge and bring our king close.
Value evaluateKXK(Color strong, const Position& pos) {
    Square winnerKing = pos.kingSquare(strong), loserKing = pos.kingSquare(~strong);
    return KNOWN_WIN + nonPawnValue(pos, strong) + SIMPLE_VALUE[PAWN] * pos.count(strong, PAWN) +
           EDGE_PUSH * centreDistance(loserKing) + KINGS_CLOSE * (7 - distance(winnerKing, loserKing));
}

// Bishop and knight: only a corner of the bishop's colour can hold the mate.
Value evaluateKBNK(Color strong, const Position& pos) {
    Square winnerKing = pos.kingSquare(strong), loserKing = pos.kingSquare(~strong);
    bool lightBishop = pos.pieces(strong, BISHOP) & LIGHT_SQUARES;
    Square cornerA = lightBishop ? SQ_H1 : SQ_A1, cornerB = lightBishop ? SQ_A8 : SQ_H8;
    int cornerDistance = std::min(distance(loserKing, cornerA), distance(loserKing, cornerB));
    return KNOWN_WIN + nonPawnValue(pos, strong) + EDGE_PUSH * centreDistance(loserKing) / 2 +
           3 * EDGE_PUSH * (7 - cornerDistance) + KINGS_CLOSE * (7 - distance(winnerKing, loserKing));
}

Value evaluateKPK(Color strong, const Position& pos) {
    Square pawn = lsb(pos.pieces(strong, PAWN));
    if (!kpk::probe(pos.kingSquare(strong), pawn, pos.kingSquare(~strong), strong, pos.sideToMove())) return VALUE_DRAW;
    return KNOWN_WIN + SIMPLE_VALUE[PAWN] + 10 * relativeRank(strong, pawn);
}

// Two pawns: one stands beside the defending king, unguarded, and falls before anything guards
// it; the other then does not win alone (the bitbase, our side to move). With their king to
// move it takes now. With ours to move it takes a move later, the pawn's push covered by that
// king and our king too far to guard it, whatever our move meanwhile: a step of our king or of
// the other pawn. Syzygy: the K+P+P v K draws of dev.epd that the two-files rule called won.
bool onePawnFalls(Color strong, const Position& pos) {
    Bitboard ours = pos.pieces(strong, PAWN);
    if (popcount(ours) != 2) return false;
    Square ourKing = pos.kingSquare(strong), theirKing = pos.kingSquare(~strong);
    Bitboard guarded = pawnAttacksBB(strong, ours) | kingAttacks(ourKing), covered = kingAttacks(theirKing);
    auto pushes = [&](Square s) {  // the squares a pawn can step to, the double step included
        Square one = s + pawnPush(strong), two = one + pawnPush(strong);
        if (!pos.empty(one)) return Bitboard(0);
        return squareBB(one) | (relativeRank(strong, s) == 1 && pos.empty(two) ? squareBB(two) : 0);
    };
    for (Square pawn : {lsb(ours), msb(ours)}) {
        Square other = lsb(ours ^ squareBB(pawn));
        if (!(covered & squareBB(pawn)) || (guarded & squareBB(pawn))) continue;
        if (pos.sideToMove() != strong) {
            if (!kpk::probe(ourKing, other, pawn, strong, strong)) return true;
            continue;
        }
        // It escapes or is guarded in time, or the other pawn queens.
        Bitboard otherPushes = pushes(other), ownPushes = pushes(pawn);
        if (distance(ourKing, pawn) <= 2 || (ownPushes & ~covered) || (ownPushes & pawnAttacksBB(strong, ours)) ||
            relativeRank(strong, other) == 6 || (pawnAttacksBB(strong, otherPushes) & squareBB(pawn)))
            continue;
        bool holds = false;
        for (Bitboard b = otherPushes; b && !holds;) holds = kpk::probe(ourKing, popLsb(b), pawn, strong, strong);
        for (Bitboard b = kingAttacks(ourKing) & ~covered & ~ours; b && !holds;)
            holds = kpk::probe(popLsb(b), other, pawn, strong, strong);
        if (!holds) return true;
    }
    return false;
}

// Pawns against a bare king: won if one pawn (the front one of its file) wins on its own by the
// bitbase, or pawns on two files the king cannot hold both of, unless one of two falls to it
// first; otherwise the king can blockade or take them.
Value evaluateKPSK(Color strong, const Position& pos) {
    Square winnerKing = pos.kingSquare(strong), loserKing = pos.kingSquare(~strong);
    Bitboard ours = pos.pieces(strong, PAWN);
    Bitboard front = ours & ~pawns::frontSpan(~strong, ours);  // no own pawn ahead on the file
    bool won = false;
    for (Bitboard b = front; b && !won;) won = kpk::probe(winnerKing, popLsb(b), loserKing, strong, pos.sideToMove());
    int advance = 0;
    for (Bitboard b = ours; b;) advance += relativeRank(strong, popLsb(b));
    bool twoFiles = popcount(fileFill(ours) & RANK_1_BB) >= 2;  // the king cannot hold both
    if (won || (twoFiles && !onePawnFalls(strong, pos)))
        return KNOWN_WIN + SIMPLE_VALUE[PAWN] * popcount(ours) + 10 * advance;
    return 20 * popcount(ours) + 2 * advance;
}

// Squares in front of a pawn up to and including its promotion square.
Bitboard pathOf(Color c, Square pawn) { return pawns::frontSpan(c, squareBB(pawn)); }

// Pawn against pawn: each side's chances by the bitbase as if the other pawn were not there,
// then the race: whoever queens first, and whether the winner's king is needed twice.
Value evaluateKPKP(const Position& pos) {
    Square pawn[COLOR_NB] = {lsb(pos.pieces(WHITE, PAWN)), lsb(pos.pieces(BLACK, PAWN))};
    // Pawns on the same or neighbouring files interact (block, capture): the bitbase says little
    // and the general evaluation decides. Once they have passed each other (White's at least as
    // far up the board as Black's) neither can take or stop the other: a race like any other.
    bool passedEachOther = rankOf(pawn[WHITE]) >= rankOf(pawn[BLACK]);
    if (fileDistance(pawn[WHITE], pawn[BLACK]) <= 1 && !passedEachOther) return VALUE_NONE;
    bool wins[COLOR_NB];
    for (Color c : {WHITE, BLACK})
        wins[c] = kpk::probe(pos.kingSquare(c), pawn[c], pos.kingSquare(~c), c, pos.sideToMove());
    if (!wins[WHITE] && !wins[BLACK]) return 0;
    int steps[COLOR_NB];  // moves to queen, the first double step counted, and a move for a king in the way
    for (Color c : {WHITE, BLACK})
        steps[c] = 7 - relativeRank(c, pawn[c]) - (relativeRank(c, pawn[c]) == 1) +
                   bool(pathOf(c, pawn[c]) & squareBB(pos.kingSquare(c)));
    // Tempi by which c's pawn queens before the other's.
    auto ahead = [&](Color c) { return steps[~c] - steps[c] + (pos.sideToMove() == c); };
    // A queen a move ahead wins when it arrives with check or covers the other queening square:
    // the other pawn, one step from queening, is then stopped.
    auto queensWithTempo = [&](Color c) {
        Bitboard lines = queenAttacks(pawns::promotionSquare(c, pawn[c]), pos.pieces() ^ squareBB(pawn[c]));
        Square otherPromo = pawns::promotionSquare(~c, pawn[~c]);
        return (lines & squareBB(pos.kingSquare(~c))) ||
               ((lines & squareBB(otherPromo)) && distance(pos.kingSquare(~c), otherPromo) > 1);
    };
    if (wins[WHITE] == wins[BLACK]) {
        int lead = ahead(WHITE);
        if (lead > 1 || (lead == 1 && queensWithTempo(WHITE))) return KNOWN_WIN / 2;
        if (lead < 0 || (lead == 0 && queensWithTempo(BLACK))) return -KNOWN_WIN / 2;
        return 0;
    }
    Color leader = wins[WHITE] ? WHITE : BLACK, trailer = ~leader;
    // The leader's pawn wins only with its king's escort (the other king stands inside the pawn's
    // square), and the other pawn queens no later: one king cannot both escort its pawn and stop
    // the other. Syzygy: 81 of 115 such positions drawn in dev.epd and two fresh samples
    // (docs/results/endgames.md).
    bool escortNeeded = distance(pos.kingSquare(trailer), pawns::promotionSquare(leader, pawn[leader])) -
                            (pos.sideToMove() == trailer) <=
                        steps[leader];
    Value v = escortNeeded && ahead(leader) <= 0 ? 0 : KNOWN_WIN / 2 + 10 * relativeRank(leader, pawn[leader]);
    return leader == WHITE ? v : -v;
}

// Rook against pawn: the rook wins if its king stands in front of the pawn or the defending king
// is too far to help; a far-advanced pawn next to its king, with the other king away, draws.
Value evaluateKRKP(Color strong, const Position& pos) {
    Color weak = ~strong;
    Square winnerKing = pos.kingSquare(strong), loserKing = pos.kingSquare(weak);
    Square rook = lsb(pos.pieces(strong, ROOK)), pawn = lsb(pos.pieces(weak, PAWN));
    Square stop = pawn + pawnPush(weak), promo = pawns::promotionSquare(weak, pawn);
    int weakTempo = pos.sideToMove() == weak, strongTempo = !weakTempo;

    if (pawns::frontSpan(weak, squareBB(pawn)) & squareBB(winnerKing))
        return SIMPLE_VALUE[ROOK] - distance(winnerKing, pawn);
    if (distance(loserKing, pawn) - weakTempo >= 3 && distance(loserKing, rook) >= 3)
        return SIMPLE_VALUE[ROOK] - distance(winnerKing, pawn);
    // The pawn, escorted by its king, outruns the other king: the rook must be given for it.
    int strongLag = distance(winnerKing, promo) - strongTempo - distance(pawn, promo);
    if (distance(loserKing, pawn) <= 2 && relativeRank(weak, pawn) >= 3 && strongLag >= 1) return 60 - 10 * strongLag;
    return 200 - 8 * (distance(winnerKing, stop) - strongTempo - distance(loserKing, stop) - distance(pawn, promo));
}

// Moves a minor needs to attack square s (0: it already does) on a board with `occupied` men,
// stepping only on squares in `safe` (the ones the other side does not guard).
int minorMovesToAttack(const Position& pos, Square minor, Square s, Bitboard occupied, Bitboard safe) {
    if (typeOf(pos.pieceOn(minor)) == KNIGHT) {
        int moves = 99;
        for (Bitboard b = (knightAttacks(s) | squareBB(s)) & (safe | squareBB(minor)); b;)
            moves = std::min(moves, knightDistance(minor, popLsb(b)));
        return moves;
    }
    Bitboard reach = bishopAttacks(minor, occupied);
    if (reach & squareBB(s)) return 0;
    if (reach & bishopAttacks(s, occupied) & safe) return 1;
    return isLightSquare(minor) == isLightSquare(s) ? 2 : 99;
}

// The squares side c attacks.
Bitboard attacksOf(const Position& pos, Color c) {
    Bitboard attacked = pawnAttacksBB(c, pos.pieces(c, PAWN)) | kingAttacks(pos.kingSquare(c));
    for (Bitboard b = pos.pieces(c) & ~pos.pieces(c, KING, PAWN); b;) {
        Square s = popLsb(b);
        attacked |= attacksBB(typeOf(pos.pieceOn(s)), s, pos.pieces());
    }
    return attacked;
}

// The last pawn against a lone minor, ours beside it or not, and no pawn on the other side: a pawn
// that neither the king nor the minor can catch queens, and one minor never wins the queen back.
// A path with a man on it is left to the general evaluation (a king shut in by its own pawn can
// even be mated by a knight: 8/8/2Q5/8/8/7p/8/q2N1K1k b).
Value evaluateLastPawn(Color strong, const Position& pos) {
    Square pawn = lsb(pos.pieces(strong, PAWN));
    if (pos.pieces(~strong, PAWN) || (pathOf(strong, pawn) & pos.pieces())) return VALUE_NONE;
    if (passerStoppable(pos, strong, pawn, attacksOf(pos, strong))) return VALUE_NONE;
    return SIMPLE_VALUE[QUEEN] + nonPawnValue(pos, strong) - nonPawnValue(pos, ~strong) +
           20 * relativeRank(strong, pawn);
}

// The last pawn of a minor-and-pawn side falls when the defending king gets next to it before the
// king or the minor can guard it, and the pawn cannot run away (the king is inside its square).
bool lastPawnFalls(Color strong, const Position& pos) {
    Color weak = ~strong;
    Square pawn = lsb(pos.pieces(strong, PAWN));
    Square attacker = pos.kingSquare(weak);
    // The weak king takes on its (approach + 1)-th move; before that we get `approach` moves,
    // one more if we move first.
    int approach = distance(attacker, pawn) - 1;
    int guard = distance(pos.kingSquare(strong), pawn) - 1;
    for (Bitboard b = pos.pieces(strong, KNIGHT, BISHOP); b;)
        guard = std::min(guard, minorMovesToAttack(pos, popLsb(b), pawn, pos.pieces(), ~Bitboard(0)));
    bool kingInSquare = distance(attacker, pawns::promotionSquare(strong, pawn)) - (pos.sideToMove() == weak) <=
                        7 - relativeRank(strong, pawn);
    // It may also step forward onto a square already guarded.
    Square push = pawn + pawnPush(strong);
    bool safeStep = pos.empty(push) && distance(attacker, push) > 1 - (pos.sideToMove() == strong);
    if (safeStep) {
        bool guarded = distance(pos.kingSquare(strong), push) == 1;
        for (Bitboard b = pos.pieces(strong, KNIGHT, BISHOP); b;)
            guarded |= minorMovesToAttack(pos, popLsb(b), push, pos.pieces(), ~Bitboard(0)) == 0;
        if (guarded) return false;
    }
    return guard > approach + (pos.sideToMove() == strong) && kingInSquare;
}

// Two minors against a knight: a draw, except that a king already caught by its own king in a
// corner can be mated (the defending knight blocks its escape). Syzygy: every such win in the
// sample has the king within a step of a corner and the attacking king within two. And bishop and
// knight, which mate a bare king, to move win a knight strayed five squares or more from its king
// often enough to be scaled as a win in jeopardy, not a draw (scripts/lab data endgame-sample KBNvKN,
// docs/results/endgames.md); with the knight's side to move it gets back in time.
int scaleMinorsKN(Color strong, const Position& pos, int tableScale) {
    Square k = pos.kingSquare(~strong);
    int cornerDistance =
        std::min(std::min(distance(k, SQ_A1), distance(k, SQ_H1)), std::min(distance(k, SQ_A8), distance(k, SQ_H8)));
    if (cornerDistance <= 1 && distance(k, pos.kingSquare(strong)) <= 2) return SCALE_NORMAL;
    bool mateAfterWinning = pos.count(strong, BISHOP) == 1 && pos.count(strong, KNIGHT) == 1;
    bool strayed = distance(k, lsb(pos.pieces(~strong, KNIGHT))) >= 5;
    return mateAfterWinning && strayed && pos.sideToMove() == strong ? SCALE_MATING_IN_JEOPARDY : tableScale;
}

// Knight and pawn against a bare king: the pawn can be lost, and a rook pawn on the seventh with
// the defending king in the corner is a draw (the knight cannot drive it out without stalemate).
int scaleKNPK(Color strong, const Position& pos, int tableScale) {
    Square pawn = lsb(pos.pieces(strong, PAWN));
    Square promo = pawns::promotionSquare(strong, pawn);
    bool rookPawn = fileOf(pawn) == 0 || fileOf(pawn) == 7;
    if (rookPawn && relativeRank(strong, pawn) == 6 && distance(pos.kingSquare(~strong), promo) <= 1) return SCALE_DRAW;
    return lastPawnFalls(strong, pos) ? SCALE_DRAW : tableScale;
}

// Bishop and pawns, all on one rook file, with a bishop that cannot cover the promotion square:
// a draw when the defending king gets to the corner first.
int scaleKBPSK(Color strong, const Position& pos, int tableScale) {
    if (pos.count(strong, PAWN) == 1 && lastPawnFalls(strong, pos)) return SCALE_DRAW;
    Bitboard ourPawns = pos.pieces(strong, PAWN);
    bool rookFile = !(ourPawns & ~FILE_A_BB) || !(ourPawns & ~FILE_H_BB);
    if (!rookFile) return tableScale;
    Square promo = pawns::promotionSquare(strong, lsb(ourPawns));
    bool bishopOnLight = pos.pieces(strong, BISHOP) & LIGHT_SQUARES;
    if (bishopOnLight == isLightSquare(promo)) return tableScale;  // the right bishop
    Square defender = pos.kingSquare(~strong);
    Square lead = strong == WHITE ? msb(ourPawns) : lsb(ourPawns);
    int defenderTempo = pos.sideToMove() != strong;
    // The defending king reaches the corner area before the pawn promotes and is not shut out.
    if (distance(defender, promo) <= 1) return SCALE_DRAW;
    if (distance(defender, promo) - defenderTempo < distance(lead, promo) &&
        distance(pos.kingSquare(strong), promo) > distance(defender, promo))
        return SCALE_DRAW;
    return tableScale;
}

// Queen against a rook or bishop pawn on the seventh, supported by its king, with the winning
// king far away: stalemate tricks make it a draw.
int scaleKQKP(Color strong, const Position& pos, int tableScale) {
    Color weak = ~strong;
    Square pawn = lsb(pos.pieces(weak, PAWN));
    int file = fileOf(pawn);
    bool drawishFile = file == 0 || file == 2 || file == 5 || file == 7;
    if (relativeRank(weak, pawn) != 6 || !drawishFile) return tableScale;
    if (distance(pos.kingSquare(weak), pawn) > 1) return tableScale;
    Square promo = pawns::promotionSquare(weak, pawn);
    if (distance(pos.kingSquare(strong), promo) <= 2) return tableScale;
    return SCALE_NEAR_DRAW;
}

// Queen against rook and pawn: a pawn on its sixth or seventh rank, threatening to queen with the
// rook's support, ties the queen down; most such positions are draws (in the tablebase-labelled
// ../shared/data/endgames/dev.epd, 50 of the 62 with the pawn that far that the queen does not
// lose), unless the queen's king already guards the queening square. A pawn further back is the
// classic win.
int scaleKQKRP(Color strong, const Position& pos, int tableScale) {
    Color weak = ~strong;
    Square pawn = lsb(pos.pieces(weak, PAWN));
    if (relativeRank(weak, pawn) < 5) return tableScale;  // ranks count from 0: 5 is the sixth
    Square promo = pawns::promotionSquare(weak, pawn);
    int guard = distance(pos.kingSquare(strong), promo);
    if (guard <= 1 && guard < distance(pos.kingSquare(weak), promo)) return tableScale;
    return SCALE_NO_MATING_POTENTIAL;
}

// The last pawn against a minor that can be given for it (K+minor+P v K+minor, K+P v K+minor):
// the defender needs only to control the pawn's path. Syzygy: king on or beside the path ~97%
// drawn, the piece on or attacking it ~90%, neither ~50%.
int scaleLastPawn(Color strong, const Position& pos, int tableScale) {
    Color weak = ~strong;
    Square pawn = lsb(pos.pieces(strong, PAWN));
    Bitboard path = pathOf(strong, pawn);
    Square defender = pos.kingSquare(weak);
    Bitboard nearPath = path | shift<EAST>(path) | shift<WEST>(path) | shift<NORTH>(path) | shift<SOUTH>(path);
    if (nearPath & squareBB(defender)) {
        // With a bishop, a king on a square the bishop can never attack holds for ever.
        if (pos.count(strong, BISHOP)) {
            bool bishopLight = pos.pieces(strong, BISHOP) & LIGHT_SQUARES;
            if ((path & squareBB(defender)) && isLightSquare(defender) != bishopLight) return SCALE_DRAW;
        }
        return SCALE_NEAR_DRAW;
    }
    Bitboard piece = pos.pieces(weak) & ~pos.pieces(weak, KING, PAWN);
    Square p = lsb(piece);
    if ((piece | attacksBB(typeOf(pos.pieceOn(p)), p, pos.pieces())) & path) return SCALE_NO_MATING_POTENTIAL;
    return std::max(tableScale, SCALE_PAWNLESS_LEADER);
}

int scaleOCB(Color strong, const Position& pos, const pawns::Entry& pe) {
    bool bishopsOnly = !pos.pieces(KNIGHT) && !pos.pieces(ROOK) && !pos.pieces(QUEEN);
    if (!bishopsOnly) return SCALE_OCB_WITH_PIECES;
    return SCALE_OCB[std::min(pe.passedCount(strong), 2)];
}

// Rook and pawn against rook: the defending king in front of the pawn or beside its path holds
// (Philidor); a king cut off by the rook along a file between it and the pawn does not. A rook on
// the pawn's own file cuts nothing off: the pawn blocks that file, the king crosses it ahead.
int scaleKRPKR(Color strong, const Position& pos, int tableScale) {
    Color weak = ~strong;
    Square pawn = lsb(pos.pieces(strong, PAWN));
    Square defender = pos.kingSquare(weak);
    if (pathOf(strong, pawn) & squareBB(defender)) return SCALE_MATING_IN_JEOPARDY;
    Square rook = lsb(pos.pieces(strong, ROOK));
    int rf = fileOf(rook), pf = fileOf(pawn), kf = fileOf(defender);
    bool cutOff = (kf < rf && rf < pf) || (kf > rf && rf > pf);
    if (cutOff) return tableScale;
    Bitboard nearPath = pathOf(strong, pawn);
    nearPath |= shift<EAST>(nearPath) | shift<WEST>(nearPath);
    return (nearPath & squareBB(defender)) ? SCALE_MATING_IN_JEOPARDY : 40;
}

// Two knights against a pawn: mate is possible if the pawn is held on or behind the Troitzky
// line (it blocks the stalemate defence); past it, a draw.
int scaleKNNKP(Color strong, const Position& pos) {
    Color weak = ~strong;
    Square pawn = lsb(pos.pieces(weak, PAWN));
    // The line (a4 b6 c5 d4 e4 f5 g6 h4 for a black pawn) as relative ranks of the pawn's side.
    static const int LINE[8] = {4, 2, 3, 4, 4, 3, 2, 4};
    if (relativeRank(weak, pawn) > LINE[fileOf(pawn)]) return SCALE_DRAW;
    // Even then the mate needs the defending king driven to an edge.
    Square k = pos.kingSquare(weak);
    int edgeDistance = std::min(std::min(fileOf(k), 7 - fileOf(k)), std::min(rankOf(k), 7 - rankOf(k)));
    return edgeDistance <= 2 ? SCALE_PAWNLESS_LEADER : SCALE_NO_MATING_POTENTIAL;
}

// The squares from which a rook pins `piece` to its king on `king` along a rank or file: beyond the
// piece, seen from the king (none when they share no line or something stands between them).
Bitboard rookPinSquares(const Position& pos, Square piece, Square king) {
    bool sameLine = fileOf(piece) == fileOf(king) || rankOf(piece) == rankOf(king);
    if (!sameLine || (betweenBB(piece, king) & pos.pieces())) return 0;
    return lineBB(piece, king) & rookAttacks(piece, pos.pieces()) & ~betweenBB(piece, king) & ~squareBB(king);
}

// The rook of `rookSide` stands on one of `pinSquares` (the other side to move), or gets to one in a
// move (its side to move). Depth 1 sees neither: the pinning move is quiet, and quiescence stands
// pat before the pinned piece.
bool rookPins(const Position& pos, Color rookSide, Bitboard pinSquares) {
    Square rook = lsb(pos.pieces(rookSide, ROOK));
    if (pos.sideToMove() != rookSide) return pinSquares & squareBB(rook);
    if (pos.inCheck() || pos.pinned()) return false;
    return pinSquares & ~pos.pieces() & rookAttacks(rook, pos.pieces());
}

// Queen against rook: a rook that pins the queen to its king from a square its own king guards
// wins the queen for itself (the queen takes it and is taken, or falls): at least a draw. Syzygy:
// none of them lost for the rook in fresh samples (docs/results/endgames.md).
int scaleKQKR(Color strong, const Position& pos, int tableScale) {
    Square queen = lsb(pos.pieces(strong, QUEEN));
    Bitboard guarded = rookPinSquares(pos, queen, pos.kingSquare(strong)) & kingAttacks(pos.kingSquare(~strong));
    return rookPins(pos, ~strong, guarded) ? SCALE_DRAW : tableScale;
}

// Rook against a minor: a minor pinned to its king cannot move, and falls if its king cannot guard
// it in one step (two steps away or more) and cannot take the rook.
bool pinWinsMinor(Color strong, const Position& pos) {
    Square minor = lsb(pos.pieces(~strong, KNIGHT, BISHOP)), theirKing = pos.kingSquare(~strong);
    if (distance(theirKing, minor) <= 2) return false;
    Bitboard safe = ~kingAttacks(theirKing) | kingAttacks(pos.kingSquare(strong));
    return rookPins(pos, strong, rookPinSquares(pos, minor, theirKing) & safe);
}

// Rook against knight: a draw while the knight stays by its king; a knight four squares away or
// more is lost, unless its side, to move, brings it back within three (to a square the rook's side
// does not attack). Syzygy: of 1,283 fresh positions where the knight can so step back, 1,203 are
// drawn (docs/results/endgames.md).
int scaleKRKN(Color strong, const Position& pos, int tableScale) {
    Square knight = lsb(pos.pieces(~strong, KNIGHT));
    Square theirKing = pos.kingSquare(~strong);
    int far = distance(theirKing, knight);
    if (pos.sideToMove() != strong)  // it steps back first, to a square the rook's side leaves it
        for (Bitboard b = knightAttacks(knight) & ~pos.pieces() & ~attacksOf(pos, strong); b;)
            far = std::min(far, distance(theirKing, popLsb(b)));
    return far >= 4 || pinWinsMinor(strong, pos) ? SCALE_NORMAL : tableScale;
}

// Rook against bishop: the defending king on an edge, ours facing it two squares away (the
// opposition), is mated along the edge or gives up the bishop to stop it, unless it stands by a
// corner of the other colour than its bishop's, where the bishop blocks the rook's checks (the
// "right corner" of K+R v K+B theory). Syzygy: 108 of 119 such positions outside that corner
// won in fresh samples (docs/results/endgames.md). Our king a step from there, our move, takes the
// opposition: depth 1 sees the step, not the mate behind it (the rook must not hang meanwhile).
bool edgeOppositionWins(Color strong, const Position& pos) {
    Square ours = pos.kingSquare(strong), theirs = pos.kingSquare(~strong);
    Bitboard facing = 0;  // two squares in front of their king, seen from each edge it stands on
    if (fileOf(theirs) % 7 == 0) facing |= squareBB(makeSquare(fileOf(theirs) == 0 ? 2 : 5, rankOf(theirs)));
    if (rankOf(theirs) % 7 == 0) facing |= squareBB(makeSquare(fileOf(theirs), rankOf(theirs) == 0 ? 2 : 5));
    Square bishop = lsb(pos.pieces(~strong, BISHOP));
    for (Square corner : {SQ_A1, SQ_H1, SQ_A8, SQ_H8})
        if (isLightSquare(corner) != isLightSquare(bishop) && distance(theirs, corner) <= 1) return false;
    if (facing & squareBB(ours)) return true;
    Bitboard theirAttacks = kingAttacks(theirs) | bishopAttacks(bishop, pos.pieces());
    return pos.sideToMove() == strong && !pos.inCheck() && !(theirAttacks & pos.pieces(strong, ROOK)) &&
           (kingAttacks(ours) & facing & ~pos.pieces() & ~theirAttacks);
}

int scaleKRKB(Color strong, const Position& pos, int tableScale) {
    return pinWinsMinor(strong, pos) || edgeOppositionWins(strong, pos) ? SCALE_NORMAL : tableScale;
}

}  // namespace

// The pawn needs i moves to reach the i-th square of its path; a defender stops it if its king can
// stand on such a square, or attack it while our king does not guard it, or a minor can attack it
// (it can always be given for the pawn), in the moves it gets meanwhile.
bool passerStoppable(const Position& pos, Color us, Square pawn, Bitboard ourAttacks) {
    const Color them = ~us;
    const Square ourKing = pos.kingSquare(us), theirKing = pos.kingSquare(them);
    const Bitboard occupied = pos.pieces() ^ squareBB(pawn);  // the pawn leaves its square
    const int firstStepFree = relativeRank(us, pawn) == 1 && !(occupied & (pawn + pawnPush(us)));  // double step
    Square sq = pawn;
    for (int step = 1; relativeRank(us, sq) < 7; ++step) {
        sq = sq + pawnPush(us);
        int pawnMoves = std::max(1, step - firstStepFree);
        int defenderMoves = pawnMoves - 1 + (pos.sideToMove() == them);
        if (distance(theirKing, sq) <= defenderMoves) return true;
        if (distance(theirKing, sq) - 1 <= defenderMoves && distance(ourKing, sq) > 1) return true;
        // The minor must get to a square from which it covers the path, and not one we guard.
        for (Bitboard minors = pos.pieces(them, KNIGHT, BISHOP); minors;)
            if (minorMovesToAttack(pos, popLsb(minors), sq, occupied, ~ourAttacks) <= defenderMoves) return true;
    }
    return false;
}

Value evaluate(Id id, Color strong, const Position& pos) {
    if (id == KPKP) return evaluateKPKP(pos);  // symmetric: already White's point of view, or none
    Value v = id == KXK         ? evaluateKXK(strong, pos)
              : id == KBNK      ? evaluateKBNK(strong, pos)
              : id == KRKP      ? evaluateKRKP(strong, pos)
              : id == KPSK      ? evaluateKPSK(strong, pos)
              : id == LAST_PAWN ? evaluateLastPawn(strong, pos)
                                : evaluateKPK(strong, pos);
    return v == VALUE_NONE || strong == WHITE ? v : -v;
}

int scale(Id id, Color strong, const Position& pos, const pawns::Entry& pe, int tableScale) {
    switch (id) {
    case KBPSK: return scaleKBPSK(strong, pos, tableScale);
    case KQKP: return scaleKQKP(strong, pos, tableScale);
    case LAST_PAWN: return scaleLastPawn(strong, pos, tableScale);
    case OCB: return scaleOCB(strong, pos, pe);
    case KRPKR: return scaleKRPKR(strong, pos, tableScale);
    case KNNKP: return scaleKNNKP(strong, pos);
    case KRKN: return scaleKRKN(strong, pos, tableScale);
    case KRKB: return scaleKRKB(strong, pos, tableScale);
    case KNPK: return scaleKNPK(strong, pos, tableScale);
    case MINORS_KN: return scaleMinorsKN(strong, pos, tableScale);
    case KQKRP: return scaleKQKRP(strong, pos, tableScale);
    case KQKR: return scaleKQKR(strong, pos, tableScale);
    default: return tableScale;
    }
}

}  // namespace endgame
