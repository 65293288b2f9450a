#include "Ad4PairRescore.h"

#include "core/ParallelFor.h"

#include <algorithm>
#include <thread>

namespace pw::cuda {

void exactPoseEnergies(Ad4PairScorer& gpu, const std::vector<Ad4ExactPose>& poses,
                       ad4::UnboundModel unbound, int threads) {
    gpu.clearLigands();
    std::vector<int> poseLigand;
    std::vector<Vec3> coords;
    poseLigand.reserve(poses.size());
    for (const Ad4ExactPose& p : poses) {
        poseLigand.push_back(gpu.addLigand(*p.exact)); // one template per pose: poses may differ
        coords.insert(coords.end(), p.coords->begin(), p.coords->end());
    }
    std::vector<Ad4PairPoseEnergy> inter;
    std::vector<Ad4PairAtomTerms> atoms;
    gpu.score(poseLigand, coords, inter, &atoms);

    std::vector<size_t> firstAtom(poses.size() + 1, 0);
    for (size_t i = 0; i < poses.size(); ++i)
        firstAtom[i + 1] = firstAtom[i] + poses[i].coords->size();
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    parallelFor(static_cast<long>(poses.size()), threads, [&](long i) {
        const Ad4ExactPose& p = poses[size_t(i)];
        // As exactPoseEnergy: everything from the map scorer, then its intermolecular part and
        // per-atom terms replaced by the exact ones.
        ad4::Ad4Energy e = p.onMaps->score(*p.coords, unbound);
        e.interVdwHbDesolv = inter[size_t(i)].interVdwHbDesolv;
        e.interElec = inter[size_t(i)].interElec;
        e.perAtom.resize(p.coords->size());
        for (size_t k = 0; k < p.coords->size(); ++k) {
            const Ad4PairAtomTerms& t = atoms[firstAtom[size_t(i)] + k];
            e.perAtom[k] = {t.vdwHb, t.elec, t.desolv};
        }
        *p.out = std::move(e);
    });
}

} // namespace pw::cuda
