// `posewright-cli hits rescore --scoring ad4 --maps FLD --receptor R`: the values it writes into
// the store equal what `score --scoring ad4 --maps FLD --exact --receptor R` prints for the same
// poses (20 1iep poses; the maps are made by `posewright-cli maps` from tests/data's 1iep
// receptor); a pose with a type the maps lack is left empty; other maps or another receptor clear
// old values; usage errors exit 2 and bad input exits 1, a kill mid-rescore leaves the store as it
// was, and every refused run leaves the store byte-identical.
#include <QDir>
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

const QString kReceptor = testData("complexes/1iep/receptor.pdbqt");

// A 20 Å box on 1iep's pocket (tests/data/complexes/1iep/box.txt's centre), with every type of
// the prepared poses (all hydrogens explicit: H for the non-polar ones) but no Cl; `shift` moves
// the centre along x (another box: other inputs).
std::string gpfText(double shift = 0) {
    const std::vector<std::string> types = {"H", "HD", "A", "C", "N", "NA", "OA", "F"};
    std::string s = "npts 40 40 40\ngridfld maps.maps.fld\nspacing 0.5\n"
                    "receptor_types A C HD N OA SA S\nligand_types";
    for (const std::string& t : types)
        s += " " + t;
    s += "\nreceptor receptor.pdbqt\n";
    s += "gridcenter " + std::to_string(15.190 + shift) + " 53.903 16.917\nsmooth 0.5\n";
    for (const std::string& t : types)
        s += "map maps." + t + ".map\n";
    return s + "elecmap maps.e.map\ndsolvmap maps.d.map\ndielectric -0.1465\n";
}

// Writes the maps into `dir` (one CPU thread: a second each); returns the .fld.
QString makeMaps(const QString& dir, double shift = 0) {
    QDir().mkpath(dir);
    writeText(dir + "/maps.gpf", gpfText(shift));
    const QString fld = dir + "/maps.maps.fld";
    const CliRun r = runCli({"maps", "--gpf", dir + "/maps.gpf", "--receptor", kReceptor, "--out",
                             fld, "--device", "cpu", "--threads", "1"});
    if (r.exitCode != 0)
        qFatal("maps failed: %s", r.err.constData());
    return fld;
}

// `score --scoring ad4 --maps FLD [--exact --receptor R] --ligand SDF --json` by record (1-based):
// free energy, inter, intra.
std::map<int, Energies> scoreAd4(const QString& fld, const QString& sdf, bool exact,
                                 const QStringList& extra = {}) {
    QStringList args{"score", "--scoring", "ad4", "--maps", fld, "--ligand", sdf, "--json"};
    if (exact)
        args << "--exact" << "--receptor" << kReceptor;
    args += extra;
    const CliRun r = runCli(args);
    if (r.exitCode != 0)
        qFatal("score failed: %s", r.err.constData());
    std::map<int, Energies> out;
    for (const QJsonObject& o : jsonLines(r.out))
        out[o["index"].toInt() + 1] = {o["free_energy"].toDouble(), o["inter"].toDouble(),
                                       o["intra"].toDouble()};
    return out;
}

// A store of the 20 poses in dir/h.db (their SDF in dir/poses.sdf).
QString makeStore(const QTemporaryDir& dir) {
    const QString sdf = dir.filePath("poses.sdf");
    write1iepPosesSdf(sdf);
    const QString db = dir.filePath("h.db");
    const CliRun r = runCli({"hits", "import", db, sdf});
    if (r.exitCode != 0)
        qFatal("import failed: %s", r.err.constData());
    return db;
}

CliRun rescoreAd4(const QString& db, const QString& fld, const QStringList& extra = {},
                  const QString& receptor = kReceptor) {
    return runCli(QStringList{"hits", "rescore", db, "--scoring", "ad4", "--maps", fld,
                              "--receptor", receptor, "--threads", "2", "--json"} +
                  extra);
}

