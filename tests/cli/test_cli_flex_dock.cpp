// `posewright-cli dock --flex`: the CPU LGA with the side chains' torsions as genes. A small
// search from random starts must find imatinib's pocket with THR 315 flexible (well below the
// input pose's score), write each written pose's ligand (ranked SDF) and side chains (PDBQT, one
// MODEL per SDF record) so that rescoring them gives the reported numbers, repeat itself exactly
// for a seed, and refuse several GPUs.
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/FlexDockRescore.h"

#include <cmath>

using namespace pw::test;

namespace {

bool rec0IsTheLigand(const QByteArray& sdf) { return sdf.startsWith("1iep_ligand"); }

QString flexData(const QString& name) { return testData("flex/" + name); }

QStringList dockArgs(const QString& out, const QString& json) {
    return {"dock", "--receptor", flexData("1fpu_receptor_rigid.pdbqt"), "--flex",
            flexData("1fpu_receptor_flex.pdbqt"), "--ligands", flexData("1iep_ligand.pdbqt"),
            "--box", flexData("1fpu_receptor.box.txt"), "--runs", "4", "--evaluations", "60000",
            "--population", "50", "--ls-iterations", "30", "--seed", "7", "--poses", "2",
            "--threads", "2", "--out", out, "--json", json};
}

} // namespace

class TestCliFlexDock : public QObject {
    Q_OBJECT
private slots:
    void docksWithSideChains() {
        QTemporaryDir dir;
        const CliRun r = runCli(dockArgs(dir.filePath("out.sdf"), dir.filePath("out.json")));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto ligands = jsonLines(readAll(dir.filePath("out.json")));
        QCOMPARE(ligands.size(), 1);
        const QJsonArray poses = ligands[0].value("poses").toArray();
        QCOMPARE(poses.size(), 2);
        const QJsonObject best = poses[0].toObject();
        // The input pose scores -4.275 (vina --score_only); a docked pose is far lower, and the
        // best is first.
        QVERIFY2(best.value("affinity").toDouble() < -8.0,
                 qPrintable(QString::number(best.value("affinity").toDouble())));
        QVERIFY(best.value("affinity").toDouble() <= poses[1].toObject().value("affinity").toDouble());
        QCOMPARE(ligands[0].value("flex_torsions").toInt(), 2);
        const QByteArray flexOut = readAll(dir.filePath("out_flex.pdbqt"));
        QCOMPARE(flexOut.count("MODEL "), 2);
        QCOMPARE(flexOut.count("BEGIN_RES THR A 315"), 2);
        const QByteArray sdf = readAll(dir.filePath("out.sdf"));
        QCOMPARE(sdf.count("$$$$"), 2);
        QVERIFY(sdf.contains("<dockedFlexReceptor>"));

        // The best pose rescored (its side chains from MODEL 1, its ligand's SDF coordinates on
        // the input PDBQT's lines) gives the reported affinity.
        QVERIFY(rec0IsTheLigand(sdf));
        const double rescored = rescoreBestFlexPose(testData("flex"), QDir(dir.path()), sdf, flexOut,
                                                    flexData("1iep_ligand.pdbqt"));
        QVERIFY2(std::abs(rescored - best.value("affinity").toDouble()) < 0.01,
                 qPrintable(QString("rescored %1, reported %2")
                                .arg(rescored)
                                .arg(best.value("affinity").toDouble())));

        // The same seed gives the same result (threads do not matter).
        QStringList again = dockArgs(dir.filePath("again.sdf"), dir.filePath("again.json"));
        again[again.indexOf("--threads") + 1] = "1";
        const CliRun r2 = runCli(again);
        QVERIFY2(r2.exitCode == 0, r2.err.constData());
        QCOMPARE(readAll(dir.filePath("again.json")), readAll(dir.filePath("out.json")));
        QCOMPARE(readAll(dir.filePath("again_flex.pdbqt")), flexOut);
    }

    // One GPU at most (--device cuda docks there: tests/gpu/test_flex_dock_gpu.cpp); no shard.
    void refusesSeveralGpusAndShards() {
        QTemporaryDir dir;
        for (const char* several : {"cuda:all", "cuda:0,1"}) {
            QStringList gpu = dockArgs(dir.filePath("o.sdf"), dir.filePath("o.json"));
            gpu << "--device" << several;
            const CliRun r = runCli(gpu);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("--flex runs on one GPU"), r.err.constData());
            QVERIFY(!QFile::exists(dir.filePath("o.sdf")));
        }
        QStringList shard = dockArgs(dir.filePath("o.sdf"), dir.filePath("o.json"));
        shard << "--shard" << "1/2";
        const CliRun s = runCli(shard);
        QCOMPARE(s.exitCode, 2);
        QVERIFY2(s.err.contains("--shard is not available with --flex"), s.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliFlexDock)
#include "test_cli_flex_dock.moc"
