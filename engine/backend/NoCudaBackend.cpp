// Builds without CUDA: the CUDA entry points answer "not available" (GROMACS-style null
// implementations keep call sites free of #ifdefs). Excluded from CUDA builds by CMake.
#include "DeviceSelection.h"

namespace pw {

std::unique_ptr<Backend> makeCudaBackend(int, std::string& why) {
    why = "this build has no CUDA backend";
    return nullptr;
}

std::vector<CudaDeviceInfo> cudaDevices(std::string* why) {
    if (why)
        *why = "this build has no CUDA backend";
    return {};
}

} // namespace pw
