// Tests for the pose-space gradient: the tree roll-up of dE/dx (forces, torques, torsion torques)
// equals central finite differences of the energy along pose steps, on hand-built and real trees.
#include "PoseTestLigands.h"

#include "core/LigandKinematics.h"
#include "core/Pose.h"

#include <QtTest>

using namespace pw;
using namespace pw::test;

namespace {

struct GradientCheck {
    double worst = 0; // max |analytic - numeric| / scale over all components
    double scale = 0; // max(1, |analytic|_inf)
    int worstComponent = -1;
};

// Compares the analytic pose gradient with central differences of E(pose (+) h e_k).
GradientCheck checkGradient(const LigandKinematics& kin, const PullAndRepel& energy,
                            const Pose& pose, double h = 1e-6) {
    KinematicFrames frames = kin.makeFrames();
    std::vector<Vec3> coords, g(kin.atomCount());
    auto eval = [&](const Pose& p) {
        kin.coordinates(p, frames, coords);
        for (auto& v : g)
            v.setZero();
        return energy(coords, g);
    };
    const int n = kin.dimension();
    std::vector<double> analytic(n);
    eval(pose);
    kin.gradient(frames, coords, g, analytic.data());

    GradientCheck c;
    for (double a : analytic)
        c.scale = std::max(c.scale, std::abs(a));
    c.scale = std::max(c.scale, 1.0);
    std::vector<double> step(n, 0.0);
    for (int k = 0; k < n; ++k) {
        step.assign(n, 0.0);
        step[k] = 1.0;
        Pose plus = pose, minus = pose;
        plus.applyStep(step.data(), h);
        minus.applyStep(step.data(), -h);
        const double numeric = (eval(plus) - eval(minus)) / (2 * h);
        const double err = std::abs(numeric - analytic[k]) / c.scale;
        if (err > c.worst) {
            c.worst = err;
            c.worstComponent = k;
        }
    }
    return c;
}

void checkLigand(const Molecule& mol, std::mt19937_64& rng, int poses) {
    LigandKinematics kin(mol);
    for (int trial = 0; trial < poses; ++trial) {
        // Targets from another random pose: the pulls are far from satisfied, gradients large.
        const auto targets = kin.coordinates(randomPose(kin, rng));
        const PullAndRepel energy = makePullAndRepel(mol, targets);
        const Pose pose = randomPose(kin, rng);
        const GradientCheck c = checkGradient(kin, energy, pose);
        QVERIFY2(c.worst < 1e-4, qPrintable(QString("%1: component %2 relative error %3")
                                                .arg(mol.sourceFile.c_str())
                                                .arg(c.worstComponent)
                                                .arg(c.worst)));
    }
}

} // namespace

class TestPoseGradient : public QObject {
    Q_OBJECT
private slots:
    void handBuiltTree() {
        std::mt19937_64 rng(1);
        checkLigand(handBuiltLigand(), rng, 20);
    }

    void singleBond() {
        // Two atoms in the root, one branch of two atoms: the smallest tree with a torsion.
        Molecule mol;
        mol.sourceFile = "single-bond";
        for (Vec3 p : {Vec3(0, 0, 0), Vec3(1.5, 0, 0), Vec3(2.1, 1.3, 0), Vec3(3.5, 1.4, 0.6)}) {
            Atom a;
            a.position = p;
            mol.atoms.push_back(a);
        }
        TorsionTree t;
        t.nodes.resize(2);
        t.nodes[0].atoms = {0, 1};
        t.nodes[0].children = {1};
        t.nodes[1] = {0, 1, 2, {2, 3}, {}};
        mol.torsionTree = t;
        std::mt19937_64 rng(2);
        checkLigand(mol, rng, 20);
    }

    void realLigandTrees() {
        std::mt19937_64 rng(3);
        for (const char* id : {"1iep", "1stp", "3ce3"})
            checkLigand(readPdbqtLigand(complexLigand(id)), rng, 8);
    }

    void knownTorqueValues() {
        // One root atom at the origin and a branch along x: a force on a branch atom gives a
        // torsion derivative equal to its torque about the bond axis, and the root torque is
        // about the root origin.
        Molecule mol;
        for (Vec3 p : {Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(1, 0, 0), Vec3(1, 1, 0)}) {
            Atom a;
            a.position = p;
            mol.atoms.push_back(a);
        }
        TorsionTree t;
        t.nodes.resize(2);
        t.nodes[0].atoms = {0, 1};
        t.nodes[0].children = {1};
        t.nodes[1] = {0, 0, 2, {2, 3}, {}};
        mol.torsionTree = t;
        LigandKinematics kin(mol);
        KinematicFrames frames = kin.makeFrames();
        std::vector<Vec3> coords;
        kin.coordinates(kin.referencePose(), frames, coords);
        std::vector<Vec3> g(4, Vec3::Zero());
        g[3] = Vec3(0, 0, 2); // dE/dz on atom 4 at (1,1,0)
        double out[7];
        kin.gradient(frames, coords, g, out);
        QCOMPARE(out[0], 0.0);
        QCOMPARE(out[2], 2.0);
        // r x g = (1,1,0) x (0,0,2) = (2,-2,0)
        QCOMPARE(out[3], 2.0);
        QCOMPARE(out[4], -2.0);
        QCOMPARE(out[5], 0.0);
        QCOMPARE(out[6], 2.0); // ((0,1,0) x (0,0,2)) . x-axis = (2,0,0) . (1,0,0)
    }
};

QTEST_GUILESS_MAIN(TestPoseGradient)
#include "test_pose_gradient.moc"
