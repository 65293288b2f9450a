// DockRandom: the counter-based random stream of one docking run, keyed by (seed, ligand, run), so
// a run draws the same numbers whatever thread, order or device runs it.
#pragma once

#include <cstdint>

namespace pw::dock {

class DockRandom {
public:
    // SplitMix64 (Steele, Lea & Flood 2014) over a state mixed from the three keys: every run is
    // its own stream and needs nothing from any other.
    constexpr DockRandom(std::uint64_t seed, std::uint64_t ligand, std::uint64_t run)
        : state_(mix(mix(mix(seed) ^ (ligand * 0xD1B54A32D192ED03ull)) ^
                     (run * 0x8CB92BA72F3D8DD7ull))) {}

    constexpr std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        return finalize(z);
    }
    // Uniform in [0, 1) from the top 53 bits.
    constexpr double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    // Uniform in [lo, hi).
    constexpr double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    // Uniform integer in [0, n), n > 0 (multiply-shift; bias below 2^-32 for the sizes used).
    constexpr int below(int n) {
        return static_cast<int>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
    }

private:
    static constexpr std::uint64_t finalize(std::uint64_t z) {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    static constexpr std::uint64_t mix(std::uint64_t x) {
        return finalize(x + 0x9E3779B97F4A7C15ull);
    }

    std::uint64_t state_;
};

} // namespace pw::dock
