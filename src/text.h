// Small text helpers shared by the command parsers (UCI, options, command line).
#pragma once

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <sstream>
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

// "1h02m03s": a long job's time taken or left.
inline std::string duration(double seconds) {
    const long s = long(seconds);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ldh%02ldm%02lds", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

// The fields of a separated list: "a,b" -> {"a", "b"}; empty fields are kept ("a,,b").
inline std::vector<std::string> split(const std::string& s, char separator) {
    std::vector<std::string> fields(1);
    for (char c : s)
        if (c == separator) fields.emplace_back();
        else fields.back() += c;
    return fields;
}

// A command-line tool's arguments: `keyword value` pairs and bare flags in any order (`datagen out
// FILE games 100 force`), keywords in any case. Each read converts and checks its value; the
// first problem is kept, named after the tool, and error() adds a keyword no read asked for.
class KeywordArgs {
public:
    KeywordArgs(const std::string& tool, const std::vector<std::string>& args, const std::set<std::string>& flags)
        : tool(tool) {
        for (std::size_t i = 0; i < args.size(); ++i) {
            const std::string key = lower(args[i]);
            if (flags.count(key)) given[key] = "";
            else if (i + 1 == args.size()) fail("'" + args[i] + "' needs a value");
            else given[key] = args[++i];
        }
    }

    bool flag(const std::string& key) { return take(key).has_value(); }
    void string(const std::string& key, std::string& out) {
        if (auto v = take(key)) out = *v;
    }
    template <class Int>
    void integer(const std::string& key, long long min, long long max, Int& out) {
        long long n;
        if (auto v = take(key)) {
            if (parseInt(*v, n) && n >= min && n <= max) out = Int(n);
            else
                fail(key + " must be a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                     ", got '" + *v + "'");
        }
    }
    void real(const std::string& key, double min, double max, double& out) {
        if (auto v = take(key)) {
            char* end = nullptr;
            const double x = std::strtod(v->c_str(), &end);
            if (end != v->c_str() && !*end && x >= min && x <= max) out = x;
            else fail(key + " must be a number from " + shortest(min) + " to " + shortest(max) + ", got '" + *v + "'");
        }
    }
    // The first problem, or "" when every argument was read and valid.
    std::string error() {
        if (!given.empty()) fail("unknown argument '" + given.begin()->first + "'");
        return problem;
    }

private:
    // The value of `key` (once: a keyword left untaken is unknown), or nothing if not given.
    std::optional<std::string> take(const std::string& key) {
        auto it = given.find(key);
        if (it == given.end()) return std::nullopt;
        std::string value = std::move(it->second);
        given.erase(it);
        return value;
    }
    static std::string shortest(double x) {
        std::ostringstream out;
        out << x;
        return out.str();
    }
    void fail(const std::string& why) {
        if (problem.empty()) problem = tool + ": " + why;
    }

    std::string tool, problem;
    std::map<std::string, std::string> given;
};

}  // namespace text
