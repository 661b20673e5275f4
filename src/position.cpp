#include "position.h"

#include <cctype>
#include <cstring>
#include <sstream>

#include "movegen.h"
#include "prng.h"

using namespace materialindex;

const char* const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

namespace zobrist {

Key psq[PIECE_NB][SQUARE_NB];
Key enpassant[8];
Key castling[CASTLING_RIGHT_NB];
Key side;
// The material key has its own table, indexed by (colour, slot, count), so that it never
// interacts with the square keys.
Key material[COLOR_NB][SLOT_NB][16];

}  // namespace zobrist

namespace {

const char PIECE_CHARS[] = " PNBRQK  pnbrqk";


}  // namespace

void Position::init() {
    PRNG rng(1070372);
    for (auto& bySquare : zobrist::psq)
        for (Key& k : bySquare) k = rng.next();
    for (Key& k : zobrist::enpassant) k = rng.next();
    // One key per right; a set of rights is the XOR of its members' keys.
    Key single[4];
    for (Key& k : single) k = rng.next();
    for (int cr = 0; cr < CASTLING_RIGHT_NB; ++cr) {
        zobrist::castling[cr] = 0;
        for (int bit = 0; bit < 4; ++bit)
            if (cr & (1 << bit)) zobrist::castling[cr] ^= single[bit];
    }
    zobrist::side = rng.next();
    for (auto& bySlot : zobrist::material)
        for (auto& byCount : bySlot)
            for (Key& k : byCount) k = rng.next();
}

Position::Position() {
    clear();
    setFen(START_FEN);
}

Position& Position::operator=(const Position& other) {
    if (this == &other) return *this;
    std::memcpy(byType, other.byType, sizeof(byType));
    std::memcpy(byColor, other.byColor, sizeof(byColor));
    std::memcpy(board, other.board, sizeof(board));
    std::memcpy(pieceCount, other.pieceCount, sizeof(pieceCount));
    std::memcpy(lightBishopCount, other.lightBishopCount, sizeof(lightBishopCount));
    std::memcpy(castlingRightsMask, other.castlingRightsMask, sizeof(castlingRightsMask));
    std::memcpy(castlingRookSq, other.castlingRookSq, sizeof(castlingRookSq));
    std::memcpy(castlingPathBB, other.castlingPathBB, sizeof(castlingPathBB));
    side = other.side;
    ply = other.ply;
    chess960 = other.chess960;
    history = other.history;
    history.reserve(history.size() + 2 * MAX_PLY);
    st = &history.back();
    return *this;
}

void Position::clear() {
    std::memset(byType, 0, sizeof(byType));
    std::memset(byColor, 0, sizeof(byColor));
    std::memset(pieceCount, 0, sizeof(pieceCount));
    std::memset(lightBishopCount, 0, sizeof(lightBishopCount));
    std::memset(castlingRightsMask, 0, sizeof(castlingRightsMask));
    std::memset(castlingPathBB, 0, sizeof(castlingPathBB));
    for (Piece& p : board) p = NO_PIECE;
    for (Square& s : castlingRookSq) s = SQ_NONE;
    side = WHITE;
    ply = 0;
    chess960 = false;
    // One entry: a game grows it as it goes (no pointer into it outlives a move), a search's copy
    // gets its room at the copy (operator=). A fresh position costs no large allocation, which
    // every `position` command and every setFen pays (its scratch position) three times.
    history.assign(1, StateInfo{});
    st = &history.back();
    st->epSquare = SQ_NONE;
}

// ---------------------------------------------------------------------------------------------
// Board edits

void Position::putPiece(Piece pc, Square s) {
    Bitboard b = squareBB(s);
    board[s] = pc;
    byType[NO_PIECE_TYPE] |= b;
    byType[typeOf(pc)] |= b;
    byColor[colorOf(pc)] |= b;
    pieceCount[colorOf(pc)][typeOf(pc)]++;
    lightBishopCount[colorOf(pc)] += typeOf(pc) == BISHOP && isLightSquare(s);
}

void Position::removePiece(Square s) {
    Piece pc = board[s];
    Bitboard b = squareBB(s);
    board[s] = NO_PIECE;
    byType[NO_PIECE_TYPE] ^= b;
    byType[typeOf(pc)] ^= b;
    byColor[colorOf(pc)] ^= b;
    pieceCount[colorOf(pc)][typeOf(pc)]--;
    lightBishopCount[colorOf(pc)] -= typeOf(pc) == BISHOP && isLightSquare(s);
}

void Position::movePiece(Square from, Square to) {
    Piece pc = board[from];
    Bitboard fromTo = squareBB(from) | squareBB(to);
    board[to] = pc;
    board[from] = NO_PIECE;
    byType[NO_PIECE_TYPE] ^= fromTo;
    byType[typeOf(pc)] ^= fromTo;
    byColor[colorOf(pc)] ^= fromTo;
}

