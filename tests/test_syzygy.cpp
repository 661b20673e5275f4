// Syzygy tablebases: every labelled position of ../shared/data/syzygy/probes.epd (made by an
// independent prober) gets the same WDL, and the same DTZ within the format's rounding.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>

#include "support.h"
#include "syzygy.h"

namespace {

struct Labelled {
    std::string fen, id;
    int wdl, dtz;
};

std::vector<Labelled> probes() {
    std::vector<Labelled> out;
    std::ifstream in(sharedPath("data/syzygy/probes.epd"));
    const std::regex label(R"(id \"(\w+)\"; c0 \"wdl (-?\d) dtz (-?\d+)\")");
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, label)) continue;
        std::istringstream fields(line);
        std::string fen, f;
        for (int i = 0; i < 4 && fields >> f; ++i) fen += f + " ";
        out.push_back({fen + "0 1", m[1], std::stoi(m[2]), std::stoi(m[3])});
    }
    return out;
}

}  // namespace

TEST_CASE("syzygy: WDL and DTZ of every labelled position", "[syzygy]") {
    std::string summary;
    REQUIRE(syzygy::init(sharedPath("data/syzygy"), summary).empty());
    INFO(summary);
    REQUIRE(syzygy::maxPieces() == 5);
    const auto labelled = probes();
    REQUIRE(labelled.size() > 1000);
    int wdlRight = 0, dtzRight = 0;
    for (const Labelled& l : labelled) {
        Position pos;
        REQUIRE(pos.setFen(l.fen).empty());
        INFO(l.fen << " " << l.id << " wdl " << l.wdl << " dtz " << l.dtz);
        syzygy::Wdl wdl;
        int dtz;
        REQUIRE(syzygy::probeWdl(pos, wdl));
        REQUIRE(syzygy::probeDtz(pos, dtz));
        CHECK(int(wdl) == l.wdl);
        CHECK(std::abs(dtz - l.dtz) <= 1);
        wdlRight += int(wdl) == l.wdl;
        dtzRight += std::abs(dtz - l.dtz) <= 1;
        REQUIRE(pos.fen() == l.fen);  // probing leaves the position as it was
    }
    REQUIRE(wdlRight == int(labelled.size()));
    REQUIRE(dtzRight == int(labelled.size()));
}
