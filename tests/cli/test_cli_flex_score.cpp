// `posewright-cli score --flex FILE.pdbqt`: Vina 1.2.3's numbers with flexible receptor side
// chains, on AutoDock-Vina's example/flexible_docking (1fpu with imatinib): the input pose, rigid
// moves of it (clashing and near-native), Vina's docked models with their moved THR 315, and a
// second flex file with LYS 271 added (flex-flex pairs inside and between residues). The
// reference numbers are Vina's own (tests/data/flex/vina_reference.sh wrote vina_score.txt).
// Bad --flex input gets one clear message with file and line.
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>

#include "cli/CliRun.h"
#include "cli/FlexVinaRows.h"

using namespace pw::test;

namespace {

QString flexData(const QString& name) { return testData("flex/" + name); }

// Writes text to dir/name and returns the path.
QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(text);
    return path;
}

QByteArray readOrFail(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

CliRun scoreFlex(const QString& receptor, const QString& flex, const QString& ligand,
                 const QStringList& extra = {}) {
    return runCli(QStringList{"score", "--receptor", receptor, "--flex", flex, "--ligand", ligand,
                              "--box", flexData("1fpu_receptor.box.txt")} +
                  extra);
}

} // namespace

class TestCliFlexScore : public QObject {
    Q_OBJECT
private slots:
    void matchesVina_data() { addFlexVinaRows("vina_score.txt"); }
    void matchesVina() {
        QFETCH(QStringList, fields);
        const CliRun r =
            scoreFlex(flexData(fields[1]), flexData(fields[2]), flexData(fields[3]), {"--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto objs = jsonLines(r.out);
        QCOMPARE(objs.size(), 1);
        const QJsonObject o = objs[0];
        // Vina's order: total, (1), ligand-receptor, ligand-flex, (2), ligand, flex-receptor,
        // flex-flex, (3) torsional, (4) the unbound energy.
        const char* keys[] = {"affinity", "inter",         "ligand_receptor", "ligand_flex",
                              "intra",    "ligand_intra",  "flex_receptor",   "flex_flex",
                              "torsional", "unbound"};
        for (int k = 0; k < 10; ++k) {
            const double vina = fields[4 + k].toDouble();
            const double ours = o.value(keys[k]).toDouble(1e9);
            QVERIFY2(std::abs(ours - vina) <= 0.01,
                     qPrintable(QString("%1: %2 here, %3 in Vina").arg(keys[k]).arg(ours).arg(vina)));
        }
    }

    // Vinardo with flexible residues, against (from tests/data/flex, 2026-11-26, Vina 1.2.3)
    //   vina --receptor R --flex F --ligand L --config 1fpu_receptor.box.txt --score_only
    //        --scoring vinardo
    // in Vina's order: total, (1), ligand-receptor, ligand-flex, (2), ligand, flex-receptor,
    // flex-flex, (3), (4).
    void vinardoMatchesVina_data() {
        QTest::addColumn<QStringList>("fields");
        QTest::newRow("moved3") << QStringList{"1fpu_receptor_rigid.pdbqt",
                                               "1fpu_receptor_flex.pdbqt", "moved3_ligand.pdbqt",
                                               "4.870 6.882 7.137 -0.255 1.687 -0.457 2.144 "
                                               "0.000 -1.993 1.706"};
        QTest::newRow("2res_model1")
            << QStringList{"1fpu_rigid_2res.pdbqt", "flex_2res.pdbqt", "model1_ligand.pdbqt",
                           "-8.236 -11.478 -10.733 -0.746 0.430 -0.871 1.310 -0.010 3.370 0.557"};
    }
    void vinardoMatchesVina() {
        QFETCH(QStringList, fields);
        const CliRun r = scoreFlex(flexData(fields[0]), flexData(fields[1]), flexData(fields[2]),
                                   {"--json", "--scoring", "vinardo"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonLines(r.out).value(0);
        const QStringList vina = fields[3].split(' ');
        const char* keys[] = {"affinity",  "inter",        "ligand_receptor", "ligand_flex",
                              "intra",     "ligand_intra", "flex_receptor",   "flex_flex",
                              "torsional", "unbound"};
        for (int k = 0; k < 10; ++k)
            QVERIFY2(std::abs(o.value(keys[k]).toDouble(1e9) - vina[k].toDouble()) <= 0.01,
                     keys[k]);
    }

    void textSplitsTheParts() {
        const CliRun r = scoreFlex(flexData("1fpu_rigid_2res.pdbqt"), flexData("flex_2res.pdbqt"),
                                   flexData("1iep_ligand.pdbqt"));
        QCOMPARE(r.exitCode, 0);
        for (const char* part : {"ligand-receptor   -5.382", "ligand-flex   -0.794",
                                 "flex-receptor   -0.218", "flex-flex   -0.015", "affinity   -4.518"})
            QVERIFY2(r.out.contains(part), r.out.constData());
    }

    void residueNotInReceptor() {
        QTemporaryDir dir;
        QByteArray flex = readOrFail(flexData("1fpu_receptor_flex.pdbqt"));
        flex.replace("THR A 315", "THR B 915");
        const QString path = writeFile(dir, "flex.pdbqt", flex);
        const CliRun r = scoreFlex(flexData("1fpu_receptor_rigid.pdbqt"), path,
                                   flexData("1iep_ligand.pdbqt"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("flex.pdbqt:1: flexible residue THR B 915 is not in the receptor"),
                 r.err.constData());
        QCOMPARE(r.out, QByteArray());
    }

    void receptorStillHoldsSideChain() {
        // LYS 271 is whole in this receptor: it was not split into rigid + flex.
        const CliRun r = scoreFlex(flexData("1fpu_receptor_rigid.pdbqt"),
                                   flexData("flex_2res.pdbqt"), flexData("1iep_ligand.pdbqt"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("the receptor still holds flexible atom CB of LYS A 271"),
                 r.err.constData());
    }

    void residueWithoutRotatableBond() {
        QTemporaryDir dir;
        const QString path = writeFile(dir, "flex.pdbqt",
                                       "BEGIN_RES THR A 315\n"
                                       "ROOT\n"
                                       "ATOM      1  CA  THR A 315      13.079  52.503   8.093  "
                                       "1.00  0.00     0.199 C \n"
                                       "ENDROOT\n"
                                       "END_RES THR A 315\n");
        const CliRun r = scoreFlex(flexData("1fpu_receptor_rigid.pdbqt"), path,
                                   flexData("1iep_ligand.pdbqt"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("flex.pdbqt:1: residue THR A 315 has no rotatable bond"),
                 r.err.constData());
    }

    void malformedBlocks_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("message");
        const QByteArray thr = readOrFail(flexData("1fpu_receptor_flex.pdbqt"));
        QByteArray unclosed = thr;
        unclosed.replace("END_RES THR A 315\n", "");
        QTest::newRow("unclosed") << unclosed
                                  << QByteArray("flex.pdbqt:1: BEGIN_RES THR A 315 is never closed");
        QByteArray mismatch = thr;
        mismatch.replace("END_RES THR A 315", "END_RES THR A 316");
        QTest::newRow("mismatch") << mismatch
                                  << QByteArray("flex.pdbqt:14: END_RES does not match BEGIN_RES THR A 315 (line 1)");
        QTest::newRow("nested") << QByteArray("BEGIN_RES THR A 315\nBEGIN_RES THR A 316\n")
                                << QByteArray("flex.pdbqt:2: BEGIN_RES inside the block");
        QTest::newRow("stray end") << QByteArray("END_RES THR A 315\n")
                                   << QByteArray("flex.pdbqt:1: END_RES without BEGIN_RES");
        QTest::newRow("atom outside")
            << QByteArray("ATOM      1  CA  THR A 315      13.079  52.503   8.093  1.00  0.00     "
                          "0.199 C \n") + thr
            << QByteArray("flex.pdbqt:1: 'ATOM      1  CA  THR' outside BEGIN_RES ... END_RES");
        QByteArray badBranch = thr;
        badBranch.replace("ENDBRANCH   2   4", "ENDBRANCH   2   5");
        QTest::newRow("bad branch") << badBranch << QByteArray("flex.pdbqt:12: ENDBRANCH 2 5 does not close the open BRANCH 2 4");
        QByteArray badTag = thr;
        badTag.replace("BEGIN_RES THR A 315", "BEGIN_RES THR");
        QTest::newRow("bad tag") << badTag << QByteArray("flex.pdbqt:1: expected 'BEGIN_RES NAME");
        QTest::newRow("empty") << QByteArray("REMARK nothing\n")
                               << QByteArray("flex.pdbqt: no BEGIN_RES ... END_RES block");
    }
    void malformedBlocks() {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, message);
        QTemporaryDir dir;
        const QString path = writeFile(dir, "flex.pdbqt", text);
        const CliRun r = scoreFlex(flexData("1fpu_receptor_rigid.pdbqt"), path,
                                   flexData("1iep_ligand.pdbqt"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(message), r.err.constData());
        QCOMPARE(r.out, QByteArray());
    }

    void residuesInTheLigandFileAreNamed() {
        // Vina's docked output holds the ligand and the moved residues in each MODEL.
        const CliRun r = scoreFlex(flexData("1fpu_receptor_rigid.pdbqt"),
                                   flexData("1fpu_receptor_flex.pdbqt"),
                                   flexData("1fpu_ligand_flex_vina_out.pdbqt"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("1fpu_ligand_flex_vina_out.pdbqt:67: flexible receptor residues "
                                "(BEGIN_RES ... END_RES) in a ligand or receptor file; expected "
                                "them in their own file, passed with --flex"),
                 r.err.constData());
    }

    void gpuAndGridAreRefused() {
        for (const QStringList& extra : {QStringList{"--device", "cuda"}, QStringList{"--grid"}}) {
            const CliRun r = scoreFlex(flexData("1fpu_receptor_rigid.pdbqt"),
                                       flexData("1fpu_receptor_flex.pdbqt"),
                                       flexData("1iep_ligand.pdbqt"), extra);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("flexible residues (--flex) run on the CPU"), r.err.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestCliFlexScore)
#include "test_cli_flex_score.moc"
