// ReceptorModel: a rigid receptor ready for scoring: its heavy atoms with Vina's XS types and a
// cell list that gives, for any point of a region, the atoms that may lie within the cutoff.
#pragma once

#include "BoxConfig.h"
#include "core/Molecule.h"

#include <vector>

namespace pw {

class ReceptorModel {
public:
    // One receptor atom as the inner loops read it.
    struct Site {
        double x, y, z;
        int type; // XsType value
    };

    // Types the receptor the way Vina does (its own bonds, AD4 types) and keeps its typed heavy
    // atoms. `region`: where ligand atoms are expected (normally the search box); with
    // `penalizeOutside` an atom outside it is scored at the nearest point of the region plus
    // 1e6 per Å outside, like Vina; without, it is scored exactly against all atoms.
    ReceptorModel(const Molecule& receptor, const GridDims& region, bool penalizeOutside = true,
                  double cutoff = 8.0);

    const GridDims& region() const { return region_; }
    bool penalizeOutside() const { return penalizeOutside_; }
    double cutoff() const { return cutoff_; }
    const std::vector<Site>& sites() const { return sites_; } // all typed heavy atoms
    // Atom types of the input molecule (None for hydrogens), as assigned here.
    const std::vector<XsType>& atomTypes() const { return atomTypes_; }

    // Candidates within the cutoff of any point of the cell holding p (p inside the region).
    struct Span {
        const Site* begin;
        const Site* end;
    };
    Span candidates(const Vec3& p) const {
        int idx = 0;
        for (int d = 0; d < 3; ++d) {
            int c = static_cast<int>((p[d] - region_.begin[d]) * invCell_[d]);
            c = c < 0 ? 0 : (c >= cells_[d] ? cells_[d] - 1 : c);
            idx = idx * cells_[d] + c;
        }
        return {cellSites_.data() + cellStart_[idx], cellSites_.data() + cellStart_[idx + 1]};
    }

    // The cell list as candidates() reads it, for a device copy (engine/cuda/PairScore*).
    const int* cellCounts() const { return cells_; }          // cells along x, y, z
    const double* inverseCellEdge() const { return invCell_; } // 1 / cell edge along x, y, z
    const std::vector<int>& cellStart() const { return cellStart_; }
    const std::vector<Site>& cellSites() const { return cellSites_; }

private:
    GridDims region_;
    bool penalizeOutside_;
    double cutoff_;
    std::vector<Site> sites_;
    std::vector<XsType> atomTypes_;
    int cells_[3] = {1, 1, 1};
    double invCell_[3] = {1, 1, 1};
    std::vector<int> cellStart_;  // CSR offsets into cellSites_
    std::vector<Site> cellSites_; // per cell copies, contiguous for the inner loop
};

} // namespace pw
