// Small text helpers shared by the command parsers (UCI, options, command line).
#pragma once

#include <cctype>
#include <string>
#include <vector>

namespace text {

inline std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// A whole-string integer parse: "12x", "" and values beyond 18 digits are not numbers.
inline bool parseInt(const std::string& s, long long& out) {
    if (s.empty() || s.size() > 19) return false;
    std::size_t i = s[0] == '-' || s[0] == '+';
    if (i == s.size() || s.size() - i > 18) return false;
    for (std::size_t k = i; k < s.size(); ++k)
        if (!std::isdigit(static_cast<unsigned char>(s[k]))) return false;
    out = std::stoll(s);
    return true;
}

// The fields of a separated list: "a,b" -> {"a", "b"}; empty fields are kept ("a,,b").
inline std::vector<std::string> split(const std::string& s, char separator) {
    std::vector<std::string> fields(1);
    for (char c : s)
        if (c == separator) fields.emplace_back();
        else fields.back() += c;
    return fields;
}

}  // namespace text
