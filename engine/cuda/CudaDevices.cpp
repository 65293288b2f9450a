// CUDA device discovery for DeviceSelection: which GPUs are usable, and why none is.
#include "backend/DeviceSelection.h"

#include <cuda_runtime_api.h>

namespace pw {

std::vector<CudaDeviceInfo> cudaDevices(std::string* why) {
    std::vector<CudaDeviceInfo> out;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        if (why)
            *why = std::string("no usable CUDA device: ") + cudaGetErrorString(err);
        cudaGetLastError(); // clear the sticky error so later calls start clean
        return out;
    }
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess)
            continue;
        out.push_back({i, prop.name, prop.multiProcessorCount, prop.totalGlobalMem});
    }
    if (out.empty() && why)
        *why = "no CUDA device found";
    return out;
}

} // namespace pw
