// Tests for `posewright-cli info`: the JSON it prints for real files and its messages and exit
// codes for bad input and bad usage (the CLI binary is run as a user would).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run runCli(const QStringList& args) {
    QProcess p;
    p.start(POSEWRIGHT_CLI, args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

QString data(const char* rel) { return QString(POSEWRIGHT_TEST_DATA) + "/" + rel; }

QList<QJsonObject> jsonLines(const QByteArray& out) {
    QList<QJsonObject> objects;
    for (const QByteArray& line : out.split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        QJsonParseError err;
        QJsonDocument doc = QJsonDocument::fromJson(line, &err);
        if (err.error != QJsonParseError::NoError || !doc.isObject())
            qFatal("not a JSON object line: %s", line.constData());
        objects.append(doc.object());
    }
    return objects;
}

} // namespace

class TestCliInfo : public QObject {
    Q_OBJECT
private slots:
    void ligandSdf() {
        Run r = runCli({"info", data("complexes/1iep/ligand_xtal.sdf"), "--json"});
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
        Run r = runCli({"info", data("complexes/1stp/receptor.pdbqt"), "--json"});
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = jsonLines(r.out).value(0);
        QCOMPARE(o["role"].toString(), QString("receptor"));
        QVERIFY(o["torsions"].isNull());
        QVERIFY(o["residues"].toInt() > 100);
        QVERIFY(o["xs_types"].toObject()["N_D"].toInt() > 0);
    }
    void multiRecordStream() {
        Run r = runCli({"info", data("shapes/cdk2.sdf"), "--json"});
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
        Run r = runCli({"info", "/nonexistent/lig.sdf"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("/nonexistent/lig.sdf"));
        QVERIFY(r.out.isEmpty());
    }
    void receptorWithoutPolarHydrogens() {
        Run r = runCli({"info", data("complexes/1stp/receptor.pdb")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no polar hydrogens"), r.err.constData());
        QCOMPARE(r.err.count("\n"), 1); // one clear message
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
        Run r = runCli({"info", path, "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(jsonLines(r.out).size(), 2);
        const QByteArray where = "two.sdf:" + QByteArray::number(badStart + 3);
        QVERIFY2(r.err.contains(where), r.err.constData()); // file and line of the bad record
        QVERIFY(r.err.contains("1 skipped"));
    }
    void usageErrors() {
        Run r = runCli({"info", data("complexes/1iep/ligand_xtal.sdf"), "--bogus"});
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
