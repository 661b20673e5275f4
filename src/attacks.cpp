#include "attacks.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace attacks {

Magic rookMagics[SQUARE_NB];
Magic bishopMagics[SQUARE_NB];
Bitboard pawnAttacks[COLOR_NB][SQUARE_NB];
Bitboard knightAttacks[SQUARE_NB];
Bitboard kingAttacks[SQUARE_NB];
Bitboard emptyBoardAttacks[PIECE_TYPE_NB][SQUARE_NB];
Bitboard between[SQUARE_NB][SQUARE_NB];
Bitboard line[SQUARE_NB][SQUARE_NB];
std::uint8_t knightDistance[SQUARE_NB][SQUARE_NB];

namespace {

Bitboard rookTable[0x19000];
Bitboard bishopTable[0x1480];

// Step from s by (df, dr) if that stays on the board.
Bitboard stepBB(Square s, int df, int dr) {
    int f = fileOf(s) + df, r = rankOf(s) + dr;
    return (f >= 0 && f < 8 && r >= 0 && r < 8) ? squareBB(makeSquare(f, r)) : 0;
}

// Magic multipliers, found once by a sparse random trial search (xorshift64*, fixed seed) and
// kept here because that search takes a quarter of a second; init() still checks every one.
constexpr Bitboard ROOK_MAGICS[SQUARE_NB] = {
    0x08800018c0036080ULL, 0x0240001000200040ULL, 0x4100102000084100ULL, 0x0080080010008004ULL, 0x0900080050440300ULL,
    0x2080012400804200ULL, 0x0080008002000100ULL, 0x0180104260800100ULL, 0x00008002209a4001ULL, 0x2002002204448901ULL,
    0x00c2002040108203ULL, 0x1000800800100080ULL, 0x8089808004000800ULL, 0x1700800400020080ULL, 0x0121004200048100ULL,
    0xa1fd0000c200ab00ULL, 0x0040028001806151ULL, 0x8220004030004000ULL, 0x0120018020811001ULL, 0x4011010010000820ULL,
    0x8004808004000800ULL, 0x000a808004010200ULL, 0x0900040041089002ULL, 0x004002000108608cULL, 0x0420822580004008ULL,
    0x0040200080400080ULL, 0x2000104100200901ULL, 0x2040080080801000ULL, 0x0004008080080004ULL, 0x81a2000404001020ULL,
    0x0045104400020881ULL, 0x2080004200008104ULL, 0x1220400020800080ULL, 0x4800201008400040ULL, 0x8100802000801000ULL,
    0x8002002042000810ULL, 0x0400800400800800ULL, 0x2020800200800400ULL, 0x1c09000401000200ULL, 0x8100014406002281ULL,
    0x0042308840008000ULL, 0x0800400020008080ULL, 0x100c820010220040ULL, 0x0010030008110020ULL, 0x0400040008008080ULL,
    0x0424020004008080ULL, 0x0000100802040081ULL, 0x51001404418a0001ULL, 0x0000804021120a00ULL, 0x04c0002000500040ULL,
    0x0800420020188200ULL, 0x2006120008402200ULL, 0x2200280080040180ULL, 0x0008040002008080ULL, 0x4084800200010080ULL,
    0x8040040040810200ULL, 0x080210a108408001ULL, 0x0000110040802202ULL, 0x4106001810c082a2ULL, 0x4000082010000501ULL,
    0x8002000950046002ULL, 0x202200d004210802ULL, 0x0000010210084084ULL, 0x8000140900204282ULL,
};
constexpr Bitboard BISHOP_MAGICS[SQUARE_NB] = {
    0x0004840084110201ULL, 0x1202047c04124400ULL, 0x0504082e0048c880ULL, 0x8104041480205200ULL, 0x0102021001000200ULL,
    0xa018280410018000ULL, 0x090228062a105000ULL, 0x1882c40208110409ULL, 0x2088a22002020050ULL, 0x0024908a00940180ULL,
    0x30401000a0810080ULL, 0x400008a082010010ULL, 0x210001104014244cULL, 0xa022020124208120ULL, 0x008b004210052022ULL,
    0x0000c08080901001ULL, 0x1008000548080834ULL, 0x8808002011250220ULL, 0x2001113000488100ULL, 0xc000857802004042ULL,
    0x0084820400a01104ULL, 0x8001010c20884000ULL, 0x0002210302a22000ULL, 0xc840800a0a210118ULL, 0x2044101141124880ULL,
    0x0801080024900410ULL, 0x1108900002002204ULL, 0x01010801040a0060ULL, 0x4402040002008218ULL, 0x0240948018080400ULL,
    0x00a401004090b041ULL, 0x1a60820245004210ULL, 0x0002201012061004ULL, 0x221288b401202403ULL, 0x000010880810084cULL,
    0x8004040400c80210ULL, 0x6040008020060020ULL, 0x0c20080080004040ULL, 0x48020c1900042091ULL, 0x0001211204b02600ULL,
    0x8804100410000610ULL, 0x000e0a1004000218ULL, 0xa041040202000108ULL, 0x5028004208030080ULL, 0x4002400109040200ULL,
    0x0012200400204302ULL, 0x0660c10202204080ULL, 0x400a0425d0848200ULL, 0x1001010120210218ULL, 0x4801004802080040ULL,
    0x0000438048220100ULL, 0x8000040042022000ULL, 0x0080001202020020ULL, 0x02400420848100a0ULL, 0x84b0020a080e0000ULL,
    0x0013100121090020ULL, 0x0012020202010432ULL, 0x0860002082282000ULL, 0x0200008080480801ULL, 0x0401000010840440ULL,
    0x102008c611020200ULL, 0x000000a020020084ULL, 0x0a51042034012609ULL, 0x0410101029044010ULL,
};

// Fills each square's slice of the shared table; a destructive collision means a wrong magic.
void initMagics(PieceType pt, const Bitboard* multipliers, Magic* magics, Bitboard* table) {
    Bitboard* next = table;
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        Magic& m = magics[s];
        m.mask = relevantMask(pt, s);
        m.magic = multipliers[s];
        m.shift = 64 - popcount(m.mask);
        m.table = next;
        size_t size = size_t(1) << popcount(m.mask);
        std::fill(m.table, m.table + size, Bitboard(0));
        Bitboard subset = 0;
        do {  // Carry-Rippler walk over every subset of the mask
            Bitboard reach = slidingAttacks(pt, s, subset);
            Bitboard& slot = m.table[m.index(subset)];
            if (slot && slot != reach) {
                std::fprintf(stderr, "internal error: bad magic for square %d\n", int(s));
                std::abort();
            }
            slot = reach;
            subset = (subset - m.mask) & m.mask;
        } while (subset);
        next += size;
    }
}

}  // namespace

