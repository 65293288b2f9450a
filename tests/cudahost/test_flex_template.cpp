// The CUDA minimizer's template of a ligand with flexible side chains (buildFlexTemplate), on
// the CPU (no device needed; built in CUDA builds only). The kernel places atoms from a template
// and a pose as placeAtoms (MinimizePose.cuh) does: fragment frames parents first, a side
// chain's root fixed where it started. That placement is replayed here in double from the
// template's nodes, and must give the coordinates FlexPoseObjective gives for the same pose
// (LigandKinematics for the ligand, FlexModel for the side chains); the typed atoms and pairs
// must be the terms FlexScorer sums.
#include "chem/FlexResidueReader.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "core/LigandKinematics.h"
#include "cuda/MinimizeTemplates.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"
#include "score/VinaTopology.h"
#include "score/flex/FlexModel.h"

#include <QtTest>

#include <algorithm>
#include <array>
#include <memory>
#include <random>
#include <tuple>

using namespace pw;

namespace {

std::string flexPath(const std::string& name) {
    return std::string(POSEWRIGHT_TEST_DATA) + "/flex/" + name;
}

// placeAtoms in double: start coordinates (slot order) define the frames (MinimizeKernel.cu's
// set-up), then the pose [position, quaternion w x y z, torsions] places every slot.
std::vector<Vec3> placeLikeTheKernel(const cuda::HostTemplate& h, const std::vector<Vec3>& start,
                                     const std::vector<double>& pose) {
    const int N = static_cast<int>(h.nodes.size());
    std::vector<Vec3> origin(N), relOrigin(N), relAxis(N, Vec3::Zero()), local(start.size());
    for (int k = 0; k < N; ++k) {
        const cuda::NodeGpu& nd = h.nodes[k];
        origin[k] = start[nd.originAtom];
        if (k > 0 && nd.parent >= 0)
            relAxis[k] = (origin[k] - start[nd.axisParentAtom]).normalized();
    }
    for (int k = 0; k < N; ++k) {
        const int p = h.nodes[k].parent;
        relOrigin[k] = k == 0 ? Vec3::Zero() : p >= 0 ? Vec3(origin[k] - origin[p]) : origin[k];
    }
    for (size_t i = 0; i < start.size(); ++i)
        local[i] = start[i] - origin[h.atoms[i] >> 8];
    std::vector<Eigen::Matrix3d> rot(N);
    for (int k = h.gpu.movingNodes; k < N; ++k) { // fixed roots: set once, at the start
        origin[k] = relOrigin[k];
        rot[k].setIdentity();
    }
    rot[0] = Quaternion(pose[3], pose[4], pose[5], pose[6]).normalized().toRotationMatrix();
    origin[0] = Vec3(pose[0], pose[1], pose[2]);
    for (int k = 1; k < h.gpu.movingNodes; ++k) {
        const cuda::NodeGpu& nd = h.nodes[k];
        const Eigen::Matrix3d& rp = rot[nd.parent];
        origin[k] = origin[nd.parent] + rp * relOrigin[k];
        rot[k] = rp * Eigen::AngleAxisd(pose[7 + nd.torsion], relAxis[k]).toRotationMatrix();
    }
    std::vector<Vec3> out(start.size());
    for (size_t i = 0; i < start.size(); ++i) {
        const int node = h.atoms[i] >> 8;
        out[i] = origin[node] + rot[node] * local[i];
    }
    return out;
}

struct Case {
    Molecule receptor;
    std::unique_ptr<DockingTarget> target;
    std::unique_ptr<FlexModel> flex;
    Molecule ligand, combined; // combined: the ligand's atoms, then the side chains'

    Case(const char* rigid, const char* flexFile) {
        receptor = readMolecule(flexPath(rigid));
        target = std::make_unique<DockingTarget>(
            receptor, readBoxConfig(flexPath("1fpu_receptor.box.txt")), ScoringKind::Vina, 1);
        flex = std::make_unique<FlexModel>(readFlexResidues(flexPath(flexFile)), receptor);
        ligand = prepareLigand(readMolecule(flexPath("1iep_ligand.pdbqt")));
        combined = ligand;
        for (int r = 0; r < flex->residueCount(); ++r)
            for (const Atom& a : flex->residue(r).mol.atoms)
                combined.atoms.push_back(a);
    }
    MinimizeBatchOptions options(bool vinaSteps = false) const {
        MinimizeBatchOptions o;
        o.exact = true;
        o.refinement.vinaSteps = vinaSteps;
        o.flex = flex.get();
        return o;
    }
};

} // namespace

