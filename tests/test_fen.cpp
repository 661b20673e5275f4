#include <catch2/catch.hpp>

#include "position.h"
#include "support.h"

TEST_CASE("fen: printing round-trips on every perft suite position", "[fen]") {
    for (auto [file, chess960] :
         {std::pair{"data/perft/standard.epd", false}, std::pair{"data/perft/fischer.epd", true}}) {
        for (const auto& line : readPerftSuite(file)) {
            Position pos;
            pos.setChess960(chess960);
            REQUIRE(pos.setFen(line.fen) == "");
            std::string fen = line.fen.substr(0, line.fen.find_last_not_of(' ') + 1);
            REQUIRE(pos.fen() == fen);
        }
    }
}

TEST_CASE("fen: castling field in KQkq, X-FEN and Shredder forms", "[fen]") {
    Position pos;
    // Standard letters on a standard setup.
    REQUIRE(pos.setFen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1") == "");
    REQUIRE(pos.castlingRights() == ANY_CASTLING);
    REQUIRE(!pos.isChess960());
    // Shredder file letters mean the same thing.
    Position shredder;
    REQUIRE(shredder.setFen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1") == "");
    REQUIRE(shredder.key() == pos.key());
    // X-FEN: K means the outermost rook on the king's side; a file letter picks an inner one.
    Position xfen;
    REQUIRE(xfen.setFen("1r2k1rr/8/8/8/8/8/8/RR2K1R1 w KQkq - 0 1") == "");
    REQUIRE(xfen.castlingRookSquare(WHITE_OO) == SQ_G1);
    REQUIRE(xfen.castlingRookSquare(WHITE_OOO) == SQ_A1);
    REQUIRE(xfen.castlingRookSquare(BLACK_OO) == SQ_H8);
    REQUIRE(xfen.isChess960());
    REQUIRE(xfen.setFen("1r2k1rr/8/8/8/8/8/8/RR2K1R1 w Bg - 0 1") == "");
    REQUIRE(xfen.castlingRookSquare(WHITE_OOO) == SQ_B1);
    REQUIRE(xfen.castlingRookSquare(BLACK_OO) == SQ_G8);
    REQUIRE(xfen.fen() == "1r2k1rr/8/8/8/8/8/8/RR2K1R1 w Bg - 0 1");
}

TEST_CASE("fen: en passant square kept only when a legal capture exists", "[fen]") {
    Position pos;
    REQUIRE(pos.setFen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3") == "");
    REQUIRE(pos.epSquare() == SQ_E3);
    REQUIRE(pos.fen() == "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
    // No black pawn beside e4: the field is valid but has no effect, and the key ignores it.
    Position noCapture, plain;
    REQUIRE(noCapture.setFen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1") == "");
    REQUIRE(plain.setFen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1") == "");
    REQUIRE(noCapture.epSquare() == SQ_NONE);
    REQUIRE(noCapture.key() == plain.key());
    // The capture would expose the king along the rank: not legal, so not kept.
    Position pinned;
    REQUIRE(pinned.setFen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1") == "");
    REQUIRE(pinned.epSquare() == SQ_NONE);
}

TEST_CASE("fen: every malformed FEN is rejected with a reason and changes nothing", "[fen]") {
    const std::pair<const char*, const char*> bad[] = {
        {"", "fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBXR w KQkq - 0 1", "piece letter 'X'"},
        {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "empty-square count '9'"},
        {"rnbqkbnr/pppppppp/45/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 is longer than 8"},
        {"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "longer than 8"},
        {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 squares"},
        {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "ranks"},
        {"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 ranks"},
        {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "missing black king"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w kq - 0 1", "missing white king"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "more than one white king"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNP w Qkq - 0 1", "first or eighth rank"},
        {"pnbqkbnr/ppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1", "first or eighth rank"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
        {"4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", "without a rook"},
        {"4k3/8/8/8/8/8/4K3/7R w K - 0 1", "king is not on its first rank"},
        {"4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "'k' without a rook"},
        {"4k3/8/8/8/8/8/8/R3K2R w KX - 0 1", "castling letter 'X'"},
        {"4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", "twice"},
        {"4k3/8/8/8/8/8/8/R3K2R w KQ e4 0 1", "wrong rank"},
        {"4k3/8/8/8/8/8/8/R3K2R w KQ e6 0 1", "double step"},
        {"4k3/8/8/8/8/8/8/R3K2R w KQ z9 0 1", "not a square"},
        {"4k3/8/8/8/8/8/8/R3K2R w KQ - x 1", "halfmove clock"},
        {"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 -1", "fullmove number"},
        {"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1.5", "fullmove number"},
        {"4k3/8/8/8/8/8/8/4K2R w - - 99999999999 1", "halfmove clock"},
        {"4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"},
        {"ppppkppp/pppppppp/8/8/8/8/8/4K3 w - - 0 1", "more than 8 black pawns"},
    };
    Position pos;
    REQUIRE(pos.setFen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 7") == "");
    const std::string before = pos.fen();
    const Key key = pos.key();
    for (auto [fen, reason] : bad) {
        INFO("FEN: '" << fen << "'");
        std::string error = pos.setFen(fen);
        REQUIRE_THAT(error, Catch::Contains(reason));
        REQUIRE(pos.fen() == before);
        REQUIRE(pos.key() == key);
    }
}

TEST_CASE("fen: EPD-style four fields are accepted with default clocks", "[fen]") {
    Position pos;
    REQUIRE(pos.setFen("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - -") == "");
    REQUIRE(pos.fen() == "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
}
