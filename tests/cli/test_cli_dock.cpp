// `posewright-cli dock` as a user runs it: 1stp end to end (ranked SDF with its SD tags, JSON
// summary, RMSD to the crystal), byte-identical output for the same seed, and bad input: one
// clear message, a non-zero exit and no output file.
#include "cli/CliRun.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace pw::test;

namespace {

QStringList dock1stp(const QString& out, const QString& json, const QString& seed,
                     const QString& threads = "2") {
    return {"dock",
            "--receptor",
            testData("complexes/1stp/receptor.pdbqt"),
            "--box",
            testData("complexes/1stp/box.txt"),
            "--ligands",
            testData("complexes/1stp/ligand_xtal.pdbqt"),
            "--reference",
            testData("complexes/1stp/ligand_xtal.pdbqt"),
            "--runs",
            "6",
            "--seed",
            seed,
            "--population",
            "50",
            "--evaluations",
            "30000",
            "--ls-iterations",
            "100",
            "--device",
            "cpu",
            "--threads",
            threads,
            "--out",
            out,
            "--json",
            json};
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCliDock : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void docks1stpEndToEnd() {
        const QString out = dir_.filePath("a.sdf"), json = dir_.filePath("a.json");
        const CliRun r = runCli(dock1stp(out, json, "7"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.contains("dock: ") && r.err.contains("runs"));
        const QByteArray sdf = readAll(out);
        for (const char* tag : {"<dock_score>", "<dock_inter>", "<dock_gauss1>", "<run>",
                                "<cluster>", "<cluster_size>", "<rmsd_ref>", "<seed>"})
            QVERIFY2(sdf.contains(tag), tag);
        QVERIFY(sdf.contains("$$$$"));
        const QJsonObject summary = QJsonDocument::fromJson(readAll(json)).object();
        QCOMPARE(summary["command"].toString(), QString("dock"));
        QCOMPARE(summary["seed"].toString(), QString("7"));
        const QJsonArray ligands = summary["ligands"].toArray();
        QCOMPARE(ligands.size(), 1);
        const QJsonObject lig = ligands[0].toObject();
        QCOMPARE(lig["runs"].toArray().size(), 6);
        const QJsonObject top = lig["clusters"].toArray()[0].toObject();
        QCOMPARE(top["rank"].toInt(), 1);
        QVERIFY2(top["rmsd_ref"].toDouble() < 2.0,
                 qPrintable(QString::number(top["rmsd_ref"].toDouble())));
        QVERIFY(top["best_score"].toDouble() < -6.0);
    }

    void docksFromSmilesWithBondOrders() {
        // Any format the project reads: biotin as SMILES (3D embedded, prepared), its bond
        // orders kept in the SDF, and the crystal PDBQT (other atom order, no hydrogens on
        // carbons) still serves as the RMSD reference.
        QFile smi(dir_.filePath("biotin.smi"));
        QVERIFY(smi.open(QIODevice::WriteOnly));
        smi.write("OC(=O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12 biotin\n");
        smi.close();
        const QString out = dir_.filePath("smi.sdf");
        QStringList args = dock1stp(out, dir_.filePath("smi.json"), "3");
        args[args.indexOf("--ligands") + 1] = smi.fileName();
        const CliRun r = runCli(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QByteArray sdf = readAll(out);
        QVERIFY(sdf.startsWith("biotin"));
        QVERIFY(sdf.contains("  2  0")); // the C=O double bonds
        QVERIFY(sdf.contains("<rmsd_ref>"));
    }

    void sameSeedSameBytes() {
        const QString a = dir_.filePath("s1.sdf"), aj = dir_.filePath("s1.json");
        const QString b = dir_.filePath("s2.sdf"), bj = dir_.filePath("s2.json");
        QCOMPARE(runCli(dock1stp(a, aj, "11", "1")).exitCode, 0);
        QCOMPARE(runCli(dock1stp(b, bj, "11", "2")).exitCode, 0);
        QVERIFY(!readAll(a).isEmpty());
        QCOMPARE(readAll(a), readAll(b));
        QCOMPARE(readAll(aj), readAll(bj));
        const QString c = dir_.filePath("s3.sdf"), cj = dir_.filePath("s3.json");
        QCOMPARE(runCli(dock1stp(c, cj, "12", "2")).exitCode, 0);
        QVERIFY(readAll(a) != readAll(c));
    }

    void ligandLargerThanTheBox() {
        QFile box(dir_.filePath("tiny.txt"));
        QVERIFY(box.open(QIODevice::WriteOnly));
        box.write("center_x = 11.333\ncenter_y = 1.444\ncenter_z = -10.511\n"
                  "size_x = 2\nsize_y = 2\nsize_z = 2\n");
        box.close();
        const QString out = dir_.filePath("tiny.sdf");
        QStringList args = dock1stp(out, dir_.filePath("tiny.json"), "1");
        args[args.indexOf("--box") + 1] = box.fileName();
        const CliRun r = runCli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("ligand_xtal.pdbqt") && r.err.contains("box"), r.err.constData());
        QVERIFY(!QFile::exists(out));
        QVERIFY(!QFile::exists(dir_.filePath("tiny.json")));
    }

    void tooManyTorsions() {
        QFile smi(dir_.filePath("chain.smi"));
        QVERIFY(smi.open(QIODevice::WriteOnly));
        smi.write(QByteArray(40, 'C') + " tetracontane\n"); // 37 rotatable bonds
        smi.close();
        const QString out = dir_.filePath("chain.sdf");
        QStringList args = dock1stp(out, dir_.filePath("chain.json"), "1");
        args[args.indexOf("--ligands") + 1] = smi.fileName();
        const CliRun r = runCli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("tetracontane") && r.err.contains("at most 32"), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    void usageErrorsExitTwo() {
        QStringList args = dock1stp(dir_.filePath("u.sdf"), dir_.filePath("u.json"), "1");
        args << "--local-search"
             << "newton";
        const CliRun r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--local-search"));
        QVERIFY(!QFile::exists(dir_.filePath("u.sdf")));
    }
};

QTEST_GUILESS_MAIN(TestCliDock)
#include "test_cli_dock.moc"