Bitboard slidingAttacks(PieceType pt, Square s, Bitboard occupied) {
    static const int rookSteps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static const int bishopSteps[4][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
    const int(*steps)[2] = pt == ROOK ? rookSteps : bishopSteps;
    Bitboard result = 0;
    for (int d = 0; d < 4; ++d) {
        int f = fileOf(s) + steps[d][0], r = rankOf(s) + steps[d][1];
        for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += steps[d][0], r += steps[d][1]) {
            result |= squareBB(makeSquare(f, r));
            if (occupied & squareBB(makeSquare(f, r))) break;
        }
    }
    return result;
}

Bitboard relevantMask(PieceType pt, Square s) {
    Bitboard edges = ((RANK_1_BB | RANK_8_BB) & ~rankBB(s)) | ((FILE_A_BB | FILE_H_BB) & ~fileBB(s));
    return slidingAttacks(pt, s, 0) & ~edges;
}

void init() {
    static bool done = false;
    if (done) return;

    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        pawnAttacks[WHITE][s] = stepBB(s, -1, 1) | stepBB(s, 1, 1);
        pawnAttacks[BLACK][s] = stepBB(s, -1, -1) | stepBB(s, 1, -1);
        knightAttacks[s] = kingAttacks[s] = 0;
        for (int df = -2; df <= 2; ++df)
            for (int dr = -2; dr <= 2; ++dr) {
                if (df * df + dr * dr == 5) knightAttacks[s] |= stepBB(s, df, dr);
                if (df * df + dr * dr <= 2 && (df || dr)) kingAttacks[s] |= stepBB(s, df, dr);
            }
    }

    initMagics(ROOK, ROOK_MAGICS, rookMagics, rookTable);
    initMagics(BISHOP, BISHOP_MAGICS, bishopMagics, bishopTable);
#ifdef QUADBIT_USE_PEXT
    simd::initPext();
#endif

    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        emptyBoardAttacks[BISHOP][s] = slidingAttacks(BISHOP, s, 0);
        emptyBoardAttacks[ROOK][s] = slidingAttacks(ROOK, s, 0);
        emptyBoardAttacks[QUEEN][s] = emptyBoardAttacks[BISHOP][s] | emptyBoardAttacks[ROOK][s];
    }
    for (Square a = SQ_A1; a <= SQ_H8; ++a)
        for (Square b = SQ_A1; b <= SQ_H8; ++b) {
            between[a][b] = line[a][b] = 0;
            if (a == b) continue;
            for (PieceType pt : {BISHOP, ROOK})
                if (slidingAttacks(pt, a, 0) & squareBB(b)) {
                    line[a][b] = (slidingAttacks(pt, a, 0) & slidingAttacks(pt, b, 0)) | squareBB(a) | squareBB(b);
                    between[a][b] = slidingAttacks(pt, a, squareBB(b)) & slidingAttacks(pt, b, squareBB(a));
                }
        }
    // Knight distances by breadth-first search from every square.
    for (Square a = SQ_A1; a <= SQ_H8; ++a) {
        Bitboard seen = squareBB(a), frontier = seen;
        knightDistance[a][a] = 0;
        for (int d = 1; frontier; ++d) {
            Bitboard next = 0;
            for (Bitboard f = frontier; f;) next |= knightAttacks[popLsb(f)];
            next &= ~seen;
            for (Bitboard n = next; n;) knightDistance[a][popLsb(n)] = std::uint8_t(d);
            seen |= next;
            frontier = next;
        }
    }
    done = true;
}

}  // namespace attacks
