#include "eval/eval.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <type_traits>

#include "eval/evalparams.h"
#include "eval/material.h"

using namespace params;

namespace {

enum Term {
    MATERIAL,
    IMBALANCE,
    PAWN_STRUCTURE,
    MOBILITY,
    KING_SAFETY,
    THREATS,
    PASSED_PAWNS,
    MINORS,
    ROOKS_TERM,
    TEMPO_TERM,
    TERM_NB
};
const char* const TERM_NAMES[TERM_NB] = {"Material", "Imbalance",    "Pawns",  "Mobility", "King safety",
                                         "Threats",  "Passed pawns", "Minors", "Rooks",    "Tempo"};

// Per-colour terms collected when tracing (the `eval` command), and, when asked for, every use
// of a weight (the tuner).
struct Trace {
    Score terms[TERM_NB][COLOR_NB] = {};
    EvalTrace* weights = nullptr;
};

template <bool Tracing>
class Evaluation {
public:
    // Tracing evaluations compute the pawn structure afresh and need no table.
    Evaluation(const Position& p, pawns::Table* pawnTable, Trace* t) : pos(p), pawnsTable(pawnTable), trace(t) {}
    Value value();

    int phase = 0, scale = SCALE_NORMAL;
    Value mg = 0, eg = 0;
    bool special = false;

private:
    void add(Term term, Color c, Score s) {
        if constexpr (Tracing) trace->terms[term][c] += s;
    }
    template <typename Weight>
    void use(const Weight& w, Color c, int n = 1) {
        if constexpr (Tracing)
            if (trace->weights) trace->weights->add(w, c, n);
    }
    // An input of the danger to `king`'s king: an int weight of the sum, or a shelter Score.
    template <typename Weight>
    void useInDanger(const Weight& w, Color king, int n = 1) {
        if constexpr (Tracing)
            if (trace->weights && n) trace->weights->danger[king].push_back({&w, n, std::is_same_v<Weight, Score>});
    }
    void fixed(Color c, Score s) {
        if constexpr (Tracing)
            if (trace->weights) trace->weights->fixed[c] += s;
    }
    template <Color Us>
    void initialize();
    template <Color Us>
    Score pieces();
    template <Color Us>
    Score kingSafety();
    template <Color Us>
    Score threats();
    template <Color Us>
    Score passedPawns();

