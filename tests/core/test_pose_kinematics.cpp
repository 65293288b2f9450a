// Tests for poses and ligand kinematics: rotation helpers, pose steps, the identity pose, rigid
// fragments under random poses, torsions moving only their subtree, fitting, bad trees.
#include "PoseTestLigands.h"

#include "core/InputError.h"
#include "core/LigandKinematics.h"
#include "core/Pose.h"
#include "core/Quaternion.h"

#include <QtTest>

#include <numbers>

using namespace pw;
using namespace pw::test;

namespace {

double maxDeviation(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    double m = 0;
    for (size_t i = 0; i < a.size(); ++i)
        m = std::max(m, (a[i] - b[i]).norm());
    return m;
}

std::vector<Vec3> positions(const Molecule& mol) {
    std::vector<Vec3> p;
    for (const auto& a : mol.atoms)
        p.push_back(a.position);
    return p;
}

double dihedral(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    const Vec3 b1 = b - a, b2 = c - b, b3 = d - c;
    const Vec3 n1 = b1.cross(b2), n2 = b2.cross(b3);
    return std::atan2(b2.normalized().dot(n1.cross(n2)), n1.dot(n2));
}

std::vector<Molecule> allLigands() {
    std::vector<Molecule> out{handBuiltLigand()};
    for (const char* id : {"1iep", "1stp", "3ce3"})
        out.push_back(readPdbqtLigand(complexLigand(id)));
    return out;
}

} // namespace

class TestPoseKinematics : public QObject {
    Q_OBJECT
private slots:
    void rotationVectorRoundTrip() {
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        for (int i = 0; i < 200; ++i) {
            Vec3 v(u(rng), u(rng), u(rng));
            v *= 3.0 * u(rng) / std::max(v.norm(), 1e-3); // angles up to 3 rad
            const Vec3 back = rotationVectorFromQuaternion(quaternionFromRotationVector(v));
            QVERIFY2((back - v).norm() < 1e-12, qPrintable(QString::number((back - v).norm())));
        }
        // A rotation vector rotates about itself by its length.
        const Quaternion q = quaternionFromRotationVector(Vec3(0, 0, std::numbers::pi / 2));
        QVERIFY((q * Vec3(1, 0, 0) - Vec3(0, 1, 0)).norm() < 1e-15);
        QVERIFY(rotationVectorFromQuaternion(Quaternion::Identity()).norm() == 0.0);
    }

    void angleWrapping() {
        QCOMPARE(normalizeAngle(0.5), 0.5);
        QVERIFY(std::abs(normalizeAngle(3 * std::numbers::pi / 2) + std::numbers::pi / 2) < 1e-15);
        QVERIFY(std::abs(normalizeAngle(-7.0) - (-7.0 + 2 * std::numbers::pi)) < 1e-14);
    }

