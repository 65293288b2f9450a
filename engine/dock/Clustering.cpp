#include "Clustering.h"

#include "core/InputError.h"

#include <algorithm>
#include <numeric>

namespace pw::dock {

std::vector<DockCluster> clusterRuns(const std::vector<DockRun>& runs, const SymmetryRmsd& rmsd,
                                     double tolerance) {
    std::vector<int> order;
    for (size_t i = 0; i < runs.size(); ++i)
        if (!runs[i].coordinates.empty())
            order.push_back(static_cast<int>(i));
    // Best score first; ties by run index so the result does not depend on the sort.
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return runs[a].score < runs[b].score; });
    std::vector<DockCluster> clusters;
    std::vector<int> representative; // index into runs of each cluster's best member
    for (int i : order) {
        bool placed = false;
        for (size_t c = 0; c < clusters.size() && !placed; ++c)
            if (rmsd.rmsd(runs[i].coordinates, runs[representative[c]].coordinates) < tolerance) {
                clusters[c].members.push_back(runs[i].run);
                placed = true;
            }
        if (!placed) {
            DockCluster c;
            c.members.push_back(runs[i].run);
            c.bestScore = runs[i].score;
            clusters.push_back(std::move(c));
            representative.push_back(i);
        }
    }
    for (size_t c = 0; c < clusters.size(); ++c)
        clusters[c].rank = static_cast<int>(c) + 1; // created in score order
    return clusters;
}

void measureAgainstReference(LigandDockResult& r, const Molecule& ligand,
                             const Molecule* reference) {
    if (!reference)
        return;
    try {
        const SymmetryRmsd toReference(ligand, *reference);
        std::vector<Vec3> refCoords;
        for (const Atom& a : reference->atoms)
            refCoords.push_back(a.position);
        for (DockRun& run : r.runs)
            if (!run.coordinates.empty()) // a cancelled run never placed the ligand
                run.rmsdToReference = toReference.rmsd(run.coordinates, refCoords);
        for (DockCluster& c : r.clusters)
            c.rmsdToReference = r.runs[c.members[0]].rmsdToReference;
    } catch (const InputError&) {
        // Another molecule of the batch than the reference: no RMSD for it.
    }
}

} // namespace pw::dock
