#include "skill.h"

#include <algorithm>
#include <iterator>

#include "search.h"

namespace {

// Elo of each measured level (docs/results/endgames.md, "Skill levels": `scripts/lab games skill`, 40 games
// each at 2+0.02 against Debian's Stockfish 15.1 at a UCI_Elo near the level's strength),
// increasing; levels between two measured ones are interpolated.
struct LevelElo {
    int level, elo;
};
constexpr LevelElo MEASURED[] = {{0, 1049}, {5, 1402}, {10, 1774}, {15, 1968}, {19, 2069}};
static_assert(MEASURED[0].elo == Skill::MIN_ELO && MEASURED[std::size(MEASURED) - 1].elo == Skill::MAX_ELO);

}  // namespace

int Skill::levelForElo(int elo) {
    elo = std::clamp(elo, MIN_ELO, MAX_ELO);
    for (std::size_t i = 1; i < std::size(MEASURED); ++i)
        if (elo <= MEASURED[i].elo) {
            const LevelElo lo = MEASURED[i - 1], hi = MEASURED[i];
            return lo.level + (elo - lo.elo) * (hi.level - lo.level) / std::max(1, hi.elo - lo.elo);
        }
    return MAX_LEVEL - 1;
}

// Every candidate gets a push upwards: a share of its distance behind the best that grows with
// the weakness, plus a random part of at most a pawn's worth of the spread. The weakest level
// nearly ignores the differences; the strongest (19) mostly keeps the best move.
Move Skill::pick(const std::vector<RootMove>& rootMoves, std::size_t lines) {
    const Value top = rootMoves[0].score;
    std::size_t scored = 1;  // after a stop in mid-iteration, the later lines may have no score yet
    while (scored < lines && rootMoves[scored].score != -VALUE_INFINITE) ++scored;
    lines = scored;
    const int spread = std::min(top - rootMoves[lines - 1].score, SIMPLE_VALUE[PAWN]);
    const int weakness = 120 - 2 * level;
    int bestScore = -VALUE_INFINITE;
    for (std::size_t i = 0; i < lines; ++i) {
        const int push = (weakness * (top - rootMoves[i].score) + spread * int(rng.below(unsigned(weakness)))) / 128;
        if (rootMoves[i].score + push >= bestScore) {
            bestScore = rootMoves[i].score + push;
            best = rootMoves[i].move();
        }
    }
    return best;
}
