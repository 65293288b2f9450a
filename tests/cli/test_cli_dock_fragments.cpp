// `posewright-cli dock` on an Open Babel PDBQT of a salt (issue 13: two torsion trees one after
// another in one ligand, refused before with "second ROOT record"): it docks the largest
// fragment, says so once on stderr, and gives the same bytes as that fragment written alone
// (dock and minimize).
#include "cli/CliRun.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace pw::test;

namespace {

// Vina scoring in 1stp's pocket, on the CPU, few short runs: the test is about the input.
QStringList dockArgs(const QString& ligands, const QString& out) {
    return {"dock",
            "--receptor",
            testData("complexes/1stp/receptor.pdbqt"),
            "--box",
            testData("complexes/1stp/box.txt"),
            "--ligands",
            ligands,
            "--runs",
            "2",
            "--seed",
            "5",
            "--population",
            "30",
            "--evaluations",
            "5000",
            "--ls-iterations",
            "50",
            "--device",
            "cpu",
            "--threads",
            "2",
            "--out",
            out};
}

} // namespace

class TestCliDockFragments : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void docksTheLargestFragmentOfASalt() {
        // Open Babel's file for "CCCCN(CCCC)CCCNC1=C2CCCCC2=NC3=C1C=CC=C3.OP(O)(O)=O": the amine
        // (27 heavy atoms, 11 torsions) first, phosphoric acid (5 heavy atoms) second.
        const QString salt = testData("formats/obabel_salt_280.pdbqt");
        const QString out = dir_.filePath("salt.sdf");
        const CliRun r = runCli(dockArgs(salt, out));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QByteArray warning =
            "warning: " + salt.toUtf8() + ":96: ligand '280' holds torsion trees one after another";
        QVERIFY2(r.err.contains(warning), r.err.constData());
        QCOMPARE(r.err.count("holds torsion trees"), 1);
        QVERIFY2(r.err.contains("kept the largest of 2 fragments (27 heavy atoms"),
                 r.err.constData());
        const QByteArray sdf = readAll(out);
        QVERIFY(sdf.startsWith("280"));
        QVERIFY(sdf.contains("<dock_score>"));
        QVERIFY(!sdf.contains(" P ")); // no atom of the dropped phosphoric acid

        // The amine's tree written alone (the file up to its TORSDOF) docks to the same bytes.
        QByteArray text = readAll(salt);
        const int end = text.indexOf('\n', text.indexOf("TORSDOF")) + 1;
        QFile alone(dir_.filePath("280.pdbqt"));
        QVERIFY(alone.open(QIODevice::WriteOnly));
        alone.write(text.left(end));
        alone.close();
        const QString aloneOut = dir_.filePath("alone.sdf");
        const CliRun a = runCli(dockArgs(alone.fileName(), aloneOut));
        QVERIFY2(a.exitCode == 0, a.err.constData());
        QVERIFY(!a.err.contains("holds torsion trees"));
        QCOMPARE(readAll(aloneOut), sdf);

        // And minimizes in place to the same pose and numbers (a box around Open Babel's
        // coordinates, which lie outside 1stp's pocket).
        QFile box(dir_.filePath("box.txt"));
        QVERIFY(box.open(QIODevice::WriteOnly));
        box.write("center_x = 6.5\ncenter_y = -1.0\ncenter_z = -4.5\n"
                  "size_x = 24\nsize_y = 24\nsize_z = 24\n");
        box.close();
        auto minimize = [&](const QString& ligands, const QString& out) {
            return runCli({"minimize", "--receptor", testData("complexes/1stp/receptor.pdbqt"),
                           "--box", box.fileName(), "--device", "cpu", "--json", "--out", out,
                           "--ligands", ligands});
        };
        const CliRun m = minimize(salt, dir_.filePath("salt_min.sdf"));
        const CliRun n = minimize(alone.fileName(), dir_.filePath("alone_min.sdf"));
        QVERIFY2(m.exitCode == 0 && n.exitCode == 0, m.err.constData());
        QCOMPARE(m.err.count("holds torsion trees"), 1);
        QVERIFY(jsonLines(m.out).size() == 1 && jsonLines(m.out)[0].contains("affinity"));
        QCOMPARE(m.out, n.out);
        QVERIFY(!readAll(dir_.filePath("salt_min.sdf")).isEmpty());
        QCOMPARE(readAll(dir_.filePath("salt_min.sdf")), readAll(dir_.filePath("alone_min.sdf")));
    }
};

QTEST_GUILESS_MAIN(TestCliDockFragments)
#include "test_cli_dock_fragments.moc"
