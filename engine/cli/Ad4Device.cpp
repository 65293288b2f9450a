#include "Ad4Device.h"

#include "CommandLine.h"

namespace pw::cli {

int chooseAd4Device(const DeviceRequest& request, const std::string& cpuDescription,
                    std::string& note) {
    if (request.allDevices || request.indices.size() > 1)
        throw UsageError("AD4 exact scoring runs on one GPU: give --device cuda:N (or auto, cpu)");
    if (request.kind == DeviceRequest::Kind::Cpu) {
        note = "device: " + cpuDescription;
        return -1;
    }
    std::string why;
    const std::vector<CudaDeviceInfo> devices = cudaDevices(&why);
    for (const CudaDeviceInfo& d : devices)
        if (d.index == request.index) {
            note = "device: CUDA " + std::to_string(d.index) + ": " + d.name + " (sm_" +
                   std::to_string(d.major) + std::to_string(d.minor) + ")";
            return d.index;
        }
    if (!devices.empty())
        why = "no CUDA device " + std::to_string(request.index) + " (" +
              std::to_string(devices.size()) + " present)";
    note = "device: " + why + "; using the " + cpuDescription;
    return -1;
}

} // namespace pw::cli