int Position::slotCount(Color c, Slot slot) const {
    switch (slot) {
    case PAWNS: return pieceCount[c][PAWN];
    case KNIGHTS: return pieceCount[c][KNIGHT];
    case LIGHT_BISHOPS: return lightBishopCount[c];
    case DARK_BISHOPS: return pieceCount[c][BISHOP] - lightBishopCount[c];
    case ROOKS: return pieceCount[c][ROOK];
    default: return pieceCount[c][QUEEN];
    }
}

// Called after putPiece: the slot's count already includes the new piece.
void Position::addMaterial(Color c, Slot slot) {
    int n = slotCount(c, slot);
    st->materialKey ^= zobrist::material[c][slot][n - 1];
    st->materialIndex += weight[c][slot];
    st->materialOverflow += n == maxCount[slot] + 1;  // the slot has just left the range
}

// Called after removePiece: the slot's count no longer includes the removed piece.
void Position::removeMaterial(Color c, Slot slot) {
    int n = slotCount(c, slot);
    st->materialKey ^= zobrist::material[c][slot][n];
    st->materialIndex -= weight[c][slot];
    st->materialOverflow -= n == maxCount[slot];  // the slot has just come back into range
}

// ---------------------------------------------------------------------------------------------
// FEN

void Position::setCastlingRight(Color c, Square rookFrom) {
    Square kingFrom = kingSquare(c);
    bool kingSide = rookFrom > kingFrom;
    int cr = (c == WHITE ? WHITE_OO : BLACK_OO) << (kingSide ? 0 : 1);
    st->castlingRights |= cr;
    castlingRightsMask[kingFrom] |= cr;
    castlingRightsMask[rookFrom] |= cr;
    castlingRookSq[cr] = rookFrom;
    Square kingTo = castlingKingTo(c, kingSide), rookTo = castlingRookTo(c, kingSide);
    castlingPathBB[cr] =
        (betweenBB(rookFrom, rookTo) | betweenBB(kingFrom, kingTo) | squareBB(rookTo) | squareBB(kingTo)) &
        ~(squareBB(kingFrom) | squareBB(rookFrom));
}

bool Position::epCapturePossible(Square epSq, Color capturer) const {
    Color victim = ~capturer;
    Square capSq = epSq - pawnPush(capturer);
    Bitboard candidates = pawnAttacks(victim, epSq) & pieces(capturer, PAWN);
    Square ksq = kingSquare(capturer);
    while (candidates) {
        Square from = popLsb(candidates);
        Bitboard occ = (pieces() ^ squareBB(from) ^ squareBB(capSq)) | squareBB(epSq);
        if (!(attackersTo(ksq, occ) & pieces(victim) & ~squareBB(capSq))) return true;
    }
    return false;
}

