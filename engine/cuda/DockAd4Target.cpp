#include "DockAd4Target.h"

#include "core/InputError.h"
#include "core/LigandKinematics.h"
#include "score/ad4/Ad4LigandScorer.h"
#include "score/ad4/Ad4Parameters.h"

#include <string>

namespace pw::cuda {

bool DeviceAd4Maps::upload(const ad4::Ad4Maps& maps) {
    if (key_ == maps.instanceId())
        return false;
    key_ = 0;
    const ad4::GridGeometry& g = maps.geometry();
    const std::size_t stride = g.pointCount();
    std::vector<float> all;
    all.reserve(stride * maps.mapCount());
    for (int m = 0; m < maps.mapCount(); ++m)
        all.insert(all.end(), maps.values(m).begin(), maps.values(m).end());
    uploadVector(values_, all);
    Ad4ScoringGpu& a = params_;
    a = {};
    a.maps = values_.p;
    a.mapStride = static_cast<long long>(stride);
    a.elecMap = maps.electrostaticMap();
    a.desolvMap = maps.desolvationMap();
    for (int d = 0; d < 3; ++d) {
        a.npts[d] = g.npts[d];
        a.lo[d] = static_cast<float>(-(g.npts[d] / 2) * g.spacing);
    }
    a.invSpacing = static_cast<float>(1.0 / g.spacing);
    a.outsidePenalty = 500.0f; // autodock4's ENERGYPENALTY, as Ad4LigandScorer
    a.minDistance = static_cast<float>(ad4::kMinElecDistance);
    a.cutoff2 = static_cast<float>(ad4::kNonbondCutoff * ad4::kNonbondCutoff);
    a.energyClamp = static_cast<float>(ad4::kEnergyClamp);
    a.smoothHalf = static_cast<float>(ad4::kSmoothWidth / 2);
    a.desolvInvTwoSigma2 = static_cast<float>(0.5 / (ad4::kDesolvSigma * ad4::kDesolvSigma));
    centre_ = g.center;
    key_ = maps.instanceId();
    return true;
}

Ad4HostTemplate buildAd4Template(const Molecule& mol, const ad4::Ad4Maps& maps) {
    LigandKinematics check(mol); // validates the tree (InputError naming the file)
    (void)check;
    const ad4::Ad4LigandScorer scorer(mol, maps); // InputError: type without parameters or map
    TorsionTree rigid;
    const TorsionTree* tree = mol.torsionTree ? &*mol.torsionTree : nullptr;
    if (!tree) {
        rigid.nodes.resize(1);
        for (size_t i = 0; i < mol.atoms.size(); ++i)
            rigid.nodes[0].atoms.push_back(static_cast<int>(i));
        tree = &rigid;
    }
    const int atoms = static_cast<int>(mol.atoms.size());
    const int nodes = static_cast<int>(tree->nodes.size());
    if (atoms > kMaxTemplateAtoms || nodes > kMaxTemplateNodes)
        throw InputError(mol.sourceFile.empty() ? mol.name : mol.sourceFile,
                         static_cast<int>(mol.sourceRecord),
                         "ligand '" + mol.name + "' has " + std::to_string(atoms) +
                             " atoms and " + std::to_string(nodes - 1) +
                             " torsions; the CUDA docking search takes at most " +
                             std::to_string(kMaxTemplateAtoms) + " atoms and " +
                             std::to_string(kMaxTemplateNodes - 1) + " torsions");
    // Kinematic order: fragment by fragment, parents first (as buildTemplate).
    Ad4HostTemplate out;
    HostTemplate& h = out.kinematics;
    const std::vector<int> order = tree->topologicalOrder();
    std::vector<int> internal(nodes), slotOfAtom(atoms, -1);
    for (int k = 0; k < nodes; ++k)
        internal[order[k]] = k;
    h.nodes.resize(nodes);
    for (int k = 0; k < nodes; ++k) {
        const TorsionNode& n = tree->nodes[order[k]];
        NodeGpu& g = h.nodes[k];
        g.atomBegin = static_cast<int>(h.atomOfSlot.size());
        for (int a : n.atoms) {
            slotOfAtom[a] = static_cast<int>(h.atomOfSlot.size());
            h.atomOfSlot.push_back(a);
            h.atoms.push_back(packAtom(k, scorer.mapOfAtom()[a]));
            out.charges.push_back(static_cast<float>(scorer.charges()[a]));
        }
        g.atomEnd = static_cast<int>(h.atomOfSlot.size());
        g.parent = k == 0 ? -1 : internal[n.parent];
        g.torsion = k == 0 ? -1 : order[k] - 1;
    }
    for (int k = 0; k < nodes; ++k) {
        const TorsionNode& n = tree->nodes[order[k]];
        h.nodes[k].originAtom = k == 0 ? slotOfAtom[n.atoms.front()] : slotOfAtom[n.axisChildAtom];
        h.nodes[k].axisParentAtom = k == 0 ? -1 : slotOfAtom[n.axisParentAtom];
    }
    const double desolvCoeff = ad4::boundCoefficients().desolv;
    for (const ad4::Ad4LigandScorer::InternalPair& p : scorer.internalPairTerms()) {
        Ad4PairGpu q{};
        q.i = static_cast<std::uint16_t>(slotOfAtom[p.i]);
        q.j = static_cast<std::uint16_t>(slotOfAtom[p.j]);
        q.hbond = p.coeffs.xB == 10 ? 1 : 0;
        q.q1q2 = static_cast<float>(p.q1q2Scaled);
        q.desolv = static_cast<float>(desolvCoeff * p.desolv);
        q.cA = static_cast<float>(p.coeffs.cA);
        q.cB = static_cast<float>(p.coeffs.cB);
        q.Rij = static_cast<float>(p.coeffs.Rij);
        out.pairs.push_back(q);
    }
    // The warp takes 32 consecutive pairs at a time and adds their gradients to both atoms with
    // shared-memory atomics. In scorer order consecutive pairs share their first atom (32 lanes
    // on one address serialize), so the list is dealt out: lane L of step t takes the pair
    // L * steps + t of the scorer's list, mostly a different atom per lane.
    const int n = static_cast<int>(out.pairs.size()), steps = (n + 31) / 32;
    std::vector<Ad4PairGpu> dealt;
    dealt.reserve(n);
    for (int t = 0; t < steps; ++t)
        for (int lane = 0; lane < 32; ++lane)
            if (lane * steps + t < n)
                dealt.push_back(out.pairs[lane * steps + t]);
    out.pairs = std::move(dealt);
    h.heavy.resize(atoms);
    for (int a = 0; a < atoms; ++a)
        h.heavy[a] = mol.atoms[a].element != 1;
    h.gpu.atomCount = atoms;
    h.gpu.nodeCount = nodes;
    h.gpu.torsionCount = nodes - 1;
    h.gpu.movingNodes = nodes;
    h.gpu.pairCount = static_cast<int>(out.pairs.size());
    return out;
}

} // namespace pw::cuda
