// Crash safety of the app's session files (issue 16 item 4): a process killed with SIGKILL in the
// middle of a session save (held there by POSEWRIGHT_STALL_SESSION_SAVE, app/SessionFile.cpp)
// leaves the previous file byte for byte and no temporary file beside it; an app killed while it
// autosaves leaves its previous autosave, which the next start finds and restores.
// The killed processes are this test program itself, started again with a --child-... option.
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "SessionAutosave.h"
#include "SessionFile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>

using namespace pw;

namespace {

const QString kFirstLigand =
    QStringLiteral(POSEWRIGHT_TEST_DATA "/complexes/1iep/ligand_xtal.pdbqt");
const QString kSecondLigand =
    QStringLiteral(POSEWRIGHT_TEST_DATA "/complexes/1stp/ligand_xtal.pdbqt");

// A session with enough content that half of it is a real partial file.
Session sessionWithPoses(int ligands, double shift) {
    Session s;
    s.receptorPath = QStringLiteral("/nowhere/receptor.pdbqt");
    for (int i = 0; i < ligands; ++i) {
        s.ligandPaths << QStringLiteral("/nowhere/ligand%1.sdf").arg(i);
        SessionLigand l;
        for (int a = 0; a < 40; ++a)
            l.coordinates.emplace_back(a + shift, i, -a);
        s.ligands.push_back(l);
    }
    s.active = 0;
    return s;
}

QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
}

QByteArray contents(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Starts this program as a child in the given mode, with the Nth session save stalled.
void startChild(QProcess& p, const QStringList& args, int stallAt) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("POSEWRIGHT_STALL_SESSION_SAVE"), QString::number(stallAt));
    p.setProcessEnvironment(env);
    p.start(QCoreApplication::applicationFilePath(), args);
}

// Waits until the child says on stderr that its save stalled (false when it never does).
bool waitForStall(QProcess& p, QByteArray& err) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 240000 && p.state() != QProcess::NotRunning) {
        p.waitForReadyRead(100);
        err += p.readAllStandardError();
        if (err.contains("stalled (POSEWRIGHT_STALL_SESSION_SAVE)"))
            return true;
    }
    err += p.readAllStandardError();
    return false;
}

// The session at path, or nullopt with why (a half-written file does not parse).
std::optional<Session> tryRead(const QString& path, QString& why) {
    try {
        return readSession(path);
    } catch (const std::exception& e) {
        why = QString::fromUtf8(e.what());
        return std::nullopt;
    }
}

void killAndReap(QProcess& p) {
    ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
    p.waitForFinished(60000);
}

// --child-save PATH: writes a session of 20 ligands to PATH (the parent stalls the first save).
int childSave(const QString& path) {
    writeSession(path, sessionWithPoses(20, 0.5));
    return 0;
}

// --child-autosave DIR: an app window autosaving into DIR every 50 ms; opens one ligand, waits
// for that autosave, then opens a second (the parent stalls that second save and kills us).
int childAutosave(int argc, char** argv, const QString& dir) {
    QApplication app(argc, argv);
    MainWindow w;
    w.setErrorDialogsEnabled(false);
    SessionAutosave autosave(w.document(), dir, 50);
    w.openLigands(kFirstLigand);
    if (!QTest::qWaitFor([&] { return w.pendingLoads() == 0 && QFile::exists(autosave.path()); },
                         120000)) {
        std::fprintf(stderr, "child: the first autosave was never written\n");
        return 3;
    }
    w.openLigands(kSecondLigand);
    QTest::qWait(300000); // the parent kills us during the stalled autosave
    std::fprintf(stderr, "child: not killed\n");
    return 4;
}

} // namespace

class TestCrashSafety : public QObject {
    Q_OBJECT
private slots:
    void sigkillDuringSessionSaveKeepsTheOldFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("project.pws"));
        writeSession(path, sessionWithPoses(3, 0.0));
        const QByteArray old = contents(path);
        QVERIFY(!old.isEmpty());

        QProcess child;
        startChild(child, {QStringLiteral("--child-save"), path}, 1);
        QByteArray err;
        QVERIFY2(waitForStall(child, err), err.constData());
        // Half of the new session is written: the file under its name is still the old one.
        QCOMPARE(contents(path), old);
        killAndReap(child);
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        QCOMPARE(contents(path), old);
        QString why;
        const auto kept = tryRead(path, why);
        QVERIFY2(kept, qPrintable(why));
        QCOMPARE(kept->ligands.size(), size_t(3));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("project.pws")});

        // The next save (another run) replaces it completely, still with nothing beside it.
        writeSession(path, sessionWithPoses(20, 0.5));
        QCOMPARE(readSession(path).ligands.size(), size_t(20));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("project.pws")});
    }

    void sigkillDuringAutosaveRestoresThePreviousOne() {
        QTemporaryDir dir;
        QProcess child;
        startChild(child, {QStringLiteral("--child-autosave"), dir.path()}, 2);
        QByteArray err;
        QVERIFY2(waitForStall(child, err), err.constData());
        const qint64 childPid = child.processId();
        killAndReap(child);
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        // Only the killed run's first autosave is left: no temporary file of the second.
        const QString crashed = QStringLiteral("autosave.%1.pwsession").arg(childPid);
        QCOMPARE(entries(dir.path()), QStringList{crashed});
        QString why;
        const auto read = tryRead(dir.filePath(crashed), why);
        QVERIFY2(read, qPrintable("the previous autosave was damaged: " + why));
        const Session& saved = *read;
        QCOMPARE(saved.ligandPaths, QStringList{kFirstLigand});

        // The next start finds it and restores it, as main.cpp does after the user says yes.
        MainWindow restored;
        restored.setErrorDialogsEnabled(false);
        SessionAutosave autosave(restored.document(), dir.path(), 3600000);
        QCOMPARE(autosave.recoverable(), dir.filePath(crashed));
        QSignalSpy opened(&restored, &MainWindow::sessionOpened);
        restored.openSession(autosave.recoverable());
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 120000);
        QVERIFY2(opened.front().front().toBool(), qPrintable(restored.lastError()));
        QCOMPARE(restored.document().ligands().size(), size_t(1));
        QCOMPARE(restored.document().ligands()[0].atoms.size(),
                 saved.ligands[0].coordinates.size());
        autosave.discardRecoverable();
        autosave.finish();
        QCOMPARE(entries(dir.path()), QStringList{});
    }
};

int main(int argc, char** argv) {
    if (argc == 3 && std::strcmp(argv[1], "--child-save") == 0) {
        QCoreApplication app(argc, argv);
        return childSave(QString::fromLocal8Bit(argv[2]));
    }
    if (argc == 3 && std::strcmp(argv[1], "--child-autosave") == 0)
        return childAutosave(argc, argv, QString::fromLocal8Bit(argv[2]));
    QApplication app(argc, argv);
    TestCrashSafety test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_crash_safety.moc"