std::string Position::setFen(const std::string& fenText) {
    std::istringstream in(fenText);
    std::vector<std::string> fields;
    for (std::string f; in >> f;) fields.push_back(f);
    if (fields.size() < 4 || fields.size() > 6)
        return "FEN must have 4 to 6 fields (placement, side, castling, en passant, clocks), got " +
               std::to_string(fields.size());

    Position p{Blank{}};
    p.chess960 = chess960;

    // 1. Placement, from rank 8 down to rank 1.
    int rank = 7, file = 0;
    for (char c : fields[0]) {
        if (c == '/') {
            if (file != 8)
                return "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " squares, not 8";
            if (--rank < 0) return "more than 8 ranks in the placement field";
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) return "rank " + std::to_string(rank + 1) + " is longer than 8 squares";
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            return std::string("empty-square count '") + c + "' is not between 1 and 8";
        } else {
            const char* found = std::strchr(PIECE_CHARS, c);
            if (!found || c == ' ' || c == '\0') return std::string("unknown piece letter '") + c + "'";
            if (file > 7) return "rank " + std::to_string(rank + 1) + " is longer than 8 squares";
            p.putPiece(Piece(found - PIECE_CHARS), makeSquare(file++, rank));
        }
    }
    if (file != 8) return "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " squares, not 8";
    if (rank != 0) return "placement has " + std::to_string(8 - rank) + " ranks, not 8";

    for (Color c : {WHITE, BLACK}) {
        const char* name = c == WHITE ? "white" : "black";
        if (p.count(c, KING) == 0) return std::string("missing ") + name + " king";
        if (p.count(c, KING) > 1) return std::string("more than one ") + name + " king";
        if (p.count(c, PAWN) > 8) return std::string("more than 8 ") + name + " pawns";
        if (popcount(p.pieces(c)) > 16) return std::string("more than 16 ") + name + " pieces";
    }
    if (p.pieces(PAWN) & (RANK_1_BB | RANK_8_BB)) return "pawn on the first or eighth rank";

    // 2. Side to move.
    if (fields[1] != "w" && fields[1] != "b") return "side to move must be 'w' or 'b', got '" + fields[1] + "'";
    p.side = fields[1] == "w" ? WHITE : BLACK;

    // 3. Castling: KQkq (outermost rook), X-FEN and Shredder file letters.
    if (fields[2] != "-") {
        for (char c : fields[2]) {
            Color col = std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK;
            char up = char(std::toupper(static_cast<unsigned char>(c)));
            Square ksq = p.kingSquare(col);
            Bitboard backRank = rankBB(relativeRank(col, 0));
            if (!(squareBB(ksq) & backRank))
                return std::string("castling right '") + c + "' but the king is not on its first rank";
            Bitboard rooks = p.pieces(col, ROOK) & backRank;
            Square rsq = SQ_NONE;
            if (up == 'K') {
                for (Bitboard b = rooks & ~(squareBB(ksq) * 2 - 1); b; b &= b - 1) rsq = lsb(b);  // outermost
            } else if (up == 'Q') {
                Bitboard b = rooks & (squareBB(ksq) - 1);
                if (b) rsq = lsb(b);
            } else if (up >= 'A' && up <= 'H') {
                Square s = makeSquare(up - 'A', relativeRank(col, 0));
                if (rooks & squareBB(s)) rsq = s;
            } else return std::string("unknown castling letter '") + c + "'";
            if (rsq == SQ_NONE || rsq == ksq) return std::string("castling right '") + c + "' without a rook in place";
            int cr = (col == WHITE ? WHITE_OO : BLACK_OO) << (rsq > ksq ? 0 : 1);
            if (p.st->castlingRights & cr) return std::string("castling right '") + c + "' given twice";
            p.setCastlingRight(col, rsq);
        }
        // A non-standard king or rook file can only be written in Chess960 notation.
        for (int cr : {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO}) {
            if (!(p.st->castlingRights & cr)) continue;
            Color col = cr & WHITE_CASTLING ? WHITE : BLACK;
            if (p.kingSquare(col) != relativeSquare(col, SQ_E1) ||
                fileOf(p.castlingRookSq[cr]) != ((cr & KING_SIDE) ? 7 : 0))
                p.chess960 = true;
        }
    }

    // 4. En passant: the square a pawn just skipped; kept only when a legal capture exists
    // (as X-FEN requires), so that equal positions have equal keys.
    p.st->epSquare = SQ_NONE;
    if (fields[3] != "-") {
        const std::string& e = fields[3];
        if (e.size() != 2 || e[0] < 'a' || e[0] > 'h' || e[1] < '1' || e[1] > '8')
            return "en passant field '" + e + "' is not a square";
        Square ep = makeSquare(e[0] - 'a', e[1] - '1');
        Color them = ~p.side;
        if (relativeRank(p.side, ep) != 5)
            return "impossible en passant square " + e + ": wrong rank for the side to move";
        if (!p.empty(ep) || !p.empty(ep + pawnPush(p.side)) ||
            p.pieceOn(ep - pawnPush(p.side)) != makePiece(them, PAWN))
            return "impossible en passant square " + e + ": no pawn has just made a double step past it";
        if (p.epCapturePossible(ep, p.side)) p.st->epSquare = ep;
    }

    // 5. Clocks, up to MAX_CLOCK_FIELD: a game that goes on past what it read (moves after the
    // FEN) prints values this parser reads again until then.
    auto number = [](const std::string& s, int& out) {
        if (s.empty() || s.size() > 10) return false;
        for (char c : s)
            if (!std::isdigit(static_cast<unsigned char>(c))) return false;
        long long n = std::stoll(s);
        if (n > MAX_CLOCK_FIELD) return false;
        out = int(n);
        return true;
    };
    int halfmove = 0, fullmove = 1;
    if (fields.size() > 4 && !number(fields[4], halfmove))
        return "halfmove clock '" + fields[4] + "' is not a number up to " + std::to_string(MAX_CLOCK_FIELD);
    if (fields.size() > 5 && !number(fields[5], fullmove))
        return "fullmove number '" + fields[5] + "' is not a number up to " + std::to_string(MAX_CLOCK_FIELD);
    p.st->rule50 = halfmove;
    p.ply = 2 * std::max(fullmove - 1, 0) + (p.side == BLACK);

    // Legality of the whole: the side not to move may not be in check.
    if (p.attackersTo(p.kingSquare(~p.side)) & p.pieces(p.side)) return "the side not to move is in check";

    p.computeState(*p.st);
    *this = p;
    return "";
}

std::string Position::fen() const {
    std::ostringstream out;
    for (int r = 7; r >= 0; --r) {
        int emptyRun = 0;
        for (int f = 0; f < 8; ++f) {
            Piece pc = board[makeSquare(f, r)];
            if (pc == NO_PIECE) {
                ++emptyRun;
                continue;
            }
            if (emptyRun) out << emptyRun;
            emptyRun = 0;
            out << PIECE_CHARS[pc];
        }
        if (emptyRun) out << emptyRun;
        if (r) out << '/';
    }
    out << (side == WHITE ? " w " : " b ");
    if (!st->castlingRights) out << '-';
    for (int cr : {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO}) {
        if (!(st->castlingRights & cr)) continue;
        char letter = chess960 ? char('A' + fileOf(castlingRookSq[cr])) : ((cr & KING_SIDE) ? 'K' : 'Q');
        out << (cr & BLACK_CASTLING ? char(std::tolower(letter)) : letter);
    }
    if (st->epSquare == SQ_NONE) out << " -";
    else out << ' ' << char('a' + fileOf(st->epSquare)) << char('1' + rankOf(st->epSquare));
    out << ' ' << st->rule50 << ' ' << 1 + (ply - (side == BLACK)) / 2;
    return out.str();
}