    const Position& pos;
    pawns::Table* pawnsTable;
    Trace* trace;
    const pawns::Entry* pe = nullptr;
    Bitboard attackedBy[COLOR_NB][PIECE_TYPE_NB] = {};  // [c][NO_PIECE_TYPE]: by anything
    Bitboard attackedTwice[COLOR_NB] = {};
    Bitboard mobilityArea[COLOR_NB] = {};
    Bitboard kingRing[COLOR_NB] = {};
    int kingAttackers[COLOR_NB] = {}, kingAttackWeight[COLOR_NB] = {}, kingRingAttacks[COLOR_NB] = {};
};

template <bool Tracing>
template <Color Us>
void Evaluation<Tracing>::initialize() {
    constexpr Color Them = ~Us;
    const Square ksq = pos.kingSquare(Us);
    // Pawns that are blocked or on the first two ranks do not count as mobility room, nor do
    // our king and the squares enemy pawns attack.
    Bitboard lowRanks = Us == WHITE ? rankBB(1) | rankBB(2) : rankBB(6) | rankBB(5);
    Bitboard blocked = pos.pieces(Us, PAWN) & (shift<(Us == WHITE ? SOUTH : NORTH)>(pos.pieces()) | lowRanks);
    mobilityArea[Us] = ~(blocked | pos.pieces(Us, KING) | pe->attacks[Them]);

    attackedBy[Us][KING] = kingAttacks(ksq);
    attackedBy[Us][PAWN] = pe->attacks[Us];
    attackedBy[Us][NO_PIECE_TYPE] = attackedBy[Us][KING] | attackedBy[Us][PAWN];
    attackedTwice[Us] = attackedBy[Us][KING] & attackedBy[Us][PAWN];

    // The king ring: the squares around the king, pushed off the edge so it is always 3x3.
    Square centre = makeSquare(std::clamp(fileOf(ksq), 1, 6), std::clamp(rankOf(ksq), 1, 6));
    kingRing[Us] = (kingAttacks(centre) | squareBB(centre)) & ~(pe->attacks[Us] & ~pe->attacks[Them]);
}

template <bool Tracing>
template <Color Us>
Score Evaluation<Tracing>::pieces() {
    constexpr Color Them = ~Us;
    constexpr Direction Down = Us == WHITE ? SOUTH : NORTH;
    constexpr Bitboard OutpostRanks =
        Us == WHITE ? rankBB(3) | rankBB(4) | rankBB(5) : rankBB(4) | rankBB(3) | rankBB(2);
    // An outpost: a square an own pawn defends and no enemy pawn can ever attack, so that only a
    // piece can drive a minor from it (evalparams.h).
    const Bitboard outposts = OutpostRanks & pe->attacks[Us] & ~pe->attackSpan[Them];
    const Bitboard behindPawns = shift<Down>(pos.pieces(PAWN));
    Score mobility = SCORE_ZERO, minors = SCORE_ZERO, rooks = SCORE_ZERO;
    auto bonus = [&](Score& term, const Score& w, int n = 1) {
        term += w * n;
        use(w, Us, n);
    };
    for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) {
        for (Bitboard b = pos.pieces(Us, pt); b;) {
            Square s = popLsb(b);
            // Sliders see through their own queen (and rooks through own rooks) for attacks.
            Bitboard occupied = pos.pieces();
            if (pt == BISHOP) occupied ^= pos.pieces(Us, QUEEN);
            if (pt == ROOK) occupied ^= pos.pieces(Us, QUEEN) | pos.pieces(Us, ROOK);
            Bitboard att = attacksBB(pt, s, occupied);
            // A pinned piece moves only along its pin.
            if (pos.blockersFor(pos.kingSquare(Us), pos.pieces(Them)) & squareBB(s))
                att &= lineBB(pos.kingSquare(Us), s);

            attackedTwice[Us] |= attackedBy[Us][NO_PIECE_TYPE] & att;
            attackedBy[Us][pt] |= att;
            attackedBy[Us][NO_PIECE_TYPE] |= att;

            if (att & kingRing[Them]) {
                ++kingAttackers[Us];
                kingAttackWeight[Us] += KING_ATTACK_WEIGHT[pt];
                useInDanger(KING_ATTACK_WEIGHT[pt], Them);
                kingRingAttacks[Us] += popcount(att & kingRing[Them]);
            }

            int count = popcount(att & mobilityArea[Us]);
            const Score& m = pt == KNIGHT   ? KNIGHT_MOBILITY[count]
                             : pt == BISHOP ? BISHOP_MOBILITY[count]
                             : pt == ROOK   ? ROOK_MOBILITY[count]
                                            : QUEEN_MOBILITY[count];
            mobility += m;
            use(m, Us);

            if (pt == KNIGHT || pt == BISHOP) {
                if (outposts & squareBB(s)) bonus(minors, pt == KNIGHT ? KNIGHT_OUTPOST : BISHOP_OUTPOST);
                if (behindPawns & squareBB(s)) bonus(minors, MINOR_BEHIND_PAWN);
                if (pt == BISHOP)
                    bonus(minors, BISHOP_PAWNS,
                          popcount(pos.pieces(Us, PAWN) & (isLightSquare(s) ? LIGHT_SQUARES : DARK_SQUARES)));
            }
            if (pt == ROOK) {
                if (pe->semiOpenFiles[Us] >> fileOf(s) & 1)
                    bonus(rooks, (pe->semiOpenFiles[Them] >> fileOf(s) & 1) ? ROOK_OPEN_FILE : ROOK_SEMI_OPEN_FILE);
                if (relativeRank(Us, s) == 6 &&
                    (relativeRank(Us, pos.kingSquare(Them)) == 7 || (pos.pieces(Them, PAWN) & rankBB(s))))
                    bonus(rooks, ROOK_ON_SEVENTH);
            }
        }
    }
    add(MOBILITY, Us, mobility);
    add(MINORS, Us, minors);
    add(ROOKS_TERM, Us, rooks);
    return mobility + minors + rooks;
}

