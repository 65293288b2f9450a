// Ad4PairTypes: what the exact AD4 pair kernel (Ad4PairKernel.cu) reads and writes: the receptor
// setup packed as the map kernel packs it (Ad4MapPacking), the box and its outside rule, and one
// chunk of poses as flat per-atom arrays. Shared by the device launch and the host test that runs
// the kernel's per-atom math (Ad4PairMath.cuh) without a GPU.
#pragma once

#include "Ad4MapKernel.cuh"

namespace pw::cuda {

// One atom's terms, split as ad4::Ad4Energy::AtomTerms: vdW + H-bond (the affinity map's value),
// q * electrostatic potential, |q| * desolvation. Under the penalty rule an atom outside the box
// has vdwHb = elec = 500 * |x - centre|^2 and desolv = 0 (autodock4 books it twice).
struct Ad4PairAtomTerms {
    double vdwHb, elec, desolv;
};

// One pose's intermolecular energy, split as Ad4ExactScorer::inter splits it.
struct Ad4PairPoseEnergy {
    double interVdwHbDesolv, interElec;
};

struct Ad4PairArgs {
    ad4kernel::Args maps;            // sites and tables (out and points unused)
    const ad4kernel::Probe* probes;  // one per affinity map
    double center[3];                // box centre: sites are stored relative to it
    double lo[3], hi[3];             // GridGeometry::lo() / hi(): strictly inside = in the box
    int penalty;                     // 1: autodock4's outside-box penalty (OutsideBox::Penalty)
    double estat;                    // the electrostatic weight, in double as the CPU has it
    // The chunk: atom i of the chunk is ligand template atom atomTemplate[i] at coords[3i..3i+2].
    long long atoms;
    const double* coords;
    const int* atomTemplate;
    const int* templateMap;          // per template atom: affinity map index
    const double* templateCharge;    // per template atom: partial charge
    Ad4PairAtomTerms* terms;         // out, per atom of the chunk
    // Per pose: atoms [poseAtom[p], poseAtom[p + 1]) of the chunk.
    int poses;
    const long long* poseAtom;
    Ad4PairPoseEnergy* out;
    // The smooth twin instead (Ad4PairSmooth.cuh): each atom's energy and dE/dx (3 doubles) into
    // atomEnergy and atomGrad; terms and out are then not written.
    int smooth;
    double* atomEnergy;
    double* atomGrad;
};

// Launches the per-atom sweep and the per-pose sums on `stream` (a cudaStream_t).
void launchAd4PairKernel(const Ad4PairArgs& args, void* stream);

} // namespace pw::cuda
