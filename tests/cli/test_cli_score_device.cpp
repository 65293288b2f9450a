// `posewright-cli score --device`: the exact pair sums of many records on the GPU (issue 18) give
// the CPU's numbers (within 1e-4 relative, whatever device the machine has; without a GPU the
// command says so and scores on the CPU), `--device cpu` changes nothing, bad combinations are
// usage errors; `bench pairscore` reports its agreement; the CPU backend's scoreExact and
// gridReport.
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "backend/DeviceSelection.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "cli/CliRun.h"
#include "minimize/PosePerturbation.h"
#include "parallel/MultiDeviceBackend.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

#include <algorithm>
#include <cmath>

using namespace pw;
using namespace pw::test;

namespace {

const QString kDir = "complexes/1iep/";

QStringList target() {
    return {"--receptor", testData(kDir + "receptor.pdbqt"), "--box", testData(kDir + "box.txt")};
}

double relErr(double a, double b) {
    return std::abs(a - b) / std::max(std::abs(b), 1.0);
}

} // namespace

class TestCliScoreDevice : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString poses_; // 40 random 1iep starts (some partly outside the box)

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        poses_ = dir_.filePath("poses.sdf");
        const CliRun r = runCli(QStringList{"bench", "minimize"} + target() +
                                QStringList{"--ligand", testData(kDir + "ligand_xtal.pdbqt"),
                                            "--poses", "40", "--seed", "3", "--device", "cpu",
                                            "--write-poses", poses_});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    void cpuDeviceChangesNothing() {
        const CliRun plain = runCli(QStringList{"score", "--json", "--ligand", poses_} + target());
        const CliRun cpu = runCli(QStringList{"score", "--json", "--device", "cpu", "--ligand",
                                              poses_} + target());
        QCOMPARE(plain.exitCode, 0);
        QCOMPARE(cpu.exitCode, 0);
        QCOMPARE(jsonLines(plain.out).size(), 40);
        QCOMPARE(cpu.out, plain.out);
        QVERIFY(cpu.err.contains("score: device: CPU"));
    }

    // On a GPU machine the kernel scores in chunks of 16; elsewhere the CPU does, said on stderr.
    void cudaDeviceGivesTheCpuNumbers_data() {
        QTest::addColumn<QString>("scoring");
        QTest::newRow("vina") << "vina";
        QTest::newRow("vinardo") << "vinardo";
    }
    void cudaDeviceGivesTheCpuNumbers() {
        QFETCH(QString, scoring);
        const QStringList common = target() + QStringList{"--scoring", scoring};
        const CliRun cpu = runCli(QStringList{"score", "--json", "--ligand", poses_} + common);
        const CliRun gpu = runCli(QStringList{"score", "--json", "--device", "cuda", "--chunk",
                                              "16", "--ligand", poses_} + common);
        QCOMPARE(gpu.exitCode, 0);
        QVERIFY(gpu.err.contains("score: device: "));
        const QList<QJsonObject> a = jsonLines(cpu.out), b = jsonLines(gpu.out);
        QCOMPARE(b.size(), a.size());
        int penalized = 0;
        for (int i = 0; i < a.size(); ++i) {
            QCOMPARE(b[i]["index"].toInt(), a[i]["index"].toInt());
            for (const char* k : {"affinity", "inter", "intra", "torsional", "unbound"})
                QVERIFY2(relErr(b[i][k].toDouble(), a[i][k].toDouble()) <= 1e-4, k);
            penalized += a[i]["inter"].toDouble() > 1000;
        }
        QVERIFY2(penalized > 0, "some random starts reach outside the box");
    }

    // A macrocycle's ring-closure terms are CPU-only: with --device cuda its poses still get the
    // CPU's numbers (the backend scores them with LigandScorer).
    void macrocycleGetsTheCpuNumbers() {
        const QStringList mc{"--receptor", testData("macrocycle/receptor.pdbqt"), "--box",
                             testData("macrocycle/box.txt"), "--ligand",
                             testData("macrocycle/starts.pdbqt"), "--json"};
        const CliRun cpu = runCli(QStringList{"score"} + mc);
        const CliRun gpu = runCli(QStringList{"score", "--device", "cuda"} + mc);
        QCOMPARE(cpu.exitCode, 0);
        QCOMPARE(gpu.exitCode, 0);
        const QList<QJsonObject> a = jsonLines(cpu.out), b = jsonLines(gpu.out);
        QVERIFY(!a.isEmpty());
        QCOMPARE(b.size(), a.size());
        for (int i = 0; i < a.size(); ++i)
            for (const char* k : {"affinity", "inter", "intra", "unbound"})
                QVERIFY2(relErr(b[i][k].toDouble(), a[i][k].toDouble()) <= 1e-4, k);
    }

    void badCombinationsAreUsageErrors() {
        const CliRun grid = runCli(QStringList{"score", "--grid", "--device", "cuda", "--ligand",
                                               poses_} + target());
        QCOMPARE(grid.exitCode, 2);
        QVERIFY(grid.err.contains("--grid scores on the CPU"));
        const CliRun bad = runCli(QStringList{"score", "--device", "gpu", "--ligand", poses_} +
                                  target());
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("--device"));
        const CliRun chunk = runCli(QStringList{"score", "--device", "cpu", "--chunk", "0",
                                                "--ligand", poses_} + target());
        QCOMPARE(chunk.exitCode, 2);
    }

    void benchPairScoreReports() {
        const CliRun r = runCli(QStringList{"bench", "pairscore"} + target() +
                                QStringList{"--ligand", testData(kDir + "ligand_xtal.pdbqt"),
                                            "--poses", "300", "--cpu-poses", "100", "--repeat",
                                            "2", "--threads", "2"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 1);
        const QJsonObject& o = lines[0];
        QCOMPARE(o["poses"].toInt(), 300);
        QVERIFY(o["cpu1_poses_per_s"].toDouble() > 0);
        QVERIFY(o["cpu_all_poses_per_s"].toDouble() > 0);
        // 1iep: thousands of receptor atoms within 8 Å of a pose's atoms.
        QVERIFY(o["pairs_per_pose"].toDouble() > 1000);
        QVERIFY(o["candidates_per_pose"].toDouble() >= o["pairs_per_pose"].toDouble() -
                                                           o["ligand_atoms"].toDouble() * 40);
        if (!o["gpu"].toString().startsWith("none")) {
            QCOMPARE(o["poses_over_1e-4"].toInt(), 0);
            QVERIFY(o["worst_relative_difference"].toDouble() <= 1e-4);
        }
    }

    // The CPU backend: scoreExact is finalScore on every thread; gridReport reports the grid's
    // numbers for the same minimized pose, the default the exact ones.
    void cpuBackendScoreExactAndGridReport() {
        const std::string d = (testData(kDir)).toStdString();
        const Molecule receptor = prepareReceptor(readMolecule(d + "receptor.pdbqt"));
        const Molecule ligand = prepareLigand(readMolecule(d + "ligand_xtal.pdbqt"));
        DockingTarget target(receptor, readBoxConfig(d + "box.txt"), ScoringKind::Vina, 2);
        target.gridFor(DockingTarget::commonLigandTypes());
        std::string note;
        DeviceRequest cpuOnly;
        cpuOnly.kind = DeviceRequest::Kind::Cpu;
        auto cpu = createBackend(cpuOnly, 2, note);
        PosePerturbation p(ligand);
        std::vector<Molecule> ligands;
        for (int i = 0; i < 12; ++i)
            ligands.push_back(p.perturbed(4, i));
        std::vector<VinaScore> scores, split;
        cpu->scoreExact(target, ligands, scores);
        QCOMPARE(scores.size(), ligands.size());
        // The same batch split over two backends (as over several GPUs) lands in input order.
        std::vector<std::unique_ptr<Backend>> two;
        two.push_back(createBackend(cpuOnly, 1, note));
        two.push_back(createBackend(cpuOnly, 1, note));
        MultiDeviceBackend multi(std::move(two));
        multi.scoreExact(target, ligands, split);
        QCOMPARE(split.size(), ligands.size());
        for (size_t i = 0; i < ligands.size(); ++i)
            QCOMPARE(split[i].affinity, scores[i].affinity);
        for (size_t i = 0; i < ligands.size(); ++i) {
            LigandScorer s(ligands[i], target.scoring(), target.receptor());
            std::vector<Vec3> x;
            for (const Atom& a : ligands[i].atoms)
                x.push_back(a.position);
            QCOMPARE(scores[i].affinity, s.finalScore(x).affinity);
        }
        MinimizeBatchOptions options;
        options.refinement.minimize.maxIterations = 5;
        std::vector<RefinementResult> exact, grid;
        cpu->minimize(target, ligands, options, exact);
        options.gridReport = true;
        cpu->minimize(target, ligands, options, grid);
        int differ = 0;
        for (size_t i = 0; i < ligands.size(); ++i) {
            LigandScorer e(ligands[i], target.scoring(), target.receptor());
            LigandScorer g(ligands[i], target.scoring(), target.receptor(), target.grid());
            QCOMPARE(exact[i].score.affinity, e.finalScore(exact[i].coordinates).affinity);
            QCOMPARE(grid[i].score.affinity, g.finalScore(grid[i].coordinates).affinity);
            differ += grid[i].score.affinity != exact[i].score.affinity;
        }
        QVERIFY(differ > 0);
    }
};

QTEST_GUILESS_MAIN(TestCliScoreDevice)
#include "test_cli_score_device.moc"
