// PoseTestLigands: test fixtures for the kinematics and minimizer suites: a minimal PDBQT tree
// reader (core tests cannot link the RDKit readers), hand-built trees and smooth test energies.
#pragma once

#include "core/LigandKinematics.h"
#include "core/Molecule.h"

#include <QFile>
#include <QString>
#include <QTextStream>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace pw::test {

// Reads ATOM/HETATM coordinates and ROOT/BRANCH structure of a ligand PDBQT (first model).
inline Molecule readPdbqtLigand(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        throw std::runtime_error("cannot open " + path.toStdString());
    Molecule mol;
    mol.sourceFile = path.toStdString();
    TorsionTree tree;
    std::vector<int> stack;
    std::vector<int> serialToIndex(100000, -1);
    struct PendingBranch {
        int node, parentSerial, childSerial;
    };
    std::vector<PendingBranch> branches;
    QTextStream in(&file);
    while (!in.atEnd()) {
        const QString line = in.readLine();
        if (line.startsWith("ENDMDL"))
            break;
        if (line.startsWith("ROOT")) {
            tree.nodes.resize(1);
            stack = {0};
        } else if (line.startsWith("BRANCH")) {
            const QStringList f = line.split(' ', Qt::SkipEmptyParts);
            TorsionNode node;
            node.parent = stack.back();
            tree.nodes.push_back(node);
            const int id = static_cast<int>(tree.nodes.size()) - 1;
            tree.nodes[stack.back()].children.push_back(id);
            branches.push_back({id, f[1].toInt(), f[2].toInt()});
            stack.push_back(id);
        } else if (line.startsWith("ENDBRANCH")) {
            stack.pop_back();
        } else if (line.startsWith("ATOM") || line.startsWith("HETATM")) {
            Atom a;
            a.serial = line.mid(6, 5).trimmed().toInt();
            a.name = line.mid(12, 4).trimmed().toStdString();
            a.position = Vec3(line.mid(30, 8).toDouble(), line.mid(38, 8).toDouble(),
                              line.mid(46, 8).toDouble());
            a.ad4Type = line.mid(77, 2).trimmed().toStdString();
            serialToIndex[a.serial] = static_cast<int>(mol.atoms.size());
            tree.nodes[stack.back()].atoms.push_back(static_cast<int>(mol.atoms.size()));
            mol.atoms.push_back(a);
        }
    }
    for (const auto& b : branches) {
        tree.nodes[b.node].axisParentAtom = serialToIndex[b.parentSerial];
        tree.nodes[b.node].axisChildAtom = serialToIndex[b.childSerial];
    }
    mol.torsionTree = tree;
    return mol;
}

inline QString complexLigand(const char* id) {
    return QString(POSEWRIGHT_TEST_DATA) + "/complexes/" + id + "/ligand_xtal.pdbqt";
}

// A hand-built ligand: root (4 atoms) with two branches, one of which has a grandchild:
//   root {0,1,2,3} --(1-4)--> A {4,5,6} --(6-7)--> B {7,8}
//                  --(2-9)--> C {9,10}
inline Molecule handBuiltLigand() {
    const double xyz[][3] = {{0.0, 0.0, 0.0},   {1.5, 0.0, 0.0}, {-0.5, 1.4, 0.0},
                             {-0.4, -0.8, 1.1}, {2.3, 0.9, 0.4}, {2.0, 2.2, 0.1},
                             {3.7, 0.6, 0.9},   {4.6, 1.5, 0.5}, {5.9, 1.2, 1.0},
                             {-1.9, 1.7, -0.5}, {-2.6, 2.9, 0.2}};
    Molecule mol;
    mol.sourceFile = "hand-built";
    for (const auto& p : xyz) {
        Atom a;
        a.element = 6;
        a.position = Vec3(p[0], p[1], p[2]);
        mol.atoms.push_back(a);
    }
    TorsionTree t;
    t.nodes.resize(4);
    t.nodes[0].atoms = {0, 1, 2, 3};
    t.nodes[0].children = {1, 3};
    t.nodes[1] = {0, 1, 4, {4, 5, 6}, {2}};
    t.nodes[2] = {1, 6, 7, {7, 8}, {}};
    t.nodes[3] = {0, 2, 9, {9, 10}, {}};
    mol.torsionTree = t;
    return mol;
}

inline Quaternion randomOrientation(std::mt19937_64& rng) {
    std::normal_distribution<double> n(0.0, 1.0);
    Quaternion q(n(rng), n(rng), n(rng), n(rng));
    return q.normalized();
}

// A random pose within a few Angstroms of the reference origin, any orientation and torsions.
inline Pose randomPose(const LigandKinematics& kin, std::mt19937_64& rng, double spread = 2.0) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Pose pose = kin.referencePose();
    pose.position += spread * Vec3(u(rng), u(rng), u(rng));
    pose.orientation = randomOrientation(rng);
    for (double& t : pose.torsions)
        t = 3.14159 * u(rng);
    return pose;
}

// Smooth test energy over Cartesian coordinates: harmonic pulls of every atom to a target point
// plus a Gaussian repulsion between atoms of different fragments (couples fragments through
// distances, which a pure pull would not). Gradient is analytic. Allocates nothing per call.
struct PullAndRepel {
    std::vector<Vec3> targets;
    std::vector<int> fragment; // fragment of each atom (pairs within one fragment are rigid)
    double pull = 0.7;
    double repel = 1.5;
    double width2 = 2.0; // Gaussian width squared, Angstrom^2

    double operator()(const std::vector<Vec3>& x, std::vector<Vec3>& g) const {
        double e = 0;
        const size_t n = x.size();
        for (size_t i = 0; i < n; ++i) {
            const Vec3 d = x[i] - targets[i];
            e += pull * d.squaredNorm();
            g[i] += 2.0 * pull * d;
        }
        for (size_t i = 0; i < n; ++i)
            for (size_t j = i + 1; j < n; ++j) {
                if (fragment[i] == fragment[j])
                    continue;
                const Vec3 d = x[i] - x[j];
                const double w = repel * std::exp(-d.squaredNorm() / width2);
                e += w;
                const Vec3 gi = (-2.0 / width2) * w * d;
                g[i] += gi;
                g[j] -= gi;
            }
        return e;
    }
};

inline PullAndRepel makePullAndRepel(const Molecule& mol, const std::vector<Vec3>& targets) {
    PullAndRepel f;
    f.targets = targets;
    f.fragment = mol.torsionTree ? mol.torsionTree->nodeOfAtom(static_cast<int>(mol.atoms.size()))
                                 : std::vector<int>(mol.atoms.size(), 0);
    return f;
}

} // namespace pw::test
