#include "eval.h"

#include <sstream>

namespace {

constexpr Score PIECE_VALUE[PIECE_TYPE_NB] = {S(0, 0), S(80, 110), S(320, 300), S(330, 320), S(480, 540), S(960, 1000), S(0, 0)};
constexpr int PHASE_WEIGHT[PIECE_TYPE_NB] = {0, 0, 1, 1, 2, 4, 0};
constexpr int MAX_PHASE = 24;

int centrality(Square s) { return 3 - std::min(std::min(fileOf(s), 7 - fileOf(s)), std::min(rankOf(s), 7 - rankOf(s))) ; }

Score placement(PieceType pt, Color c, Square s) {
    int centre = 3 - centrality(s);  // 0 on the edge .. 3 in the centre
    int rank = relativeRank(c, s);
    switch (pt) {
    case PAWN: return S(4 * rank * (fileOf(s) >= 2 && fileOf(s) <= 5), 6 * rank);
    case KNIGHT: return S(10 * centre - 10, 8 * centre - 10);
    case BISHOP: return S(5 * centre, 5 * centre);
    case ROOK: return S(rank == 6 ? 15 : 0, 0);
    case QUEEN: return S(2 * centre, 5 * centre);
    case KING: return S(rank == 0 ? 10 - 5 * centre : -20 * rank, 12 * centre - 15);
    default: return SCORE_ZERO;
    }
}

}  // namespace

Value evaluate(const Position& pos, EvalCache&) {
    Score score = SCORE_ZERO;
    int phase = 0;
    for (Bitboard b = pos.pieces(); b;) {
        Square s = popLsb(b);
        Piece pc = pos.pieceOn(s);
        Score term = PIECE_VALUE[typeOf(pc)] + placement(typeOf(pc), colorOf(pc), s);
        score += colorOf(pc) == WHITE ? term : -term;
        phase += PHASE_WEIGHT[typeOf(pc)];
    }
    phase = std::min(phase, MAX_PHASE);
    int v = (mgValue(score) * phase + egValue(score) * (MAX_PHASE - phase)) / MAX_PHASE;
    return (pos.sideToMove() == WHITE ? v : -v) + 10;
}

std::string evalTrace(const Position& pos) {
    EvalCache cache;
    Value v = evaluate(pos, cache);
    if (pos.sideToMove() == BLACK) v = -v;
    std::ostringstream out;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.2f", v / 100.0);
    out << "Final evaluation: " << buf << " (white side)";
    return out.str();
}
