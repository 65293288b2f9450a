// DeviceSelection: `--device auto|cpu|cuda[:N]` for every command and the app: parses the
// request and creates the backend, falling back to the CPU with one line that says why.
#pragma once

#include "Backend.h"

#include <memory>
#include <string>

namespace pw {

struct DeviceRequest {
    enum class Kind { Auto, Cpu, Cuda } kind = Kind::Auto;
    int index = 0; // cuda:N (the first of a list)
    // Several GPUs (engine/parallel/MultiDeviceBackend): cuda:all, or cuda:0,2 (the list).
    bool allDevices = false;
    std::vector<int> indices;
};

// Throws InputError("--device", 0, ...) for anything but auto, cpu, cuda, cuda:N, cuda:all and
// cuda:N,M,... (distinct indices).
DeviceRequest parseDeviceRequest(const std::string& text);

struct CudaDeviceInfo {
    int index = 0;
    std::string name;
    int multiprocessors = 0;
    size_t memoryBytes = 0;
    int major = 0, minor = 0; // compute capability (sm_90: 9, 0)
};

// Usable CUDA devices; empty (with the reason in *why) in a build without CUDA or on a machine
// without a working driver/GPU.
std::vector<CudaDeviceInfo> cudaDevices(std::string* why = nullptr);

// auto: the first usable GPU, else the CPU; cpu: the CPU; cuda[:N]: that GPU, and when it is not
// usable the CPU with the reason. `note` receives the one line to show the user:
// "device: CUDA 0: NVIDIA H100 80GB HBM3 (sm_90)", "device: CPU (16 threads)" or, on fallback,
// "device: no CUDA device found; using the CPU (16 threads)". cuda:all and cuda:N,M: every
// usable GPU named (one worker per GPU, the batch shared out by work); those not usable are
// named in the note and left out; none usable: the CPU with the reasons.
std::unique_ptr<Backend> createBackend(const DeviceRequest& request, int cpuThreads,
                                       std::string& note);

} // namespace pw
