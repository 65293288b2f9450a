// posewright-cli lingo end to end on hand-worked molecules: JSON hits, matrix TSV, bad lines
// reported by file:line, usage errors, and no half-written output when the target cannot be made.
#include "cli/CliRun.h"

#include <QtTest>

namespace {

struct Run {
    int code;
    QString out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(POSEWRIGHT_CLI, QStringList{"lingo"} + args);
    const int code = pw::test::normalExitCode(p, 60000); // -1 for a crash or a hang
    return {code, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

const QString kHand = QString(POSEWRIGHT_TEST_DATA) + "/lingo/hand.smi";
const QString kQuery = QString(POSEWRIGHT_TEST_DATA) + "/lingo/query.smi";

} // namespace

class TestLingoCli : public QObject {
    Q_OBJECT
private slots:
    void jsonHitsAllVsAll() {
        const Run r = cli({"--db", kHand, "--top", "2", "--json", "--device", "cpu"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("hand.smi:4:") && r.err.contains("C1CC("), qPrintable(r.err));
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 4); // the broken line is skipped
        const QJsonObject benzene = QJsonDocument::fromJson(lines[0].toUtf8()).object();
        QCOMPARE(benzene["name"].toString(), QString("benzene"));
        QCOMPARE(benzene["smiles"].toString(), QString("c1ccccc1"));
        const QJsonArray hits = benzene["hits"].toArray();
        QCOMPARE(hits.size(), 2);
        // toluene, phenol and aniline all score 5/6 against benzene: ties go to the lower index.
        QCOMPARE(hits[0].toObject()["name"].toString(), QString("toluene"));
        QCOMPARE(hits[1].toObject()["name"].toString(), QString("phenol"));
        QCOMPARE(float(hits[0].toObject()["similarity"].toDouble()), 5.0f / 6.0f);
        const QJsonObject phenol = QJsonDocument::fromJson(lines[2].toUtf8()).object();
        const QJsonArray ph = phenol["hits"].toArray();
        QCOMPARE(ph[1].toObject()["name"].toString(), QString("toluene")); // 5/7 tie, lower index
        QCOMPARE(float(ph[1].toObject()["similarity"].toDouble()), 5.0f / 7.0f);
    }

    void queryThresholdText() {
        const Run r = cli({"--query", kQuery, "--db", kHand, "--threshold", "0.8"});
        QCOMPARE(r.code, 0);
        // phenol (query, written differently) is 1.0 to phenol and 5/6 to benzene; not toluene.
        QCOMPARE(r.out, QString("query\thit\tsimilarity\nphenol-q\tphenol\t1\n"
                                "phenol-q\tbenzene\t0.8333333\n"));
    }

    void matrixIsWrittenAtomically() {
        QTemporaryDir dir;
        const QString out = dir.filePath("m.tsv");
        const Run r = cli({"--db", kHand, "--matrix", out});
        QCOMPARE(r.code, 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(f.readAll()).trimmed().split('\n');
        QCOMPARE(rows.size(), 5);
        QCOMPARE(rows[0], QString("query\tbenzene\ttoluene\tphenol\taniline"));
        QCOMPARE(rows[3], QString("phenol\t0.8333333\t0.71428573\t1\t0.71428573"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"m.tsv"}); // no temp left
        const Run bad = cli({"--db", kHand, "--matrix", dir.filePath("missing/m.tsv")});
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.contains("missing/m.tsv"), qPrintable(bad.err));
    }

    void usageAndInputErrors() {
        const Run dev = cli({"--db", kHand, "--device", "gpu"});
        QCOMPARE(dev.code, 2);
        QVERIFY(dev.err.contains("--device: expected auto, cpu, cuda or cuda:N, got 'gpu'"));
        const Run top = cli({"--db", kHand, "--top", "-1"});
        QCOMPARE(top.code, 2);
        const Run none = cli({"--db", "/nonexistent/db.smi"});
        QCOMPARE(none.code, 1);
        QVERIFY(none.err.contains("/nonexistent/db.smi") && none.err.contains("cannot open"));
        const Run noDb = cli({"--top", "3"});
        QCOMPARE(noDb.code, 2);
        QVERIFY(noDb.err.contains("db"));
    }

    void autoSaysWhichDevice() {
        const Run r = cli({"--db", kHand, "--device", "auto"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("lingo: device: "), qPrintable(r.err));
        // One line about the device: either the GPU's name or the CPU with the reason.
        QVERIFY(r.err.contains("sm_") || r.err.contains("using the CPU"));
    }
};

QTEST_GUILESS_MAIN(TestLingoCli)
#include "test_lingo_cli.moc"
