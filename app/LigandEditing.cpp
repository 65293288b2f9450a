#include "LigandEditing.h"

#include <Eigen/Geometry>

namespace pw {
namespace {

Vec3 heavyCentroid(const Molecule& m) {
    Vec3 c = Vec3::Zero();
    int n = 0;
    for (const Atom& a : m.atoms)
        if (a.element != 1) {
            c += a.position;
            ++n;
        }
    return n > 0 ? Vec3(c / n) : m.centroid();
}

double pairSum(const ScoringFunction& sf, const Atom& a, const std::vector<Atom>& others) {
    if (a.xs == XsType::None)
        return 0.0;
    const double cutoff2 = sf.cutoffSquared();
    double e = 0;
    for (const Atom& b : others) {
        if (b.xs == XsType::None)
            continue;
        const double r2 = (a.position - b.position).squaredNorm();
        if (r2 >= cutoff2)
            continue;
        double dEdr;
        e += sf.pairEnergy(static_cast<int>(a.xs), static_cast<int>(b.xs), std::sqrt(r2), &dEdr);
    }
    return e;
}

} // namespace

void rotateLigand(Molecule& ligand, const Vec3& axis, double radians) {
    if (axis.norm() < 1e-12)
        return;
    const Vec3 c = heavyCentroid(ligand);
    const Eigen::Matrix3d r = Eigen::AngleAxisd(radians, axis.normalized()).toRotationMatrix();
    for (Atom& a : ligand.atoms)
        a.position = c + r * (a.position - c);
}

void translateLigand(Molecule& ligand, const Vec3& delta) {
    for (Atom& a : ligand.atoms)
        a.position += delta;
}

bool turnTorsionOf(Molecule& ligand, int atom, double radians) {
    if (!ligand.torsionTree || atom < 0 || atom >= static_cast<int>(ligand.atoms.size()))
        return false;
    const TorsionTree& tree = *ligand.torsionTree;
    const std::vector<int> owner = tree.nodeOfAtom(static_cast<int>(ligand.atoms.size()));
    const int node = owner[static_cast<size_t>(atom)];
    if (node <= 0)
        return false;
    const TorsionNode& n = tree.nodes[static_cast<size_t>(node)];
    const Vec3 origin = ligand.atoms[static_cast<size_t>(n.axisParentAtom)].position;
    const Vec3 axis = ligand.atoms[static_cast<size_t>(n.axisChildAtom)].position - origin;
    if (axis.norm() < 1e-9)
        return false;
    const Eigen::Matrix3d r = Eigen::AngleAxisd(radians, axis.normalized()).toRotationMatrix();
    // The branch and all its descendants move together.
    std::vector<int> stack{node};
    while (!stack.empty()) {
        const TorsionNode& cur = tree.nodes[static_cast<size_t>(stack.back())];
        stack.pop_back();
        for (int a : cur.atoms) {
            Vec3& p = ligand.atoms[static_cast<size_t>(a)].position;
            p = origin + r * (p - origin);
        }
        stack.insert(stack.end(), cur.children.begin(), cur.children.end());
    }
    return true;
}

double ligandAtomEnergy(const ScoringTarget& target, const Molecule& ligand, int atom) {
    if (atom < 0 || atom >= static_cast<int>(ligand.atoms.size()))
        return 0.0;
    return pairSum(target.target->scoring(), ligand.atoms[static_cast<size_t>(atom)],
                   target.receptor.atoms);
}

double receptorAtomEnergy(const ScoringTarget& target, const Molecule& ligand, int atom) {
    if (atom < 0 || atom >= static_cast<int>(target.receptor.atoms.size()))
        return 0.0;
    return pairSum(target.target->scoring(), target.receptor.atoms[static_cast<size_t>(atom)],
                   ligand.atoms);
}

QString describeAtom(const Molecule& m, int atom, const double* energy) {
    if (atom < 0 || atom >= static_cast<int>(m.atoms.size()))
        return {};
    const Atom& a = m.atoms[static_cast<size_t>(atom)];
    QString text = QString::fromStdString(a.name.empty() ? std::to_string(atom + 1) : a.name);
    if (a.residue >= 0 && a.residue < static_cast<int>(m.residues.size())) {
        const Residue& r = m.residues[static_cast<size_t>(a.residue)];
        text += QStringLiteral(" %1 %2%3")
                    .arg(QString::fromStdString(r.name))
                    .arg(r.number)
                    .arg(r.chain == ' ' ? QString() : QStringLiteral(" ") + QChar(r.chain));
    }
    if (!a.ad4Type.empty())
        text += QStringLiteral(" · ") + QString::fromStdString(a.ad4Type);
    if (energy)
        text += QStringLiteral(" · %1 kcal/mol").arg(*energy, 0, 'f', 3);
    return text;
}

} // namespace pw