// score --json prints ten significant digits.
bool sameValue(double stored, double printed) {
    return std::abs(stored - printed) <= 1e-9 * std::max(1.0, std::abs(printed));
}

void compareEnergies(const Energies& got, const Energies& want, int record) {
    QVERIFY2(sameValue(got.affinity, want.affinity) && sameValue(got.inter, want.inter) &&
                 sameValue(got.intra, want.intra),
             qPrintable(QString("record %1: stored %2 %3 %4, score prints %5 %6 %7")
                            .arg(record)
                            .arg(got.affinity, 0, 'g', 17)
                            .arg(got.inter, 0, 'g', 17)
                            .arg(got.intra, 0, 'g', 17)
                            .arg(want.affinity, 0, 'g', 17)
                            .arg(want.inter, 0, 'g', 17)
                            .arg(want.intra, 0, 'g', 17)));
}

} // namespace

class TestHitsRescoreAd4 : public QObject {
    Q_OBJECT
private slots:
    void storedValuesEqualScoreAd4Exact() {
        QTemporaryDir dir;
        const QString fld = makeMaps(dir.filePath("maps"));
        const QString db = makeStore(dir);
        const CliRun r = rescoreAd4(db, fld);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject summary = jsonLines(r.out).value(0);
        QCOMPARE(summary["selected"].toInt(), 20);
        QCOMPARE(summary["rescored"].toInt(), 20);
        QCOMPARE(summary["refused"].toInt(), 0);
        QCOMPARE(summary["scoring"].toString(), QString("ad4"));
        QVERIFY2(r.err.contains("hits rescore: device: CPU"), r.err.constData());

        const std::map<int, Energies> stored = storedEnergies(db);
        const std::map<int, Energies> exact = scoreAd4(fld, dir.filePath("poses.sdf"), true);
        const std::map<int, Energies> onMaps = scoreAd4(fld, dir.filePath("poses.sdf"), false);
        QCOMPARE(int(stored.size()), 20);
        QCOMPARE(int(exact.size()), 20);
        int differFromMaps = 0;
        for (const auto& [record, want] : exact) {
            compareEnergies(stored.at(record), want, record);
            // The exact intermolecular part, not the maps' interpolation of it.
            if (std::abs(stored.at(record).inter - onMaps.at(record).inter) > 1e-3)
                ++differFromMaps;
            // The internal part reads no map: the same either way.
            QVERIFY(sameValue(stored.at(record).intra, onMaps.at(record).intra));
        }
        QVERIFY2(differFromMaps >= 15, qPrintable(QString::number(differFromMaps)));

        // A re-run in batches of 3 writes the same numbers and clears nothing.
        const CliRun again = rescoreAd4(db, fld, {"--batch", "3"});
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(jsonLines(again.out).value(0)["cleared"].toInt(), 0);
        const std::map<int, Energies> stored2 = storedEnergies(db);
        for (const auto& [record, want] : exact)
            compareEnergies(stored2.at(record), want, record);
    }

