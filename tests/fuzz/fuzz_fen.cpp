// libFuzzer target: the FEN parser, in standard and Chess960 mode. Any input is either refused
// with a reason, or gives a position that passes its own consistency check, whose printed FEN
// reads back to the same position and key, and whose legal moves make and unmake cleanly.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "engine.h"
#include "movegen.h"
#include "position.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool ready = (Engine::initTables(), true);
    (void)ready;
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (bool chess960 : {false, true}) {
        Position pos;
        pos.setChess960(chess960);
        if (!pos.setFen(text).empty()) continue;
        if (!pos.verify().empty()) std::abort();
        const std::string fen = pos.fen();
        Position again;
        again.setChess960(pos.isChess960());
        if (!again.setFen(fen).empty() || again.fen() != fen || again.key() != pos.key()) std::abort();
        for (Move m : MoveList<LEGAL>(pos)) {
            if (pos.parseUciMove(pos.moveToUci(m)) != m) std::abort();
            pos.makeMove(m);
            if (!pos.verify().empty()) std::abort();
            pos.unmakeMove(m);
        }
        if (pos.fen() != fen) std::abort();
    }
    return 0;
}
