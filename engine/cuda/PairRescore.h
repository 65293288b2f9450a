// PairRescore: Vina's reported numbers (LigandScorer::finalScore) for many poses at once from the
// exact pair kernel: what `score --device cuda` prints and what the CUDA backend reports for the
// start and minimized poses of `minimize` (one pose, one number, whatever the device).
#pragma once

#include "PairScorer.h"
#include "score/ScoreBreakdown.h"

#include <vector>

namespace pw::cuda {

// One pose to score: ligands[ligand] posed at coords; the result goes to *out.
struct ExactPose {
    int ligand;
    const std::vector<Vec3>* coords;
    VinaScore* out;
};

// Fills every pose's VinaScore as finalScore does (inter and intra from Vina's tabulated
// potential, unbound = own intra, affinity, torsional, numTors); of the term breakdown only
// inter, intra and outOfBoxPenalty (the per-term sums stay zero). Macrocycles (ring closures)
// get the CPU's finalScore instead. The ligands' topologies are built on `threads` host threads
// (0 = all), one per distinct structure; the scorer's ligand list is replaced.
void scoreExactPoses(PairScorer& gpu, const ScoringFunction& sf, const ReceptorModel& receptor,
                     const std::vector<Molecule>& ligands, const std::vector<ExactPose>& poses,
                     int threads = 0);

} // namespace pw::cuda
