#include "PairRescore.h"

#include "MinimizeHostPack.h"
#include "MinimizeTemplates.h"
#include "core/ParallelFor.h"
#include "core/RingClosure.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace pw::cuda {
namespace {

int hostThreads(int threads) {
    return threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// The topologies (Vina's types, intramolecular pairs, Nrot) of the ligands in use: poses of one
// ligand share one template, one topology per distinct structure (the key the minimizer's
// templates use), built on the host threads. The kernel's ligand list is replaced by them;
// macrocycles (ring-closure pseudo-atoms and glue: terms the kernel does not compute) are left to
// the CPU's finalScore (kernelId -1).
struct Topologies {
    std::vector<int> representative;                    // per ligand: whose scorer; -1 unused
    std::vector<std::unique_ptr<LigandScorer>> scorers; // at representatives
    std::vector<int> kernelId;                          // at representatives; -1: CPU

    const LigandScorer& scorerOf(size_t ligand) const {
        return *scorers[size_t(representative[ligand])];
    }
    int kernelIdOf(size_t ligand) const { return kernelId[size_t(representative[ligand])]; }
};

Topologies topologiesOf(ExactPairEnergies& gpu, const ScoringFunction& sf,
                        const ReceptorModel& receptor, const std::vector<Molecule>& ligands,
                        const std::vector<char>& used, int threads) {
    Topologies t;
    const size_t n = ligands.size();
    t.representative.assign(n, -1);
    t.scorers.resize(n);
    t.kernelId.assign(n, -1);
    std::vector<std::uint64_t> keys(n, 0);
    blockParallelFor(static_cast<long>(n), threads, [&](long i) {
        if (used[size_t(i)])
            keys[size_t(i)] = structureKey(ligands[size_t(i)]);
    });
    std::vector<int> distinct;
    std::unordered_map<std::uint64_t, int> byKey;
    for (size_t i = 0; i < n; ++i) {
        if (!used[i])
            continue;
        const auto [it, fresh] = byKey.try_emplace(keys[i], int(i)); // no node for a known key
        t.representative[i] = it->second;
        if (fresh)
            distinct.push_back(int(i));
    }
    parallelFor(static_cast<long>(distinct.size()), threads, [&](long k) {
        const size_t i = size_t(distinct[size_t(k)]);
        t.scorers[i] = std::make_unique<LigandScorer>(ligands[i], sf, receptor);
    });
    gpu.clearLigands();
    for (int i : distinct)
        if (!hasRingClosures(ligands[size_t(i)]))
            t.kernelId[size_t(i)] = gpu.addLigand(*t.scorers[size_t(i)]);
    return t;
}

// The kernel's sums as finalScore reports them.
VinaScore reported(const PairPoseEnergy& e, const LigandScorer& scorer) {
    VinaScore s;
    s.inter = e.inter;
    s.intra = e.intra;
    s.terms.inter = s.inter;
    s.terms.intra = s.intra;
    s.terms.outOfBoxPenalty = e.penalty;
    s.unbound = s.intra;
    s.numTors = scorer.topology().numTors;
    const double energy = s.inter + s.intra - s.unbound;
    s.affinity = scorer.affinityFromEnergy(energy);
    s.torsional = s.affinity - energy;
    return s;
}

} // namespace

void scoreExactPoses(ExactPairEnergies& gpu, const ScoringFunction& sf,
                     const ReceptorModel& receptor, const std::vector<Molecule>& ligands,
                     const std::vector<ExactPose>& poses, int threads) {
    threads = hostThreads(threads);
    std::vector<char> used(ligands.size(), 0);
    for (const ExactPose& p : poses) {
        if (p.ligand < 0 || p.ligand >= static_cast<int>(ligands.size()))
            throw std::invalid_argument("scoreExactPoses: pose names ligand " +
                                        std::to_string(p.ligand) + " of " +
                                        std::to_string(ligands.size()));
        used[size_t(p.ligand)] = 1;
    }
    const Topologies topo = topologiesOf(gpu, sf, receptor, ligands, used, threads);

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
        const int ligandId = topo.kernelIdOf(size_t(p.ligand));
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
        *p.out = topo.scorerOf(size_t(p.ligand)).finalScore(*p.coords);
    });
    if (onGpu.empty())
        return;
    std::vector<PairPoseEnergy> energies;
    gpu.scoreTabulated(poseLigand, coords, energies);
    for (size_t g = 0; g < onGpu.size(); ++g) {
        const ExactPose& p = poses[onGpu[g]];
        *p.out = reported(energies[g], topo.scorerOf(size_t(p.ligand)));
    }
}

