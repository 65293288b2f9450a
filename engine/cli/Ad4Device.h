// Ad4Device: the device of the AD4 exact commands (`score --scoring ad4 --exact`, `hits rescore
// --scoring ad4`): the exact pair scorer runs on one GPU (cuda::Ad4PairScorer) or on the CPU.
// --device auto takes the GPU when one is usable, cuda[:N] that GPU; either falls back to the CPU
// with one line that says why, as createBackend does for the Vina commands.
#pragma once

#include "backend/DeviceSelection.h"

#include <string>

namespace pw::cli {

// The CUDA device index to use, or -1 for the CPU; `note` receives the line to show
// ("device: CUDA 0: NVIDIA H100 80GB HBM3 (sm_90)", or "device: <why>; using the <cpu>").
// cuda:all and device lists are a UsageError: the AD4 exact scorer takes one GPU.
int chooseAd4Device(const DeviceRequest& request, const std::string& cpuDescription,
                    std::string& note);

} // namespace pw::cli
