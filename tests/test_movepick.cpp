#include <catch2/catch.hpp>

#include <memory>
#include <set>

#include "movepick.h"
#include "support.h"

namespace {

// The moves a picker yields, in order, until it says none is left.
std::vector<Move> drain(MovePicker& picker) {
    std::vector<Move> moves;
    for (Move m; (m = picker.next()) != MOVE_NONE;) moves.push_back(m);
    return moves;
}

}  // namespace

TEST_CASE("movepick: ProbCut's picker yields each capture that wins the threshold by exchange, once", "[position]") {
    const auto histories = std::make_unique<MoveHistories>();
    const char* fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  // Kiwipete
        "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
        "4k3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "8/2P5/8/8/8/8/5k2/K7 w - - 0 1",  // a queen promotion, no capture
    };
    for (const char* fen : fens) {
        Position pos;
        REQUIRE(pos.setFen(fen) == "");
        const MoveList<NOISY> noisy(pos);
        for (int threshold : {-300, -1, 0, 1, 100, 300, 500, 900}) {
            std::set<int> expected;
            for (Move m : noisy)
                if (pos.seeGe(m, threshold)) expected.insert(m);
            // Without a hash move, and with each noisy move as the hash move in turn (a quiet
            // one and a losing capture are dropped, a winning one comes first).
            std::vector<Move> hashMoves{MOVE_NONE};
            hashMoves.insert(hashMoves.end(), noisy.begin(), noisy.end());
            for (Move quiet : MoveList<QUIETS>(pos)) {
                hashMoves.push_back(quiet);
                break;
            }
            for (Move tt : hashMoves) {
                INFO(fen << " threshold " << threshold << " hash move " << int(tt));
                MovePicker picker(pos, tt, threshold, *histories);
                const std::vector<Move> got = drain(picker);
                REQUIRE(std::set<int>(got.begin(), got.end()) == expected);
                REQUIRE(got.size() == expected.size());
                if (expected.count(tt)) REQUIRE(got.front() == tt);
            }
        }
    }
}

TEST_CASE("movepick: a quiet move is ordered by the continuation history of each remembered move", "[position]") {
    Position pos;
    REQUIRE(pos.setFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") == "");
    const Move knightOut = pos.parseUciMove("g1f3"), pawnOut = pos.parseUciMove("e2e4");
    const Move noKillers[2] = {MOVE_NONE, MOVE_NONE};
    // A position with no capture: the first move the picker yields is the best-ordered quiet one.
    auto first = [&](const MoveHistories& histories, const PieceToHistory* const* continuation) {
        MovePicker picker(pos, MOVE_NONE, histories, continuation, noKillers, MOVE_NONE);
        return picker.next();
    };
    for (int k = 0; k < CONTINUATION_NB; ++k) {
        INFO("the move " << CONTINUATION_PLIES[k] << " plies back");
        const auto histories = std::make_unique<MoveHistories>();
        const PieceToHistory* continuation[CONTINUATION_NB];
        for (int i = 0; i < CONTINUATION_NB; ++i) continuation[i] = &histories->continuation[W_PAWN][i];
        histories->continuation[W_PAWN][k][W_KNIGHT][SQ_F3] = 1000;
        REQUIRE(first(*histories, continuation) == knightOut);
    }
    // Stockfish 11's weights: the oldest move's history counts half as much as the others'.
    const auto histories = std::make_unique<MoveHistories>();
    const PieceToHistory* continuation[CONTINUATION_NB];
    for (int i = 0; i < CONTINUATION_NB; ++i) continuation[i] = &histories->continuation[W_PAWN][i];
    histories->continuation[W_PAWN][0][W_KNIGHT][SQ_F3] = 1000;
    histories->continuation[W_PAWN][3][W_PAWN][SQ_E4] = 1500;
    REQUIRE(first(*histories, continuation) == knightOut);
    histories->continuation[W_PAWN][3][W_PAWN][SQ_E4] = 2500;
    REQUIRE(first(*histories, continuation) == pawnOut);
}
