// `quadbit net`: a network file looked at and changed without training it.
//   net show FILE|<embedded>           its shape, checksum, SCALE and description
//   net scale FILE SCALE|xFACTOR OUT   the same weights with another output SCALE (xFACTOR
//                                      multiplies the file's), the change noted in the description
// A network learns the scale of the searches' scores, wider than a static evaluation's, while the
// search's margins were set on the hand-written evaluation's scale: `scripts/lab data eval-scale`
// measures the ratio and `net scale` brings it back (gen11d 400 -> 312: +40.8 Elo,
// docs/results/networks.md). The payload, so the checksum, stays the same.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "nnue/network.h"

namespace nnue {

// `net` with these arguments; returns why it cannot.
std::string runNet(const std::vector<std::string>& args, const std::function<void(const std::string&)>& out);

// The description with `note` appended: a description at its limit loses its oldest text's tail to
// make room, never the note.
std::string withNote(const std::string& description, const std::string& note);

}  // namespace nnue
