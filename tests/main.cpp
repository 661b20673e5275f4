#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "attacks.h"
#include "position.h"

int main(int argc, char* argv[]) {
    attacks::init();
    Position::init();
    return Catch::Session().run(argc, argv);
}
