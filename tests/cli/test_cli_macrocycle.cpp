// Macrocycles (Meeko's CG0/G0 ring closure) through the command line, against AutoDock Vina
// 1.2.3 measured on this machine (tests/data/macrocycle/README.md): `score` equals vina
// --score_only (0.01 kcal/mol), `minimize` never ends above vina --local_only from the same start
// and writes the ring closed, CPU docking ends with closed rings, bad input exits 1 with the file
// and line and writes nothing.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "cli/CliRun.h"

using namespace pw::test;

namespace {

constexpr double kTolerance = 0.01; // kcal/mol; Vina prints three decimals

QString data(const QString& name) {
    return testData("macrocycle/" + name);
}

QJsonObject vinaReference() {
    QFile f(data("vina_reference.json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing %s", qPrintable(f.fileName()));
    return QJsonDocument::fromJson(f.readAll()).object();
}

struct SdfRecord {
    int atoms = 0;
    QList<QList<double>> xyz;
    QList<QPair<int, int>> bonds; // 0-based
    QStringList symbols;
};

// A minimal V2000 reader: counts line, atom block and bond block of each record.
QList<SdfRecord> readSdf(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    QList<SdfRecord> records;
    for (const QString& chunk : QString::fromUtf8(f.readAll()).split("$$$$\n")) {
        const QStringList lines = chunk.split('\n');
        if (lines.size() < 4)
            continue;
        SdfRecord r;
        r.atoms = lines[3].left(3).trimmed().toInt();
        const int bonds = lines[3].mid(3, 3).trimmed().toInt();
        for (int a = 0; a < r.atoms; ++a) {
            const QString& l = lines[4 + a];
            r.xyz.append(
                {l.mid(0, 10).toDouble(), l.mid(10, 10).toDouble(), l.mid(20, 10).toDouble()});
            r.symbols.append(l.mid(31, 3).trimmed());
        }
        for (int b = 0; b < bonds; ++b) {
            const QString& l = lines[4 + r.atoms + b];
            r.bonds.append({l.mid(0, 3).trimmed().toInt() - 1, l.mid(3, 3).trimmed().toInt() - 1});
        }
        records.append(r);
    }
    return records;
}

// The longest bond of a record: a ring left open would be a bond of several Å.
double longestBond(const SdfRecord& r) {
    double longest = 0;
    for (const auto& [a, b] : r.bonds) {
        double d2 = 0;
        for (int k = 0; k < 3; ++k)
            d2 += std::pow(r.xyz[a][k] - r.xyz[b][k], 2);
        longest = std::max(longest, std::sqrt(d2));
    }
    return longest;
}

// Every record: the 41 atoms of the ligand without its two pseudo-atoms, and closed.
void checkClosedRings(const QString& sdf, int expectedRecords) {
    const QList<SdfRecord> records = readSdf(sdf);
    QCOMPARE(records.size(), expectedRecords);
    for (const SdfRecord& r : records) {
        QCOMPARE(r.atoms, 41);
        QVERIFY(!r.symbols.contains("*"));
        QCOMPARE(r.bonds.size(), 42); // 41 atoms, two rings (the macrocycle and the benzene)
        QVERIFY2(longestBond(r) < 1.8, qPrintable(QString::number(longestBond(r))));
    }
}

void compareScore(const QJsonObject& ours, const QJsonObject& vina, const QString& what) {
    for (const char* key : {"affinity", "inter", "intra", "torsional", "unbound"}) {
        const double a = ours[key].toDouble(), b = vina[key].toDouble();
        QVERIFY2(std::abs(a - b) <= kTolerance,
                 qPrintable(QString("%1 %2: ours %3, Vina %4").arg(what, key).arg(a).arg(b)));
    }
}

} // namespace

class TestCliMacrocycle : public QObject {
    Q_OBJECT
private slots:
    void scoreEqualsVinaScoreOnly_data() {
        QTest::addColumn<QString>("scoring");
        QTest::addColumn<QString>("key");
        QTest::newRow("vina") << "vina"
                              << "score_only";
        QTest::newRow("vinardo") << "vinardo"
                                 << "score_only_vinardo";
    }
    void scoreEqualsVinaScoreOnly() {
        QFETCH(QString, scoring);
        QFETCH(QString, key);
        const QJsonObject ref = vinaReference();
        CliRun r = runCli({"score", "--receptor", data("receptor.pdbqt"), "--box", data("box.txt"),
                           "--ligand", data("bace1_ligand.pdbqt"), "--scoring", scoring, "--json"});
        QCOMPARE(r.exitCode, 0);
        QList<QJsonObject> ours = jsonLines(r.out);
        QCOMPARE(ours.size(), 1);
        compareScore(ours[0], ref["crystal"].toObject()[key].toObject(), "crystal");

        // Perturbed starts: rings open by several Å, where the glue dominates.
        r = runCli({"score", "--receptor", data("receptor.pdbqt"), "--box", data("box.txt"),
                    "--ligand", data("starts.pdbqt"), "--scoring", scoring, "--json"});
        QCOMPARE(r.exitCode, 0);
        ours = jsonLines(r.out);
        const QJsonArray starts = ref["starts"].toArray();
        QCOMPARE(ours.size(), starts.size());
        for (int i = 0; i < ours.size(); ++i)
            compareScore(ours[i], starts[i].toObject()[key].toObject(), QString("start %1").arg(i));
    }

