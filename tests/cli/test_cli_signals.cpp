// posewright-cli minimize stopped midway: SIGKILL leaves no output (only a temporary file that the
// next run removes), SIGINT and SIGTERM stop with a message, exit 128 + signal and leave nothing.
// A SIGKILL around the final rename (held there by the POSEWRIGHT_STALL_OUTPUT hook) leaves the
// old output byte for byte or the new one whole.
#include "cli/CliRun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace pw::test;

namespace {

QStringList files(const QTemporaryDir& dir) {
    return QDir(dir.path()).entryList(QDir::Files | QDir::Hidden, QDir::Name);
}

QStringList minimizeArgs(const QString& out, int copies) {
    QStringList args{"minimize",
                     "--receptor",
                     testData("complexes/1iep/receptor.pdbqt"),
                     "--box",
                     testData("complexes/1iep/box.txt"),
                     "--device",
                     "cpu",
                     "--threads",
                     "1",
                     "--out",
                     out,
                     "--ligands"};
    for (int i = 0; i < copies; ++i)
        args << testData("complexes/1iep/ligand_xtal.sdf");
    return args;
}

// Starts a long minimize into dir/out.sdf and returns once its spool file exists, i.e. once it
// is writing results (false if that never happens).
bool startWriting(QProcess& p, const QTemporaryDir& dir) {
    p.start(POSEWRIGHT_CLI, minimizeArgs(dir.filePath("out.sdf"), 400));
    if (!p.waitForStarted(30000))
        return false;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 120000 && p.state() == QProcess::Running) {
        for (const QString& f : files(dir))
            if (f.startsWith(".out.sdf.pw-spool."))
                return true;
        QTest::qWait(5);
    }
    return false;
}

QByteArray contents(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The spool file of a running minimize in dir ("" while there is none).
QString spoolOf(const QTemporaryDir& dir) {
    for (const QString& f : files(dir))
        if (f.startsWith(".out.sdf.pw-spool."))
            return dir.filePath(f);
    return {};
}

// Files in dir whose names start with prefix.
QStringList filesStartingWith(const QTemporaryDir& dir, const QString& prefix) {
    QStringList found;
    for (const QString& f : files(dir))
        if (f.startsWith(prefix))
            found << f;
    return found;
}

} // namespace

class TestCliSignals : public QObject {
    Q_OBJECT
private slots:
    void sigkillLeavesNoOutputAndTheNextRunCleans() {
        QTemporaryDir dir;
        QProcess p;
        QVERIFY2(startWriting(p, dir), p.readAllStandardError().constData());
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        QVERIFY(!QFile::exists(dir.filePath("out.sdf")));
        const QStringList left = files(dir);
        QCOMPARE(left.size(), 1); // the killed run's spool: nothing could remove it
        QVERIFY(left.front().startsWith(".out.sdf.pw-spool."));

        const CliRun again = runCli(minimizeArgs(dir.filePath("out.sdf"), 1));
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(files(dir), QStringList{"out.sdf"}); // the stale spool is gone
    }

    // A result file from an earlier run is kept byte for byte whenever the next run is killed
    // (while it reads its inputs, as it starts its spool, after its first records, after many),
    // and whatever the killed run left is gone after the next run.
    void sigkillAtSeveralPointsKeepsTheOldOutput_data() {
        QTest::addColumn<int>("records"); // kill once the spool holds this many; -1: at once
        QTest::newRow("at start") << -1;
        QTest::newRow("spool created") << 0;
        QTest::newRow("1 record spooled") << 1;
        QTest::newRow("100 records spooled") << 100;
    }
    void sigkillAtSeveralPointsKeepsTheOldOutput() {
        QFETCH(int, records);
        QTemporaryDir dir;
        const QString out = dir.filePath("out.sdf");
        const QByteArray old = "an earlier run's results\n$$$$\n";
        {
            QFile f(out);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(old) == old.size());
        }
        // 1000 records in chunks of 8: the spool grows while the run goes on (1.4 s for 400
        // here in a Release build, 20 times that under ASan), so there is time to see it grow.
        QStringList args = minimizeArgs(out, 1000);
        args.insert(1, "--chunk");
        args.insert(2, "8");
        QProcess p;
        p.start(POSEWRIGHT_CLI, args);
        QVERIFY(p.waitForStarted(30000));
        if (records >= 0) {
            QElapsedTimer t;
            t.start();
            int spooled = -1;
            while (t.elapsed() < 240000 && p.state() == QProcess::Running && spooled < records) {
                const QString spool = spoolOf(dir);
                if (!spool.isEmpty())
                    spooled = int(contents(spool).count("$$$$\n"));
                QTest::qWait(5);
            }
            QVERIFY2(spooled >= records,
                     qPrintable(QString("the run ended or stalled with %1 records spooled: %2")
                                    .arg(spooled)
                                    .arg(QString::fromUtf8(p.readAllStandardError()))));
        }
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        QCOMPARE(contents(out), old);
        for (const QString& f : files(dir))
            QVERIFY2(f == "out.sdf" || f.startsWith(".out.sdf.pw-spool."), qPrintable(f));
        QVERIFY(files(dir).size() <= 2);

