#include <iostream>
#include <string>

#include "attacks.h"
#include "perft.h"
#include "position.h"

int main(int argc, char** argv) {
    attacks::init();
    Position::init();
    if (argc >= 3 && std::string(argv[1]) == "perft") {
        Position pos;
        std::string fen = START_FEN;
        if (argc >= 4) {
            fen.clear();
            for (int i = 3; i < argc; ++i) fen += std::string(argv[i]) + " ";
        }
        std::string err = pos.setFen(fen);
        if (!err.empty()) {
            std::cerr << "error: " << err << "\n";
            return 1;
        }
        perftDivide(pos, std::stoi(argv[2]), 1, std::cout);
    }
    return 0;
}
