#include "FlexModel.h"

#include "core/XsTyping.h"
#include "score/VinaTopology.h"

#include <algorithm>

namespace pw {
namespace {

// Vina's bond test (model.cpp assign_bonds): closer than 1.1 x the sum of covalent radii.
bool vinaBonded(const Atom& a, const Atom& b) {
    const double r = 1.1 * (vinaCovalentRadius(a) + vinaCovalentRadius(b));
    return (a.position - b.position).squaredNorm() < r * r;
}

} // namespace

FlexModel::FlexModel(std::vector<FlexResidue> residues, const Molecule& rigidReceptor)
    : residues_(std::move(residues)) {
    for (const FlexResidue& r : residues_) {
        const Molecule& m = r.mol;
        const int n = static_cast<int>(m.atoms.size());
        const int offset = static_cast<int>(types_.size());
        atomOffset_.push_back(offset);
        torsionOffset_.push_back(torsionCount_);
        kinematics_.emplace_back(m);
        torsionCount_ += kinematics_.back().torsionCount();

        // Fixed atoms: the ROOT and the first atom of each BRANCH on the ROOT.
        const TorsionTree& tree = *m.torsionTree;
        const std::vector<int> node = tree.nodeOfAtom(n);
        std::vector<char> fixed(n, 0);
        for (int i = 0; i < n; ++i)
            fixed[i] = node[i] == 0;
        for (size_t k = 1; k < tree.nodes.size(); ++k)
            if (tree.nodes[k].parent == 0)
                fixed[tree.nodes[k].axisChildAtom] = 1;

        // Types over Vina's bonds inside the residue plus those of its fixed atoms to the rigid
        // receptor (movable atoms are never bonded to it in Vina's model).
        VinaLigandTopology topo = buildVinaLigandTopology(m);
        Molecule typed = m;
        std::vector<std::vector<int>> adjacency = topo.adjacency;
        adjacency.resize(n);
        for (int i = 0; i < n; ++i) {
            if (!fixed[i])
                continue;
            for (const Atom& a : rigidReceptor.atoms) {
                if (!vinaBonded(m.atoms[i], a))
                    continue;
                typed.atoms.push_back(a);
                adjacency.push_back({i});
                adjacency[i].push_back(static_cast<int>(typed.atoms.size()) - 1);
            }
        }
        assignXsTypes(typed, adjacency);
        for (int i = 0; i < n; ++i) {
            types_.push_back(static_cast<int>(typed.atoms[i].xs));
            movable_.push_back(fixed[i] ? 0 : 1);
            reference_.push_back(m.atoms[i].position);
            if (!fixed[i] && types_.back() >= 0)
                movableTyped_.push_back(offset + i);
        }
        // Inside the residue: Vina's internal pairs of a ligand with the same tree.
        for (const auto& [i, j] : topo.intraPairs)
            pairs_.push_back({offset + i, offset + j, types_[offset + i], types_[offset + j]});
    }
    // Between residues: every typed pair but two fixed atoms.
    for (size_t r = 0; r < residues_.size(); ++r)
        for (size_t s = r + 1; s < residues_.size(); ++s) {
            const int nr = static_cast<int>(residues_[r].mol.atoms.size());
            const int ns = static_cast<int>(residues_[s].mol.atoms.size());
            for (int a = atomOffset_[r]; a < atomOffset_[r] + nr; ++a)
                for (int b = atomOffset_[s]; b < atomOffset_[s] + ns; ++b)
                    if (types_[a] >= 0 && types_[b] >= 0 && (movable_[a] || movable_[b]))
                        pairs_.push_back({a, b, types_[a], types_[b]});
        }
}

std::vector<XsType> FlexModel::movableTypes() const {
    std::vector<XsType> out;
    for (int i : movableTyped_) {
        const auto t = static_cast<XsType>(types_[i]);
        if (std::find(out.begin(), out.end(), t) == out.end())
            out.push_back(t);
    }
    return out;
}

void FlexModel::coordinates(const double* torsions, Workspace& ws,
                            std::vector<Vec3>& coords) const {
    coords.resize(types_.size());
    ws.frames.resize(kinematics_.size());
    ws.coords.resize(kinematics_.size());
    for (size_t r = 0; r < kinematics_.size(); ++r) {
        const LigandKinematics& k = kinematics_[r];
        if (static_cast<int>(ws.frames[r].origin.size()) == 0)
            ws.frames[r] = k.makeFrames();
        ws.pose = k.referencePose();
        for (int t = 0; t < k.torsionCount(); ++t)
            ws.pose.torsions[t] = torsions[torsionOffset_[r] + t];
        k.coordinates(ws.pose, ws.frames[r], ws.coords[r]);
        std::copy(ws.coords[r].begin(), ws.coords[r].end(), coords.begin() + atomOffset_[r]);
    }
}

void FlexModel::torsionGradient(Workspace& ws, const std::vector<Vec3>& atomGradient,
                                double* out) const {
    for (size_t r = 0; r < kinematics_.size(); ++r) {
        const LigandKinematics& k = kinematics_[r];
        const int n = k.atomCount();
        ws.grad.assign(atomGradient.begin() + atomOffset_[r],
                       atomGradient.begin() + atomOffset_[r] + n);
        ws.poseGrad.resize(k.dimension());
        k.gradient(ws.frames[r], ws.coords[r], ws.grad, ws.poseGrad.data());
        for (int t = 0; t < k.torsionCount(); ++t)
            out[torsionOffset_[r] + t] = ws.poseGrad[kPoseTorsionOffset + t];
    }
}

} // namespace pw