// ---------------------------------------------------------------------------------------------
// From-scratch computation, used when setting a position and to verify the incremental updates.

void Position::computeState(StateInfo& s) const {
    s.key = s.pawnKey = s.materialKey = 0;
    s.materialIndex = s.materialOverflow = 0;
    for (Bitboard b = pieces(); b;) {
        Square sq = popLsb(b);
        s.key ^= zobrist::psq[board[sq]][sq];
        if (typeOf(board[sq]) == PAWN) s.pawnKey ^= zobrist::psq[board[sq]][sq];
    }
    if (s.epSquare != SQ_NONE) s.key ^= zobrist::enpassant[fileOf(s.epSquare)];
    if (side == BLACK) s.key ^= zobrist::side;
    s.key ^= zobrist::castling[s.castlingRights];
    for (Color c : {WHITE, BLACK})
        for (int slot = 0; slot < SLOT_NB; ++slot) {
            int n = slotCount(c, Slot(slot));
            for (int i = 0; i < n; ++i) s.materialKey ^= zobrist::material[c][slot][i];
            s.materialIndex += n * weight[c][slot];
            s.materialOverflow += n > maxCount[slot];
        }
    s.checkers = attackersTo(kingSquare(side)) & pieces(~side);
    setPins(s);
    completeCheckInfo(s);
}

void Position::setPins(StateInfo& s) const {
    s.kingBlockers[side] = blockersFor(kingSquare(side), pieces(~side));
    s.checkInfoComplete = false;
}

void Position::completeCheckInfo(StateInfo& s) const {
    const Square ksq = kingSquare(~side);
    s.kingBlockers[~side] = blockersFor(ksq, pieces(side));
    s.checkSquares[NO_PIECE_TYPE] = s.checkSquares[KING] = 0;
    s.checkSquares[PAWN] = pawnAttacks(~side, ksq);
    s.checkSquares[KNIGHT] = knightAttacks(ksq);
    s.checkSquares[BISHOP] = bishopAttacks(ksq, pieces());
    s.checkSquares[ROOK] = rookAttacks(ksq, pieces());
    s.checkSquares[QUEEN] = s.checkSquares[BISHOP] | s.checkSquares[ROOK];
    s.checkInfoComplete = true;
}

// Where assertions are compiled in (the ASan+UBSan tests), every make and unmake recomputes what
// it updated incrementally: a difference aborts with the move and what differs.
void Position::assertConsistent(const char* where, Move m) const {
#ifndef NDEBUG
    if (std::string why = verify(); !why.empty()) {
        std::fprintf(stderr, "%s %s: %s\n", where, moveToUci(m).c_str(), why.c_str());
        std::abort();
    }
#else
    (void)where, (void)m;
#endif
}

std::string Position::verify() const {
    // Board arrays agree with each other.
    Bitboard all = 0;
    int counts[COLOR_NB][PIECE_TYPE_NB] = {};
    int light[COLOR_NB] = {};
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        Piece pc = board[s];
        if (pc == NO_PIECE) continue;
        all |= squareBB(s);
        if (!(pieces(colorOf(pc), typeOf(pc)) & squareBB(s))) return "bitboards disagree with the board array";
        counts[colorOf(pc)][typeOf(pc)]++;
        light[colorOf(pc)] += typeOf(pc) == BISHOP && isLightSquare(s);
    }
    if (all != pieces() || (pieces(WHITE) | pieces(BLACK)) != all || (pieces(WHITE) & pieces(BLACK)))
        return "occupancy bitboards are inconsistent";
    for (Color c : {WHITE, BLACK}) {
        for (int pt = PAWN; pt <= KING; ++pt)
            if (counts[c][pt] != pieceCount[c][pt]) return "piece counters differ from the board";
        if (light[c] != lightBishopCount[c]) return "light-bishop counter differs from the board";
    }
    StateInfo s = *st;
    computeState(s);
    if (s.key != st->key) return "Zobrist key differs from its recomputation";
    if (s.pawnKey != st->pawnKey) return "pawn key differs from its recomputation";
    if (s.materialKey != st->materialKey) return "material key differs from its recomputation";
    if (s.materialIndex != st->materialIndex) return "material index differs from its recomputation";
    if (s.materialOverflow != st->materialOverflow) return "material overflow differs from its recomputation";
    if (s.checkers != st->checkers) return "checkers differ from their recomputation";
    if (s.kingBlockers[side] != st->kingBlockers[side]) return "pins differ from their recomputation";
    if (st->checkInfoComplete) {
        if (s.kingBlockers[~side] != st->kingBlockers[~side]) return "king blockers differ from their recomputation";
        for (int pt = NO_PIECE_TYPE; pt < PIECE_TYPE_NB; ++pt)
            if (s.checkSquares[pt] != st->checkSquares[pt]) return "check squares differ from their recomputation";
    }
    return "";
}

