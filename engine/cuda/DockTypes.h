// DockTypes: the flat records of the batched CUDA docking search (Lamarckian GA): one block per
// run, every run of every ligand of a batch in one launch; shared by the host packer and kernel.
#pragma once

#include <cstdint>

namespace pw::cuda {

// Torsions a docked ligand may have on the GPU (AutoDock-GPU's limit is 32 as well).
inline constexpr int kDockMaxTorsions = 32;

enum class DockLocalSearch : int { Adadelta = 0, Bfgs = 1 };

// The search as the kernel reads it (mirrors the host's LGA options).
struct DockParamsGpu {
    int populationSize;  // individuals per run
    int maxGenerations;  // per run
    int lsPerGeneration; // individuals refined by local search each generation (0: none)
    int localSearch;     // DockLocalSearch
    int lsMaxIterations; // per local search: ADADELTA iterations / BFGS evaluations
    float lsTolerance;   // BFGS: gradient-norm stop; ADADELTA: unused
    float adadeltaRho, adadeltaEpsilon;
    float adadeltaStopBound; // ADADELTA's early stop (dock::AdadeltaOptions); 0: off
    int adadeltaConsecutive;
    float adadeltaStopTolerance; // dock::AdadeltaOptions::stopTolerance
    float crossoverRate, mutationRate, tournamentRate;
    float mutationPosition; // A: uniform in [-x, x]
    float mutationAngle;    // rad: orientation and torsion mutations, uniform in [-x, x]
    float boxHalf[3];       // A: positions stay (and start uniform) in [-half, half] of the centre
    std::uint64_t seed;
};

// One run: which ligand (template) it docks and where its results go.
struct RunInputGpu {
    int templ;     // template index
    int refOffset; // float3 units into the reference coordinates (the ligand's, shared by its runs)
    int finalOffset; // float3 units into the final coordinates (this run's)
    int runIndex;    // run number within its ligand: part of the RNG counter
    int ligandIndex; // part of the RNG counter
    int budget;      // energy evaluations allowed to this run (dock::evaluationBudget)
};

struct RunResultGpu {
    float energy;       // search objective (inter + intra) of the run's best individual
    float inter, intra; // reported: grid inter (trilinear), tabulated intra, at that pose
    float position[3];  // relative to the box centre
    float orientation[4];
    float torsions[kDockMaxTorsions];
    int generations, evaluations;
    int cancelled; // stopped by the cancel flag before its budget or AutoStop
};

// What a run keeps in global memory between the launches of a batch (the host tests AutoStop over
// each ligand's runs between launches, dock::PooledAutoStop): with the population (DockBatchGpu::
// population, current generation first at (generation % 2)) and its energies, the run goes on
// exactly where it paused. Zeroed by the host before a run's first launch.
struct RunStateGpu {
    int started;     // generation 0 made
    int generation;  // generations done
    int evaluations; // energy evaluations used
    int ended;       // budget, generation cap or cancel reached: never launched again
    int cancelled;
    float best; // the population's lowest energy (the AutoStop test's input)
};

// The live view of a watched run (dock::DockOptions::onGeneration): its block's warp 0 writes it at
// the top of every generation into page-locked host memory that the host polls while the kernel
// runs. sequence is odd while the slot is being written (2g - 1, then 2g for generation g): a
// reader that sees it change, or odd, discards its copy. Never read by the kernel: a watched run
// searches exactly as an unwatched one.
struct DockWatchSlotGpu {
    unsigned int sequence;
    int generation;                       // generations done
    float best, mean;                     // the population's lowest and mean searched energy
    float genotype[7 + kDockMaxTorsions]; // the best individual (position: from the box centre)
};

} // namespace pw::cuda
