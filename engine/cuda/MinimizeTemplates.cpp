#include "MinimizeTemplates.h"

#include "core/InputError.h"
#include "core/LigandKinematics.h"
#include "score/VinaTopology.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace pw::cuda {

int tableRow(int a, int b) {
    if (a > b)
        std::swap(a, b);
    return a * kXsTypeCount - a * (a - 1) / 2 + (b - a);
}

// 64-bit FNV-1a over the atoms and the tree.
std::uint64_t structureKey(const Molecule& m) {
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&](std::uint64_t v) {
        h ^= v;
        h *= 1099511628211ull;
    };
    mix(m.atoms.size());
    for (const Atom& a : m.atoms) {
        mix(static_cast<std::uint64_t>(a.element) * 131 + static_cast<int>(a.xs) + 7);
        for (char c : a.ad4Type)
            mix(static_cast<unsigned char>(c));
    }
    if (m.torsionTree)
        for (const TorsionNode& n : m.torsionTree->nodes) {
            mix(0xABCDull + n.parent * 7919 + n.axisParentAtom * 104729 + n.axisChildAtom);
            for (int a : n.atoms)
                mix(a);
        }
    return h;
}

HostTemplate buildTemplate(const Molecule& mol, const DockingTarget& target,
                           const MinimizeBatchOptions& options) {
    LigandKinematics check(mol); // validates the tree (InputError naming the file)
    (void)check;
    const VinaLigandTopology topo = buildVinaLigandTopology(mol);
    TorsionTree rigid;
    const TorsionTree* tree = mol.torsionTree ? &*mol.torsionTree : nullptr;
    if (!tree) {
        rigid.nodes.resize(1);
        for (size_t i = 0; i < mol.atoms.size(); ++i)
            rigid.nodes[0].atoms.push_back(static_cast<int>(i));
        tree = &rigid;
    }
    const std::string where = mol.sourceFile.empty() ? mol.name : mol.sourceFile;
    // The exact mode (and a target without grid, which is minimized exactly) reads no maps.
    const bool readsMaps = !options.exact && target.grid();
    const int atoms = static_cast<int>(mol.atoms.size());
    const int nodes = static_cast<int>(tree->nodes.size());
    if (atoms > kMaxTemplateAtoms || nodes > kMaxTemplateNodes)
        throw InputError(where, static_cast<int>(mol.sourceRecord),
                         "ligand '" + mol.name + "' has " + std::to_string(atoms) + " atoms and " +
                             std::to_string(nodes - 1) +
                             " torsions; the CUDA minimizer takes at most " +
                             std::to_string(kMaxTemplateAtoms) + " atoms and " +
                             std::to_string(kMaxTemplateNodes - 1) + " torsions");
    HostTemplate h;
    const std::vector<int> order = tree->topologicalOrder();
    std::vector<int> internal(nodes), slotOfAtom(atoms, -1);
    for (int k = 0; k < nodes; ++k)
        internal[order[k]] = k;
    std::vector<NodeGpu> nodeList(nodes);
    std::vector<int> atomInfo;
    for (int k = 0; k < nodes; ++k) {
        const TorsionNode& n = tree->nodes[order[k]];
        NodeGpu& g = nodeList[k];
        g.atomBegin = static_cast<int>(h.atomOfSlot.size());
        for (int a : n.atoms) {
            slotOfAtom[a] = static_cast<int>(h.atomOfSlot.size());
            h.atomOfSlot.push_back(a);
            const int type = static_cast<int>(topo.types[a]);
            if (type >= 0 && readsMaps && !target.grid()->hasMap(type))
                throw InputError(where, static_cast<int>(mol.sourceRecord),
                                 "the receptor grid has no map for XS type " +
                                     std::string(xsTypeName(topo.types[a])) +
                                     " (expected DockingTarget::gridFor with the ligand's types)");
            atomInfo.push_back(packAtom(k, type));
        }
        g.atomEnd = static_cast<int>(h.atomOfSlot.size());
        g.parent = k == 0 ? -1 : internal[n.parent];
        g.torsion = k == 0 ? -1 : order[k] - 1;
    }
    for (int k = 0; k < nodes; ++k) {
        const TorsionNode& n = tree->nodes[order[k]];
        nodeList[k].originAtom = k == 0 ? slotOfAtom[n.atoms.front()] : slotOfAtom[n.axisChildAtom];
        nodeList[k].axisParentAtom = k == 0 ? -1 : slotOfAtom[n.axisParentAtom];
    }
    std::vector<PairGpu> pairs;
    for (const auto& [i, j] : topo.intraPairs) {
        const int ti = static_cast<int>(topo.types[i]), tj = static_cast<int>(topo.types[j]);
        pairs.push_back({static_cast<std::uint16_t>(slotOfAtom[i]),
                         static_cast<std::uint16_t>(slotOfAtom[j]),
                         static_cast<std::uint16_t>(ti * kXsTypeCount + tj),
                         static_cast<std::uint16_t>(tableRow(ti, tj))});
    }
    h.heavy.resize(atoms);
    for (int a = 0; a < atoms; ++a)
        h.heavy[a] = mol.atoms[a].element != 1;
    h.numTors = topo.numTors;
    h.atoms = std::move(atomInfo);
    h.nodes = std::move(nodeList);
    h.pairs = std::move(pairs);
    h.gpu.atomCount = atoms;
    h.gpu.nodeCount = nodes;
    h.gpu.pairCount = static_cast<int>(h.pairs.size());
    h.gpu.maxSteps = options.refinement.vinaSteps ? vinaLocalOnlySteps(vinaMovableAtoms(mol))
                                                  : options.refinement.minimize.maxIterations;
    h.gpu.affinityDivisor = static_cast<float>(1.0 + target.scoring().weightRot() * topo.numTors);
    return h;
}

VinaScore reportedScore(double inter, double intra, double numTors, double divisor) {
    VinaScore s;
    s.inter = inter;
    s.intra = intra;
    s.unbound = intra; // Vina --local_only: the pose's own intra energy
    s.numTors = numTors;
    s.terms.inter = inter;
    s.terms.intra = intra;
    const double e = s.inter + s.intra - s.unbound;
    s.affinity = std::abs(e) < 2.2e-16 ? 0.0 : e / divisor;
    s.torsional = s.affinity - e;
    return s;
}

} // namespace pw::cuda
