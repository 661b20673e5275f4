// UCI options, each declared once with its type, default, range or choices and the action that
// applies a new value. The engine declares the list (engine.cpp); the UCI layer prints and sets it.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

class Option {
public:
    enum class Type { CHECK, SPIN, COMBO, BUTTON, STRING };
    // Applies a validated value; returns why it cannot (the option then keeps its old value).
    using OnChange = std::function<std::string(const Option&)>;

    static Option check(bool defaultValue, OnChange onChange = nullptr);
    static Option spin(long long defaultValue, long long min, long long max, OnChange onChange = nullptr);
    static Option combo(const std::string& defaultValue, std::vector<std::string> choices, OnChange onChange = nullptr);
    static Option button(OnChange onChange);
    static Option string(const std::string& defaultValue, OnChange onChange = nullptr);

    // The option acts on the search threads or the table, so it waits for a running search to
    // end; while one runs that only stop can end, it is refused (OptionsMap::setIdleGuard).
    Option&& whenIdle() && {
        idleOnly = true;
        return std::move(*this);
    }

    Type type() const { return kind; }
    long long asInt() const { return std::stoll(current); }
    bool asBool() const { return current == "true"; }
    const std::string& asString() const { return current; }
    // The `option name ... type ...` line of the `uci` answer.
    std::string describe(const std::string& name) const;

private:
    friend class OptionsMap;
    // Checks and normalises `value` for this option's type; returns why it is not valid.
    std::string validate(const std::string& name, std::string& value) const;

    Type kind = Type::BUTTON;
    std::string defaultValue, current;
    long long min = 0, max = 0;
    std::vector<std::string> choices;
    OnChange onChange;
    bool idleOnly = false;
};

class OptionsMap {
public:
    // Declares an option; the order of declaration is the order of the `uci` answer.
    void add(const std::string& name, Option option);
    // Case-insensitive, as the UCI protocol asks; nullptr if there is no such option.
    const Option* find(const std::string& name) const;
    const Option& operator[](const std::string& name) const;
    // Validates and applies a value; returns a message for the user if it is refused.
    std::string set(const std::string& name, const std::string& value);
    std::string describe() const;
    // Asked before an option declared whenIdle() changes, with what is to be done ("change
    // Hash"); returns why it cannot be done now, or "" once it can.
    void setIdleGuard(std::function<std::string(const std::string& what)> guard) { idleGuard = std::move(guard); }

private:
    std::pair<std::string, Option>* entry(const std::string& name);
    std::vector<std::pair<std::string, Option>> options;
    std::function<std::string(const std::string&)> idleGuard;
};
