// Quadbit: a UCI chess engine. With arguments it runs one command (`quadbit bench`,
// `quadbit perft 6 [FEN]`); without, it speaks UCI on stdin/stdout.
#include "attacks.h"
#include "kpk.h"
#include "material.h"
#include "position.h"
#include "search.h"
#include "uci.h"

int main(int argc, char** argv) {
    attacks::init();
    Position::init();
    search::init();
    kpk::init();
    material::init();
    return uci::loop(argc, argv);
}
