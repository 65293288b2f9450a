// Smoke test of an application built without one workflow part (gui_without_<part>): the window
// opens with exactly the other registered parts, loads and scores the bundled 1stp example, draws
// it, and a session saved by it reopens. Built once, linked against each posewright_app_without_*
// variant; POSEWRIGHT_LEFT_OUT and POSEWRIGHT_EXPECTED_PARTS (comma-separated) say which build it
// is.
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "MoleculeView.h"
#include "StartupFiles.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace pw;

namespace {

QStringList expectedParts() {
    return qEnvironmentVariable("POSEWRIGHT_EXPECTED_PARTS").split(',', Qt::SkipEmptyParts);
}

} // namespace

class PartSmokeTest : public QObject {
    Q_OBJECT

private slots:
    void installsExactlyTheOtherParts();
    void loadsScoresDrawsAndKeepsSessions();
};

void PartSmokeTest::installsExactlyTheOtherParts() {
    const QString leftOut = qEnvironmentVariable("POSEWRIGHT_LEFT_OUT");
    QVERIFY(!leftOut.isEmpty());
    MainWindow w;
    QVERIFY(w.part(leftOut) == nullptr);
    QStringList installed;
    for (const auto& p : w.parts())
        installed << p->name();
    QCOMPARE(installed, expectedParts());
}

void PartSmokeTest::loadsScoresDrawsAndKeepsSessions() {
    const StartupFiles files = bundledExampleFiles();
    QVERIFY2(!files.receptor.isEmpty(), "the bundled example is missing");
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("smoke.pwsession"));
    {
        MainWindow w;
        w.setErrorDialogsEnabled(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openReceptor(files.receptor);
        w.openLigands(files.ligands);
        QVERIFY(QTest::qWaitFor(
            [&] { return w.pendingLoads() == 0 && w.targetReady() && !w.busy(); }, 120000));
        QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
        QVERIFY(w.document().score(0).has_value()); // the frame scores the shown pose
        const int frames = w.moleculeView()->framesRendered();
        w.moleculeView()->update();
        QVERIFY(
            QTest::qWaitFor([&] { return w.moleculeView()->framesRendered() > frames; }, 30000));
        QVERIFY(w.saveSession(session));
    }
    MainWindow reopened;
    reopened.setErrorDialogsEnabled(false);
    reopened.show();
    QSignalSpy opened(&reopened, &MainWindow::sessionOpened);
    reopened.openSession(session);
    QVERIFY(opened.wait(60000) || !opened.isEmpty());
    QVERIFY2(opened.front().front().toBool(), qPrintable(reopened.lastError()));
    QCOMPARE(reopened.document().ligands().size(), size_t(1));
    QVERIFY(reopened.document().box().has_value());
}

QTEST_MAIN(PartSmokeTest)
#include "part_smoke.moc"
