#include "DeviceSelection.h"

#include "core/InputError.h"

#include <charconv>

namespace pw {

// Defined by the CUDA backend (engine/cuda) or, in builds without CUDA, by NoCudaBackend.cpp.
std::unique_ptr<Backend> makeCudaBackend(int deviceIndex, std::string& why);

DeviceRequest parseDeviceRequest(const std::string& text) {
    DeviceRequest r;
    if (text == "auto")
        r.kind = DeviceRequest::Kind::Auto;
    else if (text == "cpu")
        r.kind = DeviceRequest::Kind::Cpu;
    else if (text == "cuda")
        r.kind = DeviceRequest::Kind::Cuda;
    else if (text.rfind("cuda:", 0) == 0) {
        r.kind = DeviceRequest::Kind::Cuda;
        const char* b = text.data() + 5;
        const char* e = text.data() + text.size();
        auto [p, ec] = std::from_chars(b, e, r.index);
        if (ec != std::errc() || p != e || b == e || r.index < 0)
            throw InputError("--device", 0,
                             "expected auto, cpu, cuda or cuda:N, got '" + text + "'");
    } else {
        throw InputError("--device", 0, "expected auto, cpu, cuda or cuda:N, got '" + text + "'");
    }
    return r;
}

std::unique_ptr<Backend> createBackend(const DeviceRequest& request, int cpuThreads,
                                       std::string& note) {
    if (request.kind != DeviceRequest::Kind::Cpu) {
        std::string why;
        if (auto gpu = makeCudaBackend(request.index, why)) {
            note = "device: " + gpu->description();
            return gpu;
        }
        auto cpu = makeCpuBackend(cpuThreads);
        note = "device: " + why + "; using the " + cpu->description();
        return cpu;
    }
    auto cpu = makeCpuBackend(cpuThreads);
    note = "device: " + cpu->description();
    return cpu;
}

} // namespace pw
