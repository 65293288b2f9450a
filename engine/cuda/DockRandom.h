// DockRandom (device): the docking run's random stream on the GPU. The same keyed SplitMix64 as
// dock::DockRandom (engine/dock/DockRandom.h: state from (seed, ligand, run), draw n =
// finalize(state + n * golden)), read at random access: each draw's position is a fixed function
// of (generation, individual, purpose, k), so warps draw in parallel and the result does not depend
// on how runs are spread over blocks, warps or launches. The CPU engine reads the same stream
// sequentially: the two follow the same statistics, not the same sequence of numbers.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define PW_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define PW_HOST_DEVICE inline
#endif

namespace pw::cuda {

// What a draw is for: separate positions for the same (generation, individual).
enum DockDraw : std::uint32_t {
    kDrawInit = 1,
    kDrawTournament = 2,
    kDrawCrossover = 3,
    kDrawMutation = 4,
};

inline constexpr std::uint64_t kDockGolden = 0x9E3779B97F4A7C15ull;

PW_HOST_DEVICE std::uint64_t dockFinalize(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

PW_HOST_DEVICE std::uint64_t dockMix(std::uint64_t x) {
    return dockFinalize(x + kDockGolden);
}

// The run's stream state, as dock::DockRandom's constructor mixes it.
PW_HOST_DEVICE std::uint64_t dockRunKey(std::uint64_t seed, std::uint64_t ligand,
                                        std::uint64_t run) {
    return dockMix(dockMix(dockMix(seed) ^ (ligand * 0xD1B54A32D192ED03ull)) ^
                   (run * 0x8CB92BA72F3D8DD7ull));
}

// Draw k for (generation, individual, purpose): uniform in [0, 1) (24 bits: exact in float).
PW_HOST_DEVICE float dockUniform(std::uint64_t runKey, std::uint32_t generation,
                                 std::uint32_t individual, std::uint32_t purpose, std::uint32_t k) {
    const std::uint64_t position = (static_cast<std::uint64_t>(generation) << 32) |
                                   (static_cast<std::uint64_t>(individual & 0xFFFFFu) << 12) |
                                   (static_cast<std::uint64_t>(purpose & 15u) << 8) | (k & 255u);
    const std::uint64_t bits = dockFinalize(runKey + (position + 1) * kDockGolden);
    return static_cast<float>(bits >> 40) * (1.0f / 16777216.0f);
}

// An integer in [0, n).
PW_HOST_DEVICE int dockIndex(std::uint64_t runKey, std::uint32_t generation,
                             std::uint32_t individual, std::uint32_t purpose, std::uint32_t k,
                             int n) {
    const int i = static_cast<int>(dockUniform(runKey, generation, individual, purpose, k) * n);
    return i < n ? i : n - 1;
}

} // namespace pw::cuda
