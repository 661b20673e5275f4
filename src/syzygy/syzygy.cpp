#include "syzygy/syzygy.h"


#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "movegen.h"
#include "platform.h"

namespace syzygy {

namespace {

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr int MAX_PIECES = 7;

// ---------------------------------------------------------------------------------------------
// The generator's numbering of positions: how pieces on squares become an index into a table.
// Squares are folded by the board's symmetries first (left-right always, and for pawnless
// tables up-down and along the a1-h8 diagonal), then groups of alike pieces are counted as
// combinations of the free squares.
struct Numbering {
    int pawnSlot[64] = {};       // a2..h7 -> 47..0: the lead pawn is the one with the highest
    int belowDiagonal[64] = {};  // the 28 squares below a1-h8 -> 0..27
    int triangle[64] = {};       // a1-d1-d4 -> 0..9, the diagonal squares last
    int kings[10][64] = {};      // the 462 placements of two kings, first in the triangle
    u64 binomial[7][64] = {};    // [k][n]: ways to choose k of n
    int leadPawnIndex[6][64] = {};
    int leadPawnsSize[6][4] = {};
};

int offDiagonal(int s) { return (s >> 3) - (s & 7); }  // > 0 above the a1-h8 diagonal
int mirrorFile(int s) { return s ^ 7; }

const Numbering& numbering() {
    static const Numbering n = [] {
        Numbering m;
        int code = 0;
        for (int s = 0; s < 64; ++s)
            if (offDiagonal(s) < 0) m.belowDiagonal[s] = code++;
        code = 0;
        std::vector<int> diagonal;
        for (int s = 0; s <= 27; ++s)
            if ((s & 7) <= 3) {
                if (offDiagonal(s) < 0) m.triangle[s] = code++;
                else if (offDiagonal(s) == 0) diagonal.push_back(s);
            }
        for (int s : diagonal) m.triangle[s] = code++;

        // Two kings: the first on the triangle (b1 numbered 0), not adjacent; when the first is on
        // the diagonal the second is not above it; both on the diagonal come last.
        code = 0;
        std::vector<std::pair<int, int>> bothOnDiagonal;
        for (int t = 0; t < 10; ++t)
            for (int s1 = 0; s1 <= 27; ++s1) {
                if ((s1 & 7) > 3 || offDiagonal(s1) > 0 || m.triangle[s1] != t || (t == 0 && s1 != 1)) continue;
                for (int s2 = 0; s2 < 64; ++s2) {
                    const int fd = std::abs((s1 & 7) - (s2 & 7)), rd = std::abs((s1 >> 3) - (s2 >> 3));
                    if (std::max(fd, rd) <= 1) continue;
                    if (!offDiagonal(s1) && offDiagonal(s2) > 0) continue;
                    if (!offDiagonal(s1) && !offDiagonal(s2)) bothOnDiagonal.emplace_back(t, s2);
                    else m.kings[t][s2] = code++;
                }
            }
        for (auto [t, s2] : bothOnDiagonal) m.kings[t][s2] = code++;

        m.binomial[0][0] = 1;
        for (int n = 1; n < 64; ++n)
            for (int k = 0; k <= 6 && k <= n; ++k)
                m.binomial[k][n] = (k ? m.binomial[k - 1][n - 1] : 0) + (k < n ? m.binomial[k][n - 1] : 0);

        // Pawn squares from the edge inwards and from rank 2 up; then, for each count of lead
        // pawns, where each file's placements start.
        int available = 47;
        for (int leads = 1; leads <= 5; ++leads)
            for (int f = 0; f < 4; ++f) {
                int index = 0;
                for (int r = 1; r <= 6; ++r) {
                    const int s = r * 8 + f;
                    if (leads == 1) {
                        m.pawnSlot[s] = available--;
                        m.pawnSlot[mirrorFile(s)] = available--;
                    }
                    m.leadPawnIndex[leads][s] = index;
                    index += int(m.binomial[leads - 1][m.pawnSlot[s]]);
                }
                m.leadPawnsSize[leads][f] = index;
            }
        return m;
    }();
    return n;
}

// ---------------------------------------------------------------------------------------------
// One compressed table: a file holds one for each side to move (WDL, unless symmetric) and, with
// pawns, for each file a-d of the lead pawn.
template <typename T>
T little(const u8* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
u32 big32(const u8* p) { return u32(p[0]) << 24 | u32(p[1]) << 16 | u32(p[2]) << 8 | p[3]; }
u64 big64(const u8* p) { return u64(big32(p)) << 32 | big32(p + 4); }

enum Flag : u8 { STM = 1, MAPPED = 2, WIN_PLIES = 4, LOSS_PLIES = 8, WIDE = 16, SINGLE_VALUE = 128 };

struct Part {
    u8 flags = 0, maxSymLen = 0, minSymLen = 0;
    u32 blocks = 0, blockLengthSize = 0;
    u64 blockSize = 0, span = 0, sparseSize = 0;
    const u8* lowestSym = nullptr;  // u16 per length
    const u8* tree = nullptr;       // 3 bytes per symbol: left and right children, 12 bits each
    const u8* blockLength = nullptr;
    const u8* sparse = nullptr;  // 6 bytes per entry: block (u32), offset (u16)
    const u8* data = nullptr;
    std::vector<u64> base;         // the lowest code of each length, left-aligned in 64 bits
    std::vector<u8> symbolLength;  // how many values (minus one) a symbol stands for
    u8 pieces[MAX_PIECES] = {};    // piece codes (1-6 white, 9-14 black) in encoding order
    u64 groupFactor[MAX_PIECES + 1] = {};
    int groupSize[MAX_PIECES + 1] = {};
    u32 dtzMap[4] = {};  // where each WDL value's DTZ map starts (byte offset)

    int left(int sym) const { return (tree[3 * sym + 1] & 0xF) << 8 | tree[3 * sym]; }
    int right(int sym) const { return tree[3 * sym + 2] << 4 | tree[3 * sym + 1] >> 4; }

    // The value at `index`: find its block through the sparse index, then walk the block's
    // canonical Huffman codes, then descend the pair tree of the symbol that covers it.
    int value(u64 index) const {
        if (flags & SINGLE_VALUE) return minSymLen;
        const u64 k = index / span;
        u32 block = little<u32>(sparse + 6 * k);
        long offset = long(little<u16>(sparse + 6 * k + 4)) + long(index % span) - long(span / 2);
        while (offset < 0) offset += little<u16>(blockLength + 2 * --block) + 1;
        while (offset > little<u16>(blockLength + 2 * block)) offset -= little<u16>(blockLength + 2 * block++) + 1;

        const u8* p = data + u64(block) * blockSize;
        u64 bits = big64(p);
        p += 8;
        int available = 64;
        int sym;
        for (;;) {
            int len = 0;
            while (bits < base[std::size_t(len)]) ++len;
            sym = int((bits - base[std::size_t(len)]) >> (64 - len - minSymLen)) + little<u16>(lowestSym + 2 * len);
            if (offset < symbolLength[std::size_t(sym)] + 1) break;
            offset -= symbolLength[std::size_t(sym)] + 1;
            len += minSymLen;
            bits <<= len;
            available -= len;
            if (available <= 32) {
                available += 32;
                bits |= u64(big32(p)) << (64 - available);
                p += 4;
            }
        }
        while (symbolLength[std::size_t(sym)]) {
            const int l = left(sym);
            if (offset < symbolLength[std::size_t(l)] + 1) sym = l;
            else {
                offset -= symbolLength[std::size_t(l)] + 1;
                sym = right(sym);
            }
        }
        return left(sym);
    }
};

struct Table {
    std::string name;  // e.g. "KRPvKR": White's pieces as the file is made
    std::string path;  // of the file
    bool isDtz = false;
    u64 key = 0, mirrorKey = 0;  // material with the file's White as White, and as Black
    int pieceCount = 0;
    bool hasPawns = false, uniquePieces = false;
    int pawns[2] = {};  // of the lead colour (fewer pawns, White on a tie) and the other

    std::atomic<bool> ready{false};
    platform::FileView file;
    const u8* dtzMaps = nullptr;
    Part parts[2][4];

    bool symmetric() const { return key == mirrorKey; }
    int sides() const { return !isDtz && !symmetric() ? 2 : 1; }
    Part& part(int stm, int file) { return parts[stm % sides()][hasPawns ? file : 0]; }

    Table() = default;
    Table(const Table&) = delete;
    ~Table() { platform::unmap(file); }
};

// The material of a position as a key: four bits a piece type (pawn to queen) and colour.
u64 materialKey(const int white[PIECE_TYPE_NB], const int black[PIECE_TYPE_NB]) {
    u64 key = 0;
    for (int pt = PAWN; pt <= QUEEN; ++pt) key |= u64(white[pt]) << (4 * pt) | u64(black[pt]) << (4 * pt + 24);
    return key;
}
u64 materialKey(const Position& pos) {
    int counts[COLOR_NB][PIECE_TYPE_NB] = {};
    for (Color c : {WHITE, BLACK})
        for (int pt = PAWN; pt <= QUEEN; ++pt) counts[c][pt] = pos.count(c, PieceType(pt));
    return materialKey(counts[WHITE], counts[BLACK]);
}

struct Registry {
    std::deque<Table> tables;                                  // WDL and DTZ tables; a deque keeps their addresses
    std::unordered_map<u64, std::pair<Table*, Table*>> byKey;  // material -> WDL, DTZ
    std::vector<std::string> folders;
    int largest = 0;
};
Registry registry;
std::mutex mapping;  // taken only while a file is opened for the first time

Table* findTable(const Position& pos, bool dtz) {
    auto it = registry.byKey.find(materialKey(pos));
    if (it == registry.byKey.end()) return nullptr;
    return dtz ? it->second.second : it->second.first;
}

// ---------------------------------------------------------------------------------------------
// Reading a file's headers (the layout the generator writes).
void setGroups(const Table& t, Part& p, const int order[2], int file) {
    const Numbering& n = numbering();
    int firstLength = t.hasPawns ? 0 : t.uniquePieces ? 3 : 2;
    int groups = 0;
    p.groupSize[0] = 1;
    for (int i = 1; i < t.pieceCount; ++i)
        if (--firstLength > 0 || p.pieces[i] == p.pieces[i - 1]) ++p.groupSize[groups];
        else p.groupSize[++groups] = 1;
    p.groupSize[++groups] = 0;

    const bool bothPawns = t.hasPawns && t.pawns[1];
    int next = bothPawns ? 2 : 1, free = 64 - p.groupSize[0] - (bothPawns ? p.groupSize[1] : 0);
    u64 factor = 1;
    for (int k = 0; next < groups || k == order[0] || k == order[1]; ++k)
        if (k == order[0]) {
            p.groupFactor[0] = factor;
            factor *= t.hasPawns ? u64(n.leadPawnsSize[p.groupSize[0]][file]) : t.uniquePieces ? 31332 : 462;
        } else if (k == order[1]) {
            p.groupFactor[1] = factor;
            factor *= n.binomial[p.groupSize[1]][48 - p.groupSize[0]];
        } else {
            p.groupFactor[next] = factor;
            factor *= n.binomial[p.groupSize[next]][free];
            free -= p.groupSize[next++];
        }
    p.groupFactor[groups] = factor;
}

int fillSymbolLength(Part& p, int sym, std::vector<bool>& done) {
    done[std::size_t(sym)] = true;
    const int r = p.right(sym);
    if (r == 0xFFF) return 0;
    const int l = p.left(sym);
    if (!done[std::size_t(l)]) p.symbolLength[std::size_t(l)] = u8(fillSymbolLength(p, l, done));
    if (!done[std::size_t(r)]) p.symbolLength[std::size_t(r)] = u8(fillSymbolLength(p, r, done));
    return p.symbolLength[std::size_t(l)] + p.symbolLength[std::size_t(r)] + 1;
}

const u8* readSizes(Part& p, const u8* data) {
    p.flags = *data++;
    if (p.flags & SINGLE_VALUE) {
        p.minSymLen = *data++;  // the one value
        return data;
    }
    const u64 size = p.groupFactor[std::find(p.groupSize, p.groupSize + MAX_PIECES, 0) - p.groupSize];
    p.blockSize = u64(1) << *data++;
    p.span = u64(1) << *data++;
    p.sparseSize = (size + p.span - 1) / p.span;
    const u8 padding = *data++;
    p.blocks = little<u32>(data);
    data += 4;
    p.blockLengthSize = p.blocks + padding;
    p.maxSymLen = *data++;
    p.minSymLen = *data++;
    p.lowestSym = data;
    const int lengths = p.maxSymLen - p.minSymLen + 1;
    p.base.assign(std::size_t(lengths), 0);
    // Canonical codes: longer codes have lower values, and the lowest code of each length
    // follows from the next longer one.
    for (int i = lengths - 2; i >= 0; --i)
        p.base[std::size_t(i)] =
            (p.base[std::size_t(i + 1)] + little<u16>(p.lowestSym + 2 * i) - little<u16>(p.lowestSym + 2 * (i + 1))) /
            2;
    for (int i = 0; i < lengths; ++i) p.base[std::size_t(i)] <<= 64 - i - p.minSymLen;
    data += 2 * lengths;
    p.symbolLength.assign(little<u16>(data), 0);
    data += 2;
    p.tree = data;
    std::vector<bool> done(p.symbolLength.size());
    for (std::size_t s = 0; s < p.symbolLength.size(); ++s)
        if (!done[s]) p.symbolLength[s] = u8(fillSymbolLength(p, int(s), done));
    return data + 3 * p.symbolLength.size() + (p.symbolLength.size() & 1);
}

const u8* readDtzMaps(Table& t, const u8* data, int files) {
    t.dtzMaps = data;
    for (int f = 0; f < files; ++f) {
        Part& p = t.part(0, f);
        if (!(p.flags & MAPPED)) continue;
        if (p.flags & WIDE) {
            data += uintptr_t(data) & 1;
            for (int i = 0; i < 4; ++i) {
                p.dtzMap[i] = u32(data + 2 - t.dtzMaps);
                data += 2 * little<u16>(data) + 2;
            }
        } else
            for (int i = 0; i < 4; ++i) {
                p.dtzMap[i] = u32(data + 1 - t.dtzMaps);
                data += *data + 1;
            }
    }
    return data + (uintptr_t(data) & 1);
}

void readHeaders(Table& t, const u8* data) {
    data++;  // flags: split (two sides) and pawns, both known from the name
    const int files = t.hasPawns ? 4 : 1, sides = t.sides();
    const bool bothPawns = t.hasPawns && t.pawns[1];
    for (int f = 0; f < files; ++f) {
        const int order[2][2] = {{data[0] & 0xF, bothPawns ? data[1] & 0xF : 0xF},
                                 {data[0] >> 4, bothPawns ? data[1] >> 4 : 0xF}};
        data += 1 + bothPawns;
        for (int k = 0; k < t.pieceCount; ++k, ++data)
            for (int s = 0; s < sides; ++s) t.part(s, f).pieces[k] = u8(s ? *data >> 4 : *data & 0xF);
        for (int s = 0; s < sides; ++s) setGroups(t, t.part(s, f), order[s], f);
    }
    data += uintptr_t(data) & 1;
    for (int f = 0; f < files; ++f)
        for (int s = 0; s < sides; ++s) data = readSizes(t.part(s, f), data);
    if (t.isDtz) data = readDtzMaps(t, data, files);
    for (int f = 0; f < files; ++f)
        for (int s = 0; s < sides; ++s) {
            t.part(s, f).sparse = data;
            data += 6 * t.part(s, f).sparseSize;
        }
    for (int f = 0; f < files; ++f)
        for (int s = 0; s < sides; ++s) {
            t.part(s, f).blockLength = data;
            data += 2 * u64(t.part(s, f).blockLengthSize);
        }
    for (int f = 0; f < files; ++f)
        for (int s = 0; s < sides; ++s) {
            data = reinterpret_cast<const u8*>((uintptr_t(data) + 63) & ~uintptr_t(63));
            t.part(s, f).data = data;
            data += u64(t.part(s, f).blocks) * t.part(s, f).blockSize;
        }
}

// Maps the file at the first probe (under the lock, once); false if it cannot be used.
bool open(Table& t) {
    if (t.ready.load(std::memory_order_acquire)) return t.file.data != nullptr;
    std::lock_guard<std::mutex> lock(mapping);
    if (t.ready.load(std::memory_order_relaxed)) return t.file.data != nullptr;
    const platform::FileView file = platform::mapReadOnly(t.path);
    static const u8 MAGIC[2][4] = {{0x71, 0xE8, 0x23, 0x5D}, {0xD7, 0x66, 0x0C, 0xA5}};
    if (file.data && file.size % 64 == 16 && !std::memcmp(file.data, MAGIC[t.isDtz], 4)) {
        t.file = file;
        readHeaders(t, static_cast<const u8*>(file.data) + 4);
    } else platform::unmap(file);
    t.ready.store(true, std::memory_order_release);
    return t.file.data != nullptr;
}

// ---------------------------------------------------------------------------------------------
// Probing one table.
enum class Probe { OK, FAIL, OTHER_SIDE, ZEROING_BEST };

int pieceCode(Piece pc) { return typeOf(pc) + (colorOf(pc) == BLACK ? 8 : 0); }

// The stored value for `pos` (Wdl for a WDL table, a raw DTZ otherwise); OTHER_SIDE when a DTZ
// table holds only the other side to move.
int lookUp(Table& t, const Position& pos, Wdl wdl, Probe& status) {
    const Numbering& n = numbering();
    // The tables hold the side named first as White; a symmetric table only White to move.
    const bool flip = (t.symmetric() && pos.sideToMove() == BLACK) || materialKey(pos) != t.key;
    const int flipPiece = flip ? 8 : 0, flipSquare = flip ? 56 : 0;
    const int stm = int(flip) ^ int(pos.sideToMove());

    int squares[MAX_PIECES], pieces[MAX_PIECES], count = 0, leads = 0, file = 0;
    Bitboard leadPawns = 0;
    if (t.hasPawns) {
        const int lead = t.part(0, 0).pieces[0] ^ flipPiece;
        leadPawns = pos.pieces(lead >= 8 ? BLACK : WHITE, PAWN);
        for (Bitboard b = leadPawns; b;) squares[count++] = popLsb(b) ^ flipSquare;
        leads = count;
        std::swap(squares[0], *std::max_element(squares, squares + leads,
                                                [&](int a, int b) { return n.pawnSlot[a] < n.pawnSlot[b]; }));
        file = std::min(squares[0] & 7, 7 - (squares[0] & 7));
    }
    if (t.isDtz) {
        const u8 flags = t.part(0, file).flags;
        if ((flags & STM) != stm && !(t.symmetric() && !t.hasPawns)) {
            status = Probe::OTHER_SIDE;
            return 0;
        }
    }
    for (Bitboard b = pos.pieces() ^ leadPawns; b;) {
        const Square s = popLsb(b);
        squares[count] = s ^ flipSquare;
        pieces[count++] = pieceCode(pos.pieceOn(s)) ^ flipPiece;
    }
    const Part& p = t.part(stm, file);
    // The pieces in the order the table encodes them.
    for (int i = leads; i < count - 1; ++i)
        for (int j = i + 1; j < count; ++j)
            if (p.pieces[i] == pieces[j]) {
                std::swap(pieces[i], pieces[j]);
                std::swap(squares[i], squares[j]);
                break;
            }
    if ((squares[0] & 7) > 3)
        for (int i = 0; i < count; ++i) squares[i] = mirrorFile(squares[i]);

    u64 index;
    if (t.hasPawns) {
        index = u64(n.leadPawnIndex[leads][squares[0]]);
        std::stable_sort(squares + 1, squares + leads, [&](int a, int b) { return n.pawnSlot[a] < n.pawnSlot[b]; });
        for (int i = 1; i < leads; ++i) index += n.binomial[i][n.pawnSlot[squares[i]]];
    } else {
        if ((squares[0] >> 3) > 3)
            for (int i = 0; i < count; ++i) squares[i] ^= 56;
        for (int i = 0; i < p.groupSize[0]; ++i) {
            if (!offDiagonal(squares[i])) continue;
            if (offDiagonal(squares[i]) > 0)
                for (int j = i; j < count; ++j) squares[j] = ((squares[j] >> 3) | (squares[j] << 3)) & 63;
            break;
        }
        if (t.uniquePieces) {
            const int a1 = squares[1] > squares[0], a2 = (squares[2] > squares[0]) + (squares[2] > squares[1]);
            if (offDiagonal(squares[0]))
                index = u64(n.triangle[squares[0]] * 63 + (squares[1] - a1)) * 62 + u64(squares[2] - a2);
            else if (offDiagonal(squares[1]))
                index = u64(6 * 63 + (squares[0] >> 3) * 28 + n.belowDiagonal[squares[1]]) * 62 + u64(squares[2] - a2);
            else if (offDiagonal(squares[2]))
                index = 6 * 63 * 62 + 4 * 28 * 62 +
                        u64((squares[0] >> 3) * 7 * 28 + ((squares[1] >> 3) - a1) * 28 + n.belowDiagonal[squares[2]]);
            else
                index = 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 +
                        u64((squares[0] >> 3) * 7 * 6 + ((squares[1] >> 3) - a1) * 6 + ((squares[2] >> 3) - a2));
        } else index = u64(n.kings[n.triangle[squares[0]]][squares[1]]);
    }
    index *= p.groupFactor[0];

    // The other groups: combinations of the squares the earlier groups left free.
    bool otherPawns = t.hasPawns && t.pawns[1];
    int* group = squares + p.groupSize[0];
    for (int g = 1; p.groupSize[g]; ++g) {
        std::stable_sort(group, group + p.groupSize[g]);
        u64 combination = 0;
        for (int i = 0; i < p.groupSize[g]; ++i) {
            int below = 0;
            for (int* s = squares; s != group; ++s) below += group[i] > *s;
            combination += n.binomial[i + 1][group[i] - below - 8 * otherPawns];
        }
        otherPawns = false;
        index += combination * p.groupFactor[g];
        group += p.groupSize[g];
    }

    int value = p.value(index);
    if (!t.isDtz) return value - 2;
    // DTZ: values are ranked by frequency within each WDL value; the map gives them back, in
    // moves or plies as the flags say.
    const Part& first = t.part(0, file);
    if (first.flags & MAPPED) {
        static const int MAP_OF[5] = {1, 3, 0, 2, 0};  // by wdl + 2
        const u32 at = first.dtzMap[MAP_OF[wdl + 2]];
        value = first.flags & WIDE ? little<u16>(t.dtzMaps + at + 2 * u32(value)) : t.dtzMaps[at + u32(value)];
    }
    if ((wdl == WIN && !(first.flags & WIN_PLIES)) || (wdl == LOSS && !(first.flags & LOSS_PLIES)) ||
        wdl == CURSED_WIN || wdl == BLESSED_LOSS)
        value *= 2;
    return value + 1;
}

int probeTable(Position& pos, bool dtz, Wdl wdl, Probe& status) {
    if (popcount(pos.pieces()) == 2) return DRAW;
    Table* t = findTable(pos, dtz);
    if (!t || !open(*t)) {
        status = Probe::FAIL;
        return 0;
    }
    return lookUp(*t, pos, wdl, status);
}

// The WDL value, resolving what the table leaves open: a position where a capture (or, for
// DTZ, a pawn move) wins need not store the win, one with a drawing capture may store a loss,
// and en passant is never in a table. So the captures are searched too (alpha-beta on WDL).
Wdl searchWdl(Position& pos, bool zeroingMoves, Probe& status) {
    Wdl best = LOSS;
    int tried = 0;
    const MoveList<LEGAL> moves(pos);
    for (Move m : moves) {
        if (!pos.isCapture(m) && (!zeroingMoves || typeOf(pos.movedPiece(m)) != PAWN)) continue;
        ++tried;
        pos.makeMove(m);
        const Wdl v = Wdl(-searchWdl(pos, false, status));
        pos.unmakeMove(m);
        if (status == Probe::FAIL) return DRAW;
        if (v > best) {
            best = v;
            if (v >= WIN) {
                status = Probe::ZEROING_BEST;
                return v;
            }
        }
    }
    const bool allTried = tried && tried == moves.size();
    Wdl v = best;
    if (!allTried) {
        v = Wdl(probeTable(pos, false, DRAW, status));
        if (status == Probe::FAIL) return DRAW;
    }
    if (best >= v) {
        status = best > DRAW || allTried ? Probe::ZEROING_BEST : Probe::OK;
        return best;
    }
    status = Probe::OK;
    return v;
}

int sign(int v) { return (v > 0) - (v < 0); }

int dtzOf(Position& pos, Probe& status) {
    status = Probe::OK;
    const Wdl wdl = searchWdl(pos, true, status);
    if (status == Probe::FAIL || wdl == DRAW) return 0;
    if (status == Probe::ZEROING_BEST) return dtzBeforeZeroing(wdl);
    int dtz = probeTable(pos, true, wdl, status);
    if (status == Probe::FAIL) return 0;
    if (status != Probe::OTHER_SIDE) return (dtz + 100 * (wdl == BLESSED_LOSS || wdl == CURSED_WIN)) * sign(wdl);

    // The table holds the other side to move: one ply of search, the best DTZ of the moves.
    int best = 0xFFFF;
    for (Move m : MoveList<LEGAL>(pos)) {
        const bool zeroing = pos.isCapture(m) || typeOf(pos.movedPiece(m)) == PAWN;
        pos.makeMove(m);
        Probe s = Probe::OK;
        int v = zeroing ? -dtzBeforeZeroing(Wdl(searchWdl(pos, false, s))) : -dtzOf(pos, s);
        if (v == 1 && pos.inCheck() && MoveList<LEGAL>(pos).size() == 0) best = 1;  // mate
        if (!zeroing) v += sign(v);
        if (v < best && sign(v) == sign(wdl)) best = v;
        pos.unmakeMove(m);
        if (s == Probe::FAIL) {
            status = Probe::FAIL;
            return 0;
        }
    }
    return best == 0xFFFF ? -1 : best;
}

bool covered(const Position& pos) { return popcount(pos.pieces()) <= registry.largest && !pos.castlingRights(); }

// "KRPvKR" -> counts of each side; false if it is not a table name (a king and its pieces, "v",
// the other king and its pieces).
bool parseName(const std::string& name, int counts[COLOR_NB][PIECE_TYPE_NB]) {
    static constexpr std::string_view PIECES = "PNBRQ";  // in PieceType order from PAWN
    const std::size_t v = name.find('v');
    if (v == std::string::npos || name[0] != 'K' || name.compare(v, 2, "vK") ||
        name.find_first_not_of(PIECES, 1) != v || name.find_first_not_of(PIECES, v + 2) != std::string::npos)
        return false;
    for (std::size_t i = 1; i < name.size(); ++i)
        if (i != v && i != v + 1) ++counts[i > v][PIECES.find(name[i]) + PAWN];
    return true;
}

}  // namespace

std::string init(const std::string& paths, std::string& summary) {
    std::vector<std::string> folders;
    std::stringstream in(paths);
    // Folders are separated as the system's PATH separates them (and as Stockfish reads them):
    // `;` on Windows, where a drive letter has a colon, `:` elsewhere.
#ifdef _WIN32
    constexpr char SEPARATOR = ';';
#else
    constexpr char SEPARATOR = ':';
#endif
    for (std::string folder; std::getline(in, folder, SEPARATOR);)
        if (!folder.empty()) {
            if (!std::filesystem::is_directory(folder)) return "SyzygyPath: no folder '" + folder + "'";
            folders.push_back(folder);
        }
    Registry next;
    next.folders = folders;
    int wdlCount = 0, dtzCount = 0;
    for (const std::string& folder : folders)
        for (const auto& entry : std::filesystem::directory_iterator(folder)) {
            const std::string file = entry.path().filename().string();
            if (entry.path().extension() != ".rtbw") continue;
            const std::string name = file.substr(0, file.size() - 5);
            int counts[COLOR_NB][PIECE_TYPE_NB] = {};
            if (!parseName(name, counts) || next.byKey.count(materialKey(counts[WHITE], counts[BLACK]))) continue;
            int pieces = 2;
            for (Color c : {WHITE, BLACK})
                for (int pt = PAWN; pt <= QUEEN; ++pt) pieces += counts[c][pt];
            if (pieces > MAX_PIECES) continue;

            auto make = [&](bool dtz, const std::string& path) {
                Table& t = next.tables.emplace_back();
                t.name = name;
                t.path = path;
                t.isDtz = dtz;
                t.key = materialKey(counts[WHITE], counts[BLACK]);
                t.mirrorKey = materialKey(counts[BLACK], counts[WHITE]);
                t.pieceCount = pieces;
                t.hasPawns = counts[WHITE][PAWN] + counts[BLACK][PAWN] > 0;
                for (Color c : {WHITE, BLACK})
                    for (int pt = PAWN; pt <= QUEEN; ++pt) t.uniquePieces |= counts[c][pt] == 1;
                // The lead colour: the one with pawns, or with fewer when both have some.
                const bool whiteLeads =
                    !counts[BLACK][PAWN] || (counts[WHITE][PAWN] && counts[BLACK][PAWN] >= counts[WHITE][PAWN]);
                t.pawns[0] = counts[whiteLeads ? WHITE : BLACK][PAWN];
                t.pawns[1] = counts[whiteLeads ? BLACK : WHITE][PAWN];
                return &t;
            };
            Table* wdl = make(false, entry.path().string());
            Table* dtz = nullptr;
            for (const std::string& f : folders)
                if (std::filesystem::exists(f + "/" + name + ".rtbz")) {
                    dtz = make(true, f + "/" + name + ".rtbz");
                    ++dtzCount;
                    break;
                }
            ++wdlCount;
            next.byKey[wdl->key] = next.byKey[wdl->mirrorKey] = {wdl, dtz};
            next.largest = std::max(next.largest, pieces);
        }
    // std::deque cannot be moved into place while tables point into it, so swap the whole.
    std::swap(registry.tables, next.tables);
    std::swap(registry.byKey, next.byKey);
    registry.folders = folders;
    registry.largest = next.largest;
    summary = "found " + std::to_string(wdlCount) + " WDL and " + std::to_string(dtzCount) +
              " DTZ tablebase files (up to " + std::to_string(registry.largest) + " pieces)";
    return "";
}

int maxPieces() { return registry.largest; }

bool probeWdl(Position& pos, Wdl& wdl) {
    if (!covered(pos)) return false;
    Probe status = Probe::OK;
    wdl = searchWdl(pos, false, status);
    return status != Probe::FAIL;
}

bool probeDtz(Position& pos, int& dtz) {
    if (!covered(pos)) return false;
    Probe status = Probe::OK;
    dtz = dtzOf(pos, status);
    return status != Probe::FAIL;
}

}  // namespace syzygy
