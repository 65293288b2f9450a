// `posewright-cli score --scoring ad4 --maps FLD --exact --receptor R`: the intermolecular part
// summed from the receptor at each atom's exact position (Ad4ExactScorer), the internal and
// torsional parts as on maps; and one clear usage message for each misuse.
#include <QJsonObject>
#include <QtTest>

#include "cli/CliRun.h"

using namespace pw::test;

namespace {

QString mapsOf(const QString& complex) {
    return QString(POSEWRIGHT_SHARED_DATA) + "/complexes/" + complex + "/ad4maps/" + complex +
           "_protein.maps.fld";
}

QJsonObject scoreJson(const QStringList& extra) {
    QStringList args{"score", "--scoring", "ad4", "--maps", mapsOf("3ce3"), "--ligand",
                     testData("complexes/3ce3/ligand_xtal.pdbqt"), "--json"};
    args += extra;
    const CliRun r = runCli(args);
    if (r.exitCode != 0)
        qWarning("%s", r.err.constData());
    const auto objs = jsonLines(r.out);
    return r.exitCode == 0 && objs.size() == 1 ? objs[0] : QJsonObject{};
}

} // namespace

class TestCliScoreAd4Exact : public QObject {
    Q_OBJECT
private slots:
    void exactInterOnMapsBox() {
        if (!QFile::exists(mapsOf("3ce3")))
            QFAIL("../shared/data/complexes is absent: the suite needs the shared data beside the checkout");
        const QJsonObject maps = scoreJson({});
        const QJsonObject exact =
            scoreJson({"--exact", "--receptor", testData("complexes/3ce3/receptor.pdbqt")});
        QVERIFY(!maps.isEmpty() && !exact.isEmpty());
        QCOMPARE(maps["mode"].toString(), QString("maps"));
        QCOMPARE(exact["mode"].toString(), QString("exact"));
        // The internal and torsional parts read no map: the same numbers.
        QCOMPARE(exact["intra"].toDouble(), maps["intra"].toDouble());
        QCOMPARE(exact["torsional"].toDouble(), maps["torsional"].toDouble());
        // The intermolecular part differs by the maps' interpolation error only (see
        // tests/score/test_ad4_exact.cpp for the measured difference), but it does differ.
        const double d = exact["inter"].toDouble() - maps["inter"].toDouble();
        QVERIFY2(std::fabs(d) < 0.6 && d != 0.0, qPrintable(QString::number(d)));
        QVERIFY(std::fabs(exact["inter_vdw_hb_desolv"].toDouble() + exact["inter_elec"].toDouble() -
                          exact["inter"].toDouble()) < 1e-8);
    }

    void usageErrors() {
        const QString lig = testData("complexes/3ce3/ligand_xtal.pdbqt");
        CliRun r = runCli({"score", "--scoring", "ad4", "--maps", mapsOf("3ce3"), "--ligand", lig,
                           "--exact"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--exact needs --receptor"), r.err.constData());
        r = runCli({"score", "--scoring", "ad4", "--maps", mapsOf("3ce3"), "--ligand", lig,
                    "--outside", "exact"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--outside is for --exact"), r.err.constData());
        r = runCli({"score", "--scoring", "ad4", "--maps", mapsOf("3ce3"), "--ligand", lig,
                    "--exact", "--receptor", testData("complexes/3ce3/receptor.pdbqt"), "--outside",
                    "clamp"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--outside expects penalty or exact"), r.err.constData());
        // --device and --chunk are for the exact sums; one GPU; a known device name.
        r = runCli({"score", "--scoring", "ad4", "--maps", mapsOf("3ce3"), "--ligand", lig,
                    "--device", "cuda"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--device is for --exact"), r.err.constData());
        r = runCli({"score", "--scoring", "ad4", "--maps", mapsOf("3ce3"), "--ligand", lig,
                    "--chunk", "4"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--chunk is for --exact"), r.err.constData());
        const QStringList exact{"score", "--scoring", "ad4", "--maps", mapsOf("3ce3"), "--ligand",
                                lig, "--exact", "--receptor",
                                testData("complexes/3ce3/receptor.pdbqt")};
        r = runCli(exact + QStringList{"--device", "cuda:all"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("runs on one GPU"), r.err.constData());
        r = runCli(exact + QStringList{"--device", "tpu"});
        QCOMPARE(r.exitCode, 2);
        r = runCli(exact + QStringList{"--device", "cpu", "--chunk", "0"});
        QCOMPARE(r.exitCode, 2);
    }

    void deviceOption() {
        // --device cpu: the CPU, said on stderr, the default's numbers. --device cuda: the GPU
        // where one is usable (tests/gpu/test_ad4_score_cli_gpu.cpp compares its numbers), else
        // the CPU with the reason and the same numbers as the CPU.
        if (!QFile::exists(mapsOf("3ce3")))
            QFAIL("../shared/data/complexes is absent: the suite needs the shared data beside the checkout");
        const QStringList exact{"--exact", "--receptor", testData("complexes/3ce3/receptor.pdbqt")};
        const QJsonObject byDefault = scoreJson(exact);
        QVERIFY(!byDefault.isEmpty());
        QVERIFY(!byDefault.contains("device"));
        QStringList args{"score", "--scoring", "ad4", "--maps", mapsOf("3ce3"), "--ligand",
                         testData("complexes/3ce3/ligand_xtal.pdbqt"), "--json"};
        CliRun r = runCli(args + exact + QStringList{"--device", "cpu"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("score: device: CPU (1 thread)"), r.err.constData());
        QCOMPARE(jsonLines(r.out).value(0)["inter"].toDouble(), byDefault["inter"].toDouble());
        r = runCli(args + exact + QStringList{"--device", "cuda"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = jsonLines(r.out).value(0);
        if (r.err.contains("score: device: CUDA")) {
            QCOMPARE(o["device"].toString(), QString("cuda"));
            QVERIFY(std::fabs(o["inter"].toDouble() - byDefault["inter"].toDouble()) <=
                    1e-4 * std::max(1.0, std::fabs(byDefault["inter"].toDouble())));
        } else {
            QVERIFY2(r.err.contains("; using the CPU (1 thread)"), r.err.constData());
            QCOMPARE(o["inter"].toDouble(), byDefault["inter"].toDouble());
        }
    }

    void receptorWithoutAd4Types() {
        // A PDB receptor has no AD4 types: refused once, before any ligand, naming the file.
        if (!QFile::exists(mapsOf("1stp")))
            QFAIL("../shared/data/complexes is absent: the suite needs the shared data beside the checkout");
        const CliRun r = runCli({"score", "--scoring", "ad4", "--maps", mapsOf("1stp"), "--ligand",
                                 testData("complexes/1stp/ligand_xtal.pdbqt"), "--exact",
                                 "--receptor", testData("complexes/1stp/receptor.pdb")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("receptor.pdb:") && r.err.contains("no AutoDock 4 type"),
                 r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliScoreAd4Exact)
#include "test_cli_score_ad4_exact.moc"
