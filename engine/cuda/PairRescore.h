// PairRescore: Vina's reported numbers (LigandScorer::finalScore) for many poses at once from the
// exact pair kernel: what `score --device cuda` prints and what the CUDA backend reports for the
// start and minimized poses of `minimize` (one pose, one number, whatever the device).
#pragma once

#include "PairScorer.h"
#include "minimize/PoseRefinement.h"
#include "score/ScoreBreakdown.h"

#include <vector>

namespace pw::cuda {

// One pose to score: ligands[ligand] posed at coords; the result goes to *out.
struct ExactPose {
    int ligand;
    const std::vector<Vec3>* coords;
    VinaScore* out;
};

// What scoreExactPoses asks of the pair kernel: PairScorer on a GPU (PairScorerEnergies), or a
// stand-in that only fills numbers (tests/bench/multi_device_overhead.cpp runs the host work of
// the exact report without a GPU).
class ExactPairEnergies {
public:
    virtual ~ExactPairEnergies() = default;
    virtual void clearLigands() = 0;
    virtual int addLigand(const LigandScorer& scorer) = 0; // PairScorer::addLigand
    virtual void scoreTabulated(const std::vector<int>& poseLigand,
                                const std::vector<Vec3>& coords,
                                std::vector<PairPoseEnergy>& out) = 0;
};

class PairScorerEnergies final : public ExactPairEnergies {
public:
    explicit PairScorerEnergies(PairScorer& gpu) : gpu_(gpu) {}
    void clearLigands() override { gpu_.clearLigands(); }
    int addLigand(const LigandScorer& scorer) override { return gpu_.addLigand(scorer); }
    void scoreTabulated(const std::vector<int>& poseLigand, const std::vector<Vec3>& coords,
                        std::vector<PairPoseEnergy>& out) override {
        gpu_.scoreTabulated(poseLigand, coords, out);
    }

private:
    PairScorer& gpu_;
};

// Fills every pose's VinaScore as finalScore does (inter and intra from Vina's tabulated
// potential, unbound = own intra, affinity, torsional, numTors); of the term breakdown only
// inter, intra and outOfBoxPenalty (the per-term sums stay zero). Macrocycles (ring closures)
// get the CPU's finalScore instead. The ligands' topologies are built on `threads` host threads
// (0 = all), one per distinct structure; the scorer's ligand list is replaced.
void scoreExactPoses(ExactPairEnergies& pairs, const ScoringFunction& sf,
                     const ReceptorModel& receptor, const std::vector<Molecule>& ligands,
                     const std::vector<ExactPose>& poses, int threads = 0);
inline void scoreExactPoses(PairScorer& gpu, const ScoringFunction& sf,
                            const ReceptorModel& receptor, const std::vector<Molecule>& ligands,
                            const std::vector<ExactPose>& poses, int threads = 0) {
    PairScorerEnergies pairs(gpu);
    scoreExactPoses(pairs, sf, receptor, ligands, poses, threads);
}

// The CUDA backend's report of a minimize batch: each ligand's start pose (its coordinates) into
// results[i].start and its minimized pose into results[i].score, with the numbers the CPU backend
// reports for the same poses. Poses never minimized (cancelled before their chunk ran: no
// coordinates) keep their empty result. The kernel gets the poses of `slice` ligands per call
// (16,384 ligands: 32,768 poses, 31 MB of coordinates for 1iep; 65,536 ligands faulted in
// twice as many pages per batch on the CPU, the arrays being new for every batch).
void reportStartAndMinimizedExactly(ExactPairEnergies& pairs, const ScoringFunction& sf,
                                    const ReceptorModel& receptor,
                                    const std::vector<Molecule>& ligands,
                                    std::vector<RefinementResult>& results, int threads = 0,
                                    size_t slice = 16384);

} // namespace pw::cuda