// ---------------------------------------------------------------------------------------------
// Attacks

Bitboard Position::attackersTo(Square s, Bitboard occupied) const {
    return (pawnAttacks(BLACK, s) & pieces(WHITE, PAWN)) | (pawnAttacks(WHITE, s) & pieces(BLACK, PAWN)) |
           (knightAttacks(s) & pieces(KNIGHT)) | (rookAttacks(s, occupied) & pieces(ROOK, QUEEN)) |
           (bishopAttacks(s, occupied) & pieces(BISHOP, QUEEN)) | (kingAttacks(s) & pieces(KING));
}

Bitboard Position::kingFlightSquares(Color c, Bitboard candidates) const {
    const Square ksq = kingSquare(c);
    Bitboard flight = kingAttacks(ksq) & ~pieces(c) & candidates;
    if (!flight) return 0;  // a king among its own pieces, as in most of the middlegame
    const Color them = ~c;
    const Bitboard occupied = pieces() ^ squareBB(ksq);  // sliders see through the fleeing king
    // One square, as often in the middlegame: its attackers by table.
    if (!moreThanOne(flight)) return isAttacked(lsb(flight), them, occupied) ? 0 : flight;
    // More: pawns, the king and knights attack fixed squares; each removes its whole set at once.
    // A square then costs a slider lookup only when an enemy slider stands on one of its lines:
    // in an endgame most squares a king steps to cost none, and in the middlegame many.
    flight &= ~pawnAttacksBB(them, pieces(them, PAWN)) & ~kingAttacks(kingSquare(them));
    for (Bitboard b = pieces(them, KNIGHT); b && flight;) flight &= ~knightAttacks(popLsb(b));
    for (Bitboard b = flight; b;) {
        Square s = popLsb(b);
        if (isAttackedBySlider(s, them, occupied)) flight ^= squareBB(s);
    }
    return flight;
}

Bitboard Position::blockersFor(Square s, Bitboard sliders, Bitboard* pinners) const {
    Bitboard blockers = 0;
    Bitboard snipers =
        ((emptyBoardAttacks(ROOK, s) & pieces(QUEEN, ROOK)) | (emptyBoardAttacks(BISHOP, s) & pieces(QUEEN, BISHOP))) &
        sliders;
    Bitboard occupancy = pieces() ^ snipers;
    if (pinners) *pinners = 0;
    while (snipers) {
        Square sniper = popLsb(snipers);
        Bitboard b = betweenBB(s, sniper) & occupancy;
        if (b && !moreThanOne(b)) {
            blockers |= b;
            if (pinners && (b & pieces(colorOf(board[s])))) *pinners |= squareBB(sniper);
        }
    }
    return blockers;
}

// ---------------------------------------------------------------------------------------------
// Make / unmake

void Position::castle(bool doIt, Color us, Square kingFrom, Square rookFrom, Square& kingTo, Square& rookTo) {
    bool kingSide = rookFrom > kingFrom;
    kingTo = castlingKingTo(us, kingSide);
    rookTo = castlingRookTo(us, kingSide);
    // Remove both first: in Chess960 the destinations may hold the other castling piece.
    removePiece(doIt ? kingFrom : kingTo);
    removePiece(doIt ? rookFrom : rookTo);
    putPiece(makePiece(us, KING), doIt ? kingTo : kingFrom);
    putPiece(makePiece(us, ROOK), doIt ? rookTo : rookFrom);
}

Key Position::keyAfter(Move m) const {
    Key k = st->key ^ zobrist::side;
    if (st->epSquare != SQ_NONE) k ^= zobrist::enpassant[fileOf(st->epSquare)];
    if (m == MOVE_NULL) return k;
    const Square from = fromSq(m), to = toSq(m);
    const Piece pc = board[from], captured = board[to];
    k ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to];
    return captured == NO_PIECE ? k : k ^ zobrist::psq[captured][to];
}

void Position::makeMove(Move m, bool givesCheck) { doMove<false>(m, givesCheck, nullptr); }

void Position::makeMove(Move m, bool givesCheck, DirtyPieces& dirty) { doMove<true>(m, givesCheck, &dirty); }

