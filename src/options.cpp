#include "options.h"

#include <cctype>
#include <stdexcept>

#include "text.h"

Option Option::check(bool defaultValue, OnChange onChange) {
    Option o;
    o.kind = Type::CHECK;
    o.defaultValue = o.current = defaultValue ? "true" : "false";
    o.onChange = std::move(onChange);
    return o;
}

Option Option::spin(long long defaultValue, long long min, long long max, OnChange onChange) {
    Option o;
    o.kind = Type::SPIN;
    o.defaultValue = o.current = std::to_string(defaultValue);
    o.min = min;
    o.max = max;
    o.onChange = std::move(onChange);
    return o;
}

Option Option::combo(const std::string& defaultValue, std::vector<std::string> choices, OnChange onChange) {
    Option o;
    o.kind = Type::COMBO;
    o.defaultValue = o.current = defaultValue;
    o.choices = std::move(choices);
    o.onChange = std::move(onChange);
    return o;
}

Option Option::button(OnChange onChange) {
    Option o;
    o.kind = Type::BUTTON;
    o.onChange = std::move(onChange);
    return o;
}

Option Option::string(const std::string& defaultValue, OnChange onChange) {
    Option o;
    o.kind = Type::STRING;
    o.defaultValue = o.current = defaultValue;
    o.onChange = std::move(onChange);
    return o;
}

std::string Option::describe(const std::string& name) const {
    static const char* const typeNames[] = {"check", "spin", "combo", "button", "string"};
    std::string s = "option name " + name + " type " + typeNames[int(kind)];
    if (kind == Type::BUTTON) return s;
    s += " default " + (defaultValue.empty() ? std::string("<empty>") : defaultValue);
    if (kind == Type::SPIN) s += " min " + std::to_string(min) + " max " + std::to_string(max);
    for (const std::string& c : choices) s += " var " + c;
    return s;
}

std::string Option::validate(const std::string& name, std::string& value) const {
    switch (kind) {
    case Type::SPIN: {
        long long n;
        if (!text::parseInt(value, n)) return "option " + name + " needs an integer value, got '" + value + "'";
        if (n < min || n > max)
            return "option " + name + " value " + value + " is out of range " + std::to_string(min) + ".." +
                   std::to_string(max);
        value = std::to_string(n);
        return "";
    }
    case Type::CHECK:
        value = text::lower(value);
        if (value != "true" && value != "false") return "option " + name + " needs true or false, got '" + value + "'";
        return "";
    case Type::COMBO:
        for (const std::string& c : choices)
            if (text::lower(c) == text::lower(value)) {
                value = c;
                return "";
            }
        return "option " + name + " must be one of" +
               [&] {
                   std::string list;
                   for (const std::string& c : choices) list += " " + c;
                   return list;
               }() +
               ", got '" + value + "'";
    case Type::BUTTON: return value.empty() ? "" : "option " + name + " is a button and takes no value";
    case Type::STRING:
        if (value == "<empty>") value.clear();  // how GUIs write an empty string
        return "";
    }
    return "";
}

void OptionsMap::add(const std::string& name, Option option) { options.emplace_back(name, std::move(option)); }

std::pair<std::string, Option>* OptionsMap::entry(const std::string& name) {
    for (auto& e : options)
        if (text::lower(e.first) == text::lower(name)) return &e;
    return nullptr;
}

const Option* OptionsMap::find(const std::string& name) const {
    auto* e = const_cast<OptionsMap*>(this)->entry(name);
    return e ? &e->second : nullptr;
}

const Option& OptionsMap::operator[](const std::string& name) const {
    const Option* o = find(name);
    if (!o) throw std::logic_error("undeclared option " + name);
    return *o;
}

std::string OptionsMap::set(const std::string& name, const std::string& value) {
    auto* e = entry(name);
    if (!e) return "unknown option '" + name + "'";
    Option* o = &e->second;
    std::string checked = value;
    if (std::string why = o->validate(e->first, checked); !why.empty()) return why;
    if (o->idleOnly && idleGuard)
        if (std::string why = idleGuard("change " + e->first); !why.empty()) return why;
    // The action reads the new value from the option; a refusal puts the old one back.
    const std::string old = o->current;
    o->current = checked;
    if (o->onChange)
        if (std::string why = o->onChange(*o); !why.empty()) {
            o->current = old;
            return why;
        }
    return "";
}

std::string OptionsMap::describe() const {
    std::string text;
    for (const auto& [name, o] : options) text += o.describe(name) + "\n";
    return text;
}
