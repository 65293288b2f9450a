// posewright-cli minimize stopped midway: SIGKILL leaves no output (only a temporary file that the
// next run removes), SIGINT and SIGTERM stop with a message, exit 128 + signal and leave nothing.
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
