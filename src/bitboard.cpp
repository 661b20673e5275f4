#include "bitboard.h"

std::string bitboardToString(Bitboard b) {
    std::string s = "+--------+\n";
    for (int r = 7; r >= 0; --r) {
        s += '|';
        for (int f = 0; f < 8; ++f) s += (b & squareBB(makeSquare(f, r))) ? 'X' : '.';
        s += "|\n";
    }
    return s + "+--------+\n";
}
