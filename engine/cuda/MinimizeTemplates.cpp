#include "MinimizeTemplates.h"

#include "core/InputError.h"
#include "core/LigandKinematics.h"
#include "score/VinaTopology.h"
#include "score/flex/FlexModel.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
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
    h.gpu.torsionCount = nodes - 1;
    h.gpu.movingNodes = nodes;
    h.gpu.pairCount = static_cast<int>(h.pairs.size());
    h.gpu.maxSteps = options.refinement.vinaSteps ? vinaLocalOnlySteps(vinaMovableAtoms(mol))
                                                  : options.refinement.minimize.maxIterations;
    h.gpu.affinityDivisor = static_cast<float>(1.0 + target.scoring().weightRot() * topo.numTors);
    return h;
}

namespace {

PairGpu pairOf(int slotI, int slotJ, int ti, int tj) {
    return {static_cast<std::uint16_t>(slotI), static_cast<std::uint16_t>(slotJ),
            static_cast<std::uint16_t>(ti * kXsTypeCount + tj),
            static_cast<std::uint16_t>(tableRow(ti, tj))};
}

} // namespace

HostTemplate buildFlexTemplate(const Molecule& mol, const FlexModel& flex,
                               const DockingTarget& target, const MinimizeBatchOptions& options) {
    const int ligandAtoms = static_cast<int>(mol.atoms.size()) - flex.atomCount();
    const std::string where = mol.sourceFile.empty() ? mol.name : mol.sourceFile;
    if (ligandAtoms <= 0)
        throw std::invalid_argument("buildFlexTemplate: '" + mol.name +
                                    "' does not carry the side chains' atoms after its own");
    Molecule ligand = mol;
    ligand.atoms.resize(ligandAtoms);
    HostTemplate h = buildTemplate(ligand, target, options);
    const VinaLigandTopology topo = buildVinaLigandTopology(ligand);
    const int ligandTorsions = h.gpu.torsionCount;
    std::vector<int> slotOfLigandAtom(ligandAtoms);
    for (size_t s = 0; s < h.atomOfSlot.size(); ++s)
        slotOfLigandAtom[h.atomOfSlot[s]] = static_cast<int>(s);

    const bool readsMaps = !options.exact && target.grid();
    std::vector<int> slotOfFlexAtom(flex.atomCount(), -1);
    // One node of a side chain, its atoms next in the template (atoms stay in node order).
    auto addNode = [&](int r, const TorsionNode& n, int node) {
        const FlexResidue& res = flex.residue(r);
        NodeGpu g{};
        g.atomBegin = static_cast<int>(h.atomOfSlot.size());
        for (int a : n.atoms) {
            const int f = flex.atomOffset(r) + a;
            slotOfFlexAtom[f] = static_cast<int>(h.atomOfSlot.size());
            h.atomOfSlot.push_back(ligandAtoms + f);
            // Fixed atoms (and hydrogens) meet the receptor in no term: untyped here, typed in
            // their pairs.
            const int type = flex.movable()[f] ? flex.types()[f] : -1;
            if (type >= 0 && readsMaps && !target.grid()->hasMap(type))
                throw InputError(res.sourceFile, static_cast<int>(res.line),
                                 "the receptor grid has no map for XS type " +
                                     std::string(xsTypeName(static_cast<XsType>(type))) +
                                     " of side chain " + res.label());
            h.atoms.push_back(packAtom(node, type));
        }
        g.atomEnd = static_cast<int>(h.atomOfSlot.size());
        h.nodes.push_back(g);
    };
    // The side chains' branches first (they move with the pose), then their roots (fixed: after
    // every moving node, TemplateGpu::movingNodes). nodeOf[r][tree node] = template node.
    std::vector<std::vector<int>> nodeOf(flex.residueCount());
    std::vector<std::vector<int>> orders(flex.residueCount());
    for (int r = 0; r < flex.residueCount(); ++r) {
        const TorsionTree& tree = *flex.residue(r).mol.torsionTree;
        orders[r] = tree.topologicalOrder();
        nodeOf[r].assign(tree.nodes.size(), -1);
        for (size_t k = 1; k < orders[r].size(); ++k) {
            nodeOf[r][orders[r][k]] = static_cast<int>(h.nodes.size());
            addNode(r, tree.nodes[orders[r][k]], static_cast<int>(h.nodes.size()));
        }
    }
    const int movingNodes = static_cast<int>(h.nodes.size());
    for (int r = 0; r < flex.residueCount(); ++r) {
        const TorsionTree& tree = *flex.residue(r).mol.torsionTree;
        nodeOf[r][orders[r][0]] = static_cast<int>(h.nodes.size());
        addNode(r, tree.nodes[orders[r][0]], static_cast<int>(h.nodes.size()));
    }
    for (int r = 0; r < flex.residueCount(); ++r) {
        const TorsionTree& tree = *flex.residue(r).mol.torsionTree;
        const int offset = flex.atomOffset(r);
        for (size_t k = 0; k < orders[r].size(); ++k) {
            const TorsionNode& n = tree.nodes[orders[r][k]];
            NodeGpu& g = h.nodes[nodeOf[r][orders[r][k]]];
            if (k == 0) {
                g.parent = -1;
                g.torsion = -1;
                g.originAtom = slotOfFlexAtom[offset + n.atoms.front()];
                g.axisParentAtom = -1;
            } else {
                g.parent = nodeOf[r][n.parent];
                g.torsion = ligandTorsions + flex.torsionOffset(r) + orders[r][k] - 1;
                g.originAtom = slotOfFlexAtom[offset + n.axisChildAtom];
                g.axisParentAtom = slotOfFlexAtom[offset + n.axisParentAtom];
            }
        }
    }
    const int atoms = static_cast<int>(h.atomOfSlot.size());
    const int nodes = static_cast<int>(h.nodes.size());
    const int torsions = ligandTorsions + flex.torsionCount();
    if (atoms > kMaxTemplateAtoms || nodes > kMaxTemplateNodes)
        throw InputError(where, static_cast<int>(mol.sourceRecord),
                         "ligand '" + mol.name + "' with its flexible side chains has " +
                             std::to_string(atoms) + " atoms and " + std::to_string(nodes) +
                             " rigid fragments; the CUDA minimizer takes at most " +
                             std::to_string(kMaxTemplateAtoms) + " atoms and " +
                             std::to_string(kMaxTemplateNodes) + " fragments");
    // Ligand x moving side-chain atoms, then the side chains' own pairs (FlexScorer's sets).
    for (int i = 0; i < ligandAtoms; ++i) {
        const int ti = static_cast<int>(topo.types[i]);
        if (ti < 0)
            continue;
        for (int f : flex.movableTyped())
            h.pairs.push_back(pairOf(slotOfLigandAtom[i], slotOfFlexAtom[f], ti, flex.types()[f]));
    }
    for (const FlexModel::Pair& p : flex.pairs())
        h.pairs.push_back(pairOf(slotOfFlexAtom[p.i], slotOfFlexAtom[p.j], p.ti, p.tj));
    h.heavy.resize(mol.atoms.size());
    for (size_t a = 0; a < mol.atoms.size(); ++a)
        h.heavy[a] = mol.atoms[a].element != 1;
    h.gpu.atomCount = atoms;
    h.gpu.nodeCount = nodes;
    h.gpu.torsionCount = torsions;
    h.gpu.movingNodes = movingNodes;
    h.gpu.pairCount = static_cast<int>(h.pairs.size());
    if (options.refinement.vinaSteps) { // Vina counts the side chains' moving atoms too
        int movable = vinaMovableAtoms(ligand);
        for (char m : flex.movable())
            movable += m ? 1 : 0;
        h.gpu.maxSteps = vinaLocalOnlySteps(movable);
    }
    return h;
}

HostTemplate buildTemplateFor(const Molecule& mol, const DockingTarget& target,
                              const MinimizeBatchOptions& options) {
    return options.flex ? buildFlexTemplate(mol, *options.flex, target, options)
                        : buildTemplate(mol, target, options);
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