// One body for both: perft, which needs no record, pays nothing for it.
template <bool Record>
void Position::doMove(Move m, bool givesCheck, DirtyPieces* dirty) {
    history.emplace_back(*st, StateInfo::Next{});
    st = &history.back();
    ++ply;
    st->rule50++;
    st->pliesFromNull++;

    const Color us = side, them = ~us;
    const Square from = fromSq(m);
    Square to = toSq(m);
    const Piece pc = board[from];
    Piece captured = typeOf(m) == EN_PASSANT ? makePiece(them, PAWN) : board[to];
    assert(isOk(m) && pc != NO_PIECE && colorOf(pc) == us);
    assert(typeOf(m) == CASTLING ? board[to] == makePiece(us, ROOK)
                                 : captured == NO_PIECE || colorOf(captured) == them);
    assert(typeOf(captured) != KING);
    Key k = st->key ^ zobrist::side;

    if (st->epSquare != SQ_NONE) {
        k ^= zobrist::enpassant[fileOf(st->epSquare)];
        st->epSquare = SQ_NONE;
    }

    if (typeOf(m) == CASTLING) {
        Square rookFrom = to, rookTo;
        castle(true, us, from, rookFrom, to, rookTo);
        Piece rook = makePiece(us, ROOK);
        k ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to] ^ zobrist::psq[rook][rookFrom] ^ zobrist::psq[rook][rookTo];
        captured = NO_PIECE;
        if constexpr (Record) *dirty = {{{pc, to}, {rook, rookTo}}, {{pc, from}, {rook, rookFrom}}, 2, 2};
    } else {
        if constexpr (Record) *dirty = {{{pc, to}, {}}, {{pc, from}, {}}, 1, 1};
        if (captured) {
            Square capSq = typeOf(m) == EN_PASSANT ? to - pawnPush(us) : to;
            if constexpr (Record) dirty->removed[dirty->removedCount++] = {captured, capSq};
            Slot slot = slotOf(typeOf(captured), capSq);
            removePiece(capSq);
            removeMaterial(them, slot);
            k ^= zobrist::psq[captured][capSq];
            if (typeOf(captured) == PAWN) st->pawnKey ^= zobrist::psq[captured][capSq];
            st->rule50 = 0;
        }
        movePiece(from, to);
        k ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to];

        if (typeOf(pc) == PAWN) {
            st->rule50 = 0;
            st->pawnKey ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to];
            if ((int(to) ^ int(from)) == 16) {
                Square ep = from + pawnPush(us);
                if ((pawnAttacks(us, ep) & pieces(them, PAWN)) && epCapturePossible(ep, them)) {
                    st->epSquare = ep;
                    k ^= zobrist::enpassant[fileOf(ep)];
                }
            } else if (typeOf(m) == PROMOTION) {
                Piece promoted = makePiece(us, promotionType(m));
                removePiece(to);
                removeMaterial(us, PAWNS);
                putPiece(promoted, to);
                addMaterial(us, slotOf(promotionType(m), to));
                k ^= zobrist::psq[pc][to] ^ zobrist::psq[promoted][to];
                st->pawnKey ^= zobrist::psq[pc][to];
                if constexpr (Record) dirty->added[0].piece = promoted;
            }
        }
    }

    if (st->castlingRights && (castlingRightsMask[from] | castlingRightsMask[toSq(m)])) {
        k ^= zobrist::castling[st->castlingRights];
        st->castlingRights &= ~(castlingRightsMask[from] | castlingRightsMask[toSq(m)]);
        k ^= zobrist::castling[st->castlingRights];
    }

    st->key = k;
    st->captured = captured;
    side = them;
    st->checkers = givesCheck ? attackersTo(kingSquare(them)) & pieces(us) : 0;
    setPins(*st);

    assertConsistent("makeMove", m);
}

void Position::unmakeMove(Move m) {
    side = ~side;
    const Color us = side;
    const Square from = fromSq(m);
    Square to = toSq(m);

    if (typeOf(m) == CASTLING) {
        Square kingTo, rookTo;
        castle(false, us, from, to, kingTo, rookTo);
    } else {
        if (typeOf(m) == PROMOTION) {
            removePiece(to);
            putPiece(makePiece(us, PAWN), to);
        }
        movePiece(to, from);
        if (st->captured) putPiece(st->captured, typeOf(m) == EN_PASSANT ? to - pawnPush(us) : to);
    }

    history.pop_back();
    st = &history.back();
    --ply;

    assertConsistent("unmakeMove", m);
}

void Position::makeNullMove() {
    history.emplace_back(*st, StateInfo::Next{});
    st = &history.back();
    ++ply;
    if (st->epSquare != SQ_NONE) {
        st->key ^= zobrist::enpassant[fileOf(st->epSquare)];
        st->epSquare = SQ_NONE;
    }
    st->key ^= zobrist::side;
    st->rule50++;
    st->pliesFromNull = 0;
    st->captured = NO_PIECE;
    side = ~side;
    st->checkers = 0;  // null moves are never made in check
    setPins(*st);
}

void Position::unmakeNullMove() {
    history.pop_back();
    st = &history.back();
    --ply;
    side = ~side;
}

// ---------------------------------------------------------------------------------------------
// Move validation

