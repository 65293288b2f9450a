// `posewright-cli hits rescore`: the exact energies it writes into the store equal `score`'s for
// the same poses (1iep poses imported from an SDF): within 1e-6 of the exact scorer that `score`
// runs (in this process, full precision), and to every digit `score --json` prints (six
// significant ones); --where limits the rows, a re-run
// replaces the values in the same columns, other inputs clear the old values, a pose that cannot
// be prepared gets empty cells, and bad input or a kill mid-rescore leaves the store
// byte-identical.
#include "backend/Backend.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "chem/ReceptorPreparation.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

#include <QFile>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <csignal>
#include <map>

#include "HitsTestData.h"
#include "RescorePoses.h"
#include "cli/CliRun.h"

using namespace pw;
using namespace pw::test;

namespace {

const QString kComplex = "complexes/1iep/";

QStringList targetArgs() {
    return {"--receptor", testData(kComplex + "receptor.pdbqt"), "--box",
            testData(kComplex + "box.txt")};
}

int rescoreColumnCount(const QString& db) {
    const CliRun r = runCli({"hits", "columns", db, "--json"});
    int n = 0;
    for (const QJsonObject& o : jsonLines(r.out))
        if (o["column"].toString().startsWith("rescore_")) {
            ++n;
            if (o["origin"].toString() != "derived" || o["type"].toString() != "REAL")
                qFatal("rescore column not a computed REAL one");
        }
    return n;
}

// A store of the 20 poses; `score`'s numbers for them by source record (1-based).
std::map<int, Energies> makeStore(const QTemporaryDir& dir, const QString& db,
                                  const QString& scoring = "vina") {
    const QString sdf = dir.filePath("poses.sdf");
    if (!QFile::exists(sdf))
        write1iepPosesSdf(sdf);
    const CliRun imp = runCli({"hits", "import", db, sdf});
    if (imp.exitCode != 0)
        qFatal("import failed: %s", imp.err.constData());
    const CliRun ref = runCli(
        QStringList{"score", "--ligand", sdf, "--json", "--device", "cpu", "--scoring", scoring} +
        targetArgs());
    if (ref.exitCode != 0)
        qFatal("score failed: %s", ref.err.constData());
    std::map<int, Energies> out;
    for (const QJsonObject& o : jsonLines(ref.out))
        out[o["index"].toInt() + 1] = {o["affinity"].toDouble(), o["inter"].toDouble(),
                                       o["intra"].toDouble()};
    return out;
}

// What `score --ligand SDF` computes for each record (TargetSetup + ScoreEach + the CPU's exact
// pair sums), here at full precision, by source record (1-based).
std::map<int, Energies> exactReference(const QString& sdf, ScoringKind kind) {
    const Molecule receptor =
        prepareReceptor(readMolecule(testData(kComplex + "receptor.pdbqt").toStdString()));
    const VinaConfig config = readVinaConfig(testData(kComplex + "box.txt").toStdString());
    const DockingTarget target(receptor, config.box, config.scoringFunction(kind, nullptr));
    std::map<int, Energies> out;
    int record = 0;
    for (const Molecule& m : readMolecules(sdf.toStdString())) {
        const VinaScore s = Backend::scoreExactOne(target, prepareLigand(m));
        out[++record] = {s.affinity, s.inter, s.intra};
    }
    return out;
}

CliRun rescore(const QString& db, const QStringList& extra = {}) {
    return runCli(
        QStringList{"hits", "rescore", db, "--device", "cpu", "--threads", "2", "--json"} +
        targetArgs() + extra);
}

// Within `tol`, absolute, or relative (score --json's six significant digits).
void compareEnergies(const Energies& got, const Energies& want, int record, double tol = 1e-6,
                     bool relative = false) {
    auto near = [&](double a, double b) {
        return std::abs(a - b) <= (relative ? tol * std::max(std::abs(a), std::abs(b)) : tol);
    };
    QVERIFY2(near(got.affinity, want.affinity) && near(got.inter, want.inter) &&
                 near(got.intra, want.intra),
             qPrintable(QString("record %1: stored %2 %3 %4, expected %5 %6 %7")
                            .arg(record)
                            .arg(got.affinity, 0, 'g', 17)
                            .arg(got.inter, 0, 'g', 17)
                            .arg(got.intra, 0, 'g', 17)
                            .arg(want.affinity, 0, 'g', 17)
                            .arg(want.inter, 0, 'g', 17)
                            .arg(want.intra, 0, 'g', 17)));
}

} // namespace

