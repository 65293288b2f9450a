// DeviceMemoryBudget: how many poses one streamed chunk of a GPU batch may hold so that the
// batch fits in the device memory it may use (free memory, or less under a user's cap); a batch
// larger than that is split into more chunks, never refused, unless not even one pose fits.
#pragma once

#include <cstddef>
#include <string>

namespace pw {

struct ChunkBudget {
    long posesPerChunk = 0; // 0: not even one pose fits
    std::string message;    // why, when posesPerChunk is 0 (sizes in MiB)
};

// available: bytes the batch may use; fixed: bytes it needs whatever the chunk size (templates);
// perPose: device bytes per pose in one chunk; slots: chunks alive at once (double buffering);
// requested: the chunk size wanted when memory is plentiful.
ChunkBudget posesPerChunkWithin(std::size_t available, std::size_t fixed, std::size_t perPose,
                                long requested, int slots = 2);

// Parses a size in MiB for --max-gpu-memory ("4096"); 0 on anything else.
std::size_t parseMebibytes(const std::string& text);

} // namespace pw
