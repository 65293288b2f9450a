// Tests for a receptor PDB without hydrogens on the command line (score, info, --ph): polar
// hydrogens are added and said on stderr, and the Vina score of 1stp's crystal ligand in the
// protonated receptor.pdb equals the one in the shipped receptor.pdbqt (prepared by
// AutoDockTools), as Vina itself would score it.
#include <QJsonObject>
#include <QtTest>

#include "cli/CliRun.h"

using namespace pw::test;

namespace {

QJsonObject scoreWith(const QString& receptor, const QStringList& extra = {}) {
    CliRun r = runCli(QStringList{"score", "--receptor", receptor, "--ligand",
                                  testData("complexes/1stp/ligand_xtal.pdbqt"), "--box",
                                  testData("complexes/1stp/box.txt"), "--json"} +
                      extra);
    if (r.exitCode != 0)
        qFatal("score failed (%d): %s", r.exitCode, r.err.constData());
    return jsonLines(r.out).value(0);
}

} // namespace

class TestCliReceptorPh : public QObject {
    Q_OBJECT
private slots:
    void scoreMatchesTheShippedPdbqt() {
        const double adt = scoreWith(testData("complexes/1stp/receptor.pdbqt"))["affinity"].toDouble();
        const double ours = scoreWith(testData("complexes/1stp/receptor.pdb"))["affinity"].toDouble();
        QVERIFY(adt < -6.0); // a real score, not a default
        // Tolerance 0.01 kcal/mol: the same heavy atoms and donor hydrogens give the same
        // XS types, so the scores agree to rounding.
        QVERIFY2(std::abs(adt - ours) < 0.01, qPrintable(QString("%1 vs %2").arg(adt).arg(ours)));
    }

    void noteOnStderrAndPhOption() {
        CliRun r = runCli({"info", testData("complexes/1stp/receptor.pdb"), "--json", "--ph", "5"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("receptor had no polar hydrogens: added 215 polar hydrogens") &&
                     r.err.contains("at pH 5.0"),
                 r.err.constData());
        QCOMPARE(jsonLines(r.out).value(0)["atoms"].toInt(), 901 + 215);
        r = runCli({"info", testData("complexes/1stp/receptor.pdb"), "--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("added 213 polar hydrogens") && r.err.contains("at pH 7.4"),
                 r.err.constData());
        // A pH outside 0-14 is a usage error (exit 2), on every command that takes --ph.
        for (const QStringList& args :
             {QStringList{"info", testData("complexes/1stp/receptor.pdb"), "--ph", "15"},
              QStringList{"score", "--receptor", testData("complexes/1stp/receptor.pdb"),
                          "--ligand", testData("complexes/1stp/ligand_xtal.pdbqt"), "--box",
                          testData("complexes/1stp/box.txt"), "--ph", "seven"}}) {
            r = runCli(args);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("option --ph expects a number from 0"), r.err.constData());
        }
    }
};

QTEST_APPLESS_MAIN(TestCliReceptorPh)
#include "test_cli_receptor_ph.moc"