bool Position::isPseudoLegal(Move m) const {
    const Color us = side;
    const Square from = fromSq(m), to = toSq(m);
    const Piece pc = board[from];

    if (m == MOVE_NONE || m == MOVE_NULL || from == to) return false;
    if (pc == NO_PIECE || colorOf(pc) != us) return false;

    if (typeOf(m) == CASTLING || typeOf(m) == EN_PASSANT) {
        // Rare enough to check against the generator.
        for (Move legal : MoveList<LEGAL>(*this))
            if (legal == m) return true;
        return false;
    }
    if (typeOf(m) == NORMAL && promotionType(m) != KNIGHT) return false;  // stray promotion bits
    if (pieces(us) & squareBB(to)) return false;

    if (typeOf(pc) == PAWN) {
        bool lastRank = relativeRank(us, to) == 7;
        if (lastRank != (typeOf(m) == PROMOTION)) return false;
        bool capture = (pawnAttacks(us, from) & pieces(~us) & squareBB(to)) != 0;
        bool push = from + pawnPush(us) == to && empty(to);
        bool doublePush = relativeRank(us, from) == 1 && from + pawnPush(us) + pawnPush(us) == to && empty(to) &&
                          empty(from + pawnPush(us));
        if (!capture && !push && !doublePush) return false;
    } else {
        if (typeOf(m) != NORMAL) return false;
        if (!(attacksBB(typeOf(pc), from, pieces()) & squareBB(to))) return false;
    }

    if (checkers()) {
        if (typeOf(pc) != KING) {
            if (moreThanOne(checkers())) return false;
            Square checker = lsb(checkers());
            if (!((betweenBB(kingSquare(us), checker) | checkers()) & squareBB(to))) return false;
        }
    }
    return true;
}

bool Position::isLegal(Move m) const {
    const Color us = side;
    const Square from = fromSq(m), to = toSq(m);
    const Square ksq = kingSquare(us);

    if (typeOf(m) == EN_PASSANT) {
        Square capSq = to - pawnPush(us);
        Bitboard occ = (pieces() ^ squareBB(from) ^ squareBB(capSq)) | squareBB(to);
        return !(attackersTo(ksq, occ) & pieces(~us) & ~squareBB(capSq));
    }
    if (typeOf(m) == CASTLING) return isPseudoLegal(m);  // generated legal castling moves only
    if (typeOf(board[from]) == KING) return !(attackersTo(to, pieces() ^ squareBB(from)) & pieces(~us));
    return !(pinned() & squareBB(from)) || aligned(from, to, ksq);
}

bool Position::specialMoveGivesCheck(Move m) const {
    const Color us = side, them = ~us;
    const Square from = fromSq(m), to = toSq(m);
    const Square ksq = kingSquare(them);
    Bitboard occ = (pieces() ^ squareBB(from)) | squareBB(to);

    switch (typeOf(m)) {
    case PROMOTION: return (attacksBB(promotionType(m), to, occ) & squareBB(ksq)) || discoversCheck(from, to);
    case EN_PASSANT: {
        Square capSq = to - pawnPush(us);
        occ ^= squareBB(capSq);
        Bitboard ours = (pieces(us) ^ squareBB(from)) | squareBB(to);
        return ((rookAttacks(ksq, occ) & pieces(ROOK, QUEEN)) | (bishopAttacks(ksq, occ) & pieces(BISHOP, QUEEN)) |
                (pawnAttacks(them, ksq) & squareBB(to))) &
               ours;
    }
    default: {  // castling: only the rook can give check
        bool kingSide = to > from;
        Square kingTo = castlingKingTo(us, kingSide), rookTo = castlingRookTo(us, kingSide);
        Bitboard after = (pieces() ^ squareBB(from) ^ squareBB(to)) | squareBB(kingTo) | squareBB(rookTo);
        return rookAttacks(rookTo, after) & squareBB(ksq);
    }
    }
}

// Swap-off on the target square, cheapest attacker first, with x-rays revealed as pieces leave.
bool Position::seeGe(Move m, int threshold) const {
    if (typeOf(m) != NORMAL) return 0 >= threshold;
    const Square from = fromSq(m), to = toSq(m);

    int swap = SIMPLE_VALUE[typeOf(board[to])] - threshold;
    if (swap < 0) return false;
    swap = SIMPLE_VALUE[typeOf(board[from])] - swap;
    if (swap <= 0) return true;

    Bitboard occupied = pieces() ^ squareBB(from) ^ squareBB(to);
    Color stm = side;
    Bitboard attackers = attackersTo(to, occupied);
    int res = 1;

    while (true) {
        stm = ~stm;
        attackers &= occupied;
        Bitboard stmAttackers = attackers & pieces(stm);
        if (!stmAttackers) break;
        // A pinned piece may not join the exchange while its pinner is still on the board.
        Bitboard pinners;
        Bitboard pinned = blockersFor(kingSquare(stm), pieces(~stm), &pinners) & pieces(stm);
        if (pinners & occupied) stmAttackers &= ~pinned;
        if (!stmAttackers) break;
        res ^= 1;

        Bitboard bb;
        if ((bb = stmAttackers & pieces(PAWN))) {
            if ((swap = SIMPLE_VALUE[PAWN] - swap) < res) break;
            occupied ^= squareBB(lsb(bb));
            attackers |= bishopAttacks(to, occupied) & pieces(BISHOP, QUEEN);
        } else if ((bb = stmAttackers & pieces(KNIGHT))) {
            if ((swap = SIMPLE_VALUE[KNIGHT] - swap) < res) break;
            occupied ^= squareBB(lsb(bb));
        } else if ((bb = stmAttackers & pieces(BISHOP))) {
            if ((swap = SIMPLE_VALUE[BISHOP] - swap) < res) break;
            occupied ^= squareBB(lsb(bb));
            attackers |= bishopAttacks(to, occupied) & pieces(BISHOP, QUEEN);
        } else if ((bb = stmAttackers & pieces(ROOK))) {
            if ((swap = SIMPLE_VALUE[ROOK] - swap) < res) break;
            occupied ^= squareBB(lsb(bb));
            attackers |= rookAttacks(to, occupied) & pieces(ROOK, QUEEN);
        } else if ((bb = stmAttackers & pieces(QUEEN))) {
            if ((swap = SIMPLE_VALUE[QUEEN] - swap) < res) break;
            occupied ^= squareBB(lsb(bb));
            attackers |= (bishopAttacks(to, occupied) & pieces(BISHOP, QUEEN)) |
                         (rookAttacks(to, occupied) & pieces(ROOK, QUEEN));
        } else  // the king: it may capture only if the opponent has no attacker left
            return (attackers & ~pieces(stm)) ? res ^ 1 : res;
    }
    return bool(res);
}

