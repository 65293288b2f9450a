// The CUDA backend's entry point. Batched minimization on the GPU is built in engine/cuda
// (issue: CUDA backend); until then a request for the GPU falls back to the CPU and says why.
#include "backend/DeviceSelection.h"

namespace pw {

std::unique_ptr<Backend> makeCudaBackend(int deviceIndex, std::string& why) {
    std::vector<CudaDeviceInfo> devices = cudaDevices(&why);
    if (devices.empty())
        return nullptr;
    if (deviceIndex < 0 || deviceIndex >= static_cast<int>(devices.size())) {
        why = "no CUDA device " + std::to_string(deviceIndex) + " (" +
              std::to_string(devices.size()) + " found)";
        return nullptr;
    }
    why = "the CUDA minimizer is not part of this build yet";
    return nullptr;
}

} // namespace pw