class TestHitsRescore : public QObject {
    Q_OBJECT
private slots:
    void storedValuesEqualScoreAndReRunsReplaceThem() {
        QTemporaryDir dir;
        const QString db = dir.filePath("h.db");
        const std::map<int, Energies> ref = makeStore(dir, db);
        QCOMPARE(int(ref.size()), 20);
        CliRun r = rescore(db);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject summary = jsonLines(r.out).value(0);
        QCOMPARE(summary["selected"].toInt(), 20);
        QCOMPARE(summary["rescored"].toInt(), 20);
        QCOMPARE(summary["refused"].toInt(), 0);
        QCOMPARE(summary["scoring"].toString(), QString("vina"));
        std::map<int, Energies> stored = storedEnergies(db);
        QCOMPARE(int(stored.size()), 20);
        const std::map<int, Energies> exact =
            exactReference(dir.filePath("poses.sdf"), ScoringKind::Vina);
        QCOMPARE(int(exact.size()), 20);
        for (const auto& [record, want] : ref) {
            compareEnergies(stored[record], exact.at(record), record);
            compareEnergies(stored[record], want, record, 5e-6, true);
        }
        QCOMPARE(rescoreColumnCount(db), 3);

        // The new columns filter like any other: the same rows as the reference says.
        double cut = 0;
        for (const auto& [record, e] : ref)
            cut += e.affinity / ref.size();
        const std::map<int, Energies> below =
            storedEnergies(db, QString("rescore_affinity < %1").arg(cut, 0, 'g', 17));
        int expected = 0;
        for (const auto& [record, e] : ref)
            if (e.affinity < cut) {
                ++expected;
                QVERIFY(below.count(record));
            }
        QCOMPARE(int(below.size()), expected);
        QVERIFY(expected > 0 && expected < 20);
        // Export carries them as computed columns (pw_hit_ tags), like rank or cluster.
        const QString out = dir.filePath("below.sdf");
        r = runCli({"hits", "export", db, "--out", out, "--where",
                    QString("rescore_affinity < %1").arg(cut, 0, 'g', 17)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const std::vector<Molecule> exported = readMolecules(out.toStdString());
        QCOMPARE(int(exported.size()), expected);
        for (const Molecule& m : exported) {
            const std::string* v = m.property("pw_hit_rescore_affinity");
            QVERIFY(v && std::stod(*v) < cut);
        }
        // Imported again, they are kept (nothing at import can compute them), as Tag columns
        // under the tag's name, with the exported values; pw_hit_mw and the like are computed.
        const QString again = dir.filePath("again.db");
        r = runCli({"hits", "import", again, out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({"hits", "query", again, "--columns",
                    "name,mw,pw_hit_rescore_affinity,pw_hit_rescore_inter,pw_hit_rescore_intra",
                    "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QJsonObject> rows = jsonLines(r.out);
        QCOMPARE(int(rows.size()), expected);
        for (const QJsonObject& o : rows) {
            QVERIFY(o["pw_hit_rescore_affinity"].isDouble() && o["pw_hit_rescore_inter"].isDouble() &&
                    o["pw_hit_rescore_intra"].isDouble());
            QVERIFY(o["pw_hit_rescore_affinity"].toDouble() < cut);
            QVERIFY(o["mw"].toDouble() > 0);
        }
        r = runCli({"hits", "columns", again});
        QVERIFY2(r.exitCode == 0 && !r.out.contains("pw_hit_mw"), r.out.constData());

        // A re-run (one batch at a time this time) replaces the values: same columns, same numbers.
        r = rescore(db, {"--batch", "3"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonLines(r.out).value(0)["cleared"].toInt(), 0);
        QVERIFY2(r.err.contains("hits rescore: 20/20 poses"), r.err.constData()); // progress
        QCOMPARE(rescoreColumnCount(db), 3);
        stored = storedEnergies(db);
        for (const auto& [record, want] : exact)
            compareEnergies(stored[record], want, record);
    }

    void whereLimitsTheRowsAndOtherInputsClearOldValues() {
        QTemporaryDir dir;
        const QString db = dir.filePath("h.db");
        makeStore(dir, db);
        const std::map<int, Energies> vina =
            exactReference(dir.filePath("poses.sdf"), ScoringKind::Vina);
        CliRun r = rescore(db, {"--where", "source_record <= 5 or name = 'pose12'"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonLines(r.out).value(0)["rescored"].toInt(), 6);
        std::map<int, Energies> stored = storedEnergies(db);
        for (const auto& [record, e] : stored) {
            if (record <= 5 || record == 13) {
                compareEnergies(e, vina.at(record), record);
            } else {
                QVERIFY(std::isnan(e.affinity) && std::isnan(e.inter) && std::isnan(e.intra));
            }
        }
        // Vinardo on a few rows: the Vina values of the others are cleared, never mixed in.
        const std::map<int, Energies> vinardo =
            exactReference(dir.filePath("poses.sdf"), ScoringKind::Vinardo);
        r = rescore(db, {"--where", "source_record >= 19", "--scoring", "vinardo"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonLines(r.out).value(0)["cleared"].toInt(), 6);
        QVERIFY2(r.err.contains("cleared them in 6 poses"), r.err.constData());
        stored = storedEnergies(db);
        for (const auto& [record, e] : stored) {
            if (record >= 19)
                compareEnergies(e, vinardo.at(record), record);
            else
                QVERIFY(std::isnan(e.affinity));
        }
        QCOMPARE(rescoreColumnCount(db), 3);
    }

    void aPoseThatCannotBePreparedGetsEmptyCells() {
        QTemporaryDir dir;
        const QString db = dir.filePath("h.db");
        makeStore(dir, db);
        // Xenon has no AD4 type: the store takes it, ligand preparation refuses it.
        const QString odd = dir.filePath("odd.sdf");
        writeText(odd, "xenon\n  test\n\n"
                       "  1  0  0  0  0  0  0  0  0  0999 V2000\n"
                       "   15.0000   54.0000   17.0000 Xe  0  0  0  0  0  0  0  0  0  0  0  0\n"
                       "M  END\n$$$$\n");
        QCOMPARE(runCli({"hits", "import", db, odd}).exitCode, 0);
        // Without --device (auto): the GPU where one is usable, else the CPU, said on stderr.
        const CliRun r = runCli(QStringList{"hits", "rescore", db, "--json"} + targetArgs());
        QVERIFY2(r.err.contains("hits rescore: device: "), r.err.constData());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject summary = jsonLines(r.out).value(0);
        QCOMPARE(summary["selected"].toInt(), 21);
        QCOMPARE(summary["rescored"].toInt(), 20);
        QCOMPARE(summary["refused"].toInt(), 1);
        QVERIFY2(r.err.contains("h.db: pose 21 'xenon' left empty:") &&
                     r.err.contains("no AutoDock 4 atom type"),
                 r.err.constData());
        const std::map<int, Energies> xenon = storedEnergies(db, "name = 'xenon'");
        QCOMPARE(int(xenon.size()), 1);
        QVERIFY(std::isnan(xenon.begin()->second.affinity));
    }

    void badInputLeavesTheStoreUntouched() {
        QTemporaryDir dir;
        const QString db = dir.filePath("h.db");
        makeStore(dir, db);
        const QByteArray before = readBytes(db);
        // Not a store.
        const QString text = dir.filePath("notes.db");
        writeText(text, "these are my notes, not a hit store\n");
        CliRun r = rescore(text);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("notes.db") && r.err.contains("not a Posewright hit store"),
                 r.err.constData());
        QCOMPARE(readBytes(text), QByteArray("these are my notes, not a hit store\n"));
        // A receptor without the box.
        r = runCli({"hits", "rescore", db, "--receptor", testData(kComplex + "receptor.pdbqt")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("missing --box"), r.err.constData());
        // A column the store does not have.
        r = rescore(db, {"--where", "rescore_affinity < -9"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("unknown column 'rescore_affinity'"), r.err.constData());
        r = rescore(db, {"--where", "nosuch > 1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("nosuch"), r.err.constData());
        // A missing receptor file, a bad --device, a bad scoring name, a second positional.
        r = runCli({"hits", "rescore", db, "--receptor", dir.filePath("nope.pdbqt"), "--box",
                    testData(kComplex + "box.txt")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("nope.pdbqt"), r.err.constData());
        QCOMPARE(rescore(db, {"--device", "tpu"}).exitCode, 2);
        QCOMPARE(rescore(db, {"--scoring", "dock6"}).exitCode, 2);
        QCOMPARE(runCli({"hits", "rescore", db, db}).exitCode, 2);
        QCOMPARE(readBytes(db), before);
        QVERIFY(!QFile::exists(db + "-journal"));
    }

    // SIGKILL (and SIGTERM, as Ctrl-C) while the rescore's transaction is open, held there by
    // the POSEWRIGHT_STALL_OUTPUT hook after its first batch: the store is byte-identical
    // once the next command has opened it (SQLite rolls the journal back).
    void killedMidRescoreLeavesTheStoreAsItWas_data() {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGKILL") << int(SIGKILL);
        QTest::newRow("SIGTERM") << int(SIGTERM);
    }
    void killedMidRescoreLeavesTheStoreAsItWas() {
        QFETCH(int, signal);
        QTemporaryDir dir;
        const QString db = dir.filePath("h.db");
        makeStore(dir, db);
        // A first rescore's values are there: a killed re-run must keep them, not clear them.
        QCOMPARE(rescore(db, {"--where", "source_record <= 4"}).exitCode, 0);
        const QByteArray before = readBytes(db);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("POSEWRIGHT_STALL_OUTPUT", "rescore-batch");
        p.setProcessEnvironment(env);
        p.start(POSEWRIGHT_CLI, QStringList{"hits", "rescore", db, "--device", "cpu", "--batch",
                                            "4", "--scoring", "vinardo"} +
                                    targetArgs());
        QVERIFY(p.waitForStarted(30000));
        QByteArray err;
        QVERIFY2(waitForStall(p, err), err.constData());
        QVERIFY2(err.contains("hits rescore: 4/20 poses"), err.constData());
        // Mid-transaction: the first batch's updates went through SQLite's journal.
        QVERIFY(QFile::exists(db + "-journal"));
        ::kill(static_cast<pid_t>(p.processId()), signal);
        QVERIFY(p.waitForFinished(30000));
        if (signal == SIGKILL) {
            QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        } else {
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QCOMPARE(p.exitCode(), 128 + SIGTERM);
        }
        QCOMPARE(readBytes(db), before);
        // The next command rolls back a journal that the kill left hot (pages already written
        // into the store; not with this store's size), and its reading writes nothing.
        const std::map<int, Energies> stored = storedEnergies(db);
        QCOMPARE(int(stored.size()), 20);
        QCOMPARE(readBytes(db), before);
        for (const auto& [record, e] : stored)
            QCOMPARE(std::isnan(e.affinity), record > 4); // the Vina values, not cleared
        // And the store takes the next rescore as if nothing had happened.
        const CliRun again = rescore(db);
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(jsonLines(again.out).value(0)["rescored"].toInt(), 20);
        QVERIFY(!QFile::exists(db + "-journal"));
    }
};

QTEST_GUILESS_MAIN(TestHitsRescore)
#include "test_hits_rescore.moc"
