#include "MinimizeHostPack.h"

#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace pw::cuda {

BatchTemplates buildBatchTemplates(const std::vector<Molecule>& ligands,
                                   const DockingTarget& target,
                                   const MinimizeBatchOptions& options, int threads) {
    const long total = static_cast<long>(ligands.size());
    BatchTemplates bt;
    std::vector<std::uint64_t> keys(total);
    blockParallelFor(total, threads, [&](long i) { keys[i] = structureKey(ligands[i]); });
    std::unordered_map<std::uint64_t, int> byKey;
    bt.templateOf.resize(total);
    for (long i = 0; i < total; ++i) {
        // try_emplace: no node is made for a key already there (most poses of a batch)
        auto [it, fresh] = byKey.try_emplace(keys[i], static_cast<int>(bt.templates.size()));
        if (fresh)
            bt.templates.push_back(buildTemplateFor(ligands[i], target, options));
        bt.templateOf[i] = it->second;
    }
    for (HostTemplate& h : bt.templates) {
        h.gpu.atomBegin = static_cast<int>(bt.atoms.size());
        h.gpu.nodeBegin = static_cast<int>(bt.nodes.size());
        h.gpu.pairBegin = static_cast<int>(bt.pairs.size());
        bt.atoms.insert(bt.atoms.end(), h.atoms.begin(), h.atoms.end());
        bt.nodes.insert(bt.nodes.end(), h.nodes.begin(), h.nodes.end());
        bt.pairs.insert(bt.pairs.end(), h.pairs.begin(), h.pairs.end());
        bt.tg.push_back(h.gpu);
        bt.maxAtoms = std::max(bt.maxAtoms, h.gpu.atomCount);
        bt.maxNodes = std::max(bt.maxNodes, h.gpu.nodeCount);
        bt.maxTorsions = std::max(bt.maxTorsions, h.gpu.torsionCount);
    }
    return bt;
}

ChunkLayout chunkLayout(const BatchTemplates& bt, long first, long count) {
    ChunkLayout l;
    l.offsets.resize(count);
    for (long k = 0; k < count; ++k) {
        const TemplateGpu& t = bt.tg[bt.templateOf[first + k]];
        l.offsets[k] = {static_cast<int>(l.coords), static_cast<int>(l.torsions)};
        l.coords += t.atomCount;
        l.torsions += t.torsionCount;
    }
    return l;
}

void packChunk(const std::vector<Molecule>& ligands, const BatchTemplates& bt,
               const ChunkLayout& layout, long first, long count, const Vec3& centre,
               PoseInputGpu* in, float3* start, int threads) {
    blockParallelFor(count, threads, [&](long k) {
        const long i = first + k;
        const int templ = bt.templateOf[i];
        const HostTemplate& h = bt.templates[templ];
        in[k] = {templ, layout.offsets[k].first, layout.offsets[k].second};
        const Molecule& mol = ligands[i];
        float3* out = start + layout.offsets[k].first;
        for (size_t slot = 0; slot < h.atomOfSlot.size(); ++slot) {
            const Vec3 p = mol.atoms[h.atomOfSlot[slot]].position - centre;
            out[slot] = float3{float(p.x()), float(p.y()), float(p.z())};
        }
    });
}

void unpackChunk(const std::vector<Molecule>& ligands, const BatchTemplates& bt, long first,
                 long count, const Vec3& centre, const PoseInputGpu* in,
                 const PoseResultGpu* out, const float3* final, const float* torsions,
                 std::vector<RefinementResult>& results, int threads) {
    blockParallelFor(count, threads, [&](long k) {
        const long i = first + k;
        const HostTemplate& h = bt.templates[bt.templateOf[i]];
        const PoseInputGpu& pin = in[k];
        const PoseResultGpu& g = out[k];
        RefinementResult& r = results[i];
        const Molecule& mol = ligands[i];
        r.coordinates.resize(mol.atoms.size());
        double sum = 0;
        int heavy = 0;
        for (size_t slot = 0; slot < h.atomOfSlot.size(); ++slot) {
            const int a = h.atomOfSlot[slot];
            const float3 c = final[pin.coordOffset + slot];
            r.coordinates[a] = Vec3(c.x, c.y, c.z) + centre;
            if (h.heavy[a]) {
                sum += (r.coordinates[a] - mol.atoms[a].position).squaredNorm();
                ++heavy;
            }
        }
        r.rmsdFromStart = heavy ? std::sqrt(sum / heavy) : 0.0;
        r.pose.position = Vec3(g.position[0], g.position[1], g.position[2]) + centre;
        r.pose.orientation =
            Quaternion(g.orientation[0], g.orientation[1], g.orientation[2], g.orientation[3]);
        r.pose.torsions.resize(h.gpu.torsionCount);
        for (int t = 0; t < h.gpu.torsionCount; ++t)
            r.pose.torsions[t] = torsions[pin.torsionOffset + t];
        r.start = reportedScore(g.startInter, g.startIntra, h.numTors, h.gpu.affinityDivisor);
        r.score = reportedScore(g.inter, g.intra, h.numTors, h.gpu.affinityDivisor);
        r.energy = g.energy;
        r.iterations = g.iterations;
        r.evaluations = g.evaluations;
        r.reason = static_cast<StopReason>(g.reason);
    });
}

} // namespace pw::cuda
