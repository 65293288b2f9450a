// `posewright-cli score --scoring ad4 --exact --device cuda` against `--device cpu` on the same
// records: the 1stp crystal ligand and its docked poses (one clashing, several partly outside the
// small box of tests/data/ad4maps/1stp) in one multi-model file, scored in chunks of 2 on the GPU:
// every record's intermolecular numbers within 1e-4 relative (1 kcal/mol floor), its internal
// and torsional parts identical, under both outside-box rules.
#include "GpuTestMain.h"
#include "cli/CliRun.h"

#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace pw::test;

namespace {

QString data(const QString& rel) { return QString(POSEWRIGHT_TEST_DATA) + "/" + rel; }

// The crystal ligand and poses 00-09 of 1stp as MODEL blocks of one file.
QString multiModel(const QTemporaryDir& dir) {
    const QString path = dir.filePath("poses.pdbqt");
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    QStringList files{data("complexes/1stp/ligand_xtal.pdbqt")};
    for (int i = 0; i < 10; ++i)
        files << data(QString("complexes/1stp/poses/pose%1.pdbqt").arg(i, 2, 10, QChar('0')));
    int model = 1;
    for (const QString& f : files) {
        QFile in(f);
        if (!in.open(QIODevice::ReadOnly))
            return {};
        out.write(QString("MODEL %1\n").arg(model++).toLatin1());
        out.write(in.readAll());
        out.write("ENDMDL\n");
    }
    return path;
}

bool close(double gpu, double cpu) {
    return std::fabs(gpu - cpu) <= 1e-4 * std::max(1.0, std::fabs(cpu));
}

} // namespace

class TestAd4ScoreCliGpu : public QObject {
    Q_OBJECT

private slots:
    void gpuPrintsTheCpuNumbers_data() {
        QTest::addColumn<QString>("outside");
        QTest::newRow("penalty") << "penalty";
        QTest::newRow("exact sum") << "exact";
    }
    void gpuPrintsTheCpuNumbers() {
        QFETCH(QString, outside);
        QTemporaryDir dir;
        const QString poses = multiModel(dir);
        QVERIFY(!poses.isEmpty());
        const QStringList base{"score", "--scoring", "ad4", "--maps",
                               data("ad4maps/1stp/1stp.maps.fld"), "--ligand", poses, "--exact",
                               "--receptor", data("complexes/1stp/receptor.pdbqt"), "--outside",
                               outside, "--json"};
        const CliRun cpu = runCli(base + QStringList{"--device", "cpu"});
        const CliRun gpu = runCli(base + QStringList{"--device", "cuda", "--chunk", "2"});
        QVERIFY2(cpu.exitCode == 0, cpu.err.constData());
        QVERIFY2(gpu.exitCode == 0, gpu.err.constData());
        QVERIFY2(gpu.err.contains("score: device: CUDA 0"), gpu.err.constData());
        const auto c = jsonLines(cpu.out), g = jsonLines(gpu.out);
        QCOMPARE(int(c.size()), 11);
        QCOMPARE(g.size(), c.size());
        int penalised = 0;
        for (qsizetype i = 0; i < c.size(); ++i) {
            QCOMPARE(g[i]["index"].toInt(), c[i]["index"].toInt());
            QCOMPARE(g[i]["device"].toString(), QString("cuda"));
            for (const char* key : {"free_energy", "inter", "inter_vdw_hb_desolv", "inter_elec"})
                QVERIFY2(close(g[i][key].toDouble(), c[i][key].toDouble()),
                         qPrintable(QString("record %1 %2: gpu %3, cpu %4")
                                        .arg(i).arg(key)
                                        .arg(g[i][key].toDouble(), 0, 'g', 12)
                                        .arg(c[i][key].toDouble(), 0, 'g', 12)));
            QCOMPARE(g[i]["intra"].toDouble(), c[i]["intra"].toDouble());
            QCOMPARE(g[i]["torsional"].toDouble(), c[i]["torsional"].toDouble());
            penalised += c[i]["inter"].toDouble() > 1000.0;
        }
        // The 6 Å box leaves atoms of some poses outside: the rule matters in this data.
        if (outside == "penalty")
            QVERIFY(penalised > 0);
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestAd4ScoreCliGpu)
#include "test_ad4_score_cli_gpu.moc"