    // weight_glue in the Vina config scales the glue as vina --weight_glue does.
    void configGlueWeightEqualsVinaWeightGlue() {
        QTemporaryDir dir;
        const QString box = dir.filePath("box.txt");
        QFile in(data("box.txt")), out(box);
        QVERIFY(in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly));
        out.write(in.readAll() + "weight_glue = 25\n");
        out.close();
        const QJsonObject ref = vinaReference();
        for (const char* ligand : {"bace1_ligand.pdbqt", "starts.pdbqt"}) {
            const CliRun r = runCli({"score", "--receptor", data("receptor.pdbqt"), "--box", box,
                                     "--ligand", data(ligand), "--json"});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(!r.err.contains("weight_glue"), r.err.constData()); // used, not ignored
            const QList<QJsonObject> ours = jsonLines(r.out);
            if (QString(ligand) == "bace1_ligand.pdbqt") {
                compareScore(ours[0], ref["crystal"].toObject()["score_only_glue25"].toObject(),
                             "crystal, glue 25");
                continue;
            }
            const QJsonArray starts = ref["starts"].toArray();
            QCOMPARE(ours.size(), starts.size());
            for (int i = 0; i < ours.size(); ++i)
                compareScore(ours[i], starts[i].toObject()["score_only_glue25"].toObject(),
                             QString("start %1, glue 25").arg(i));
        }
    }

    // On Vina's grid the CG0 carbons read the C_P map and the pseudo-atoms none.
    void gridScoreEqualsVinaNoRefine() {
        const CliRun r =
            runCli({"score", "--receptor", data("receptor.pdbqt"), "--box", data("box.txt"),
                    "--ligand", data("bace1_ligand.pdbqt"), "--grid", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QList<QJsonObject> ours = jsonLines(r.out);
        QCOMPARE(ours.size(), 1);
        compareScore(ours[0],
                     vinaReference()["crystal"].toObject()["score_only_no_refine"].toObject(),
                     "crystal, grid");
    }

    // Both minimize inter + intra + glue (Vina's unbound holds intra + glue); the affinity is
    // Vina's formula on the final pose. Neither may end above Vina's.
    void minimizeNeverEndsAboveVinaLocalOnly() {
        QTemporaryDir dir;
        const QString out = dir.filePath("minimized.sdf");
        const CliRun r =
            runCli({"minimize", "--receptor", data("receptor.pdbqt"), "--box", data("box.txt"),
                    "--ligands", data("starts.pdbqt"), "--device", "cpu", "--json", "--out", out});
        QCOMPARE(r.exitCode, 0);
        const QList<QJsonObject> ours = jsonLines(r.out);
        const QJsonArray starts = vinaReference()["starts"].toArray();
        QCOMPARE(ours.size(), starts.size());
        for (int i = 0; i < ours.size(); ++i) {
            const QJsonObject vina = starts[i].toObject()["local_only"].toObject();
            const double total = ours[i]["inter"].toDouble() + ours[i]["unbound"].toDouble();
            const double vinaTotal = vina["inter"].toDouble() + vina["unbound"].toDouble();
            qInfo("start %d: total %.3f (Vina %.3f), affinity %.3f (Vina %.3f)", i, total,
                  vinaTotal, ours[i]["affinity"].toDouble(), vina["affinity"].toDouble());
            QVERIFY(total <= vinaTotal + kTolerance);
            QVERIFY(ours[i]["affinity"].toDouble() <= vina["affinity"].toDouble() + kTolerance);
        }
        checkClosedRings(out, static_cast<int>(starts.size()));
    }

    void cpuDockingClosesTheRing() {
        QTemporaryDir dir;
        const QString out = dir.filePath("docked.sdf");
        const CliRun r = runCli({"dock",
                                 "--receptor",
                                 data("receptor.pdbqt"),
                                 "--box",
                                 data("box.txt"),
                                 "--ligands",
                                 data("bace1_ligand.pdbqt"),
                                 "--runs",
                                 "4",
                                 "--seed",
                                 "3",
                                 "--population",
                                 "50",
                                 "--evaluations",
                                 "50000",
                                 "--ls-iterations",
                                 "100",
                                 "--all-runs",
                                 "--device",
                                 "cpu",
                                 "--threads",
                                 "2",
                                 "--out",
                                 out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        checkClosedRings(out, 4);
    }

    void badRingClosuresExitWithFileAndLine() {
        struct Case {
            const char* file;
            const char* where;
        };
        for (const Case& c : {Case{"bad_g_without_cg.pdbqt", "bad_g_without_cg.pdbqt:22: "},
                              Case{"bad_unpaired_cg.pdbqt", "bad_unpaired_cg.pdbqt:21: "}}) {
            for (const QString command : {"score", "minimize", "dock"}) {
                QTemporaryDir dir;
                const QString out = dir.filePath("out.sdf");
                QStringList args = {
                    command,     "--receptor",    data("receptor.pdbqt"),
                    "--box",     data("box.txt"), command == "score" ? "--ligand" : "--ligands",
                    data(c.file)};
                if (command != "score")
                    args << "--device"
                         << "cpu"
                         << "--out" << out;
                const CliRun r = runCli(args);
                QVERIFY2(r.exitCode == 1, qPrintable(command + " " + c.file));
                QVERIFY2(r.err.contains(c.where), r.err.constData());
                QVERIFY2(r.err.contains("CG0"), r.err.constData());
                QVERIFY(!QFile::exists(out));
            }
        }
    }

    // AD4 scoring has no ring-closure term: the macrocycle is refused by name, nothing written.
    void ad4DockingRefusesMacrocycles() {
        QTemporaryDir dir;
        const QString out = dir.filePath("out.sdf");
        const CliRun r =
            runCli({"dock", "--scoring", "ad4", "--receptor", data("receptor.pdbqt"), "--box",
                    data("box.txt"), "--ligands", data("bace1_ligand.pdbqt"), "--runs", "1",
                    "--evaluations", "1000", "--device", "cpu", "--out", out});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("AD4 scoring does not take them"), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestCliMacrocycle)
#include "test_cli_macrocycle.moc"
