// Ad4PairScorer: AutoDock 4's exact intermolecular energies (ad4::Ad4ExactScorer::inter) of many
// poses on one GPU (issue 18). The receptor's MapSetup is uploaded once, packed as the map kernel
// packs it; ligands are registered from their CPU exact scorers (each atom's map and charge);
// poses come as Cartesian coordinates and are scored in chunks by Ad4PairKernel.cu: per atom the
// map kernel's float arithmetic of each receptor site with double running sums, per pose double
// sums in file order. The box rule (OutsideBox) is the setup's, as the CPU scorer applies it.
// Agreement with the CPU scorer: tests/gpu/test_ad4_pair_score.cpp and, for the same arithmetic
// run on the host, tests/cudahost/test_ad4_pair_math.cpp.
#pragma once

#include "Ad4PairTypes.h"
#include "score/ad4/Ad4ExactScorer.h"

#include <memory>
#include <vector>

namespace pw::cuda {

class Ad4PairScorer {
public:
    // Throws std::runtime_error when the device cannot be used, std::invalid_argument for a
    // setup with more affinity maps than the map packing holds (ad4kernel::kMaxMaps).
    Ad4PairScorer(std::shared_ptr<const ad4::MapSetup> setup, ad4::OutsideBox outside, int device);
    ~Ad4PairScorer();
    Ad4PairScorer(const Ad4PairScorer&) = delete;
    Ad4PairScorer& operator=(const Ad4PairScorer&) = delete;

    // Registers a ligand (its atoms' maps and charges) and returns its id for the poses. The
    // scorer must read this scorer's setup with its box rule (std::invalid_argument otherwise:
    // its numbers would not be the CPU's).
    int addLigand(const ad4::Ad4ExactScorer& ligand);
    void clearLigands();
    int atomCount(int ligand) const;

    // poseLigand[p]: the ligand of pose p; coords: every atom of every pose, pose after pose.
    // out[p] receives pose p's intermolecular sums; perAtom (when given) every atom's terms in
    // coords' layout. Throws std::invalid_argument for an unknown ligand id or a coordinate count
    // that does not match the poses.
    void score(const std::vector<int>& poseLigand, const std::vector<Vec3>& coords,
               std::vector<Ad4PairPoseEnergy>& out,
               std::vector<Ad4PairAtomTerms>* perAtom = nullptr);

    // The smooth twin (ad4::Ad4ExactScorer::energyAndGradient, pose by pose): energy[p] the
    // pose's intermolecular energy, gradient (when given) dE/dx of every atom in coords' layout.
    // The same argument checks as score().
    void energyAndGradient(const std::vector<int>& poseLigand, const std::vector<Vec3>& coords,
                           std::vector<double>& energy, std::vector<Vec3>* gradient = nullptr);

    // Seconds the last score() spent in the kernels (device events), and in all.
    double lastKernelSeconds() const { return kernelSeconds_; }
    double lastTotalSeconds() const { return totalSeconds_; }
    int device() const;
    const ad4::MapSetup& setup() const { return *setup_; }
    ad4::OutsideBox outside() const { return outside_; }

    // Poses per launch (device memory for coordinates and terms is sized by it).
    void setChunkSize(int poses) { chunk_ = poses < 1 ? 1 : poses; }

private:
    // score() and energyAndGradient(): the chunks of poses through the kernel (smooth: the
    // twin's per-atom energies and gradients into atomEnergy / atomGrad, 3 per atom).
    void run(const std::vector<int>& poseLigand, const std::vector<Vec3>& coords, bool smooth,
             std::vector<Ad4PairPoseEnergy>* out, std::vector<Ad4PairAtomTerms>* perAtom,
             std::vector<double>* atomEnergy, std::vector<double>* atomGrad);

    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::shared_ptr<const ad4::MapSetup> setup_;
    ad4::OutsideBox outside_;
    int chunk_ = 1 << 16;
    double kernelSeconds_ = 0, totalSeconds_ = 0;
};

} // namespace pw::cuda
