// Quadbit: a UCI chess engine. Without arguments it speaks UCI on stdin/stdout. With arguments it
// runs one command and exits (status 1 on an error): a tool that is no part of a UCI session
// (`datagen`, `data`, `tune`, `train`, `net`, `tunables`), or else an engine command (`quadbit bench`,
// `quadbit perft 6 [FEN]`, any UCI line). The quadbit-mpi build (cluster.h) is one engine over all the ranks
// mpirun starts; a command-line job runs on the root alone.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cluster.h"
#include "datagen/data.h"
#include "datagen/datagen.h"
#include "nnue/nettool.h"
#include "nnue/trainer.h"
#include "engine.h"
#include "platform.h"
#include "eval/tuner.h"
#include "tunable.h"
#include "uci.h"

namespace {

// The tools' exit status, or nothing when argv names no tool.
std::optional<int> runTool(int argc, char** argv) {
    if (argc < 2) return std::nullopt;
    const std::string tool = argv[1];
    const std::vector<std::string> args(argv + 2, argv + argc);
    const auto toStderr = [](const std::string& text) { std::cerr << text << std::endl; };
    const auto toStdout = [](const std::string& text) { std::cout << text << std::endl; };
    std::string why;
    if (tool == "datagen") why = runDatagen(args, toStderr);
    else if (tool == "data") why = runData(args, toStdout);
    else if (tool == "tune") why = tuner::run(args, toStderr);
    else if (tool == "train") why = nnue::runTrain(args, toStderr);
    else if (tool == "net") why = nnue::runNet(args, toStdout);
    else if (tool == "tunables") {
        const std::string spsa = tunable::spsaInput();
        if (spsa.empty()) why = "no tunables in this build: configure with -DQUADBIT_TUNING=ON";
        else std::cout << spsa << std::flush;
    } else return std::nullopt;
    if (why.empty()) return 0;
    std::cout << "info string error: " << why << std::endl;
    return 1;
}

int run(int argc, char** argv) {
    if (std::optional<int> code = runTool(argc, argv)) return *code;
    return uci::loop(argc, argv);
}

}  // namespace

int main(int argc, char** argv) {
    platform::plainLineEnds();
#ifdef QUADBIT_MPI
    std::string why;
    if (!cluster::init(argc, argv, why)) {
        std::cout << "info string error: cluster: " << why << std::endl;
        return 1;
    }
    Engine::initTables();
    const int code = argc > 1 && !cluster::isRoot() ? 0 : run(argc, argv);
    cluster::finalize();
    return code;
#else
    Engine::initTables();
    return run(argc, argv);
#endif
}