    void deviceOption() {
        // --device cpu: the CPU path, named. --device cuda: the GPU pair scorer where a GPU is
        // usable (values within 1e-4 relative of the CPU's, the device in the summary), else the
        // CPU with the reason on stderr and the CPU's values.
        QTemporaryDir dir;
        const QString fld = makeMaps(dir.filePath("maps"));
        const QString db = makeStore(dir);
        const std::map<int, Energies> exact = scoreAd4(fld, dir.filePath("poses.sdf"), true);
        CliRun r = rescoreAd4(db, fld, {"--device", "cpu"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("hits rescore: device: CPU, 2 threads"), r.err.constData());
        r = rescoreAd4(db, fld, {"--device", "cuda"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonLines(r.out).value(0)["rescored"].toInt(), 20);
        const bool onGpu = r.err.contains("hits rescore: device: CUDA");
        QVERIFY2(onGpu || r.err.contains("; using the CPU, 2 threads"), r.err.constData());
        QCOMPARE(jsonLines(r.out).value(0)["device"].toString().startsWith("CUDA"), onGpu);
        const std::map<int, Energies> stored = storedEnergies(db);
        QCOMPARE(int(stored.size()), 20);
        for (const auto& [record, want] : exact) {
            const Energies& got = stored.at(record);
            if (!onGpu) {
                compareEnergies(got, want, record);
                continue;
            }
            auto close = [](double g, double c) {
                return std::abs(g - c) <= 1e-4 * std::max(1.0, std::abs(c));
            };
            QVERIFY2(close(got.affinity, want.affinity) && close(got.inter, want.inter) &&
                         sameValue(got.intra, want.intra),
                     qPrintable(QString("record %1: gpu %2 %3, cpu %4 %5")
                                    .arg(record).arg(got.affinity, 0, 'g', 12)
                                    .arg(got.inter, 0, 'g', 12).arg(want.affinity, 0, 'g', 12)
                                    .arg(want.inter, 0, 'g', 12)));
        }
    }

    void unboundAndOutsideOptionsAsScore() {
        // --unbound bound (the free energy is then inter + torsional) and --outside exact (no
        // penalty: many of these poses have atoms outside the 20 Å box), as `score` takes them.
        QTemporaryDir dir;
        const QString fld = makeMaps(dir.filePath("maps"));
        const QString db = makeStore(dir);
        const QStringList options{"--unbound", "bound", "--outside", "exact"};
        const CliRun r = rescoreAd4(db, fld, options);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonLines(r.out).value(0)["rescored"].toInt(), 20);
        const std::map<int, Energies> want =
            scoreAd4(fld, dir.filePath("poses.sdf"), true, options);
        const std::map<int, Energies> plain = scoreAd4(fld, dir.filePath("poses.sdf"), true);
        const std::map<int, Energies> stored = storedEnergies(db);
        QCOMPARE(int(want.size()), 20);
        int otherInter = 0;
        for (const auto& [record, w] : want) {
            compareEnergies(stored.at(record), w, record);
            if (std::abs(w.inter - plain.at(record).inter) > 1e-3)
                ++otherInter; // an atom outside the box: the exact sum, not the penalty
            QVERIFY(std::abs(w.affinity - plain.at(record).affinity) > 1e-3);
        }
        QVERIFY2(otherInter > 0, "no pose has an atom outside the box");
        // The default options are other inputs: a re-run clears these values.
        const CliRun again = rescoreAd4(db, fld, {"--where", "source_record = 1"});
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(jsonLines(again.out).value(0)["cleared"].toInt(), 20);
    }

    void otherMapsOrReceptorClearOldValues() {
        QTemporaryDir dir;
        const QString fld = makeMaps(dir.filePath("maps"));
        const QString db = makeStore(dir);
        QCOMPARE(rescoreAd4(db, fld).exitCode, 0);
        // Maps of another box, on five poses: the other fifteen values are cleared.
        const QString shifted = makeMaps(dir.filePath("shifted"), 1.5);
        CliRun r = rescoreAd4(db, shifted, {"--where", "source_record <= 5"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonLines(r.out).value(0)["cleared"].toInt(), 20);
        QVERIFY2(r.err.contains("cleared them in 20 poses"), r.err.constData());
        const std::map<int, Energies> exact = scoreAd4(shifted, dir.filePath("poses.sdf"), true);
        for (const auto& [record, e] : storedEnergies(db)) {
            if (record <= 5)
                compareEnergies(e, exact.at(record), record);
            else
                QVERIFY(std::isnan(e.affinity) && std::isnan(e.inter) && std::isnan(e.intra));
        }
        // The same receptor file edited (one charge): other inputs too.
        QFile in(kReceptor);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray text = in.readAll();
        const int at = text.indexOf("    0.244 C");
        QVERIFY(at > 0);
        text.replace(at, 11, "    0.245 C");
        const QString edited = dir.filePath("receptor.pdbqt");
        writeText(edited, text.toStdString());
        r = rescoreAd4(db, shifted, {"--where", "source_record <= 2"}, edited);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonLines(r.out).value(0)["cleared"].toInt(), 5);
    }

    void aPoseWithATypeWithoutAMapIsLeftEmpty() {
        QTemporaryDir dir;
        const QString fld = makeMaps(dir.filePath("maps"));
        const QString db = makeStore(dir);
        // Chloromethane in the pocket: its Cl has no map; the other poses are rescored.
        const QString odd = dir.filePath("odd.sdf");
        writeText(odd, "chloromethane\n  test\n\n"
                       "  2  1  0  0  0  0  0  0  0  0999 V2000\n"
                       "   15.0000   54.0000   17.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n"
                       "   16.7800   54.0000   17.0000 Cl  0  0  0  0  0  0  0  0  0  0  0  0\n"
                       "  1  2  1  0\n"
                       "M  END\n$$$$\n");
        QCOMPARE(runCli({"hits", "import", db, odd}).exitCode, 0);
        const CliRun r = rescoreAd4(db, fld);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject summary = jsonLines(r.out).value(0);
        QCOMPARE(summary["selected"].toInt(), 21);
        QCOMPARE(summary["rescored"].toInt(), 20);
        QCOMPARE(summary["refused"].toInt(), 1);
        QVERIFY2(r.err.contains("h.db: pose 21 'chloromethane' left empty:") &&
                     r.err.contains("has type 'Cl' but the grid maps have no Cl map"),
                 r.err.constData());
        const std::map<int, Energies> poses = storedEnergies(db, "name != 'chloromethane'");
        QCOMPARE(int(poses.size()), 20);
        for (const auto& [record, e] : poses)
            QVERIFY(!std::isnan(e.affinity) && !std::isnan(e.inter) && !std::isnan(e.intra));
        const std::map<int, Energies> chloro = storedEnergies(db, "name = 'chloromethane'");
        QCOMPARE(int(chloro.size()), 1);
        const Energies& e = chloro.begin()->second;
        QVERIFY(std::isnan(e.affinity) && std::isnan(e.inter) && std::isnan(e.intra));
    }

    void refusedRunsLeaveTheStoreUntouched() {
        QTemporaryDir dir;
        const QString fld = makeMaps(dir.filePath("maps"));
        const QString db = makeStore(dir);
        QCOMPARE(rescoreAd4(db, fld, {"--where", "source_record <= 3"}).exitCode, 0);
        const QByteArray before = readBytes(db);
        const QStringList base{"hits", "rescore", db, "--scoring", "ad4", "--receptor", kReceptor};
        // Usage errors (exit 2).
        CliRun r = runCli(base);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--scoring ad4 needs --maps FLD"), r.err.constData());
        r = runCli(base + QStringList{"--maps", fld, "--box",
                                      testData("complexes/1iep/box.txt")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("takes its box from the grid maps") && r.err.contains("--box"),
                 r.err.constData());
        r = runCli(base + QStringList{"--maps", fld, "--autobox-ligand", dir.filePath("poses.sdf")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("not --autobox-ligand"), r.err.constData());
        // AD4 rescoring takes one GPU (--device cuda[:N] is no longer a usage error: see
        // deviceOption).
        r = runCli(base + QStringList{"--maps", fld, "--device", "cuda:all"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("runs on one GPU"), r.err.constData());
        r = runCli(base + QStringList{"--maps", fld, "--device", "cuda:0,1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("runs on one GPU"), r.err.constData());
        r = runCli(base + QStringList{"--maps", fld, "--device", "tpu"});
        QCOMPARE(r.exitCode, 2);
        r = runCli(base + QStringList{"--maps", fld, "--ph", "7"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--ph is not for --scoring ad4"), r.err.constData());
        r = runCli({"hits", "rescore", db, "--receptor", kReceptor, "--box",
                    testData("complexes/1iep/box.txt"), "--maps", fld});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--maps is for --scoring ad4"), r.err.constData());
        r = runCli({"hits", "rescore", db, "--receptor", kReceptor, "--box",
                    testData("complexes/1iep/box.txt"), "--unbound", "bound"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--unbound is for --scoring ad4"), r.err.constData());
        r = runCli(base + QStringList{"--maps", fld, "--unbound", "free"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--unbound expects zero or bound"), r.err.constData());
        r = runCli(base + QStringList{"--maps", fld, "--outside", "clamp"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--outside expects penalty or exact"), r.err.constData());
        r = runCli({"hits", "rescore", db, "--scoring", "ad4", "--maps", fld});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("missing --receptor"), r.err.constData());
        // Bad input (exit 1, naming the file): a receptor without charges, one without AD4
        // types, missing maps.
        QFile in(kReceptor);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray uncharged;
        for (QByteArray line : in.readAll().split('\n')) {
            if ((line.startsWith("ATOM") || line.startsWith("HETATM")) && line.size() >= 76)
                line.replace(70, 6, " 0.000");
            uncharged += line + "\n";
        }
        const QString flat = dir.filePath("uncharged.pdbqt");
        writeText(flat, uncharged.toStdString());
        r = rescoreAd4(db, fld, {}, flat);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("uncharged.pdbqt") && r.err.contains("no partial charges"),
                 r.err.constData());
        r = rescoreAd4(db, fld, {}, testData("complexes/1stp/receptor.pdb"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("receptor.pdb:") && r.err.contains("no AutoDock 4 type"),
                 r.err.constData());
        r = rescoreAd4(db, dir.filePath("nope.maps.fld"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("nope.maps.fld"), r.err.constData());
        QCOMPARE(readBytes(db), before);
        QVERIFY(!QFile::exists(db + "-journal"));
        // The values of the first run are still there.
        for (const auto& [record, e] : storedEnergies(db))
            QCOMPARE(std::isnan(e.affinity), record > 3);
        QCOMPARE(readBytes(db), before);
    }

    // SIGKILL and SIGTERM (as Ctrl-C) while the transaction is open (held after the first batch by
    // the POSEWRIGHT_STALL_OUTPUT hook): the store is as it was once the next command opened it.
    void killedMidRescoreLeavesTheStoreAsItWas_data() {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGKILL") << int(SIGKILL);
        QTest::newRow("SIGTERM") << int(SIGTERM);
    }
    void killedMidRescoreLeavesTheStoreAsItWas() {
        QFETCH(int, signal);
        QTemporaryDir dir;
        const QString fld = makeMaps(dir.filePath("maps"));
        const QString db = makeStore(dir);
        QCOMPARE(rescoreAd4(db, fld, {"--where", "source_record <= 4"}).exitCode, 0);
        const QByteArray before = readBytes(db);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("POSEWRIGHT_STALL_OUTPUT", "rescore-batch");
        p.setProcessEnvironment(env);
        // Other maps: the run clears the first values inside its transaction before it stalls.
        const QString shifted = makeMaps(dir.filePath("shifted"), 1.5);
        p.start(POSEWRIGHT_CLI, QStringList{"hits", "rescore", db, "--scoring", "ad4", "--maps",
                                            shifted, "--receptor", kReceptor, "--batch", "4"});
        QVERIFY(p.waitForStarted(30000));
        QByteArray err;
        QVERIFY2(waitForStall(p, err), err.constData());
        QVERIFY2(err.contains("hits rescore: 4/20 poses") && err.contains("cleared them in 4"),
                 err.constData());
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
        const std::map<int, Energies> stored = storedEnergies(db);
        QCOMPARE(readBytes(db), before);
        QCOMPARE(int(stored.size()), 20);
        for (const auto& [record, e] : stored)
            QCOMPARE(std::isnan(e.affinity), record > 4); // the first run's values, not cleared
    }
};

QTEST_GUILESS_MAIN(TestHitsRescoreAd4)
#include "test_hits_rescore_ad4.moc"
