// Ad4PairPacking: a receptor MapSetup and its box rule laid out as the exact AD4 pair kernel reads
// them (the map kernel's packing, Ad4MapPacking, plus the box), shared by the device upload
// (Ad4PairScorer) and the host test that runs the kernel's per-atom math.
#pragma once

#include "Ad4MapPacking.h"
#include "Ad4PairTypes.h"
#include "score/ad4/Ad4ExactScorer.h"

namespace pw::cuda {

struct PackedAd4Pair {
    PackedAd4Maps maps;
    Ad4PairArgs args{}; // box, rule, sizes and weights set; every pointer null
};

PackedAd4Pair packAd4Pair(const ad4::MapSetup& setup, ad4::OutsideBox outside);

// args with its receptor pointers aimed at the host arrays of `p` (the host test's view; the
// chunk's pointers stay null).
Ad4PairArgs hostView(const PackedAd4Pair& p);

} // namespace pw::cuda
