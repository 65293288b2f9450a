// MinimizeAgreement: how many minimized poses of two runs over the same starts agree, the measure
// of the GPU-vs-CPU minimization suites: the reported affinity within 0.01 kcal/mol (1e-4
// relative above 1,000, where clashing starts end) and the heavy atoms within 0.1 A.
#pragma once

#include "core/Molecule.h"
#include "minimize/PoseRefinement.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pw::test {

struct Agreement {
    int agree = 0, total = 0;
    double worstAffinity = 0, worstRmsd = 0; // worstAffinity over affinities up to 1,000 only
};

inline Agreement compare(const std::vector<Molecule>& ligands,
                         const std::vector<RefinementResult>& a,
                         const std::vector<RefinementResult>& b) {
    Agreement g;
    for (size_t i = 0; i < ligands.size(); ++i) {
        const double ca = b[i].score.affinity, ga = a[i].score.affinity;
        const double tol = std::abs(ca) > 1000 ? 1e-4 * std::abs(ca) : 0.01;
        const double rmsd = heavyAtomRmsd(ligands[i], b[i].coordinates, a[i].coordinates);
        g.agree += std::abs(ca - ga) <= tol && rmsd <= 0.1;
        ++g.total;
        if (std::abs(ca) <= 1000)
            g.worstAffinity = std::max(g.worstAffinity, std::abs(ca - ga));
        g.worstRmsd = std::max(g.worstRmsd, rmsd);
    }
    return g;
}

} // namespace pw::test
