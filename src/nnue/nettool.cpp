#include "nnue/nettool.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace nnue {

std::string withNote(const std::string& description, const std::string& note) {
    const std::size_t room = MAX_DESCRIPTION - std::min(note.size() + 3, MAX_DESCRIPTION);
    if (description.size() + note.size() <= MAX_DESCRIPTION) return description + note;
    return description.substr(0, room) + "..." + note;
}

namespace {

std::string read(const std::string& name, Network& net) {
    if (name != EMBEDDED_NAME) return load(name, net);
    net = embedded();
    return "";
}

std::string show(const std::string& name, const std::function<void(const std::string&)>& out) {
    Network net;
    if (std::string why = read(name, net); !why.empty()) return "net: " + why;
    char checksum[16];
    std::snprintf(checksum, sizeof checksum, "%08x", unsigned(net.checksum));
    out("Network " + std::string(checksum) + ", " + net.shape() + ", output SCALE " + std::to_string(net.scale));
    out("Description: " + net.description);
    return "";
}

std::string scale(const std::string& name, const std::string& wanted, const std::string& path,
                  const std::function<void(const std::string&)>& out) {
    Network net;
    if (std::string why = read(name, net); !why.empty()) return "net: " + why;
    double value = 0;
    std::size_t used = 0;
    try {
        value = std::stod(wanted.substr(wanted[0] == 'x'), &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used + (wanted[0] == 'x') != wanted.size() || !(value > 0))
        return "net: '" + wanted + "' is neither a SCALE (a whole number) nor xFACTOR (x0.87)";
    const long target = wanted[0] == 'x' ? std::lround(net.scale * value) : std::lround(value);
    if (wanted[0] != 'x' && value != double(target)) return "net: SCALE must be a whole number, not " + wanted;
    if (target < 1 || target > 100000) return "net: SCALE " + std::to_string(target) + " out of range (1 to 100000)";
    const int old = net.scale;
    net.scale = int(target);
    net.description =
        withNote(net.description, "; output SCALE " + std::to_string(old) + " -> " + std::to_string(net.scale));
    const std::string bytes = encode(net);
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file.write(bytes.data(), std::streamsize(bytes.size())) || !file.flush()) return "net: cannot write " + path;
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.3f", double(net.scale) / old);
    out("net: " + path + ": SCALE " + std::to_string(old) + " -> " + std::to_string(net.scale) + ", evaluations x" +
        ratio);
    return "";
}

}  // namespace

std::string runNet(const std::vector<std::string>& args, const std::function<void(const std::string&)>& out) {
    if (args.size() == 2 && args[0] == "show") return show(args[1], out);
    if (args.size() == 4 && args[0] == "scale") return scale(args[1], args[2], args[3], out);
    return "net: show FILE|<embedded>, or scale FILE SCALE|xFACTOR OUT";
}

}  // namespace nnue
