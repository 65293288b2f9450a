// Phase timings of `dock`, `bench dock` and `minimize` (issue 17): the fields are there, the
// command's own phases add up to no more than the wall time, and so do each group's (a device,
// a pipeline thread); preparing the next batch while one docks changes no byte of the output;
// `bench dock` leaves out a ligand it cannot prepare instead of printing nothing.
#include "cli/CliRun.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace pw::test;

namespace {

// Rounding: the JSON has 4 decimals per phase.
constexpr double kSlack = 1e-3;

double sumOf(const QJsonObject& phases) {
    double s = 0;
    for (auto it = phases.begin(); it != phases.end(); ++it)
        s += it.value().toDouble();
    return s;
}

// The checks every command's timings pass: the named phases exist, the command's phases and
// each group's add up to at most the wall time.
void checkTimings(const QJsonObject& t, const QStringList& phases, const QStringList& groups) {
    const double wall = t["wall"].toDouble();
    QVERIFY(wall > 0);
    const QJsonObject p = t["phases"].toObject();
    for (const QString& name : phases)
        QVERIFY2(p.contains(name), qPrintable("phase " + name + " missing"));
    QVERIFY2(sumOf(p) <= wall + kSlack,
             qPrintable(QString("phases add up to %1 s, wall %2 s").arg(sumOf(p)).arg(wall)));
    const QJsonObject g = t["groups"].toObject();
    for (const QString& name : groups)
        QVERIFY2(g.contains(name), qPrintable("group " + name + " missing"));
    for (auto it = g.begin(); it != g.end(); ++it)
        QVERIFY2(sumOf(it.value().toObject()) <= wall + kSlack,
                 qPrintable("group " + it.key() + " adds up to more than the wall time"));
}

} // namespace

class TestCliTimings : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString smiles_;

    QStringList dockArgs(const QString& batch, const QString& out, const QString& json) {
        return {"dock",          "--receptor",  testData("complexes/1iep/receptor.pdbqt"),
                "--box",         testData("complexes/1iep/box.txt"),
                "--ligands",     smiles_,       "--runs",
                "2",             "--seed",      "7",
                "--population",  "20",          "--evaluations",
                "1500",          "--ls-iterations", "20",
                "--device",      "cpu",         "--threads",
                "2",             "--batch",     batch,
                "--out",         out,           "--json",
                json};
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // Five small NCI ligands and one the docking cannot type (Cu): refused, not fatal.
        smiles_ = dir_.filePath("few.smi");
        QFile f(smiles_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("CC1=CC(=O)C=CC1=O\t1\n"
                "[O-][N+](=O)C1=CNC(=N)S1\t4\n"
                "CCC1=[O+][Cu]2([O+]=C(CC)C1)[O+]=C(CC)CC(=[O+]2)CC\t48\n"
                "CC(=NO)C(C)=NO\t9\n"
                "CC1=NN(C(=O)C1)C2=CC=CC=C2\t12\n"
                "NC1=CC2=C(C=C1)C(=O)C3=C(C=CC=C3)C2=O\t5\n");
    }

    // Batches of 2 (three batches, each prepared while the one before docks) against one batch:
    // the same bytes; the summary's timings have the pipeline's and the CPU backend's phases.
    void dockTimingsAndPipeline() {
        const QString outA = dir_.filePath("a.sdf"), jsonA = dir_.filePath("a.json");
        QStringList args = dockArgs("2", outA, jsonA);
        args << "--timings";
        const CliRun a = runCli(args);
        QVERIFY2(a.exitCode == 0, a.err.constData());
        QVERIFY(a.err.contains("timings: wall"));
        QVERIFY(a.err.contains("[pipeline]"));
        const QJsonObject summary = QJsonDocument::fromJson(readAll(jsonA)).object();
        QCOMPARE(summary["ligands"].toArray().size(), 6);
        const QJsonObject t = summary["timings"].toObject();
        checkTimings(t, {"setup", "read", "wait_prepare", "maps", "dock", "write", "commit"},
                     {"pipeline", "cpu"});
        // The backend's phases happen inside the command's "dock" phase.
        const QJsonObject cpu = t["groups"].toObject()["cpu"].toObject();
        QVERIFY(cpu.contains("search_and_rescore") && cpu.contains("cluster"));
        QVERIFY(sumOf(cpu) <= t["phases"].toObject()["dock"].toDouble() + kSlack);
        QVERIFY(t["groups"].toObject()["pipeline"].toObject()["prepare"].toDouble() > 0);

        const QString outB = dir_.filePath("b.sdf"), jsonB = dir_.filePath("b.json");
        const CliRun b = runCli(dockArgs("100", outB, jsonB));
        QVERIFY2(b.exitCode == 0, b.err.constData());
        QVERIFY(!b.err.contains("timings: wall")); // printed only when asked
        QVERIFY(!QJsonDocument::fromJson(readAll(jsonB)).object().contains("timings"));
        const QByteArray sdfA = readAll(outA);
        QVERIFY(sdfA.count("$$$$") >= 5);
        QCOMPARE(sdfA, readAll(outB));
        QCOMPARE(a.out, b.out);
    }

    void benchDockLeavesOutWhatItCannotPrepare() {
        const CliRun r = runCli({"bench", "dock", "--receptor",
                                 testData("complexes/1iep/receptor.pdbqt"), "--box",
                                 testData("complexes/1iep/box.txt"), "--ligands", smiles_,
                                 "--runs", "2", "--population", "20", "--evaluations", "1000",
                                 "--ls-iterations", "10", "--device", "cpu", "--threads", "2",
                                 "--timings"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.contains("Cu"));
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines[0]["count"].toInt(), 5);
        QCOMPARE(lines[0]["refused"].toInt(), 1);
        QVERIFY(lines[0]["ligands_per_second"].toDouble() > 0);
        checkTimings(lines[0]["timings"].toObject(),
                     {"device", "target", "read", "prepare", "maps", "dock"}, {"cpu"});
    }

    void minimizeTimings() {
        const QString poses = testData("complexes/1iep/poses/pose00.pdbqt");
        const CliRun r = runCli({"minimize", "--receptor",
                                 testData("complexes/1iep/receptor.pdbqt"), "--box",
                                 testData("complexes/1iep/box.txt"), "--ligands", poses, poses,
                                 testData("complexes/1iep/poses/pose01.pdbqt"), "--device", "cpu",
                                 "--threads", "2", "--out", dir_.filePath("m.sdf"), "--timings"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject t;
        for (const QByteArray& line : r.err.split('\n'))
            if (line.startsWith("{\"timings\":"))
                t = QJsonDocument::fromJson(line).object()["timings"].toObject();
        QVERIFY2(!t.isEmpty(), r.err.constData());
        checkTimings(t, {"setup", "wait_pipeline", "write", "commit"},
                     {"minimizer", "formatter", "cpu", "reader", "preparer"});
        const QJsonObject m = t["groups"].toObject()["minimizer"].toObject();
        QVERIFY(m.contains("maps") && m.contains("backend"));
    }
};

QTEST_GUILESS_MAIN(TestCliTimings)
#include "test_cli_timings.moc"
