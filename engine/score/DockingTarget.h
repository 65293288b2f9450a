// DockingTarget: everything fixed while many ligands are scored against one receptor: the
// scoring function, the typed receptor with its cell list, the box and the grid maps built so far.
#pragma once

#include "LigandScorer.h"
#include "ReceptorGrid.h"
#include "ReceptorModel.h"
#include "ScoringFunction.h"

#include <memory>
#include <mutex>
#include <vector>

namespace pw {

class DockingTarget {
public:
    // receptor: prepared (AD4 types); box: Vina's search box. threads: workers for grid building
    // (0 = all cores).
    DockingTarget(const Molecule& receptor, const SearchBox& box, ScoringKind kind, int threads = 0);
    // The same with a scoring function of its own weights (a Vina config's weight_* keys).
    DockingTarget(const Molecule& receptor, const SearchBox& box, const ScoringFunction& scoring,
                  int threads = 0);

    const ScoringFunction& scoring() const { return scoring_; }
    const ReceptorModel& receptor() const { return *receptor_; }
    const SearchBox& box() const { return box_; }
    const GridDims& dims() const { return dims_; }

    // Makes sure the grid has maps for these XS types (rebuilding it with the union when some
    // are missing) and returns it. Not thread-safe against concurrent scoring: call it between
    // batches, from one thread.
    const ReceptorGrid& gridFor(const std::vector<XsType>& types);
    const ReceptorGrid* grid() const { return grid_.get(); }
    // Whether the grid already has maps for these types (gridFor would only read).
    bool hasGridFor(const std::vector<XsType>& types) const;

    // XS types a ligand may carry (every type but Met_D): building these up front spares
    // rebuilds when a stream of ligands brings new types.
    static std::vector<XsType> commonLigandTypes();

private:
    ScoringFunction scoring_;
    SearchBox box_;
    GridDims dims_;
    std::unique_ptr<ReceptorModel> receptor_;
    std::unique_ptr<ReceptorGrid> grid_;
    std::vector<XsType> gridTypes_;
    int threads_;
};

} // namespace pw
