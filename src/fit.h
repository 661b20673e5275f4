// What the Texel tuner (src/eval/tuner.cpp) and the network's trainer (src/nnue/trainer.cpp)
// share: the logistic curve that turns a score into an expected result, a loop shared out among
// threads, and the Adam optimiser (Kingma and Ba, 2015).
#pragma once

#include <cmath>
#include <cstddef>
#include <thread>
#include <vector>

namespace fit {

template <class T>
T sigmoid(T x) {
    return T(1) / (T(1) + std::exp(-x));
}

// Runs body(thread, begin, end) on `threads` contiguous slices of [0, n), a thread each.
template <class Body>
void parallelFor(int threads, std::size_t n, Body body) {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back([&, t] { body(t, n * t / threads, n * (t + 1) / threads); });
    for (auto& th : pool) th.join();
}

// Adam's moments for `size` weights. A step is start(), then direction(i, g) for each weight with
// its gradient: the move to make against the gradient, before the learning rate. Weights may be
// stepped from several threads, each on its own.
template <class T>
struct Adam {
    static constexpr T BETA1 = T(0.9), BETA2 = T(0.999), EPSILON = T(1e-8);
    std::vector<T> m, v;
    int steps = 0;

    explicit Adam(std::size_t size = 0) : m(size), v(size) {}

    void start() {
        ++steps;
        c1 = 1 - std::pow(BETA1, T(steps));
        c2 = 1 - std::pow(BETA2, T(steps));
    }

    T direction(std::size_t i, T g) {
        m[i] = BETA1 * m[i] + (1 - BETA1) * g;
        v[i] = BETA2 * v[i] + (1 - BETA2) * g * g;
        return m[i] / c1 / (std::sqrt(v[i] / c2) + EPSILON);  // the moments' estimates, unbiased
    }

private:
    T c1 = 1, c2 = 1;
};

}  // namespace fit
