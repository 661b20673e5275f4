#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>

#include "movegen.h"
#include "support.h"

namespace {

// Walks the tree and checks, at every node, that the generator stages partition the legal
// moves, that givesCheck and keyAfter agree with the position after the move, and that the
// validator used for transposition-table moves accepts exactly the legal moves.
void walk(Position& pos, int depth, std::mt19937& rng) {
    MoveList<LEGAL> legal(pos);
    MoveList<NOISY> noisy(pos);
    MoveList<QUIETS> quiets(pos);
    REQUIRE(noisy.size() + quiets.size() == legal.size());
    REQUIRE(countLegalMoves(pos) == legal.size());
    std::set<int> all(legal.begin(), legal.end());
    for (Move m : noisy) REQUIRE(all.count(m));
    for (Move m : quiets) REQUIRE(all.count(m));
    for (Move m : noisy) REQUIRE((pos.isCapture(m) || promotionType(m) == QUEEN));

    for (int i = 0; i < 200; ++i) {
        Move m = Move(rng() & 0xFFFF);
        bool accepted = pos.isPseudoLegal(m) && pos.isLegal(m);
        INFO(pos.fen() << " move " << int(m));
        REQUIRE(accepted == bool(all.count(m)));
    }
    for (Move m : legal) {
        INFO(pos.fen() << " " << pos.moveToUci(m));
        REQUIRE(pos.isPseudoLegal(m));
        REQUIRE(pos.isLegal(m));
        bool check = pos.givesCheck(m);
        Key predicted = pos.keyAfter(m);
        int rights = pos.castlingRights();
        pos.makeMove(m);
        REQUIRE(check == pos.inCheck());
        // keyAfter (the table's prefetch) is exact unless the move castles, takes en passant,
        // promotes, or changes a castling right or the en passant square.
        if (typeOf(m) == NORMAL && pos.castlingRights() == rights && pos.epSquare() == SQ_NONE)
            REQUIRE(predicted == pos.key());
        if (depth > 1) walk(pos, depth - 1, rng);
        pos.unmakeMove(m);
    }
}

}  // namespace

TEST_CASE("position: generator stages, givesCheck, keyAfter and move validation agree", "[position]") {
    std::mt19937 rng(7);
    auto lines = readPerftSuite("data/perft/standard.epd");
    for (size_t i = 0; i < lines.size(); i += 4) {
        Position pos;
        REQUIRE(pos.setFen(lines[i].fen) == "");
        walk(pos, 2, rng);
    }
    auto fischer = readPerftSuite("data/perft/fischer.epd");
    for (size_t i = 0; i < fischer.size(); i += 60) {
        Position pos;
        pos.setChess960(true);
        REQUIRE(pos.setFen(fischer[i].fen) == "");
        walk(pos, 2, rng);
    }
}

TEST_CASE("position: material index separates bishop colours and flags overflow", "[position][material]") {
    Position same, opposite;
    REQUIRE(same.setFen("4k3/8/8/3b4/8/8/8/2B1K3 w - - 0 1") == "");      // c1 dark, d5 light
    REQUIRE(opposite.setFen("4k3/8/8/4b3/8/8/8/2B1K3 w - - 0 1") == "");  // e5 dark
    REQUIRE(same.materialIndex() != opposite.materialIndex());
    REQUIRE(same.materialKey() != opposite.materialKey());

    // Material index and key do not depend on where the pieces stand, only on what they are.
    Position a, b;
    REQUIRE(a.setFen("4k3/pp6/8/8/8/8/1N6/4K3 w - - 0 1") == "");
    REQUIRE(b.setFen("4k3/8/p7/5p2/3N4/8/8/K7 b - - 0 1") == "");
    REQUIRE(a.materialIndex() == b.materialIndex());
    REQUIRE(a.materialKey() == b.materialKey());

    // Three white knights: beyond the index's range.
    Position three;
    REQUIRE(three.setFen("4k3/8/8/8/8/8/8/1NN1K1N1 w - - 0 1") == "");
    REQUIRE(three.materialIndex() == materialindex::OVERFLOW_INDEX);
    REQUIRE(three.verify() == "");

    // A capture brings it back into range, and unmake restores the overflow.
    Position q;
    REQUIRE(q.setFen("4k3/8/8/8/8/1n6/8/1NN1K1N1 b - - 0 1") == "");
    Move takes = q.parseUciMove("b3c1");
    REQUIRE(takes != MOVE_NONE);
    q.makeMove(takes);
    REQUIRE(q.materialIndex() != materialindex::OVERFLOW_INDEX);
    REQUIRE(q.verify() == "");
    q.unmakeMove(takes);
    REQUIRE(q.materialIndex() == materialindex::OVERFLOW_INDEX);
    REQUIRE(q.verify() == "");
}

TEST_CASE("position: the sanitizer build checks its invariants, the release build does not", "[position]") {
    // makeMove and unmakeMove compare every incremental value with its recomputation where
    // assertions are compiled in: the ASan+UBSan tests (tests/CMakeLists.txt).
#ifdef QUADBIT_EXPECT_ASSERTIONS
    bool assertionsOn = true;
#else
    bool assertionsOn = false;
#endif
#ifdef NDEBUG
    REQUIRE(!assertionsOn);
#else
    REQUIRE(assertionsOn);
#endif
}