        const CliRun again = runCli(minimizeArgs(out, 2));
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(files(dir), QStringList{"out.sdf"}); // the killed run's spool is gone
        QCOMPARE(contents(out).count("$$$$\n"), 2);
    }

    // SIGKILL in the two windows of the final write that no timing can hit: the temporary output
    // complete but not yet renamed (the old output stays byte for byte), and the output renamed
    // but the spool not yet removed (the new output is whole). The next run removes the rest.
    void sigkillAroundTheFinalRename_data() {
        QTest::addColumn<QString>("point");
        QTest::addColumn<bool>("renamed");
        QTest::newRow("before-rename") << "before-rename" << false;
        QTest::newRow("after-rename") << "after-rename" << true;
    }
    void sigkillAroundTheFinalRename() {
        QFETCH(QString, point);
        QFETCH(bool, renamed);
        // What an uninterrupted run writes, for comparison.
        QTemporaryDir refDir;
        const CliRun ref = runCli(minimizeArgs(refDir.filePath("out.sdf"), 3));
        QCOMPARE(ref.exitCode, 0);
        const QByteArray whole = contents(refDir.filePath("out.sdf"));
        QCOMPARE(whole.count("$$$$\n"), 3);

        QTemporaryDir dir;
        const QString out = dir.filePath("out.sdf");
        const QByteArray old = "an earlier run's results\n$$$$\n";
        {
            QFile f(out);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(old) == old.size());
        }
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("POSEWRIGHT_STALL_OUTPUT", point);
        p.setProcessEnvironment(env);
        p.start(POSEWRIGHT_CLI, minimizeArgs(out, 3));
        QVERIFY(p.waitForStarted(30000));
        QByteArray err;
        QVERIFY2(waitForStall(p, err), err.constData());
        QVERIFY2(err.contains(("output " + out + " stalled " + point).toUtf8()), err.constData());

        // Held at the point: the spool is there, and the complete temporary output before the
        // rename, or the new output after it.
        QCOMPARE(filesStartingWith(dir, ".out.sdf.pw-spool.").size(), 1);
        const QStringList temps = filesStartingWith(dir, ".out.sdf.pw-tmp.");
        if (renamed) {
            QCOMPARE(temps, QStringList{});
            QCOMPARE(contents(out), whole);
        } else {
            QCOMPARE(temps.size(), 1);
            QCOMPARE(contents(dir.filePath(temps.front())), whole);
            QCOMPARE(contents(out), old);
        }

        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        QCOMPARE(contents(out), renamed ? whole : old);
        QCOMPARE(files(dir).size(), renamed ? 2 : 3); // out.sdf and what the kill left

        const CliRun again = runCli(minimizeArgs(out, 2));
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(files(dir), QStringList{"out.sdf"}); // the spool and the temporary are gone
        QCOMPARE(contents(out).count("$$$$\n"), 2);
    }

    void sigtermAndSigintStopCleanly_data() {
        QTest::addColumn<int>("signal");
        QTest::addColumn<QString>("message");
        QTest::newRow("SIGTERM") << int(SIGTERM) << "terminated (SIGTERM)";
        QTest::newRow("SIGINT") << int(SIGINT) << "interrupted (SIGINT)";
    }
    void sigtermAndSigintStopCleanly() {
        QFETCH(int, signal);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QProcess p;
        QVERIFY2(startWriting(p, dir), p.readAllStandardError().constData());
        ::kill(static_cast<pid_t>(p.processId()), signal);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 128 + signal);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains(message.toUtf8()), err.constData());
        QCOMPARE(files(dir), QStringList{});
    }
};

QTEST_GUILESS_MAIN(TestCliSignals)
#include "test_cli_signals.moc"
