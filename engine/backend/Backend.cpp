// The one-shot forms of Backend's prepared operations: shared by every backend, so that the
// CPU and the CUDA paths differ only in the prepared objects.
#include "Backend.h"

#include <algorithm>

namespace pw {

BatchStatus Backend::dock(const dock::DockTarget& target, const std::vector<Molecule>& ligands,
                          const dock::DockOptions& options,
                          std::vector<dock::LigandDockResult>& results, Progress* progress,
                          const Molecule* reference, dock::LigandKeys keys) {
    return dock::dockLigands(target, ligands, options, results, progress, reference, keys);
}

void Backend::scoreExact(const DockingTarget& target, const std::vector<Molecule>& ligands,
                         std::vector<VinaScore>& results) {
    results.assign(ligands.size(), {});
    for (size_t i = 0; i < ligands.size(); ++i)
        results[i] = scoreExactOne(target, ligands[i]);
}

VinaScore Backend::scoreExactOne(const DockingTarget& target, const Molecule& ligand) {
    LigandScorer scorer(ligand, target.scoring(), target.receptor());
    std::vector<Vec3> coords;
    coords.reserve(ligand.atoms.size());
    for (const Atom& a : ligand.atoms)
        coords.push_back(a.position);
    return scorer.finalScore(coords);
}

BatchStatus Backend::overlay(const shape::ShapeModel& reference,
                             const std::vector<shape::ShapeModel>& fits,
                             const shape::OverlayOptions& options, bool scoreOnly,
                             std::vector<shape::ShapeScores>& results, Progress* progress) {
    return prepareOverlay(reference, options)->overlay(fits, scoreOnly, results, progress);
}

BatchStatus Backend::lingoSearch(const lingo::LingoSet& queries, const lingo::LingoSet& database,
                                 const lingo::SearchOptions& options, lingo::HitLists& hits,
                                 Progress* progress) {
    return prepareLingo(queries, database, &queries == &database)->search(options, hits, progress);
}

BatchStatus Backend::lingoMatrix(const lingo::LingoSet& set, std::vector<float>& matrix,
                                 Progress* progress) {
    const size_t n = set.size();
    matrix.assign(n * n, 0.0f);
    BatchStatus status;
    status.total = long(n);
    if (n == 0)
        return status;
    std::unique_ptr<LingoComparison> comparison = prepareLingo(set, set, true);
    // About 256k cells per block: progress and cancel checks a few times a second on a laptop
    // CPU, while blocks stay large enough to keep every thread (or the GPU) busy.
    const size_t rowsPerBlock = std::max<size_t>(1, (size_t(1) << 18) / n);
    for (size_t r0 = 0; r0 < n; r0 += rowsPerBlock) {
        if (progress && progress->cancelled()) {
            status.cancelled = true;
            break;
        }
        const size_t r1 = std::min(n, r0 + rowsPerBlock);
        comparison->similarityRows(r0, r1, matrix.data() + r0 * n);
        status.done = long(r1);
        if (progress && progress->onProgress)
            progress->onProgress(status.done, status.total);
    }
    return status;
}

} // namespace pw