class TestFlexTemplate : public QObject {
    Q_OBJECT
private slots:
    void movesAsFlexPoseObjective_data() {
        QTest::addColumn<QString>("rigid");
        QTest::addColumn<QString>("flexFile");
        QTest::newRow("THR 315") << "1fpu_receptor_rigid.pdbqt" << "1fpu_receptor_flex.pdbqt";
        QTest::newRow("THR 315 + LYS 271") << "1fpu_rigid_2res.pdbqt" << "flex_2res.pdbqt";
    }
    void movesAsFlexPoseObjective() {
        QFETCH(QString, rigid);
        QFETCH(QString, flexFile);
        Case c(qPrintable(rigid), qPrintable(flexFile));
        const cuda::HostTemplate h =
            cuda::buildFlexTemplate(c.combined, *c.flex, *c.target, c.options());
        const LigandKinematics kin(c.ligand);
        const int nL = static_cast<int>(c.ligand.atoms.size());
        const int tL = kin.torsionCount();
        QCOMPARE(h.gpu.atomCount, int(c.combined.atoms.size()));
        QCOMPARE(h.gpu.torsionCount, tL + c.flex->torsionCount());
        QCOMPARE(int(h.atomOfSlot.size()), h.gpu.atomCount);
        // Every atom has one slot; each side chain's root is a fixed node without torsion.
        std::vector<int> seen(c.combined.atoms.size(), 0);
        for (int a : h.atomOfSlot)
            ++seen.at(size_t(a));
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
        int fixedRoots = 0;
        std::vector<int> torsionSeen(size_t(h.gpu.torsionCount), 0);
        for (size_t k = 1; k < h.nodes.size(); ++k) {
            if (h.nodes[k].parent < 0) {
                ++fixedRoots;
                QCOMPARE(h.nodes[k].torsion, -1);
            } else {
                ++torsionSeen.at(size_t(h.nodes[k].torsion));
            }
        }
        QCOMPARE(fixedRoots, c.flex->residueCount());
        // The ligand's nodes, then the side chains' branches (the moving nodes), then the fixed
        // roots; a moving node's parent is placed before it or is a fixed root; atoms follow the
        // nodes (the kernels' reductions take each node's atoms as one range, in node order).
        const int ligandNodes = tL + 1, moving = h.gpu.movingNodes;
        QCOMPARE(int(h.nodes.size()) - moving, c.flex->residueCount());
        for (int k = 1; k < int(h.nodes.size()); ++k) {
            const cuda::NodeGpu& nd = h.nodes[size_t(k)];
            QCOMPARE(nd.atomBegin, h.nodes[size_t(k - 1)].atomEnd);
            if (k < ligandNodes)
                QVERIFY(nd.parent >= 0 && nd.parent < k);
            else if (k < moving)
                QVERIFY(nd.parent >= 0 && (nd.parent < k ? nd.parent >= ligandNodes
                                                         : nd.parent >= moving));
            else
                QCOMPARE(nd.parent, -1);
        }
        QVERIFY(std::all_of(torsionSeen.begin(), torsionSeen.end(), [](int n) { return n == 1; }));

        std::vector<Vec3> start(h.atomOfSlot.size());
        const std::vector<Vec3>& flexRef = c.flex->referenceCoordinates();
        for (size_t s = 0; s < start.size(); ++s) {
            const int a = h.atomOfSlot[s];
            start[s] = a < nL ? c.ligand.atoms[size_t(a)].position : flexRef[size_t(a - nL)];
        }
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> angle(-3.14159, 3.14159), unit(-1.0, 1.0);
        FlexModel::Workspace ws;
        KinematicFrames frames = kin.makeFrames();
        for (int trial = 0; trial < 20; ++trial) {
            Pose pose = kin.referencePose();
            pose.position += Vec3(unit(rng), unit(rng), unit(rng));
            pose.orientation =
                trial == 0 ? Quaternion::Identity()
                           : Quaternion(unit(rng), unit(rng), unit(rng), unit(rng)).normalized();
            std::vector<double> flexTorsions(size_t(c.flex->torsionCount()));
            for (double& t : pose.torsions)
                t = trial == 0 ? 0.0 : angle(rng);
            for (double& t : flexTorsions)
                t = trial == 0 ? 0.0 : angle(rng);
            std::vector<double> gpuPose{pose.position.x(),    pose.position.y(),
                                        pose.position.z(),    pose.orientation.w(),
                                        pose.orientation.x(), pose.orientation.y(),
                                        pose.orientation.z()};
            gpuPose.insert(gpuPose.end(), pose.torsions.begin(), pose.torsions.end());
            gpuPose.insert(gpuPose.end(), flexTorsions.begin(), flexTorsions.end());
            std::vector<Vec3> lig, side;
            kin.coordinates(pose, frames, lig);
            c.flex->coordinates(flexTorsions.data(), ws, side);
            const std::vector<Vec3> placed = placeLikeTheKernel(h, start, gpuPose);
            double worst = 0;
            for (size_t s = 0; s < placed.size(); ++s) {
                const int a = h.atomOfSlot[s];
                const Vec3& want = a < nL ? lig[size_t(a)] : side[size_t(a - nL)];
                worst = std::max(worst, (placed[s] - want).norm());
            }
            QVERIFY2(worst < 1e-9, qPrintable(QString("trial %1: an atom %2 A away from "
                                                      "FlexPoseObjective's")
                                                  .arg(trial)
                                                  .arg(worst)));
        }
    }

