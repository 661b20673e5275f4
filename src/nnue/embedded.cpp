// The default network, built into the binary by the assembler's .incbin (as Ethereal and
// Stockfish do with incbin.h), so that the engine needs no file beside it. The build passes the
// file's path as QUADBIT_DEFAULT_NETWORK (src/sources.cmake).
#include <cstdio>
#include <cstdlib>

#include "nnue/network.h"

asm(".section .rodata\n"
    ".balign 64\n"
    ".globl quadbitEmbeddedNetwork\n"
    "quadbitEmbeddedNetwork:\n"
    ".incbin \"" QUADBIT_DEFAULT_NETWORK "\"\n"
    ".globl quadbitEmbeddedNetworkEnd\n"
    "quadbitEmbeddedNetworkEnd:\n"
    ".previous\n");

extern "C" const char quadbitEmbeddedNetwork[];
extern "C" const char quadbitEmbeddedNetworkEnd[];

namespace nnue {

const Network& embedded() {
    static const Network* const net = [] {
        auto* n = new Network;
        const std::string data(quadbitEmbeddedNetwork, quadbitEmbeddedNetworkEnd);
        if (std::string why = decode(data, *n); !why.empty()) {  // a broken build, not bad input
            std::fprintf(stderr, "embedded network: %s\n", why.c_str());
            std::abort();
        }
        return n;
    }();
    return *net;
}

}  // namespace nnue
