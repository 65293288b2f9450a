#include "DeviceMemoryBudget.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstdlib>

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

std::string deviceAllocationFailedMessage(std::size_t requested, std::size_t freeBytes,
                                          std::size_t totalBytes) {
    char text[320];
    if (totalBytes > 0)
        std::snprintf(text, sizeof text,
                      "not enough GPU memory: %.1f MiB asked, %.1f MiB free of %.1f MiB (other "
                      "jobs on this GPU hold the rest?); wait for them, use a smaller batch or "
                      "--max-gpu-memory, or --device cpu",
                      requested / 1048576.0, freeBytes / 1048576.0, totalBytes / 1048576.0);
    else
        std::snprintf(text, sizeof text,
                      "not enough GPU memory: %.1f MiB asked and refused; free GPU memory (other "
                      "jobs), use a smaller batch or --max-gpu-memory, or --device cpu",
                      requested / 1048576.0);
    return text;
}

bool injectedDeviceAllocationFailure() {
    static std::atomic<long> allocations{0};
    const char* n = std::getenv("POSEWRIGHT_GPU_FAIL_ALLOCATION");
    if (!n || !*n)
        return false;
    const long failFrom = std::strtol(n, nullptr, 10);
    return failFrom > 0 && ++allocations >= failFrom;
}

} // namespace pw
