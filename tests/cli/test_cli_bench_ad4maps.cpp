// `posewright-cli bench ad4maps` and `maps`: build the maps of a GPF box; the bench reports their
// agreement with autogrid4's files (tests/data/ad4maps/1r55: none outside the tolerance), `maps`
// writes files that read back equal to autogrid4's; bad input gets one clear message and the
// right exit code.
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/CliRun.h"
#include "score/ad4/Ad4MapFiles.h"

#include <cmath>

using namespace pw::test;

class TestCliBenchAd4Maps : public QObject {
    Q_OBJECT
private slots:
    void agreesWithAutogrid() {
        const CliRun r =
            runCli({"bench", "ad4maps", "--gpf", testData("ad4maps/1r55/1r55.gpf"), "--reference",
                    testData("ad4maps/1r55/1r55."), "--device", "cpu", "--threads", "2"});
        QCOMPARE(r.exitCode, 0);
        const auto objs = jsonLines(r.out);
        QCOMPARE(objs.size(), 1);
        const QJsonObject o = objs[0];
        QCOMPARE(o["points"].toInt(), 1331);
        QCOMPARE(o["maps"].toInt(), 12);
        QCOMPARE(o["reference_values"].toInt(), 12 * 1331);
        QCOMPARE(o["reference_outside_tolerance"].toInt(), 0);
        QVERIFY(o["cpu_1thread_s"].toDouble() > 0);
    }

    void mapsCommandWritesAutogridFiles() {
        QTemporaryDir dir;
        const QString fld = dir.filePath("r.maps.fld");
        const CliRun r = runCli({"maps", "--gpf", testData("ad4maps/1r55/1r55.gpf"), "--out", fld,
                                 "--device", "cpu"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFile::exists(dir.filePath("r.HD.map")));
        const pw::ad4::Ad4Maps ours = pw::ad4::readMapsFld(fld.toStdString());
        const pw::ad4::Ad4Maps theirs =
            pw::ad4::readMapsFld(testData("ad4maps/1r55/1r55.maps.fld").toStdString());
        QCOMPARE(ours.ligandTypes(), theirs.ligandTypes());
        QVERIFY(ours.geometry().sameAs(theirs.geometry()));
        for (int k = 0; k < ours.mapCount(); ++k)
            for (size_t i = 0; i < ours.values(k).size(); ++i) {
                const double a = ours.values(k)[i], b = theirs.values(k)[i];
                QVERIFY(std::fabs(a - b) <= std::max(0.01, 1e-3 * std::fabs(b)));
            }
        const CliRun bad = runCli({"maps", "--gpf", testData("ad4maps/1r55/1r55.gpf"), "--out",
                                   dir.filePath("r.fld")});
        QCOMPARE(bad.exitCode, 2);
    }

    void badInput() {
        CliRun r = runCli({"bench", "ad4maps"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--gpf"));
        r = runCli(
            {"bench", "ad4maps", "--gpf", testData("ad4maps/1r55/1r55.gpf"), "--device", "tpu"});
        QCOMPARE(r.exitCode, 2);

        QTemporaryDir dir;
        const QString gpf = dir.filePath("bad.gpf");
        QFile f(gpf);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("npts 10 10 10\nspacing 0.5\ngridcenter 1 2\n");
        f.close();
        r = runCli({"bench", "ad4maps", "--gpf", gpf, "--device", "cpu"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("bad.gpf:3: 'gridcenter'"), qPrintable(r.err));

        // A receptor without charges.
        const QString receptor = dir.filePath("uncharged.pdbqt");
        QFile in(testData("ad4maps/1r55/receptor.pdbqt"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QFile out(receptor);
        QVERIFY(out.open(QIODevice::WriteOnly));
        for (QByteArray line : in.readAll().split('\n')) {
            if (line.size() > 76)
                line.replace(70, 6, "      ");
            out.write(line + "\n");
        }
        out.close();
        r = runCli({"bench", "ad4maps", "--gpf", testData("ad4maps/1r55/1r55.gpf"), "--receptor",
                    receptor, "--device", "cpu"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no partial charges"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliBenchAd4Maps)
#include "test_cli_bench_ad4maps.moc"
