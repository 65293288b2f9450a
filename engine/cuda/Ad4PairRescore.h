// Ad4PairRescore: ad4::exactPoseEnergy for many poses at once, the intermolecular part from the
// GPU pair scorer: what `score --scoring ad4 --exact --device cuda` prints and what `hits rescore
// --scoring ad4 --device cuda` stores (one pose, one number, whatever the device).
#pragma once

#include "Ad4PairScorer.h"
#include "score/ad4/Ad4LigandScorer.h"

#include <vector>

namespace pw::cuda {

// One pose: its map scorer (internal, torsional and unbound parts, which read no map values that
// the exact part replaces), its exact scorer (on the GPU scorer's setup and box rule), its
// coordinates; *out receives what exactPoseEnergy returns for it.
struct Ad4ExactPose {
    const ad4::Ad4LigandScorer* onMaps;
    const ad4::Ad4ExactScorer* exact;
    const std::vector<Vec3>* coords;
    ad4::Ad4Energy* out;
};

// Replaces the scorer's ligand list with the poses' ligands, scores every pose's intermolecular
// part in one call (the scorer's chunks), and the rest on `threads` host threads (0 = all).
// Throws std::invalid_argument as Ad4PairScorer::addLigand and score do.
void exactPoseEnergies(Ad4PairScorer& gpu, const std::vector<Ad4ExactPose>& poses,
                       ad4::UnboundModel unbound, int threads = 0);

} // namespace pw::cuda