    void poseStep() {
        Pose p;
        p.torsions = {3.0, -1.0};
        const double step[8] = {1, 2, 3, 0, 0, std::numbers::pi / 2, 1.0, 0.5};
        p.applyStep(step, 0.5);
        QVERIFY((p.position - Vec3(0.5, 1, 1.5)).norm() < 1e-15);
        // Rotation by pi/4 about z.
        QVERIFY((p.orientation * Vec3(1, 0, 0) - Vec3(std::sqrt(0.5), std::sqrt(0.5), 0)).norm() <
                1e-15);
        QVERIFY(std::abs(p.torsions[0] - (3.5 - 2 * std::numbers::pi)) < 1e-15); // wrapped
        QCOMPARE(p.torsions[1], -0.75);
        QCOMPARE(p.dimension(), 8);
        // A second rotation composes on the left (lab frame).
        const double turn[8] = {0, 0, 0, std::numbers::pi / 2, 0, 0, 0, 0};
        p.applyStep(turn, 1.0);
        const Vec3 expected = Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitX()) *
                              Eigen::AngleAxisd(std::numbers::pi / 4, Vec3::UnitZ()) *
                              Vec3(1, 0, 0);
        QVERIFY((p.orientation * Vec3(1, 0, 0) - expected).norm() < 1e-15);
    }

    void identityPoseReproducesInput() {
        for (const Molecule& mol : allLigands()) {
            for (RootOrigin o : {RootOrigin::FirstRootAtom, RootOrigin::RootCentroid}) {
                LigandKinematics kin(mol, o);
                QCOMPARE(kin.atomCount(), static_cast<int>(mol.atoms.size()));
                QCOMPARE(kin.torsionCount(), mol.torsionTree->torsionCount());
                const auto coords = kin.coordinates(kin.referencePose());
                QVERIFY2(maxDeviation(coords, positions(mol)) < 1e-9, mol.sourceFile.c_str());
            }
        }
        // Vina's choice of origin: the first ROOT atom.
        const Molecule lig = readPdbqtLigand(complexLigand("1iep"));
        QVERIFY((LigandKinematics(lig).referenceOrigin() - lig.atoms[0].position).norm() == 0.0);
        QCOMPARE(LigandKinematics(lig).torsionCount(), 7);
    }

    void rigidMoleculeWithoutTree() {
        Molecule mol = handBuiltLigand();
        mol.torsionTree.reset();
        LigandKinematics kin(mol);
        QCOMPARE(kin.torsionCount(), 0);
        QCOMPARE(kin.dimension(), 6);
        std::mt19937_64 rng(3);
        const auto coords = kin.coordinates(randomPose(kin, rng));
        for (size_t i = 0; i < coords.size(); ++i)
            for (size_t j = 0; j < i; ++j)
                QVERIFY(std::abs((coords[i] - coords[j]).norm() -
                                 (mol.atoms[i].position - mol.atoms[j].position).norm()) < 1e-9);
    }

    void fragmentsStayRigid() {
        std::mt19937_64 rng(11);
        for (const Molecule& mol : allLigands()) {
            LigandKinematics kin(mol);
            const auto ref = positions(mol);
            const auto& tree = *mol.torsionTree;
            for (int trial = 0; trial < 5; ++trial) {
                const auto x = kin.coordinates(randomPose(kin, rng));
                for (size_t n = 0; n < tree.nodes.size(); ++n) {
                    // Distances inside a fragment, and from its atoms to the parent's axis atom.
                    std::vector<int> rigid = tree.nodes[n].atoms;
                    if (n > 0)
                        rigid.push_back(tree.nodes[n].axisParentAtom);
                    for (int a : rigid)
                        for (int b : rigid)
                            QVERIFY(std::abs((x[a] - x[b]).norm() - (ref[a] - ref[b]).norm()) <
                                    1e-9);
                }
            }
        }
    }

    void torsionMovesOnlyItsSubtree() {
        const Molecule mol = handBuiltLigand();
        LigandKinematics kin(mol);
        Pose pose = kin.referencePose();
        const auto before = kin.coordinates(pose);
        pose.torsions[0] = 0.8; // node 1 (atoms 4-6) carries node 2 (atoms 7-8)
        const auto after = kin.coordinates(pose);
        for (int a : {0, 1, 2, 3, 9, 10})
            QVERIFY((after[a] - before[a]).norm() < 1e-12);
        for (int a : {5, 6, 7, 8})
            QVERIFY((after[a] - before[a]).norm() > 1e-3);
        QVERIFY((after[4] - before[4]).norm() < 1e-12); // on the axis
        // The dihedral across the rotated bond 1-4 changes by exactly the torsion.
        const double d0 = dihedral(before[0], before[1], before[4], before[5]);
        const double d1 = dihedral(after[0], after[1], after[4], after[5]);
        QVERIFY(std::abs(normalizeAngle(d1 - d0) - 0.8) < 1e-12);
    }

    void fitRecoversPose() {
        std::mt19937_64 rng(5);
        for (const Molecule& mol : allLigands()) {
            LigandKinematics kin(mol);
            for (int trial = 0; trial < 5; ++trial) {
                const Pose pose = randomPose(kin, rng);
                const auto coords = kin.coordinates(pose);
                const Pose fitted = kin.fit(coords);
                QVERIFY2(maxDeviation(kin.coordinates(fitted), coords) < 1e-9,
                         mol.sourceFile.c_str());
                QVERIFY((fitted.position - pose.position).norm() < 1e-9);
            }
            QVERIFY(maxDeviation(kin.coordinates(kin.fit(positions(mol))), positions(mol)) < 1e-9);
        }
    }

    void fitDockedPoseOfSameLigand() {
        // Vina's docked pose of imatinib has the same topology and (rigid) fragment geometry.
        const Molecule ref = readPdbqtLigand(complexLigand("1iep"));
        const Molecule docked =
            readPdbqtLigand(QString(POSEWRIGHT_TEST_DATA) + "/complexes/1iep/poses/pose03.pdbqt");
        QCOMPARE(docked.atoms.size(), ref.atoms.size());
        LigandKinematics kin(ref);
        const Pose pose = kin.fit(positions(docked));
        // PDBQT keeps 3 decimals: fragment geometry agrees to that rounding.
        QVERIFY2(
            maxDeviation(kin.coordinates(pose), positions(docked)) < 0.02,
            qPrintable(QString::number(maxDeviation(kin.coordinates(pose), positions(docked)))));
    }

    void badTreesAreReported() {
        Molecule mol = handBuiltLigand();
        mol.torsionTree->nodes[3].atoms = {9}; // atom 11 (index 10) now in no fragment
        try {
            LigandKinematics kin(mol);
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QCOMPARE(QString(e.what()),
                     QString("hand-built: torsion tree: atom 11 is in no fragment, expected every "
                             "atom in one"));
        }
        mol = handBuiltLigand();
        mol.torsionTree->nodes[2].axisParentAtom = 0; // root atom, not in node 2's parent (node 1)
        try {
            LigandKinematics kin(mol);
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QCOMPARE(QString(e.what()),
                     QString("hand-built: torsion tree: branch node 2: axis atom 1 is not in the "
                             "parent fragment, expected the BRANCH's first atom there"));
        }
        mol = handBuiltLigand();
        mol.atoms[4].position = mol.atoms[1].position; // zero-length rotatable bond 2-5
        QVERIFY_THROWS_EXCEPTION(InputError, LigandKinematics{mol});
        mol = handBuiltLigand();
        mol.torsionTree->nodes[0].children = {1}; // node 3 unreachable
        try {
            LigandKinematics kin(mol);
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QVERIFY(QString(e.what()).contains("node 3 is not reachable from the root"));
        }
        LigandKinematics kin(handBuiltLigand());
        QVERIFY_THROWS_EXCEPTION(InputError, kin.fit(std::vector<Vec3>(3)));
    }
};

QTEST_GUILESS_MAIN(TestPoseKinematics)
#include "test_pose_kinematics.moc"