template <bool Tracing>
template <Color Us>
Score Evaluation<Tracing>::kingSafety() {
    constexpr Color Them = ~Us;
    const Square ksq = pos.kingSquare(Us);
    Score score = SCORE_ZERO;

    // Pawn shelter in front of the king and enemy pawns storming towards it.
    int kf = std::clamp(fileOf(ksq), 1, 6);
    Bitboard ahead = pawns::frontSpan(Us, rankBB(ksq)) | rankBB(ksq);
    for (int f = kf - 1; f <= kf + 1; ++f) {
        Bitboard ours = pos.pieces(Us, PAWN) & fileBB(f) & ahead;
        Bitboard theirs = pos.pieces(Them, PAWN) & fileBB(f) & ahead;
        int ourRank = ours ? relativeRank(Us, Us == WHITE ? lsb(ours) : msb(ours)) : 0;
        int theirRank = theirs ? relativeRank(Us, Us == WHITE ? lsb(theirs) : msb(theirs)) : 0;
        score += PAWN_SHELTER[std::min(f, 7 - f)][ourRank];
        use(PAWN_SHELTER[std::min(f, 7 - f)][ourRank], Us);
        useInDanger(PAWN_SHELTER[std::min(f, 7 - f)][ourRank], Us);
        if (theirRank && theirRank != ourRank + 1) {  // a blocked stormer is no threat
            score += PAWN_STORM[theirRank];
            use(PAWN_STORM[theirRank], Us);
            useInDanger(PAWN_STORM[theirRank], Us);
        }
    }

    // Attacks: weight of the attackers, attacks on the ring, weak ring squares and safe checks.
    Bitboard weak = attackedBy[Them][NO_PIECE_TYPE] & ~attackedTwice[Us] &
                    (~attackedBy[Us][NO_PIECE_TYPE] | attackedBy[Us][KING] | attackedBy[Us][QUEEN]);
    Bitboard safe = ~pos.pieces(Them) & (~attackedBy[Us][NO_PIECE_TYPE] | (weak & attackedTwice[Them]));
    Bitboard rookLines = rookAttacks(ksq, pos.pieces() ^ pos.pieces(Us, QUEEN));
    Bitboard bishopLines = bishopAttacks(ksq, pos.pieces() ^ pos.pieces(Us, QUEEN));

    int danger = 0;
    if (kingAttackers[Them] >= 1 + !pos.count(Them, QUEEN)) {
        const int weakRing = popcount(kingRing[Us] & weak);
        const bool checks[PIECE_TYPE_NB] = {
            false,
            false,
            bool(knightAttacks(ksq) & attackedBy[Them][KNIGHT] & safe),
            bool(bishopLines & attackedBy[Them][BISHOP] & safe),
            bool(rookLines & attackedBy[Them][ROOK] & safe),
            bool((rookLines | bishopLines) & attackedBy[Them][QUEEN] & safe & ~attackedBy[Us][QUEEN])};
        const bool noQueen = !pos.count(Them, QUEEN);
        danger = kingAttackWeight[Them] + KING_RING_ATTACKS * kingRingAttacks[Them] + WEAK_RING_SQUARE * weakRing +
                 NO_ENEMY_QUEEN * noQueen - mgValue(score) / 2;
        for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) danger += SAFE_CHECK[pt] * checks[pt];
        if constexpr (Tracing)
            if (trace->weights) {
                trace->weights->attacked[Us] = true;
                useInDanger(KING_RING_ATTACKS, Us, kingRingAttacks[Them]);
                useInDanger(WEAK_RING_SQUARE, Us, weakRing);
                useInDanger(NO_ENEMY_QUEEN, Us, noQueen);
                for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) useInDanger(SAFE_CHECK[pt], Us, checks[pt]);
            }
    }
    // Quadratic in the attack, so that several attackers count for much more than one.
    if (danger > 0) score -= S(danger * danger / KING_DANGER_MG_DIVISOR, danger / KING_DANGER_EG_DIVISOR);
    add(KING_SAFETY, Us, score);
    return score;
}

