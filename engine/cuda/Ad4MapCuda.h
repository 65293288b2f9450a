// Ad4MapCuda: the AD4 grid maps of ad4::buildMapsCpu built on a CUDA GPU from the same MapSetup
// (float energies; equal to the CPU maps within 1e-3 kcal/mol). Without CUDA it reports itself
// unusable and throws.
#pragma once

#include "score/ad4/Ad4MapBuilder.h"

#include <stdexcept>
#include <string>

namespace pw::cuda {

inline constexpr int kAd4GpuMaxMapTypes = 16; // affinity maps per GPU build

struct Ad4MapGpuTiming {
    double upload = 0;   // setup tables and receptor atoms to the device (s)
    double kernel = 0;   // the sweep itself (s, CUDA events)
    double download = 0; // maps back to the host (s)
};

#ifdef POSEWRIGHT_HAVE_CUDA
// True when CUDA device `device` can run the kernel; `why` says what failed otherwise.
bool ad4MapGpuUsable(int device, std::string* why);
// Throws std::runtime_error when the device fails or more than kAd4GpuMaxMapTypes types are asked.
ad4::Ad4Maps buildAd4MapsCuda(const ad4::MapSetup& setup, int device,
                              Ad4MapGpuTiming* timing = nullptr);
#else
inline bool ad4MapGpuUsable(int, std::string* why) {
    if (why)
        *why = "this build has no CUDA backend";
    return false;
}
inline ad4::Ad4Maps buildAd4MapsCuda(const ad4::MapSetup&, int, Ad4MapGpuTiming* = nullptr) {
    throw std::runtime_error("this build has no CUDA backend");
}
#endif

} // namespace pw::cuda
