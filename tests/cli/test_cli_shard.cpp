// `--shard K/N` and `posewright-cli merge` as a job array uses them: the shards' ranked outputs
// merged give the single run's file byte for byte (minimize, dock, overlay on the CPU backend;
// ties in score, an unreadable record, an empty shard), and merge names overlapping, missing,
// foreign and truncated shards and writes nothing then.
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/CliRun.h"

using namespace pw::test;

namespace {

void writeAll(const QString& path, const QByteArray& data) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(data);
}

} // namespace

class TestCliShard : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString path(const QString& name) const { return dir_.filePath(name); }

    // Runs `command` once into one.sdf and as N shards (block B) merged into merged.sdf; both
    // must succeed and be the same bytes. Returns the single run's output.
    QByteArray shardsMatchOneRun(const QStringList& command, int n, int block,
                                 const QString& tag) {
        const QString one = path(tag + "_one.sdf"), merged = path(tag + "_merged.sdf");
        CliRun r = runCli(command + QStringList{"--out", one});
        if (r.exitCode != 0)
            qFatal("single run failed: %s", r.err.constData());
        QStringList mergeArgs{"merge", merged};
        for (int k = n; k >= 1; --k) { // any order of inputs
            const QString shard = path(QString("%1_shard%2.sdf").arg(tag).arg(k));
            r = runCli(command + QStringList{"--out", shard, "--shard", QString("%1/%2").arg(k).arg(n),
                                             "--shard-block", QString::number(block)});
            if (r.exitCode != 0)
                qFatal("shard %d/%d failed: %s", k, n, r.err.constData());
            mergeArgs << shard;
        }
        r = runCli(mergeArgs);
        if (r.exitCode != 0)
            qFatal("merge failed: %s", r.err.constData());
        const QByteArray a = readAll(one), b = readAll(merged);
        if (a.isEmpty() || a != b)
            qFatal("%s: %d shards (block %d) merged differ from one run", qPrintable(tag), n,
                   block);
        return a;
    }

    QStringList minimizeCommand() {
        // The crystal pose three times (equal scores: ties), an unreadable record between them
        // (numbering), and two poses from PDBQT files.
        const QByteArray xtal = readAll(testData("complexes/1iep/ligand_xtal.sdf"));
        writeAll(path("mix.sdf"),
                 xtal + "broken\n  junk\n\nnot a counts line\n$$$$\n" + xtal + xtal);
        return {"minimize", "--receptor", testData("complexes/1iep/receptor.pdbqt"), "--box",
                testData("complexes/1iep/box.txt"), "--device", "cpu", "--threads", "1",
                "--ligands", path("mix.sdf"), testData("complexes/1iep/poses/pose01.pdbqt"),
                testData("complexes/1iep/poses/pose02.pdbqt"), path("mix.sdf")};
    }

    QStringList dockCommand() {
        const QString lig = testData("complexes/1stp/ligand_xtal.pdbqt");
        return {"dock", "--receptor", testData("complexes/1stp/receptor.pdbqt"), "--box",
                testData("complexes/1stp/box.txt"), "--runs", "3", "--seed", "5",
                "--population", "30", "--evaluations", "5000", "--ls-iterations", "50",
                "--device", "cpu", "--threads", "1", "--ligands", lig, lig, lig, lig, lig};
    }