TEST_CASE("position: null move flips the side and restores everything", "[position]") {
    Position pos;
    REQUIRE(pos.setFen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3") == "");
    Key before = pos.key(), predicted = pos.keyAfter(MOVE_NULL);
    pos.makeNullMove();
    REQUIRE(pos.key() == predicted);
    REQUIRE(pos.sideToMove() == WHITE);
    REQUIRE(pos.epSquare() == SQ_NONE);
    REQUIRE(pos.verify() == "");
    pos.unmakeNullMove();
    REQUIRE(pos.key() == before);
    REQUIRE(pos.epSquare() == SQ_E3);
}

TEST_CASE("position: static exchange evaluation", "[position][see]") {
    struct Case {
        const char* fen;
        const char* move;
        int threshold;
        bool expected;
    };
    const Case cases[] = {
        {"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100, true},   // free pawn
        {"4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 1, false},  // pawn for pawn
        {"4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 0, true},
        {"4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 0, false},   // queen for pawn
        {"4k3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 0, true},  // x-ray backs the capture
        {"4k3/3r4/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", 0, false},   // rook for pawn
        {"1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 0, true},
        {"4k3/8/8/8/8/2n5/8/Q3K3 w - - 0 1", "a1c3", 0, true},
    };
    for (const Case& c : cases) {
        Position pos;
        REQUIRE(pos.setFen(c.fen) == "");
        Move m = pos.parseUciMove(c.move);
        INFO(c.fen << " " << c.move);
        REQUIRE(m != MOVE_NONE);
        REQUIRE(pos.seeGe(m, c.threshold) == c.expected);
    }
}

TEST_CASE("position: king flight squares", "[position]") {
    struct Case {
        const char* fen;
        Color side;
        Bitboard expected;
    };
    const Case cases[] = {
        {"7k/8/8/8/8/8/8/K7 w - - 0 1", WHITE, squareBB(SQ_A2) | squareBB(SQ_B1) | squareBB(SQ_B2)},
        // The rook's rank runs on through the king: f1, behind it, is no flight square.
        {"k7/8/8/8/8/8/8/r3K3 w - - 0 1", WHITE, squareBB(SQ_D2) | squareBB(SQ_E2) | squareBB(SQ_F2)},
        {"4k3/8/8/8/8/8/3PPP2/3QKB2 w - - 0 1", WHITE, 0},
        // Back rank: the king's own pawns leave two squares, a bishop takes one, a knight both.
        {"6k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", BLACK, squareBB(SQ_F8) | squareBB(SQ_H8)},
        {"6k1/5ppp/8/8/8/B7/8/6K1 b - - 0 1", BLACK, squareBB(SQ_H8)},
        {"6k1/5ppp/6N1/8/8/8/8/6K1 b - - 0 1", BLACK, 0},
    };
    for (const Case& c : cases) {
        Position pos;
        REQUIRE(pos.setFen(c.fen) == "");
        INFO(c.fen);
        REQUIRE(pos.kingFlightSquares(c.side) == c.expected);
    }
}

TEST_CASE("position: draws by rule and dead positions", "[position][draw]") {
    Position pos;
    REQUIRE(pos.setFen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80") == "");
    REQUIRE(pos.isDraw(0));
    // Mate on the hundredth half-move is still mate, not a draw.
    REQUIRE(pos.setFen("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80") == "");
    REQUIRE(!pos.isDraw(0));

    REQUIRE(pos.setFen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1") == "");
    const char* shuffle[] = {"a1a2", "e8d8", "a2a1", "d8e8"};
    for (const char* text : shuffle) pos.makeMove(pos.parseUciMove(text));
    REQUIRE(!pos.isDraw(0));  // the first return is not yet a draw in the game
    REQUIRE(pos.isDraw(5));   // but is one inside the search tree
    for (const char* text : shuffle) pos.makeMove(pos.parseUciMove(text));
    REQUIRE(pos.isDraw(0));  // threefold

    auto dead = [](const char* fen) {
        Position p;
        REQUIRE(p.setFen(fen) == "");
        return p.isDeadPosition();
    };
    REQUIRE(dead("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    REQUIRE(dead("4k3/8/8/8/8/8/8/4KN2 w - - 0 1"));
    REQUIRE(dead("4k3/8/8/8/8/8/8/4KB2 w - - 0 1"));
    REQUIRE(dead("2b1kb2/8/8/8/8/8/8/3BKB2 w - - 0 1") == false);
    REQUIRE(dead("4k1b1/8/8/8/8/8/8/3BK3 w - - 0 1"));          // g8 and d1 both light
    REQUIRE(dead("4kb2/8/8/8/8/8/8/3BK3 w - - 0 1") == false);  // f8 dark, d1 light
    REQUIRE(dead("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1") == false);
    REQUIRE(dead("4k3/8/8/8/8/8/8/4KB1b w - - 0 1"));  // f1 and h1 both light
    REQUIRE(dead("4k3/8/8/8/8/8/8/4KBb1 w - - 0 1") == false);
}
