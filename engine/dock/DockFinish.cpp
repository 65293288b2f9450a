#include "DockFinish.h"

#include "Clustering.h"
#include "LigandDockScoring.h"

#include "core/ParallelFor.h"
#include "core/PhaseTimings.h"
#include "minimize/PoseRefinement.h"

#include <algorithm>
#include <utility>

namespace pw::dock {
namespace {

struct PolishTask {
    int ligand = 0;
    int run = 0; // the cluster's best run
};

// The run's pose minimized as `minimize` runs by default; its score and terms replaced when lower.
void polishRun(const DockTarget& target, const Molecule& ligand, DockRun& run) {
    const DockingTarget& vina = *target.vina;
    Molecule start = ligand;
    for (size_t a = 0; a < start.atoms.size() && a < run.coordinates.size(); ++a)
        start.atoms[a].position = run.coordinates[a];
    const LigandScorer exact(start, vina.scoring(), vina.receptor());
    const LigandScorer grid(start, vina.scoring(), vina.receptor(), vina.grid());
    const RefinementResult r =
        refinePose(start, vina.grid() ? grid : exact, exact, RefinementOptions::standard());
    std::vector<DockTerm> terms;
    const double score = makeLigandDockScoring(target, ligand)->rescore(r.coordinates, terms);
    if (!(score < run.score))
        return; // already at (or below) what a local optimization finds from it
    run.coordinates = r.coordinates;
    run.score = score;
    run.terms = std::move(terms);
    run.polished = true;
}

// Clusters ranked again by their best scores (stable: ties keep the search's order).
void rerank(LigandDockResult& r) {
    for (DockCluster& c : r.clusters)
        c.bestScore = r.runs[c.members[0]].score;
    std::stable_sort(r.clusters.begin(), r.clusters.end(),
                     [](const DockCluster& a, const DockCluster& b) {
                         return a.bestScore < b.bestScore;
                     });
    for (size_t c = 0; c < r.clusters.size(); ++c)
        r.clusters[c].rank = static_cast<int>(c) + 1;
}

} // namespace

void finishDockBatch(const DockTarget& target, const std::vector<Molecule>& ligands,
                     const std::vector<char>& ok, const DockOptions& options,
                     std::vector<LigandDockResult>& results, const Molecule* reference,
                     bool cancelled, int threads, std::string_view timingGroup) {
    const long n = static_cast<long>(ligands.size());
    {
        PhaseTimer clusterTimer(options.timings, "cluster", timingGroup);
        parallelFor(n, threads, [&](long i) {
            if (ok[i])
                results[i].clusters =
                    clusterRuns(results[i].runs, SymmetryRmsd(ligands[i]), options.clusterRmsd);
        });
    }
    const bool polish = options.polish && !cancelled && target.vina &&
                        target.scoring != DockScoring::Ad4;
    if (polish) {
        PhaseTimer polishTimer(options.timings, "polish", timingGroup);
        std::vector<PolishTask> tasks;
        for (long i = 0; i < n; ++i) {
            if (!ok[i])
                continue;
            const auto& clusters = results[i].clusters;
            const size_t count =
                options.allRuns || options.maxPosesOut <= 0
                    ? clusters.size()
                    : std::min(clusters.size(), static_cast<size_t>(options.maxPosesOut));
            for (size_t c = 0; c < count; ++c)
                tasks.push_back({static_cast<int>(i), clusters[c].members[0]});
        }
        parallelFor(static_cast<long>(tasks.size()), threads, [&](long t) {
            const PolishTask& task = tasks[t];
            polishRun(target, ligands[task.ligand], results[task.ligand].runs[task.run]);
        });
        for (long i = 0; i < n; ++i)
            if (ok[i])
                rerank(results[i]);
    }
    parallelFor(n, threads, [&](long i) {
        if (ok[i])
            measureAgainstReference(results[i], ligands[i], reference);
    });
}

} // namespace pw::dock