// ---------------------------------------------------------------------------------------------
// Draws

bool Position::isDraw(int plyFromRoot) const {
    if (st->rule50 > 99 && (!checkers() || MoveList<LEGAL>(*this).size())) return true;

    int end = std::min(st->rule50, st->pliesFromNull);
    int top = int(history.size()) - 1;
    int seen = 0;
    for (int i = 4; i <= end && top - i >= 0; i += 2) {
        if (history[top - i].key != st->key) continue;
        // Once inside the search tree is enough; in the game history it takes the third time.
        if (i < plyFromRoot || ++seen >= 2) return true;
    }
    return false;
}

bool Position::hasRepeated() const {
    const int top = int(history.size()) - 1;
    const int first = std::max(0, top - std::min(st->rule50, st->pliesFromNull));
    for (int later = top; later - 4 >= first; --later)
        for (int earlier = later - 4; earlier >= first; earlier -= 2)
            if (history[earlier].key == history[later].key) return true;
    return false;
}

bool Position::isDeadPosition() const {
    if (pieces(PAWN, ROOK) | pieces(QUEEN)) return false;
    Bitboard minors = pieces(KNIGHT, BISHOP);
    if (!moreThanOne(minors)) return true;  // K v K, K+minor v K
    // Only bishops, all on squares of one colour.
    return !pieces(KNIGHT) && (!(pieces(BISHOP) & LIGHT_SQUARES) || !(pieces(BISHOP) & DARK_SQUARES));
}

// ---------------------------------------------------------------------------------------------
// Notation and display

std::string Position::moveToUci(Move m) const {
    if (m == MOVE_NONE || m == MOVE_NULL) return "0000";
    Square from = fromSq(m), to = toSq(m);
    // Standard notation names the king's destination, on the king's own rank.
    if (typeOf(m) == CASTLING && !chess960) to = makeSquare(fileOf(castlingKingTo(WHITE, to > from)), rankOf(from));
    std::string s = {char('a' + fileOf(from)), char('1' + rankOf(from)), char('a' + fileOf(to)),
                     char('1' + rankOf(to))};
    if (typeOf(m) == PROMOTION) s += " pnbrqk"[promotionType(m)];
    return s;
}

Move Position::parseUciMove(const std::string& text) const {
    if (text.size() < 4 || text.size() > 5) return MOVE_NONE;
    for (Move m : MoveList<LEGAL>(*this)) {
        if (moveToUci(m) == text) return m;
        // Accept king-takes-rook castling in standard chess too: some GUIs send it.
        if (typeOf(m) == CASTLING && !chess960) {
            std::string alt = {char('a' + fileOf(fromSq(m))), char('1' + rankOf(fromSq(m))),
                               char('a' + fileOf(toSq(m))), char('1' + rankOf(toSq(m)))};
            if (alt == text) return m;
        }
    }
    return MOVE_NONE;
}

std::string Position::pretty() const {
    std::ostringstream out;
    out << "\n +---+---+---+---+---+---+---+---+\n";
    for (int r = 7; r >= 0; --r) {
        for (int f = 0; f < 8; ++f) out << " | " << PIECE_CHARS[board[makeSquare(f, r)]];
        out << " | " << r + 1 << "\n +---+---+---+---+---+---+---+---+\n";
    }
    out << "   a   b   c   d   e   f   g   h\n\nFen: " << fen() << "\n";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%016llX", (unsigned long long)key());
    out << "Key: " << buf;
    std::snprintf(buf, sizeof buf, "%016llX", (unsigned long long)pawnKey());
    out << "\nPawn key: " << buf;
    std::snprintf(buf, sizeof buf, "%016llX", (unsigned long long)materialKey());
    out << "\nMaterial key: " << buf << "\nMaterial index: ";
    if (materialIndex() == materialindex::OVERFLOW_INDEX) out << "overflow";
    else out << materialIndex();
    out << "\nCheckers:";
    for (Bitboard b = checkers(); b;) {
        Square s = popLsb(b);
        out << ' ' << char('a' + fileOf(s)) << char('1' + rankOf(s));
    }
    out << "\n";
    return out.str();
}
