// PairScorer: exact receptor-ligand energies of many poses on one GPU (issue 18): the receptor's
// cell list and the scoring function's tables are uploaded once; poses come as Cartesian
// coordinates and are scored in chunks by PairScoreKernel.cu, in double.
// - scoreTabulated: Vina's reported numbers, as LigandScorer::interTabulated / intraTabulated
//   compute them (finalScore's inter and intra).
// - evaluate: the analytic energy and its gradient, as LigandScorer::evaluate (the minimizer's).
#pragma once

#include "PairScoreTypes.h"
#include "core/Molecule.h"
#include "score/LigandScorer.h"

#include <memory>
#include <vector>

namespace pw::cuda {

class PairScorer {
public:
    // Throws std::runtime_error when the device cannot be used. sf and receptor are copied to the
    // device; they need not outlive the scorer.
    PairScorer(const ScoringFunction& sf, const ReceptorModel& receptor, int device);
    ~PairScorer();
    PairScorer(const PairScorer&) = delete;
    PairScorer& operator=(const PairScorer&) = delete;

    // Registers a ligand (its types and intramolecular pairs, from the CPU scorer of the same
    // scoring function and receptor) and returns its id for the poses. A macrocycle (ring-closure
    // pseudo-atoms) is refused with std::invalid_argument: its extra terms are CPU-only.
    int addLigand(const LigandScorer& scorer);
    void clearLigands();
    int atomCount(int ligand) const;

    // poseLigand[p]: the ligand of pose p; coords: every atom of every pose, pose after pose
    // (hydrogens included, as LigandScorer takes them). out[p] receives pose p's numbers.
    void scoreTabulated(const std::vector<int>& poseLigand, const std::vector<Vec3>& coords,
                        std::vector<PairPoseEnergy>& out);
    // inter + intra = LigandScorer::evaluate; gradient (when given) in coords' layout, zero for
    // hydrogens.
    void evaluate(const std::vector<int>& poseLigand, const std::vector<Vec3>& coords,
                  std::vector<PairPoseEnergy>& out, std::vector<Vec3>* gradient = nullptr);

    // Seconds the last call spent in the kernel (device events), and in all (copies included).
    double lastKernelSeconds() const { return kernelSeconds_; }
    double lastTotalSeconds() const { return totalSeconds_; }
    // The device copies of the receptor's cell list and the scoring tables, valid while the
    // scorer lives: the minimizer's exact mode reads them (CudaMinimizer).
    int device() const;
    const PairReceptorDev& receptorView() const;
    const PairScoringDev& scoringView() const;

    // Poses per launch (device memory for coordinates is sized by it).
    void setChunkSize(int poses) { chunk_ = poses < 1 ? 1 : poses; }

private:
    void run(PairMode mode, const std::vector<int>& poseLigand, const std::vector<Vec3>& coords,
             std::vector<PairPoseEnergy>& out, std::vector<Vec3>* gradient);

    struct Impl;
    std::unique_ptr<Impl> impl_;
    int chunk_ = 1 << 18;
    double kernelSeconds_ = 0, totalSeconds_ = 0;
};

} // namespace pw::cuda