template <bool Tracing>
template <Color Us>
Score Evaluation<Tracing>::threats() {
    constexpr Color Them = ~Us;
    Score score = SCORE_ZERO;
    const Bitboard nonPawnEnemies = pos.pieces(Them) & ~pos.pieces(Them, PAWN, KING);

    const int byPawn = popcount(pawnAttacksBB<Us>(pos.pieces(Us, PAWN)) & nonPawnEnemies);
    score += THREAT_BY_PAWN * byPawn;
    use(THREAT_BY_PAWN, Us, byPawn);

    // Enemies not defended by a pawn, or attacked and not defended at all.
    Bitboard targets = pos.pieces(Them) & ~pos.pieces(Them, KING) & ~attackedBy[Them][PAWN];
    for (Bitboard b = targets & (attackedBy[Us][KNIGHT] | attackedBy[Us][BISHOP]); b;) {
        const Score& t = THREAT_BY_MINOR[typeOf(pos.pieceOn(popLsb(b)))];
        score += t;
        use(t, Us);
    }
    for (Bitboard b = targets & attackedBy[Us][ROOK]; b;) {
        const Score& t = THREAT_BY_ROOK[typeOf(pos.pieceOn(popLsb(b)))];
        score += t;
        use(t, Us);
    }
    const int hanging = popcount(targets & attackedBy[Us][NO_PIECE_TYPE] & ~attackedBy[Them][NO_PIECE_TYPE]);
    score += HANGING * hanging;
    use(HANGING, Us, hanging);

    // Pawn pushes (one step, or two from the second rank) to a square no enemy pawn attacks and
    // that we hold if they attack it, attacking a piece: a threat one move away.
    constexpr Direction Up = Us == WHITE ? NORTH : SOUTH;
    constexpr Bitboard ThirdRank = Us == WHITE ? rankBB(2) : rankBB(5);
    const Bitboard empty = ~pos.pieces();
    Bitboard pushes = shift<Up>(pos.pieces(Us, PAWN)) & empty;
    pushes |= shift<Up>(pushes & ThirdRank) & empty;
    pushes &= ~attackedBy[Them][PAWN] & (attackedBy[Us][NO_PIECE_TYPE] | ~attackedBy[Them][NO_PIECE_TYPE]);
    const int pushThreats = popcount(pawnAttacksBB<Us>(pushes) & nonPawnEnemies);
    score += THREAT_BY_PAWN_PUSH * pushThreats;
    use(THREAT_BY_PAWN_PUSH, Us, pushThreats);
    add(THREATS, Us, score);
    return score;
}

template <bool Tracing>
template <Color Us>
Score Evaluation<Tracing>::passedPawns() {
    constexpr Color Them = ~Us;
    constexpr Direction Up = Us == WHITE ? NORTH : SOUTH;
    Score score = SCORE_ZERO;

    for (Bitboard b = pe->passed[Us]; b;) {
        Square s = popLsb(b);
        int rank = relativeRank(Us, s);
        Square stop = s + Up;

        // Kings near the square in front matter more the further the pawn has come.
        const int theirDistance = std::min(distance(pos.kingSquare(Them), stop), 5);
        const int ourDistance = std::min(distance(pos.kingSquare(Us), stop), 5);
        score += S(0, PASSED_ENEMY_KING_DISTANCE[rank] * theirDistance - PASSED_OWN_KING_DISTANCE[rank] * ourDistance);
        use(PASSED_ENEMY_KING_DISTANCE[rank], Us, theirDistance);
        use(PASSED_OWN_KING_DISTANCE[rank], Us, -ourDistance);

        Bitboard path = pawns::frontSpan(Us, squareBB(s));
        if (!pos.empty(stop)) {
            score += PASSED_BLOCKED;
            use(PASSED_BLOCKED, Us);
        } else if (!(path & (pos.pieces() | attackedBy[Them][NO_PIECE_TYPE]))) {
            score += PASSED_FREE_PATH[rank];
            use(PASSED_FREE_PATH[rank], Us);
        }

        // A pawn nothing can stop: against a king and at most minor pieces, no defender can
        // reach a square of its path before the pawn does. Worth about a piece: not tuned.
        if (!pos.pieces(Them, ROOK) && !pos.pieces(Them, QUEEN) && !(path & pos.pieces(Us)) &&
            !endgame::passerStoppable(pos, Us, s, attackedBy[Us][NO_PIECE_TYPE])) {
            score += S(0, UNSTOPPABLE_PASSER + 20 * rank);
            fixed(Us, S(0, UNSTOPPABLE_PASSER + 20 * rank));
        }
    }
    add(PASSED_PAWNS, Us, score);
    return score;
}

