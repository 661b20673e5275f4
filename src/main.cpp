// Quadbit: a UCI chess engine. With arguments it runs one command (`quadbit bench`,
// `quadbit perft 6 [FEN]`); without, it speaks UCI on stdin/stdout.
#include "engine.h"
#include "uci.h"

int main(int argc, char** argv) {
    Engine::initTables();
    return uci::loop(argc, argv);
}
