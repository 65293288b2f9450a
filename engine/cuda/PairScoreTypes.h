// PairScoreTypes: the plain structs the exact pair kernel (PairScoreKernel.cu) reads: the receptor's
// cell list, the scoring function's tables and the ligand templates, all as device pointers.
// Double precision throughout: the kernel must give the CPU exact scorer's numbers (LigandScorer
// interTabulated/intraTabulated and evaluate) within 1e-4 relative, bin for bin of Vina's table.
#pragma once

namespace pw::cuda {

// One receptor atom of the cell list (ReceptorModel::Site's layout: x, y, z, XS type).
struct PairSite {
    double x, y, z;
    int type;
    int pad;
};

// A type pair's ramp terms (ScoringFunction::rampShape) with its rows of the tables.
struct PairTypeInfo {
    double optimal;
    int row; // row of the tabulated and spline tables
    unsigned char hydrophobic, hbond;
};

struct PairReceptorDev {
    const PairSite* cellSites; // per cell, contiguous (ReceptorModel::cellSites)
    const int* cellStart;      // CSR offsets, cells + 1 entries
    const PairSite* allSites;  // every typed heavy atom (points outside an unpenalized region)
    int allCount;
    int cells[3];
    double begin[3], end[3], invCell[3];
    int penalizeOutside;
};

struct PairScoringDev {
    const double* table;        // rows x tableSize: Vina's tabulated energy
    const double* spline;       // rows x tableSize x 2: Hermite knots of the smooth terms
    const PairTypeInfo* types;  // kXsTypeCount^2
    int tableSize, typeCount;
    double cutoff2;
    double hydGood, hydBad, hbGood, hbBad;
    double wHydrophobic, wHbond;
};

// One ligand: its typed (heavy) atoms and its intramolecular pairs, as offsets into flat arrays.
struct PairLigandDev {
    int heavyBegin, heavyCount; // into heavyAtom / heavyType
    int pairBegin, pairCount;   // into pairs
    int atomCount;              // coordinates per pose (hydrogens included)
};

struct PairIntraPair {
    int i, j, ti, tj;
};

struct PairLigandsDev {
    const PairLigandDev* ligands;
    const int* heavyAtom;
    const int* heavyType;
    const PairIntraPair* pairs;
};

// Per pose: inter (penalty included, as interTabulated/interEnergy return it), intra, penalty.
struct PairPoseEnergy {
    double inter, intra, penalty;
};

enum class PairMode { Tabulated, Spline, SplineGradient };

// Launches the kernel for nPoses poses: pose p is ligand poseLigand[p], its atoms start at
// coords[3 * poseAtom[p]]; gradient (SplineGradient only) has the same layout as coords.
void launchPairKernel(PairMode mode, const PairReceptorDev& receptor, const PairScoringDev& scoring,
                      const PairLigandsDev& ligands, int nPoses, const int* poseLigand,
                      const long long* poseAtom, const double* coords, PairPoseEnergy* out,
                      double* gradient, void* stream);

} // namespace pw::cuda
