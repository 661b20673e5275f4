#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "engine.h"

int main(int argc, char* argv[]) {
    Engine::initTables();
    return Catch::Session().run(argc, argv);
}
