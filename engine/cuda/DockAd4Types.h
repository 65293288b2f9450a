// DockAd4Types: AutoDock 4 scoring as the docking kernel reads it (the device twin of
// ad4::Ad4LigandScorer::energyAndGradient: trilinear maps, closed-form internal pairs).
// Shared by the host packer (DockAd4Target) and the device code (DockAd4Scoring.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace pw::cuda {

// The receptor side: every map of an Ad4Maps set, one after another (x fastest, as the .map
// files), and the constants of the model. maps == nullptr: not AD4 (Vina/Vinardo scoring).
// Coordinates are relative to the grid centre, so the grid spans [lo, -lo] on each axis.
struct Ad4ScoringGpu {
    const float* maps;
    long long mapStride;      // floats per map: (nx + 1)(ny + 1)(nz + 1)
    int elecMap, desolvMap;   // indices of the "e" and "d" maps
    int npts[3];              // intervals per axis (GridGeometry::npts)
    float lo[3];              // the grid's low corner, relative to the centre
    float invSpacing;
    float outsidePenalty;     // kcal/mol/A^2 per atom outside, booked twice (vdW and elec)
    float minDistance;        // A: closer internal pairs count at this distance
    float cutoff2;            // A^2: vdW/H-bond internal cutoff
    float energyClamp;        // kcal/mol: pair-energy ceiling
    float smoothHalf;         // A: half of autodock4's `smooth` window
    float desolvInvTwoSigma2; // 1 / (2 sigma^2) of the desolvation Gaussian
};

// One internal (intramolecular) pair of a ligand (ad4::Ad4LigandScorer::InternalPair, weighted).
struct Ad4PairGpu {
    std::uint16_t i, j; // template-local atom slots
    int hbond;          // 1: 12-10 hydrogen bond, 0: 12-6 van der Waals
    float q1q2;         // q_i q_j * 332.06363 * FE_coeff_estat
    float desolv;       // FE_coeff_desolv * the pair's desolvation factor
    float cA, cB, Rij;  // E_vdW/hb = cA / r^12 - cB / r^(6|10), smoothed around Rij
};

} // namespace pw::cuda