template <bool Tracing>
Value Evaluation<Tracing>::value() {
    const material::Entry me = material::probe(pos);
    const endgame::Id id = me.endgameId();
    if (endgame::isEvaluator(id)) {
        Value v = endgame::evaluate(id, me.strongSide(), pos);
        if (v != VALUE_NONE) {
            special = true;
            if constexpr (Tracing)
                if (trace->weights) trace->weights->special = true;
            return pos.sideToMove() == WHITE ? v : -v;
        }
    }

    pawns::Entry traced;
    if constexpr (Tracing) {
        // Computed afresh, so that the weights of the pawn structure are recorded.
        traced = pawns::evaluate(pos, trace->weights);
        pe = &traced;
        if (trace->weights) material::traceImbalance(pos, *trace->weights);
    } else pe = &pawnsTable->probe(pos);
    Score score = me.imbalance + pe->score;
    add(IMBALANCE, WHITE, me.imbalance);
    add(PAWN_STRUCTURE, WHITE, pe->sideScore[WHITE]);
    add(PAWN_STRUCTURE, BLACK, pe->sideScore[BLACK]);

    // Material and piece-square tables.
    for (Bitboard b = pos.pieces(); b;) {
        Square s = popLsb(b);
        Piece pc = pos.pieceOn(s);
        Color c = colorOf(pc);
        Score term = PIECE_VALUE[typeOf(pc)] + PST[typeOf(pc)][relativeSquare(c, s)];
        score += c == WHITE ? term : -term;
        add(MATERIAL, c, term);
        use(PIECE_VALUE[typeOf(pc)], c);
        use(PST[typeOf(pc)][relativeSquare(c, s)], c);
    }

    initialize<WHITE>();
    initialize<BLACK>();
    score += pieces<WHITE>() - pieces<BLACK>();
    score += kingSafety<WHITE>() - kingSafety<BLACK>();
    score += threats<WHITE>() - threats<BLACK>();
    score += passedPawns<WHITE>() - passedPawns<BLACK>();
    Score tempo = pos.sideToMove() == WHITE ? TEMPO : -TEMPO;
    score += tempo;
    add(TEMPO_TERM, pos.sideToMove(), TEMPO);
    use(TEMPO, pos.sideToMove());

    mg = mgValue(score);
    eg = egValue(score);
    phase = me.phase;
    // The side ahead in the endgame is the one the scale factor speaks of.
    Color leader = eg > 0 || (eg == 0 && mg > 0) ? WHITE : BLACK;
    scale = me.scale[leader];
    if (id != endgame::NONE && me.appliesTo(leader)) scale = endgame::scale(id, leader, pos, *pe, scale);

    // The scale factor speaks of the whole position (it comes from the material), so it applies
    // to the blended value, not only to its endgame part.
    Value v = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE * scale / SCALE_NORMAL;
    if constexpr (Tracing)
        if (trace->weights) {
            trace->weights->phase = phase;
            trace->weights->scale = scale;
        }
    return pos.sideToMove() == WHITE ? v : -v;
}

std::string pawnsText(Value v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.2f", v / 100.0);
    return buf;
}

std::string formatPawns(int cp) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+6.2f", cp / 100.0);
    return buf;
}

}  // namespace

Value evaluate(const Position& pos, EvalCache& cache) { return Evaluation<false>(pos, &cache.pawns, nullptr).value(); }

