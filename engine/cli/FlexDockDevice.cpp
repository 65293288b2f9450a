#include "FlexDockDevice.h"
#include "FlexMinimizeDevice.h"

#include "core/ParallelFor.h"
#include "minimize/FlexRefinement.h"
#ifdef POSEWRIGHT_HAVE_CUDA
#include "cuda/DockGpu.h"
#endif

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <thread>

namespace pw::cli {

#ifdef POSEWRIGHT_HAVE_CUDA

std::vector<std::vector<dock::FlexDockRun>>
dockWithFlexOnGpu(int device, Backend& backend, const DockingTarget& target, const FlexModel& flex,
                  const ReceptorGrid& grid, const std::vector<Molecule>& ligands,
                  const dock::DockOptions& options) {
    std::vector<Molecule> combined;
    std::vector<long> keys; // the ligand's input index keys its random streams, as on the CPU
    for (size_t i = 0; i < ligands.size(); ++i)
        if (!ligands[i].atoms.empty()) {
            combined.push_back(withSideChains(ligands[i], flex, flex.referenceCoordinates()));
            keys.push_back(static_cast<long>(i));
        }
    std::vector<std::vector<dock::FlexDockRun>> out(ligands.size());
    if (combined.empty())
        return out;
    cuda::CudaDocker docker(device);
    docker.setFlexibleSideChains(&flex);
    const std::vector<cuda::GpuDockRun> searched =
        docker.dock(target, combined, options, nullptr, &keys);

    // Each run's best pose, minimized on the exact energy (as dockLigandWithFlex ends a run).
    std::vector<Molecule> starts;
    starts.reserve(searched.size());
    for (const cuda::GpuDockRun& s : searched) {
        Molecule m = combined[static_cast<size_t>(s.ligand)];
        for (size_t a = 0; a < m.atoms.size() && a < s.coordinates.size(); ++a)
            m.atoms[a].position = s.coordinates[a];
        starts.push_back(std::move(m));
    }
    MinimizeBatchOptions exact;
    exact.refinement.minimize = flexMinimizeOptions();
    exact.exact = true;
    exact.gridReport = true;
    exact.flex = &flex;
    std::vector<RefinementResult> ends;
    backend.minimize(target, starts, exact, ends);

    // Vina's numbers on the CPU, one scorer per ligand.
    std::vector<std::unique_ptr<LigandScorer>> scorers(combined.size());
    std::vector<std::unique_ptr<FlexScorer>> flexScorers(combined.size());
    for (size_t k = 0; k < combined.size(); ++k) {
        const Molecule& lig = ligands[static_cast<size_t>(keys[k])];
        scorers[k] = std::make_unique<LigandScorer>(lig, target.scoring(), target.receptor());
        flexScorers[k] = std::make_unique<FlexScorer>(*scorers[k], flex, &grid);
    }
    std::vector<dock::FlexDockRun> runs(searched.size());
    const int threads = options.threads > 0
                            ? options.threads
                            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    parallelFor(static_cast<long>(searched.size()), threads, [&](long q) {
        const cuda::GpuDockRun& s = searched[static_cast<size_t>(q)];
        const size_t nL = ligands[static_cast<size_t>(keys[static_cast<size_t>(s.ligand)])].atoms.size();
        // An end without coordinates (never minimized) keeps the search's pose.
        const std::vector<Vec3>& c = ends[static_cast<size_t>(q)].coordinates.size() ==
                                             s.coordinates.size()
                                         ? ends[static_cast<size_t>(q)].coordinates
                                         : s.coordinates;
        dock::FlexDockRun& r = runs[static_cast<size_t>(q)];
        r.run = s.run;
        r.ligandCoordinates.assign(c.begin(), c.begin() + static_cast<long>(nL));
        r.flexCoordinates.assign(c.begin() + static_cast<long>(nL), c.end());
        r.searchEnergy = s.energy;
        r.score = flexScorers[static_cast<size_t>(s.ligand)]->finalScore(r.ligandCoordinates,
                                                                         r.flexCoordinates);
        r.evaluations = s.evaluations + ends[static_cast<size_t>(q)].evaluations;
        r.generations = s.generations;
    });
    for (size_t q = 0; q < runs.size(); ++q)
        out[static_cast<size_t>(keys[static_cast<size_t>(searched[q].ligand)])].push_back(
            std::move(runs[q]));
    for (auto& ligandRuns : out)
        std::stable_sort(ligandRuns.begin(), ligandRuns.end(),
                         [](const dock::FlexDockRun& a, const dock::FlexDockRun& b) {
                             return a.score.affinity < b.score.affinity;
                         });
    return out;
}

#else

std::vector<std::vector<dock::FlexDockRun>> dockWithFlexOnGpu(int, Backend&, const DockingTarget&,
                                                              const FlexModel&,
                                                              const ReceptorGrid&,
                                                              const std::vector<Molecule>&,
                                                              const dock::DockOptions&) {
    throw std::runtime_error("dock --flex on a GPU needs a build with CUDA");
}

#endif

} // namespace pw::cli
