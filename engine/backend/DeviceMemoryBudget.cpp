#include "DeviceMemoryBudget.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace pw {

ChunkBudget posesPerChunkWithin(std::size_t available, std::size_t fixed, std::size_t perPose,
                                long requested, int slots) {
    ChunkBudget b;
    const std::size_t perSlotPose = std::max<std::size_t>(1, perPose) * std::max(1, slots);
    const std::size_t room = available > fixed ? available - fixed : 0;
    const std::size_t fit = room / perSlotPose;
    b.posesPerChunk = static_cast<long>(std::min<std::size_t>(fit, std::max(1L, requested)));
    if (b.posesPerChunk == 0) {
        char text[256];
        std::snprintf(text, sizeof text,
                      "not enough GPU memory: %.1f MiB may be used, the batch needs %.1f MiB "
                      "for its ligand templates and %.3f MiB per pose in flight (x%d); free "
                      "GPU memory (other jobs) or raise --max-gpu-memory",
                      available / 1048576.0, fixed / 1048576.0, perPose / 1048576.0,
                      std::max(1, slots));
        b.message = text;
    }
    return b;
}

std::size_t parseMebibytes(const std::string& text) {
    unsigned long long mib = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), mib);
    if (ec != std::errc() || ptr != text.data() + text.size() || text.empty() || mib == 0 ||
        mib > (1ull << 30))
        return 0;
    return static_cast<std::size_t>(mib) << 20;
}

} // namespace pw
