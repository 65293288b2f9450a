// Ad4MapPacking: a MapSetup laid out as the AD4 map kernel reads it (site arrays, float tables,
// probes), shared by the device upload and the host test that runs the kernel's math.
#pragma once

#include "Ad4MapKernel.cuh"
#include "score/ad4/Ad4MapBuilder.h"

#include <vector>

namespace pw::cuda {

struct PackedAd4Maps {
    std::vector<ad4kernel::SitePosition> pos;
    std::vector<float4> site, bond, plane;
    std::vector<int2> kind;
    std::vector<int> donors;
    std::vector<float> pairTables, desolvation, inverseDielectric;
    std::vector<ad4kernel::Probe> probes;
    ad4kernel::Args args{}; // sizes and weights set; pointers left null
};

PackedAd4Maps packAd4Maps(const ad4::MapSetup& setup);

} // namespace pw::cuda
