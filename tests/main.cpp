#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "attacks.h"
#include "kpk.h"
#include "material.h"
#include "search.h"
#include "position.h"

int main(int argc, char* argv[]) {
    attacks::init();
    Position::init();
    search::init();
    kpk::init();
    material::init();
    return Catch::Session().run(argc, argv);
}
