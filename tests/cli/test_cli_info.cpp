// Tests for `posewright-cli info`: the JSON it prints for real files and its messages and exit
// codes for bad input and bad usage (the CLI binary is run as a user would).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/CliRun.h"

using namespace pw::test;

QString data(const QString& rel) { return testData(rel); }


class TestCliInfo : public QObject {
    Q_OBJECT
private slots:
    void ligandSdf() {
        CliRun r = runCli({"info", data("complexes/1iep/ligand_xtal.sdf"), "--json"});
        QCOMPARE(r.exitCode, 0);
        auto objs = jsonLines(r.out);
        QCOMPARE(objs.size(), 1);
        QJsonObject o = objs[0];
        QCOMPARE(o["role"].toString(), QString("ligand"));
        QCOMPARE(o["heavy_atoms"].toInt(), 37); // imatinib
        QCOMPARE(o["torsions"].toInt(), 7);     // as the reference PDBQT (TORSDOF 7)
        QCOMPARE(o["charges"].toArray().size(), o["atoms"].toInt());
        QVERIFY(std::abs(o["total_charge"].toDouble() - 1.0) < 1e-3); // protonated piperazine
        QVERIFY(o["xs_types"].toObject()["N_A"].toInt() > 0);
        QJsonArray size = o["box"].toObject()["size"].toArray();
        QCOMPARE(size.size(), 3);
        QVERIFY(size[0].toDouble() > 5.0);
    }
    void receptorPdbqt() {
        CliRun r = runCli({"info", data("complexes/1stp/receptor.pdbqt"), "--json"});
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = jsonLines(r.out).value(0);
        QCOMPARE(o["role"].toString(), QString("receptor"));
        QVERIFY(o["torsions"].isNull());
        QVERIFY(o["residues"].toInt() > 100);
        QVERIFY(o["xs_types"].toObject()["N_D"].toInt() > 0);
    }
    void multiRecordStream() {
        CliRun r = runCli({"info", data("shapes/cdk2.sdf"), "--json"});
        QCOMPARE(r.exitCode, 0);
        int records = 0;
        QFile f(data("shapes/cdk2.sdf"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        for (const QByteArray& line : f.readAll().split('\n'))
            if (line.startsWith("$$$$"))
                ++records;
        QCOMPARE(jsonLines(r.out).size(), records);
    }
    void missingFile() {
        CliRun r = runCli({"info", "/nonexistent/lig.sdf"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("/nonexistent/lig.sdf"));
        QVERIFY(r.out.isEmpty());
    }
    void receptorWithoutPolarHydrogens() {
        // Protonated at pH 7.4 (ReceptorProtonation), said in one line on stderr.
        CliRun r = runCli({"info", data("complexes/1stp/receptor.pdb")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.startsWith("note: ") &&
                     r.err.contains("receptor had no polar hydrogens: added 213 polar hydrogens"),
                 r.err.constData());
        QCOMPARE(r.err.count("\n"), 1); // one clear message
        QVERIFY(r.out.contains("[receptor]"));
    }
    void badRecordSkipped() {
        QTemporaryDir dir;
        QString path = dir.filePath("two.sdf");
        QFile in(data("complexes/1iep/ligand_xtal.sdf"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray good = in.readAll();
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        // A bad record between two good ones: the first record proves the file is an SDF.
        out.write(good);
        const int badStart = good.count('\n') + 1;
        out.write("broken\n  x\n\nnot a counts line\n$$$$\n");
        out.write(good);
        out.close();
        CliRun r = runCli({"info", path, "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(jsonLines(r.out).size(), 2);
        const QByteArray where = "two.sdf:" + QByteArray::number(badStart + 3);
        QVERIFY2(r.err.contains(where), r.err.constData()); // file and line of the bad record
        QVERIFY(r.err.contains("1 skipped"));
    }
    void usageErrors() {
        CliRun r = runCli({"info", data("complexes/1iep/ligand_xtal.sdf"), "--bogus"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown option --bogus"));
        r = runCli({"frobnicate"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown command"));
        r = runCli({"info", data("complexes/1iep/ligand_xtal.sdf"), "--role", "enzyme"});
        QCOMPARE(r.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliInfo)
#include "test_cli_info.moc"
