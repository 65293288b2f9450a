// Session autosave: written while the user works, found again after a run that did not exit
// cleanly (its PID gone), restored into a new window, and removed on a clean exit.
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "SessionAutosave.h"
#include "SessionFile.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sys/wait.h>
#include <unistd.h>

using namespace pw;

namespace {

const QString kComplex = QStringLiteral(POSEWRIGHT_TEST_DATA "/complexes/1iep/");

qint64 deadPid() {
    const pid_t child = ::fork();
    if (child == 0)
        ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);
    return child;
}

} // namespace

class TestAutosave : public QObject {
    Q_OBJECT
private slots:
    void autosavesRestoresAndCleansUp() {
        QTemporaryDir dir;
        MainWindow w;
        w.setErrorDialogsEnabled(false);
        SessionAutosave autosave(w.document(), dir.path(), 50);
        QVERIFY(autosave.recoverable().isEmpty());
        w.openLigands(kComplex + "ligand_xtal.pdbqt");
        QTRY_VERIFY_WITH_TIMEOUT(w.pendingLoads() == 0 && !w.document().ligands().empty(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosave.path()), 10000);
        const Session saved = readSession(autosave.path());
        QCOMPARE(saved.ligandPaths.size(), 1);
        QCOMPARE(int(saved.ligands.size()), 1);
        // Our own autosave is not offered: this run is still going.
        QVERIFY(autosave.recoverable().isEmpty());

        // A run that was killed left its autosave: the next start finds it.
        const QString crashed =
            dir.filePath(QStringLiteral("autosave.%1.pwsession").arg(deadPid()));
        QVERIFY(QFile::copy(autosave.path(), crashed));
        QCOMPARE(autosave.recoverable(), crashed);

        MainWindow restored;
        restored.setErrorDialogsEnabled(false);
        QSignalSpy opened(&restored, &MainWindow::sessionOpened);
        restored.openSession(crashed);
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 60000);
        QCOMPARE(opened.front().front().toBool(), true);
        QCOMPARE(restored.document().ligands().size(), size_t(1));
        QCOMPARE(restored.document().ligands()[0].atoms.size(),
                 w.document().ligands()[0].atoms.size());

        autosave.discardRecoverable();
        QVERIFY(!QFile::exists(crashed));
        QVERIFY(QFile::exists(autosave.path())); // a live run's file stays
        autosave.finish();
        QVERIFY(!QFile::exists(autosave.path()));
        QVERIFY(autosave.recoverable().isEmpty());
    }
};

QTEST_MAIN(TestAutosave)
#include "test_autosave.moc"