// The minimize batch's report, without a copy of each start pose and without one array of every
// pose's coordinates: the poses go to the kernel in slices of `slice` ligands (start and
// minimized pose of each), packed and reported on all host threads into arrays reused from slice
// to slice. Before, every pose was copied into one array on the device's thread: serial work
// between the device's minimization and its next piece, with about two page faults per pose and
// more system than user time (tests/bench/RESULTS.md, helper scale3, measured on the CPU).
void reportStartAndMinimizedExactly(ExactPairEnergies& pairs, const ScoringFunction& sf,
                                    const ReceptorModel& receptor,
                                    const std::vector<Molecule>& ligands,
                                    std::vector<RefinementResult>& results, int threads,
                                    size_t slice) {
    const size_t perCall = std::max<size_t>(1, slice);
    threads = hostThreads(threads);
    const size_t n = ligands.size();
    std::vector<char> used(n, 0);
    blockParallelFor(static_cast<long>(n), threads, [&](long i) {
        used[size_t(i)] = results[size_t(i)].coordinates.size() == ligands[size_t(i)].atoms.size();
    });
    if (std::none_of(used.begin(), used.end(), [](char u) { return u != 0; }))
        return;
    const Topologies topo = topologiesOf(pairs, sf, receptor, ligands, used, threads);

    std::vector<size_t> onGpu, onCpu; // ligands
    for (size_t i = 0; i < n; ++i)
        if (used[i])
            (topo.kernelIdOf(i) >= 0 ? onGpu : onCpu).push_back(i);
    parallelFor(static_cast<long>(onCpu.size()), threads, [&](long c) {
        const size_t i = onCpu[size_t(c)];
        std::vector<Vec3> start;
        start.reserve(ligands[i].atoms.size());
        for (const Atom& a : ligands[i].atoms)
            start.push_back(a.position);
        RefinementResult& r = results[i];
        r.start = topo.scorerOf(i).finalScore(start);
        r.score = topo.scorerOf(i).finalScore(r.coordinates);
    });

    std::vector<int> poseLigand;
    std::vector<size_t> firstAtom; // of each slice ligand's start pose in coords
    std::vector<Vec3> coords;
    std::vector<PairPoseEnergy> energies;
    for (size_t s0 = 0; s0 < onGpu.size(); s0 += perCall) {
        const size_t count = std::min(perCall, onGpu.size() - s0);
        poseLigand.resize(2 * count);
        firstAtom.resize(count + 1);
        firstAtom[0] = 0;
        for (size_t k = 0; k < count; ++k) {
            const size_t i = onGpu[s0 + k];
            poseLigand[2 * k] = poseLigand[2 * k + 1] = topo.kernelIdOf(i);
            firstAtom[k + 1] = firstAtom[k] + 2 * ligands[i].atoms.size();
        }
        coords.resize(firstAtom[count]);
        blockParallelFor(static_cast<long>(count), threads, [&](long k) {
            const size_t i = onGpu[s0 + size_t(k)];
            const std::vector<Atom>& atoms = ligands[i].atoms;
            Vec3* out = coords.data() + firstAtom[size_t(k)];
            for (size_t a = 0; a < atoms.size(); ++a)
                out[a] = atoms[a].position;
            std::copy(results[i].coordinates.begin(), results[i].coordinates.end(),
                      out + atoms.size());
        });
        pairs.scoreTabulated(poseLigand, coords, energies);
        blockParallelFor(static_cast<long>(count), threads, [&](long k) {
            const size_t i = onGpu[s0 + size_t(k)];
            const LigandScorer& scorer = topo.scorerOf(i);
            results[i].start = reported(energies[2 * size_t(k)], scorer);
            results[i].score = reported(energies[2 * size_t(k) + 1], scorer);
        });
    }
}

} // namespace pw::cuda
