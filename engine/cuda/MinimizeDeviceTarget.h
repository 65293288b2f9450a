// MinimizeDeviceTarget: the receptor side of the CUDA minimizer on the device: the grid maps
// (read back at the samples), pair parameters, Vina's tabulated potential and the intra cutoff
// shift.
#pragma once

#include "DeviceMemory.h"
#include "MinimizeKernel.cuh"
#include "score/DockingTarget.h"

#include <vector>

namespace pw::cuda {

class DeviceScoringTarget {
public:
    // Uploads target's grid and scoring tables unless they are the ones uploaded last (same grid
    // object, same scoring kind, same box centre); true when it uploaded. A target without a grid
    // uploads the tables only (no maps): enough for the exact mode, which reads receptor atoms.
    bool upload(const DockingTarget& target, int threads);

    // Per batch: interpolation and intra smoothing are options, not part of the uploaded data.
    ScoringParamsGpu& params() { return params_; }
    // The kernel works relative to this point (the box centre).
    const Vec3& centre() const { return centre_; }

private:
    bool uploaded_ = false;
    // The uploaded grid's instanceId (an address could be reused); 0: none.
    std::uint64_t gridKey_ = 0;
    ScoringKind kindKey_ = ScoringKind::Vina;
    std::vector<DeviceBuffer<float>> maps_;
    DeviceBuffer<float4> pairParams_;
    DeviceBuffer<float> table_;
    DeviceBuffer<float2> cutoffShift_;
    ScoringParamsGpu params_{};
    Vec3 centre_ = Vec3::Zero();
};

} // namespace pw::cuda
