// The KPK bitbase against Debian's Gaviota tablebases, on every legal position.
#include <catch2/catch.hpp>

extern "C" {
#include <gtb-probe.h>
}

#include "attacks.h"
#include "eval/kpk.h"

namespace {

// Gaviota's verdict for white king + pawn against black king: 1 win, 0 draw, -1 unknown.
int gaviotaWdl(Square wk, Square pawn, Square bk, Color stm) {
    unsigned wSq[] = {unsigned(wk), unsigned(pawn), tb_NOSQUARE};
    unsigned bSq[] = {unsigned(bk), tb_NOSQUARE};
    unsigned char wPc[] = {tb_KING, tb_PAWN, tb_NOPIECE};
    unsigned char bPc[] = {tb_KING, tb_NOPIECE};
    unsigned info = tb_UNKNOWN;
    if (!tb_probe_WDL_hard(stm == WHITE ? tb_WHITE_TO_MOVE : tb_BLACK_TO_MOVE, tb_NOSQUARE, tb_NOCASTLE, wSq, bSq, wPc,
                           bPc, &info))
        return -1;
    return info == tb_WMATE ? 1 : info == tb_DRAW ? 0 : -1;
}

}  // namespace

TEST_CASE("kpk: the bitbase agrees with Gaviota on every legal KPK position", "[kpk][tablebase]") {
    const char** paths = tbpaths_init();
    paths = tbpaths_add(paths, "/usr/share/gaviotatb/gtb4");
    tb_init(0, tb_CP4, paths);
    tbcache_init(32 * 1024 * 1024, 96);
    REQUIRE(tb_is_initialized());
    REQUIRE((tb_availability() & 3) != 0);  // the 3-piece tables are there
    kpk::init();

    int checked = 0, wins = 0;
    for (Square pawn = SQ_A2; pawn <= SQ_H7; ++pawn)
        for (Square wk = SQ_A1; wk <= SQ_H8; ++wk)
            for (Square bk = SQ_A1; bk <= SQ_H8; ++bk)
                for (Color stm : {WHITE, BLACK}) {
                    if (wk == pawn || bk == pawn || wk == bk || distance(wk, bk) <= 1) continue;
                    if (stm == WHITE && (pawnAttacks(WHITE, pawn) & squareBB(bk)))
                        continue;  // black in check, white to move
                    int truth = gaviotaWdl(wk, pawn, bk, stm);
                    INFO("wk " << int(wk) << " pawn " << int(pawn) << " bk " << int(bk) << " stm " << int(stm));
                    REQUIRE(truth >= 0);
                    bool win = kpk::probe(wk, pawn, bk, WHITE, stm);
                    REQUIRE(win == (truth == 1));
                    // The same position with colours swapped (black has the pawn) gives the same answer.
                    REQUIRE(kpk::probe(flipRank(wk), flipRank(pawn), flipRank(bk), BLACK, ~stm) == win);
                    ++checked;
                    wins += win;
                }
    tbcache_done();
    tb_done();
    tbpaths_done(paths);
    CHECK(checked > 300000);
    INFO(checked << " positions, " << wins << " wins");
    CHECK(wins > checked / 2);
}
