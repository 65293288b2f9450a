#include "PairRescore.h"

#include "MinimizeTemplates.h"
#include "core/ParallelFor.h"
#include "core/RingClosure.h"

#include <memory>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace pw::cuda {

void scoreExactPoses(PairScorer& gpu, const ScoringFunction& sf, const ReceptorModel& receptor,
                     const std::vector<Molecule>& ligands, const std::vector<ExactPose>& poses,
                     int threads) {
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // Topologies (Vina's types, intramolecular pairs, Nrot) of the ligands the poses name.
    // Poses of one ligand share one template: one topology per distinct structure (the key the
    // minimizer's templates use), built on the host threads.
    std::vector<char> used(ligands.size(), 0);
    for (const ExactPose& p : poses) {
        if (p.ligand < 0 || p.ligand >= static_cast<int>(ligands.size()))
            throw std::invalid_argument("scoreExactPoses: pose names ligand " +
                                        std::to_string(p.ligand) + " of " +
                                        std::to_string(ligands.size()));
        used[size_t(p.ligand)] = 1;
    }
    std::vector<int> representative(ligands.size(), -1);
    std::vector<int> distinct;
    {
        std::unordered_map<std::uint64_t, int> byKey;
        for (size_t i = 0; i < ligands.size(); ++i) {
            if (!used[i])
                continue;
            const auto [it, fresh] = byKey.emplace(structureKey(ligands[i]), int(i));
            representative[i] = it->second;
            if (fresh)
                distinct.push_back(int(i));
        }
    }
    std::vector<std::unique_ptr<LigandScorer>> scorers(ligands.size());
    parallelFor(static_cast<long>(distinct.size()), threads, [&](long k) {
        const size_t i = size_t(distinct[size_t(k)]);
        scorers[i] = std::make_unique<LigandScorer>(ligands[i], sf, receptor);
    });
    // Macrocycles (ring-closure pseudo-atoms and glue) have terms the kernel does not compute:
    // their poses get the CPU's finalScore.
    gpu.clearLigands();
    std::vector<int> id(ligands.size(), -1);
    for (int i : distinct)
        if (!hasRingClosures(ligands[size_t(i)]))
            id[size_t(i)] = gpu.addLigand(*scorers[size_t(i)]);

    std::vector<int> poseLigand;
    std::vector<size_t> onGpu, onCpu; // indices into poses
    std::vector<Vec3> coords;
    poseLigand.reserve(poses.size());
    for (size_t k = 0; k < poses.size(); ++k) {
        const ExactPose& p = poses[k];
        if (p.coords->size() != ligands[size_t(p.ligand)].atoms.size())
            throw std::invalid_argument("scoreExactPoses: a pose of " +
                                        std::to_string(p.coords->size()) +
                                        " coordinates for a ligand of " +
                                        std::to_string(ligands[size_t(p.ligand)].atoms.size()) +
                                        " atoms");
        const int ligandId = id[size_t(representative[size_t(p.ligand)])];
        if (ligandId < 0) {
            onCpu.push_back(k);
            continue;
        }
        onGpu.push_back(k);
        poseLigand.push_back(ligandId);
        coords.insert(coords.end(), p.coords->begin(), p.coords->end());
    }
    parallelFor(static_cast<long>(onCpu.size()), threads, [&](long c) {
        const ExactPose& p = poses[onCpu[size_t(c)]];
        *p.out = scorers[size_t(representative[size_t(p.ligand)])]->finalScore(*p.coords);
    });
    if (onGpu.empty())
        return;
    std::vector<PairPoseEnergy> energies;
    gpu.scoreTabulated(poseLigand, coords, energies);

    for (size_t g = 0; g < onGpu.size(); ++g) {
        const size_t k = onGpu[g];
        const LigandScorer& scorer = *scorers[size_t(representative[size_t(poses[k].ligand)])];
        VinaScore s;
        s.inter = energies[g].inter;
        s.intra = energies[g].intra;
        s.terms.inter = s.inter;
        s.terms.intra = s.intra;
        s.terms.outOfBoxPenalty = energies[g].penalty;
        s.unbound = s.intra;
        s.numTors = scorer.topology().numTors;
        const double e = s.inter + s.intra - s.unbound;
        s.affinity = scorer.affinityFromEnergy(e);
        s.torsional = s.affinity - e;
        *poses[k].out = s;
    }
}

} // namespace pw::cuda
