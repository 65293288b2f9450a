// DeviceMemoryBudget: how many poses one streamed chunk of a GPU batch may hold so that the
// batch fits in the device memory it may use (free memory, or less under a user's cap); a batch
// larger than that is split into more chunks, never refused, unless not even one pose fits.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace pw {

// A device allocation the GPU refused (deviceAllocationFailedMessage says why). Its own type so
// that an explicit `--device cuda` stops with the message instead of falling back to the CPU.
struct DeviceMemoryError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

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

// The one-line message for a device allocation the GPU refused (another job holds the memory,
// or the batch is too large): what was asked, what the device had free (freeBytes and
// totalBytes 0 when unknown) and what the user can do.
std::string deviceAllocationFailedMessage(std::size_t requested, std::size_t freeBytes,
                                          std::size_t totalBytes);

// Test hook: with POSEWRIGHT_GPU_FAIL_ALLOCATION=N in the environment, the Nth device allocation
// of the process and every later one are refused as a full GPU refuses them (the CUDA buffers
// ask this before cudaMalloc), so that the clean stop can be tested without filling a GPU.
bool injectedDeviceAllocationFailure();

} // namespace pw
