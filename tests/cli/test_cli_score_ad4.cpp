// `posewright-cli score --scoring ad4 --maps FLD`: autodock4's epdb breakdown for the 1stp and
// 3ce3 crystal ligands (values from tests/data/reference/ad4/epdb_complexes.tsv), and one clear
// message with the right exit code for each bad input.
#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/CliRun.h"

using namespace pw::test;

namespace {

QString mapsOf(const QString& complex) {
    return QString(POSEWRIGHT_SHARED_DATA) + "/complexes/" + complex + "/ad4maps/" + complex +
           "_protein.maps.fld";
}

} // namespace

class TestCliScoreAd4 : public QObject {
    Q_OBJECT
private slots:
    void printsAutodock4Breakdown() {
        const CliRun r = runCli({"score", "--scoring", "ad4", "--maps", mapsOf("1stp"), "--ligand",
                                 testData("complexes/1stp/ligand_xtal.pdbqt")});
        QCOMPARE(r.exitCode, 0);
        // autodock4 4.2.6 epdb prints the same lines.
        for (const char* line : {"Estimated Free Energy of Binding    =   -7.70 kcal/mol",
                                 "(1) Final Intermolecular Energy     =   -8.97 kcal/mol",
                                 "vdW + Hbond + desolv Energy     =   -8.12 kcal/mol",
                                 "Electrostatic Energy            =   -0.85 kcal/mol",
                                 "(2) Final Total Internal Energy     =   -0.21 kcal/mol",
                                 "(3) Torsional Free Energy           =   +1.49 kcal/mol",
                                 "(4) Unbound System's Energy         =   +0.00 kcal/mol"})
            QVERIFY2(r.out.contains(line), line);
    }

    void dockedPoseWithUnboundBound() {
        // autodock4's DLG for this pose (run 1 of reference/ad4/dock_1stp.dpf): FEB -8.30,
        // unbound [=(2)] -0.24.
        const CliRun r = runCli({"score", "--scoring", "ad4", "--maps", mapsOf("1stp"), "--ligand",
                                 testData("complexes/1stp/ad4_docked/run1.pdbqt"), "--unbound", "bound"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("Estimated Free Energy of Binding    =   -8.30 kcal/mol"), r.out.constData());
        QVERIFY2(r.out.contains("(4) Unbound System's Energy         =   -0.24 kcal/mol"), r.out.constData());
        const CliRun bad = runCli({"score", "--scoring", "ad4", "--maps", mapsOf("1stp"), "--ligand",
                                   testData("complexes/1stp/ad4_docked/run1.pdbqt"), "--unbound", "extended"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--unbound expects zero or bound"), bad.err.constData());
    }

    void jsonHasFullPrecision() {
        const CliRun r = runCli({"score", "--scoring", "ad4", "--maps", mapsOf("3ce3"), "--ligand",
                                 testData("complexes/3ce3/ligand_xtal.pdbqt"), "--json"});
        QCOMPARE(r.exitCode, 0);
        const auto objs = jsonLines(r.out);
        QCOMPARE(objs.size(), 1);
        const QJsonObject o = objs[0];
        // autodock4: inter -11.6443, vdW+Hb+desolv -11.4581, elec -0.1862, inter+intra -13.2240.
        QVERIFY(std::fabs(o["inter"].toDouble() - -11.6443) < 6e-5);
        QVERIFY(std::fabs(o["inter_vdw_hb_desolv"].toDouble() - -11.4581) < 6e-5);
        QVERIFY(std::fabs(o["inter_elec"].toDouble() - -0.1862) < 6e-5);
        QVERIFY(std::fabs(o["inter"].toDouble() + o["intra"].toDouble() - -13.2240) < 6e-5);
        QVERIFY(std::fabs(o["torsional"].toDouble() - 1.4915) < 6e-5);
        QCOMPARE(o["torsdof"].toInt(), 5);
        QVERIFY(std::fabs(o["free_energy"].toDouble() - -11.73) < 0.006);
    }

    void badInput() {
        // Usage errors: exit 2.
        CliRun r = runCli({"score", "--scoring", "ad4", "--ligand", testData("complexes/1stp/ligand_xtal.pdbqt")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--maps"), r.err.constData());
        // A receptor instead of maps: told what AD4 reads and how to make it.
        r = runCli({"score", "--scoring", "ad4", "--receptor", testData("complexes/1stp/receptor.pdbqt"),
                    "--ligand", testData("complexes/1stp/ligand_xtal.pdbqt")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("give --maps FLD") && r.err.contains("posewright-cli maps"),
                 r.err.constData());
        // Missing maps: exit 1, naming the file.
        r = runCli({"score", "--scoring", "ad4", "--maps", "/nonexistent/x.maps.fld", "--ligand",
                    testData("complexes/1stp/ligand_xtal.pdbqt")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("/nonexistent/x.maps.fld") && r.err.contains("cannot open"), r.err.constData());
        // A ligand type without a map: 3ce3's ligand has F, 1stp's maps have none.
        r = runCli({"score", "--scoring", "ad4", "--maps", mapsOf("1stp"), "--ligand",
                    testData("complexes/3ce3/ligand_xtal.pdbqt")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no F map"), r.err.constData());
        // A truncated map: exit 1, file and line.
        QTemporaryDir dir;
        const QDir src(QFileInfo(mapsOf("1stp")).absolutePath());
        for (const QString& f : src.entryList(QDir::Files))
            QVERIFY(QFile::copy(src.filePath(f), dir.filePath(f)));
        QFile d(dir.filePath("1stp_protein.d.map"));
        QVERIFY(d.open(QIODevice::ReadWrite));
        d.resize(d.size() / 2);
        d.close();
        r = runCli({"score", "--scoring", "ad4", "--maps", dir.filePath("1stp_protein.maps.fld"), "--ligand",
                    testData("complexes/1stp/ligand_xtal.pdbqt")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("1stp_protein.d.map:") && r.err.contains("truncated map"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliScoreAd4)
#include "test_cli_score_ad4.moc"