    // The typed atoms are the ligand's and the side chains' moving typed ones; the pairs are the
    // ligand's internal pairs, ligand x moving side-chain atom, and FlexModel's pairs, each with
    // its XS types.
    void termsAreFlexScorers() {
        Case c("1fpu_rigid_2res.pdbqt", "flex_2res.pdbqt");
        const cuda::HostTemplate h =
            cuda::buildFlexTemplate(c.combined, *c.flex, *c.target, c.options());
        const VinaLigandTopology topo = buildVinaLigandTopology(c.ligand);
        const int nL = static_cast<int>(c.ligand.atoms.size());
        std::vector<int> typed, wantTyped;
        for (size_t s = 0; s < h.atoms.size(); ++s)
            if ((h.atoms[s] & 255) - 1 >= 0)
                typed.push_back(h.atomOfSlot[s]);
        for (int i = 0; i < nL; ++i)
            if (topo.types[size_t(i)] != XsType::None)
                wantTyped.push_back(i);
        for (int f : c.flex->movableTyped())
            wantTyped.push_back(nL + f);
        std::sort(typed.begin(), typed.end());
        QCOMPARE(typed, wantTyped);
        // Each slot's type is its atom's (ligand topology or FlexModel).
        for (size_t s = 0; s < h.atoms.size(); ++s) {
            const int type = (h.atoms[s] & 255) - 1, a = h.atomOfSlot[s];
            if (type >= 0)
                QCOMPARE(type, a < nL ? int(topo.types[size_t(a)]) : c.flex->types()[size_t(a - nL)]);
        }

        using Term = std::tuple<int, int, int>; // atoms (ordered) and the unordered type pair row
        auto term = [](int i, int j, int ti, int tj) {
            return i < j ? Term{i, j, cuda::tableRow(ti, tj)} : Term{j, i, cuda::tableRow(ti, tj)};
        };
        std::vector<Term> got, want;
        for (const cuda::PairGpu& p : h.pairs) {
            const int ti = p.typePair / kXsTypeCount, tj = p.typePair % kXsTypeCount;
            QCOMPARE(int(p.tableRow), cuda::tableRow(ti, tj));
            got.push_back(term(h.atomOfSlot[p.i], h.atomOfSlot[p.j], ti, tj));
        }
        for (const auto& [i, j] : topo.intraPairs)
            want.push_back(term(i, j, int(topo.types[size_t(i)]), int(topo.types[size_t(j)])));
        for (int i = 0; i < nL; ++i)
            if (topo.types[size_t(i)] != XsType::None)
                for (int f : c.flex->movableTyped())
                    want.push_back(
                        term(i, nL + f, int(topo.types[size_t(i)]), c.flex->types()[size_t(f)]));
        for (const FlexModel::Pair& p : c.flex->pairs())
            want.push_back(term(nL + p.i, nL + p.j, p.ti, p.tj));
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        QCOMPARE(int(got.size()), int(want.size()));
        QVERIFY(got == want);
        QCOMPARE(h.gpu.pairCount, int(h.pairs.size()));
    }

    // Vina's --local_only step count with side chains counts their moving atoms
    // (refineWithFlex's Vina path does the same).
    void vinaStepsCountTheSideChains() {
        Case c("1fpu_receptor_rigid.pdbqt", "1fpu_receptor_flex.pdbqt");
        const cuda::HostTemplate h =
            cuda::buildFlexTemplate(c.combined, *c.flex, *c.target, c.options(true));
        int movable = vinaMovableAtoms(c.ligand);
        for (char m : c.flex->movable())
            movable += m ? 1 : 0;
        QVERIFY(movable > vinaMovableAtoms(c.ligand));
        QCOMPARE(h.gpu.maxSteps, vinaLocalOnlySteps(movable));
    }

    // A molecule that does not carry the side chains' atoms is a caller's error, said plainly.
    void ligandWithoutSideChainsIsRefused() {
        Case c("1fpu_receptor_rigid.pdbqt", "1fpu_receptor_flex.pdbqt");
        Molecule small = c.ligand;
        small.atoms.resize(size_t(c.flex->atomCount()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 cuda::buildFlexTemplate(small, *c.flex, *c.target, c.options()));
    }
};

QTEST_GUILESS_MAIN(TestFlexTemplate)
#include "test_flex_template.moc"
