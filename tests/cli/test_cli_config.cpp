// A Vina config file's scoring options as Vina 1.2.3 honours them (`score --box`, compared with
// vina --score_only on the same config), warnings for the options it reads but does not use,
// and exit code 2 for usage errors of every command.
#include "cli/CliRun.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace pw::test;

namespace {

QString data(const QString& rel) {
    return testData(rel);
}

// 1iep's box.txt plus `extra` lines, written into dir.
QString configWith(const QTemporaryDir& dir, const QString& name, const QByteArray& extra) {
    QFile box(data("complexes/1iep/box.txt"));
    if (!box.open(QIODevice::ReadOnly))
        qFatal("cannot read box.txt");
    const QString path = dir.filePath(name);
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    out.write(box.readAll() + "\n" + extra);
    return path;
}

QJsonObject scoreWith(const QString& config, QByteArray* err) {
    CliRun r = runCli({"score", "--receptor", data("complexes/1iep/receptor.pdbqt"), "--ligand",
                       data("complexes/1iep/ligand_xtal.pdbqt"), "--box", config, "--json"});
    *err = r.err;
    if (r.exitCode != 0)
        return {};
    return jsonLines(r.out).value(0);
}

} // namespace

class TestCliConfig : public QObject {
    Q_OBJECT
private slots:
    void vinaWeightsFromConfig() {
        // vina --receptor receptor.pdbqt --ligand ligand_xtal.pdbqt --config C --score_only
        // (AutoDock Vina 1.2.3, Debian, 2026-11-26) with weight_gauss1 = -0.05,
        // weight_hydrogen = -0.7 and weight_rot = 0.2: -14.483, inter -20.410, intra -0.617,
        // torsional 5.927 (weight_rot changes nothing in Vina either).
        QTemporaryDir dir;
        const QString c = configWith(
            dir, "w.txt", "weight_gauss1 = -0.05\nweight_hydrogen = -0.7\nweight_rot = 0.2\n");
        QByteArray err;
        const QJsonObject o = scoreWith(c, &err);
        QVERIFY2(!o.isEmpty(), err.constData());
        QVERIFY2(std::abs(o["affinity"].toDouble() - -14.483) < 0.01,
                 qPrintable(QString::number(o["affinity"].toDouble())));
        QVERIFY(std::abs(o["inter"].toDouble() - -20.410) < 0.01);
        QVERIFY(std::abs(o["intra"].toDouble() - -0.617) < 0.01);
        QVERIFY(std::abs(o["torsional"].toDouble() - 5.927) < 0.01);
        QVERIFY2(err.contains("w.txt:9: warning: weight_rot is ignored"), err.constData());
    }
    void vinardoFromConfig() {
        // The same Vina run with scoring = vinardo and weight_vinardo_hydrogen = -0.7: -9.455,
        // inter -13.324, intra -0.457.
        QTemporaryDir dir;
        const QString c =
            configWith(dir, "v.txt", "scoring = vinardo\nweight_vinardo_hydrogen = -0.7\n");
        QByteArray err;
        const QJsonObject o = scoreWith(c, &err);
        QVERIFY2(!o.isEmpty(), err.constData());
        QVERIFY2(std::abs(o["affinity"].toDouble() - -9.455) < 0.01,
                 qPrintable(QString::number(o["affinity"].toDouble())));
        QVERIFY(std::abs(o["inter"].toDouble() - -13.324) < 0.01);
        QVERIFY(std::abs(o["intra"].toDouble() - -0.457) < 0.01);
        QVERIFY2(!err.contains("warning"), err.constData());
    }
    void unknownKeyIsAnError() {
        QTemporaryDir dir;
        const QString c = configWith(dir, "bad.txt", "exhaustivness = 8\n");
        CliRun r = runCli({"score", "--receptor", data("complexes/1iep/receptor.pdbqt"), "--ligand",
                           data("complexes/1iep/ligand_xtal.pdbqt"), "--box", c});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("bad.txt:7: unknown key 'exhaustivness'"), r.err.constData());
    }
    void usageErrorsExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString rec = data("complexes/1iep/receptor.pdbqt");
        const QString lig = data("complexes/1iep/ligand_xtal.pdbqt");
        const QString smi = data("lingo/hand.smi");
        QTest::newRow("minimize --device")
            << QStringList{"minimize", "--receptor", rec, "--ligands", lig, "--device", "bogus"}
            << "--device: expected auto, cpu, cuda or cuda:N, got 'bogus'";
        QTest::newRow("bench minimize --device")
            << QStringList{"bench", "minimize", "--receptor", rec,        "--ligand",
                           lig,     "--poses",  "2",          "--device", "x"}
            << "--device";
        QTest::newRow("score --scoring")
            << QStringList{"score", "--receptor", rec, "--ligand", lig, "--scoring", "bogus"}
            << "--scoring expects vina, vinardo or ad4 (ad4 for score, dock and hits rescore, on "
               "AutoDock 4 maps), got 'bogus'";
        QTest::newRow("score unknown option")
            << QStringList{"score", "--receptor", rec, "--ligand", lig, "--bogus"} << "--bogus";
        QTest::newRow("lingo --device")
            << QStringList{"lingo", "--db", smi, "--device", "tpu"} << "--device";
        QTest::newRow("overlay --device")
            << QStringList{"overlay", "--reference", lig, "--fit", lig, "--device", "tpu"}
            << "--device";
        QTest::newRow("info --role") << QStringList{"info", lig, "--role", "solvent"} << "--role";
        QTest::newRow("unknown command") << QStringList{"dock2"} << "unknown command";
    }
    void usageErrorsExitTwo() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        CliRun r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliConfig)
#include "test_cli_config.moc"
