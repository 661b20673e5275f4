// Quadbit: a UCI chess engine. With arguments it runs one command (`quadbit bench`,
// `quadbit perft 6 [FEN]`); without, it speaks UCI on stdin/stdout. The quadbit-mpi build
// (cluster.h) is one engine over all the ranks mpirun starts; a command-line job runs on the
// root alone.
#include <iostream>

#include "cluster.h"
#include "engine.h"
#include "uci.h"

int main(int argc, char** argv) {
#ifdef QUADBIT_MPI
    std::string why;
    if (!cluster::init(argc, argv, why)) {
        std::cout << "info string error: cluster: " << why << std::endl;
        return 1;
    }
    Engine::initTables();
    const int code = argc > 1 && !cluster::isRoot() ? 0 : uci::loop(argc, argv);
    cluster::finalize();
    return code;
#else
    Engine::initTables();
    return uci::loop(argc, argv);
#endif
}