namespace {

// The two halves of the seeds' knowledge from one material-table entry, so that the network's
// evaluation probes the table once.
Value knownValue(const Position& pos, const material::Entry& me) {
    const endgame::Id id = me.endgameId();
    if (!endgame::isEvaluator(id)) return VALUE_NONE;
    const Value v = endgame::evaluate(id, me.strongSide(), pos);
    return v == VALUE_NONE || pos.sideToMove() == WHITE ? v : -v;
}

int knownScale(const Position& pos, EvalCache& cache, const material::Entry& me, Color leader) {
    const endgame::Id id = me.endgameId();
    if (id != endgame::NONE && me.appliesTo(leader))
        return endgame::scale(id, leader, pos, cache.pawns.probe(pos), me.scale[leader]);
    return me.scale[leader];
}

}  // namespace

Value knownValue(const Position& pos) { return knownValue(pos, material::probe(pos)); }

int knownScale(const Position& pos, EvalCache& cache, Color leader) {
    return knownScale(pos, cache, material::probe(pos), leader);
}

Value withKnowledge(const Position& pos, EvalCache& cache, Value network) {
    const material::Entry me = material::probe(pos);
    if (const Value v = knownValue(pos, me); v != VALUE_NONE) return v;
    const Color leader = network >= 0 ? pos.sideToMove() : ~pos.sideToMove();
    return std::clamp(network * knownScale(pos, cache, me, leader) / SCALE_NORMAL, -VALUE_TB_WIN_IN_MAX_PLY + 1,
                      VALUE_TB_WIN_IN_MAX_PLY - 1);
}

Value evaluateWeights(const Position& pos, EvalTrace& weights) {
    Trace trace;
    trace.weights = &weights;
    Value v = Evaluation<true>(pos, nullptr, &trace).value();
    return pos.sideToMove() == WHITE ? v : -v;
}

std::string evalTrace(const Position& pos, const nnue::Network* network) {
    Trace trace;
    Evaluation<true> e(pos, nullptr, &trace);
    Value v = e.value();
    if (pos.sideToMove() == BLACK) v = -v;
    std::ostringstream out;
    if (pos.inCheck()) out << "(in check: the search would not evaluate this position statically)\n";
    if (e.special) {
        out << "Special endgame evaluation (material table)\n";
    } else {
        out << "     Term     |     White     |     Black     |     Total\n"
            << "              |   MG     EG   |   MG     EG   |   MG     EG\n"
            << " -------------+---------------+---------------+---------------\n";
        for (int t = 0; t < TERM_NB; ++t) {
            Score w = trace.terms[t][WHITE], b = trace.terms[t][BLACK];
            char line[128];
            std::snprintf(line, sizeof line, " %-12s | %s %s | %s %s | %s %s\n", TERM_NAMES[t],
                          formatPawns(mgValue(w)).c_str(), formatPawns(egValue(w)).c_str(),
                          formatPawns(mgValue(b)).c_str(), formatPawns(egValue(b)).c_str(),
                          formatPawns(mgValue(w) - mgValue(b)).c_str(), formatPawns(egValue(w) - egValue(b)).c_str());
            out << line;
        }
        out << "\nPhase: " << e.phase << "/" << MAX_PHASE << ", scale factor: " << e.scale << "/" << SCALE_NORMAL
            << "\n";
    }
    const auto white = [&](Value stm) { return pawnsText(pos.sideToMove() == WHITE ? stm : -stm); };
    if (!network) {
        out << "Final evaluation: " << pawnsText(v) << " (white side)";
        return out.str();
    }
    char checksum[16];
    std::snprintf(checksum, sizeof checksum, "%08x", network->checksum);
    out << "Hand-written evaluation: " << pawnsText(v) << " (white side)\nNetwork " << checksum << ", "
        << network->shape() << ": " << (network->description.empty() ? "(no description)" : network->description)
        << "\n";
    const Value raw = network->evaluate(pos);
    EvalCache cache;
    out << "Network: " << white(raw) << " (white side)\nFinal evaluation: " << white(withKnowledge(pos, cache, raw))
        << " (white side, the network with the seeds' knowledge)";
    return out.str();
}