private slots:
    void minimizeShardsMergeToOneRun() {
        const QStringList cmd = minimizeCommand();
        const QByteArray one = shardsMatchOneRun(cmd, 4, 1, "min4");
        QCOMPARE(one.count("$$$$\n"), 8); // the unreadable record left out
        QVERIFY(!one.contains("PW_SHARD_KEY"));
        shardsMatchOneRun(cmd, 3, 2, "min3");
        // Block 256: shard 1 holds everything, shard 2 nothing (an empty output, still merged).
        shardsMatchOneRun(cmd, 2, 256, "min2");
        QCOMPARE(readAll(path("min2_shard2.sdf")), QByteArray());
    }

    void dockShardsMergeToOneRun() {
        // Each ligand docks with the random streams of its index in the whole input.
        const QByteArray one = shardsMatchOneRun(dockCommand(), 2, 2, "dock2");
        QVERIFY(one.count("$$$$\n") >= 5);
        shardsMatchOneRun(dockCommand(), 3, 1, "dock3");
    }

    void overlayShardsMergeToOneRun() {
        const QStringList cmd{"overlay", "--reference", testData("shapes/ref.mol"), "--fit",
                              testData("shapes/cdk2.sdf"), "--device", "cpu", "--threads", "1",
                              "--json"};
        const QByteArray one = shardsMatchOneRun(cmd, 3, 5, "overlay");
        QVERIFY(one.contains("> <PW_RANK>\n47\n")); // ranks renumbered over all shards
    }

    void lingoShardsMergeToOneRun() {
        // The database is sliced; every query meets every slice; merge keeps the top K.
        const QString db = testData("smiles/nci_first_300.smi");
        const QStringList base{"lingo", "--db", db, "--device", "cpu", "--threads", "1"};
        const QList<QStringList> modes{
            {"--top", "5"},        // all-vs-all: a molecule's own hit left out
            {"--threshold", "0.6"}, // every hit at or above
            {"--top", "3", "--query", testData("lingo/query.smi")}};
        for (int m = 0; m < modes.size(); ++m) {
            const QString tag = QString("lingo%1").arg(m);
            const QString one = path(tag + ".tsv"), merged = path(tag + "_merged.tsv");
            QCOMPARE(runCli(base + modes[m] + QStringList{"--out", one}).exitCode, 0);
            QStringList mergeArgs{"merge", merged};
            for (int k = 1; k <= 3; ++k) {
                const QString shard = path(QString("%1_shard%2.tsv").arg(tag).arg(k));
                const CliRun r = runCli(base + modes[m] +
                                        QStringList{"--out", shard, "--shard",
                                                    QString("%1/3").arg(k), "--shard-block", "7"});
                QVERIFY2(r.exitCode == 0, r.err.constData());
                mergeArgs << shard;
            }
            const CliRun r = runCli(mergeArgs);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY(readAll(one).count('\n') > 3);
            QCOMPARE(readAll(merged), readAll(one));
        }
        const CliRun r = runCli({"merge", path("x.tsv"), path("lingo0_shard1.tsv"),
                                 path("lingo0_shard3.tsv")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("missing shard(s) 2 of 3"), r.err.constData());
        QCOMPARE(runCli(base + QStringList{"--json", "--shard", "1/2"}).exitCode, 2);
    }

    void mergeNamesBadShards() {
        const QStringList cmd = minimizeCommand();
        shardsMatchOneRun(cmd, 3, 1, "bad");
        const QString s1 = path("bad_shard1.sdf"), s2 = path("bad_shard2.sdf"),
                      s3 = path("bad_shard3.sdf"), out = path("bad_out.sdf");
        struct Case {
            QStringList inputs;
            QString message;
        };
        QFile::copy(s1, path("bad_copy1.sdf"));
        writeAll(path("truncated.sdf"), readAll(s2).left(2000));
        shardsMatchOneRun(cmd, 2, 1, "other");
        const QList<Case> cases{
            {{s1, s3}, "missing shard 2 of 3"},
            {{s1, path("bad_copy1.sdf"), s2, s3}, "given twice"},
            {{s1, s2, s3, path("other_shard1.sdf")}, "expected shards of one run"},
            {{s1, s2, path("bad_one.sdf")}, "expected the output of a command run with --shard"},
            {{s1, path("truncated.sdf"), s3}, "truncated record"},
        };
        for (const Case& c : cases) {
            const CliRun r = runCli(QStringList{"merge", out} + c.inputs);
            QVERIFY2(r.exitCode == 1, r.err.constData());
            QVERIFY2(r.err.contains(c.message.toUtf8()), r.err.constData());
            QVERIFY(!QFile::exists(out)); // nothing half-written
        }
        // Usage errors exit 2.
        QCOMPARE(runCli({"merge", out}).exitCode, 2);
        QCOMPARE(runCli({"merge", out, s1, s1}).exitCode, 2);
        QCOMPARE(runCli(cmd + QStringList{"--shard", "3/2"}).exitCode, 2);
        QCOMPARE(runCli(cmd + QStringList{"--shard", "1/2@4"}).exitCode, 2);
        QCOMPARE(runCli(cmd + QStringList{"--shard", "1/2", "--shard-block", "0"}).exitCode, 2);
        QCOMPARE(runCli({"overlay", "--reference", testData("shapes/ref.mol"), "--fit",
                         testData("shapes/cdk2.sdf"), "--out", path("x.mol2"), "--shard", "1/2"})
                     .exitCode,
                 2);
    }
};

QTEST_GUILESS_MAIN(TestCliShard)
#include "test_cli_shard.moc"
