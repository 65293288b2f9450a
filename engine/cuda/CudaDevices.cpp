// CUDA device discovery for DeviceSelection: which GPUs are usable, and why none is.
#include "backend/DeviceSelection.h"

#include <cuda_runtime_api.h>

namespace pw {

std::vector<CudaDeviceInfo> cudaDevices(std::string* why) {
    std::vector<CudaDeviceInfo> out;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        if (why) {
            // The two common cases in words a user can act on; the runtime's text otherwise.
            if (err == cudaErrorInsufficientDriver)
                *why =
                    "no usable CUDA device: no NVIDIA driver, or one older than this build's CUDA";
            else if (err == cudaErrorNoDevice)
                *why = "no CUDA device found";
            else
                *why = std::string("no usable CUDA device: ") + cudaGetErrorString(err);
        }
        cudaGetLastError(); // clear the sticky error so later calls start clean
        return out;
    }
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess)
            continue;
        out.push_back(
            {i, prop.name, prop.multiProcessorCount, prop.totalGlobalMem, prop.major, prop.minor});
    }
    if (out.empty() && why)
        *why = "no CUDA device found";
    return out;
}

} // namespace pw
