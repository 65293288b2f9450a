// `posewright-cli score --scoring ad4 --exact --device cuda` against `--device cpu` on the same
// records: the 1stp crystal ligand and its docked poses (one clashing) in one multi-model file,
// on the 6 Å box of tests/data/ad4maps/1stp (every pose partly outside) under both outside-box
// rules and on the crystal box, scored in chunks of 2 on the GPU: every record's intermolecular
// numbers within 1e-4 relative (1 kcal/mol floor), its internal and torsional parts identical, a
// record the maps cannot score refused on both devices alike.
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

// The crystal ligand and poses 00-09 of 1stp as MODEL blocks of one file, and after the fourth
// a copy of the crystal ligand whose first atom is typed I (iodine: the maps have no I map, so
// that record is refused with a warning on either device and the others go on).
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
        const QByteArray text = in.readAll();
        out.write(QString("MODEL %1\n").arg(model++).toLatin1());
        out.write(text);
        out.write("ENDMDL\n");
        if (model == 5) {
            QByteArray iodine = text;
            const qsizetype line = iodine.indexOf("HETATM");
            const qsizetype end = iodine.indexOf('\n', line);
            if (line < 0 || end < 79)
                return {};
            iodine.replace(end - 2, 2, "I "); // the AD4 type, columns 78-79
            out.write(QString("MODEL %1\n").arg(model++).toLatin1());
            out.write(iodine);
            out.write("ENDMDL\n");
        }
    }
    return path;
}

// The 1stp crystal box of ../shared/data/complexes/1stp/ad4maps/1stp.gpf (9 x 8.3 x 12 Å), made
// here by `posewright-cli maps` on the CPU (the shared folder does not travel to GPU machines);
// returns the .fld.
QString crystalBoxMaps(const QTemporaryDir& dir) {
    const QString gpf = dir.filePath("maps.gpf");
    QFile f(gpf);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write("npts 24 22 32\ngridfld maps.maps.fld\nspacing 0.375\nreceptor_types A C H HD N OA\n"
            "ligand_types A C OA N SA HD\nreceptor receptor.pdbqt\n"
            "gridcenter 10.734 2.033 -11.537\nsmooth 0.5\n");
    for (const char* t : {"A", "C", "OA", "N", "SA", "HD"})
        f.write(QString("map maps.%1.map\n").arg(t).toLatin1());
    f.write("elecmap maps.e.map\ndsolvmap maps.d.map\ndielectric -0.1465\n");
    f.close();
    const QString fld = dir.filePath("maps.maps.fld");
    const CliRun r = runCli({"maps", "--gpf", gpf, "--receptor", data("complexes/1stp/receptor.pdbqt"),
                             "--out", fld, "--device", "cpu", "--threads", "1"});
    return r.exitCode == 0 ? fld : QString();
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
        QTest::addColumn<bool>("crystalBox");
        QTest::newRow("6 A box, penalty") << "penalty" << false;
        QTest::newRow("6 A box, exact sum") << "exact" << false;
        QTest::newRow("crystal box, penalty") << "penalty" << true;
    }
    void gpuPrintsTheCpuNumbers() {
        QFETCH(QString, outside);
        QFETCH(bool, crystalBox);
        QTemporaryDir dir;
        const QString poses = multiModel(dir);
        QVERIFY(!poses.isEmpty());
        const QString maps =
            crystalBox ? crystalBoxMaps(dir) : data("ad4maps/1stp/1stp.maps.fld");
        QVERIFY(!maps.isEmpty());
        const QStringList base{"score", "--scoring", "ad4", "--maps", maps, "--ligand", poses, "--exact",
                               "--receptor", data("complexes/1stp/receptor.pdbqt"), "--outside",
                               outside, "--json"};
        const CliRun cpu = runCli(base + QStringList{"--device", "cpu"});
        const CliRun gpu = runCli(base + QStringList{"--device", "cuda", "--chunk", "2"});
        QVERIFY2(cpu.exitCode == 0, cpu.err.constData());
        QVERIFY2(gpu.exitCode == 0, gpu.err.constData());
        QVERIFY2(gpu.err.contains("score: device: CUDA 0"), gpu.err.constData());
        for (const CliRun* r : {&cpu, &gpu})
            QVERIFY2(r->err.contains("'I'") && r->err.contains("11 scored, 1 skipped"),
                     r->err.constData());
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
        // The boxes leave atoms of some poses outside (the 6 Å box: of every pose): the rule
        // matters in this data; in the crystal box most poses are scored from the receptor.
        if (outside == "penalty")
            QVERIFY(penalised > 0);
        if (crystalBox)
            QVERIFY(penalised < 8);
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestAd4ScoreCliGpu)
#include "test_ad4_score_cli_gpu.moc"
