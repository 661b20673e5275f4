// Little-endian integers in byte strings and the FNV-1a checksum: the file formats of the data
// (datagen/gamefile.h) and of the network (nnue/network.h) are written and read with these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace bytes {

// FNV-1a: a check that a file or chunk was written whole, not a guard against tampering.
inline std::uint32_t checksum(const char* data, std::size_t size) {
    std::uint32_t h = 2166136261u;
    for (std::size_t i = 0; i < size; ++i) h = (h ^ std::uint8_t(data[i])) * 16777619u;
    return h;
}

template <class T>
void put(std::string& out, T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i) out += char(std::uint64_t(value) >> (8 * i) & 0xFF);
}

// Reads little-endian integers from a byte range; `ok` turns false once a read would pass the end.
struct Cursor {
    const char* at;
    const char* end;
    bool ok = true;

    template <class T>
    T get() {
        if (std::size_t(end - at) < sizeof(T)) {
            ok = false;
            return T(0);
        }
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i) v |= std::uint64_t(std::uint8_t(at[i])) << (8 * i);
        at += sizeof(T);
        return T(v);
    }
};

}  // namespace bytes
