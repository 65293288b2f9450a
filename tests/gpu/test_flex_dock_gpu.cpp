// `posewright-cli dock --flex --device cuda`: the GPU LGA with THR 315's torsions as genes
// (AutoDock-Vina's 1fpu example, imatinib from random starts), each run's best minimized exactly
// on the same GPU, Vina's numbers from the CPU. The best pose must reach the depth Vina's own
// docking reaches there (-11.46 as Vina prints it, RESULTS.md), the written ligand and side chains
// must rescore to the reported affinity, and a seed must repeat itself byte for byte.
#include "GpuTestMain.h"
#include "cli/FlexDockRescore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace pw::test;

namespace {

QString flexData(const QString& name) { return testData("flex/" + name); }

QStringList dockArgs(const QString& out, const QString& json) {
    return {"dock", "--receptor", flexData("1fpu_receptor_rigid.pdbqt"), "--flex",
            flexData("1fpu_receptor_flex.pdbqt"), "--ligands", flexData("1iep_ligand.pdbqt"),
            "--box", flexData("1fpu_receptor.box.txt"), "--runs", "20", "--seed", "7",
            "--poses", "3", "--device", "cuda", "--out", out, "--json", json};
}

} // namespace

class TestFlexDockGpu : public QObject {
    Q_OBJECT
private slots:
    void docksWithSideChainsOnTheGpu() {
        QTemporaryDir dir;
        const CliRun r = runCli(dockArgs(dir.filePath("out.sdf"), dir.filePath("out.json")));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("device: CUDA"), r.err.constData()); // not the CPU fallback
        const auto ligands = jsonLines(readAll(dir.filePath("out.json")));
        QCOMPARE(ligands.size(), 1);
        QCOMPARE(ligands[0].value("flex_torsions").toInt(), 2);
        const QJsonArray poses = ligands[0].value("poses").toArray();
        QCOMPARE(poses.size(), 3);
        const QJsonObject best = poses[0].toObject();
        qInfo("best affinity %.3f (search energy %.3f, %lld evaluations), second %.3f",
              best.value("affinity").toDouble(), best.value("search_energy").toDouble(),
              qint64(best.value("evaluations").toDouble()),
              poses[1].toObject().value("affinity").toDouble());
        QVERIFY2(best.value("affinity").toDouble() < -11.0,
                 qPrintable(QString::number(best.value("affinity").toDouble())));
        for (int k = 1; k < poses.size(); ++k)
            QVERIFY(poses[k - 1].toObject().value("affinity").toDouble() <=
                    poses[k].toObject().value("affinity").toDouble());
        const QByteArray flexOut = readAll(dir.filePath("out_flex.pdbqt"));
        QCOMPARE(flexOut.count("BEGIN_RES THR A 315"), 3);
        const QByteArray sdf = readAll(dir.filePath("out.sdf"));
        QCOMPARE(sdf.count("$$$$"), 3);
        const double rescored = rescoreBestFlexPose(testData("flex"), QDir(dir.path()), sdf,
                                                    flexOut, flexData("1iep_ligand.pdbqt"));
        QVERIFY2(std::abs(rescored - best.value("affinity").toDouble()) < 0.01,
                 qPrintable(QString("rescored %1, reported %2")
                                .arg(rescored)
                                .arg(best.value("affinity").toDouble())));

        // The same seed on the same device: the same files.
        const CliRun again = runCli(dockArgs(dir.filePath("again.sdf"), dir.filePath("again.json")));
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(readAll(dir.filePath("again.json")), readAll(dir.filePath("out.json")));
        QCOMPARE(readAll(dir.filePath("again_flex.pdbqt")), flexOut);
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestFlexDockGpu)
#include "test_flex_dock_gpu.moc"
