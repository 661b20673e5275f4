#include "tunable.h"

namespace tunable {

std::vector<Param>& params() {
    static std::vector<Param> list;  // built before first use, whatever the order of static initialisation
    return list;
}

bool add(const char* name, int* value, int defaultValue, int min, int max, int step) {
    params().push_back({name, value, defaultValue, min, max, step});
    return true;
}

std::string spsaInput() {
    std::string out;
    for (const Param& p : params())
        out += std::string(p.name) + ", int, " + std::to_string(*p.value) + ", " + std::to_string(p.min) + ", " +
               std::to_string(p.max) + ", " + std::to_string(p.step) + ", 0.002\n";
    return out;
}

}  // namespace tunable
