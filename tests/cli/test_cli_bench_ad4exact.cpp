// `posewright-cli bench ad4exact`: exact AD4 intermolecular energies of many poses (the dock30
// complex 1r55 of tests/data/ad4maps, its GPF's box): the JSON line reports the CPU's rates and,
// where a GPU is usable, the GPU's with its agreement (every checked pose within 1e-4 relative);
// bad input exits 2.
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/CliRun.h"

using namespace pw::test;

namespace {

QStringList benchArgs() {
    return {"bench", "ad4exact", "--gpf", testData("ad4maps/1r55/1r55.gpf"), "--receptor",
            testData("ad4maps/1r55/receptor.pdbqt"), "--ligand",
            testData("ad4maps/1r55/ligand_xtal.pdbqt"), "--threads", "1"};
}

} // namespace

class TestCliBenchAd4Exact : public QObject {
    Q_OBJECT
private slots:
    void reportsRatesAndAgreement_data() {
        QTest::addColumn<QString>("outside");
        QTest::newRow("penalty") << "penalty";
        QTest::newRow("exact sum") << "exact";
    }
    void reportsRatesAndAgreement() {
        QFETCH(QString, outside);
        const CliRun r = runCli(benchArgs() + QStringList{"--poses", "300", "--cpu-poses", "40",
                                                          "--repeat", "1", "--outside", outside});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto objs = jsonLines(r.out);
        QCOMPARE(objs.size(), 1);
        const QJsonObject o = objs[0];
        QCOMPARE(o["bench"].toString(), QString("ad4exact"));
        QCOMPARE(o["poses"].toInt(), 300);
        QCOMPARE(o["ligand_atoms"].toInt(), 27);
        QCOMPARE(o["receptor_sites"].toInt(), 1977);
        QCOMPARE(o["outside"].toString(), outside);
        // The 6 Å box: under the penalty rule perturbed poses leave some atoms outside.
        const double swept = o["swept_atoms_per_pose"].toDouble();
        if (outside == "exact")
            QCOMPARE(swept, 27.0);
        else
            QVERIFY(swept > 0 && swept < 27);
        QVERIFY(o["cpu1_poses_per_s"].toDouble() > 0);
        QVERIFY(o["cpu_all_poses_per_s"].toDouble() > 0);
        if (o["gpu"].toString().startsWith("none")) // no GPU here: the CPU figures only
            return;
        QCOMPARE(o["checked_poses"].toInt(), 40);
        QCOMPARE(o["poses_over_1e-4"].toInt(), 0);
        QVERIFY(o["worst_relative_difference"].toDouble() <= 1e-4);
        QVERIFY(o["gpu_poses_per_s"].toDouble() > 0);
    }

    void badInput() {
        CliRun r = runCli({"bench", "ad4exact", "--receptor", testData("ad4maps/1r55/receptor.pdbqt")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--gpf"), r.err.constData());
        r = runCli(benchArgs() + QStringList{"--outside", "clamp"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--outside expects penalty or exact"), r.err.constData());
        r = runCli(benchArgs() + QStringList{"--poses", "0"});
        QCOMPARE(r.exitCode, 2);
        // A ligand type the GPF has no map for (its first atom typed I): the ligand's error
        // (exit 1), naming the type.
        QTemporaryDir dir;
        QFile in(testData("ad4maps/1r55/ligand_xtal.pdbqt"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray text = in.readAll();
        const qsizetype line = text.indexOf("ATOM");
        const qsizetype end = text.indexOf('\n', line);
        QVERIFY(line >= 0 && end > line + 78);
        text.replace(end - 2, 2, "I ");
        QFile out(dir.filePath("iodine.pdbqt"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();
        QStringList args = benchArgs();
        args[args.indexOf("--ligand") + 1] = out.fileName();
        r = runCli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("iodine.pdbqt") && r.err.contains("'I'"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliBenchAd4Exact)
#include "test_cli_bench_ad4exact.moc"
