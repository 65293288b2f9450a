#include "DeviceSelection.h"
#include "DeviceMemoryBudget.h"

#include "core/InputError.h"
#include "parallel/MultiDeviceBackend.h"

#include <algorithm>

#include <charconv>
#include <cstdlib>
#include <future>

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
    else if (text == "cuda:all") {
        r.kind = DeviceRequest::Kind::Cuda;
        r.allDevices = true;
    } else if (text.rfind("cuda:", 0) == 0 && text.find(',') != std::string::npos) {
        // cuda:0,2: distinct indices, comma-separated.
        r.kind = DeviceRequest::Kind::Cuda;
        size_t pos = 5;
        while (true) {
            const size_t comma = std::min(text.find(',', pos), text.size());
            int i = -1;
            auto [p, ec] = std::from_chars(text.data() + pos, text.data() + comma, i);
            if (ec != std::errc() || p != text.data() + comma || comma == pos || i < 0 ||
                std::find(r.indices.begin(), r.indices.end(), i) != r.indices.end())
                throw InputError("--device", 0,
                                 "expected auto, cpu, cuda or cuda:N, got '" + text +
                                     "' (several GPUs: cuda:all or distinct indices cuda:0,2)");
            r.indices.push_back(i);
            if (comma == text.size())
                break;
            pos = comma + 1;
        }
        r.index = r.indices.front();
    } else if (text.rfind("cuda:", 0) == 0) {
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

namespace {

// Docking lanes per GPU: two launches at once on each GPU (a second backend per GPU, its own
// streams and buffers), so that one launch's longest runs hold a few SMs, not the whole GPU
// (tests/bench/RESULTS.md, helper scale2), where there are several GPUs; one where there is one.
// POSEWRIGHT_DOCK_LANES (1 to 4) sets it for either.
int dockLanesPerGpu(size_t gpus) {
    const char* knob = std::getenv("POSEWRIGHT_DOCK_LANES");
    return knob ? std::clamp(std::atoi(knob), 1, 4) : gpus > 1 ? 2 : 1;
}

// The GPUs' backends (used[k]: the device index of gpus[k]) behind one backend: the GPU itself
// where there is one with one docking lane, else the multi-device split with its lanes.
std::unique_ptr<Backend> withDockLanes(std::vector<std::unique_ptr<Backend>> gpus,
                                       std::vector<int> used, std::string& note,
                                       const std::string& leftOut) {
    const int lanes = dockLanesPerGpu(gpus.size());
    if (gpus.size() == 1 && lanes == 1) {
        note = "device: " + gpus.front()->description() + leftOut;
        return std::move(gpus.front());
    }
    auto multi = std::make_unique<MultiDeviceBackend>(std::move(gpus));
    // The benchmark's knob: the fewest runs in a docking chunk (default 528, four H100 waves).
    if (const char* runs = std::getenv("POSEWRIGHT_DOCK_CHUNK_RUNS"))
        multi->setDockChunking(std::max(1, std::atoi(runs)), 8);
    // Made at the first docking batch: minimize, overlay and LINGO never use them.
    multi->setDockLaneFactory(lanes, [used](size_t d) -> std::unique_ptr<Backend> {
        std::string reason;
        try {
            return makeCudaBackend(used[d], reason);
        } catch (const DeviceMemoryError&) {
            return nullptr; // a full GPU: that device docks one launch at a time
        }
    });
    note = "device: " + multi->description() + leftOut;
    return multi;
}

// cuda:all / cuda:N,M: a backend per usable GPU; one GPU alone is used as such.
std::unique_ptr<Backend> createMultiBackend(const DeviceRequest& request, int cpuThreads,
                                            std::string& note) {
    std::string why;
    std::vector<int> wanted = request.indices;
    if (request.allDevices)
        for (const CudaDeviceInfo& d : cudaDevices(&why))
            wanted.push_back(d.index);
    std::vector<std::unique_ptr<Backend>> gpus;
    std::string left;
    // Each GPU's backend (its CUDA context: a fraction of a second each) made at once, on a
    // thread per GPU, so that setting up G GPUs takes about as long as one.
    std::vector<std::string> reasons(wanted.size());
    std::vector<std::future<std::unique_ptr<Backend>>> making;
    for (size_t k = 0; k < wanted.size(); ++k)
        making.push_back(std::async(std::launch::async, [&wanted, &reasons, k] {
            return makeCudaBackend(wanted[k], reasons[k]);
        }));
    std::vector<std::unique_ptr<Backend>> made;
    for (auto& m : making)
        m.wait(); // all of them done before any exception leaves (they write `reasons`)
    for (auto& m : making)
        made.push_back(m.get());
    std::vector<int> used; // the device index of each of `gpus`
    for (size_t k = 0; k < wanted.size(); ++k) {
        if (made[k]) {
            gpus.push_back(std::move(made[k]));
            used.push_back(wanted[k]);
        } else
            left += (left.empty() ? "" : "; ") + reasons[k];
    }
    const std::string leftOut = left.empty() ? "" : " (left out: " + left + ")";
    if (gpus.empty()) {
        auto cpu = makeCpuBackend(cpuThreads);
        note = "device: " + (left.empty() ? why : left) + "; using the " + cpu->description();
        return cpu;
    }
    return withDockLanes(std::move(gpus), used, note, leftOut);
}

} // namespace

std::unique_ptr<Backend> createBackend(const DeviceRequest& request, int cpuThreads,
                                       std::string& note) {
    if (request.kind == DeviceRequest::Kind::Cuda &&
        (request.allDevices || request.indices.size() > 1))
        return createMultiBackend(request, cpuThreads, note);
    if (request.kind != DeviceRequest::Kind::Cpu) {
        std::string why;
        std::unique_ptr<Backend> gpu;
        try {
            gpu = makeCudaBackend(request.index, why);
        } catch (const DeviceMemoryError& e) {
            // Asked for by name, a full GPU is an error (the user chose it); auto moves on.
            if (request.kind == DeviceRequest::Kind::Cuda)
                throw;
            why = e.what();
        }
        if (gpu) {
            std::vector<std::unique_ptr<Backend>> one;
            one.push_back(std::move(gpu));
            return withDockLanes(std::move(one), {request.index}, note, "");
        }
        auto cpu = makeCpuBackend(cpuThreads);
        note = "device: " + why + "; using the " + cpu->description();
        return cpu;
    }
    // A diagnostic for machines without GPUs: POSEWRIGHT_CPU_DEVICES=N (2 to 8) puts N CPU
    // backends, the threads shared out, behind the split that several GPUs get, so that the
    // commands' multi-device paths run (and are tested) on the CPU. Output is the same.
    if (const char* knob = std::getenv("POSEWRIGHT_CPU_DEVICES")) {
        const int n = std::atoi(knob);
        if (n >= 2 && n <= 8) {
            std::vector<std::unique_ptr<Backend>> devices;
            for (int d = 0; d < n; ++d)
                devices.push_back(makeCpuBackend(std::max(1, cpuThreads / n)));
            auto multi = std::make_unique<MultiDeviceBackend>(std::move(devices));
            note = "device: " + multi->description() + " (POSEWRIGHT_CPU_DEVICES)";
            return multi;
        }
    }
    auto cpu = makeCpuBackend(cpuThreads);
    note = "device: " + cpu->description();
    return cpu;
}

} // namespace pw
