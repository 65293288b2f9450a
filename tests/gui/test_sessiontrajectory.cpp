// Qt Test for sessions that keep trajectories (bundled 1stp example): a watched minimization's
// frames are saved with the session and come back on reopening (same energies, terms and
// coordinates; the plot and player as before); a version 1 file (no trajectories) still opens;
// a batch result's mark is kept; a damaged frame is refused with a message naming it.
#include "BatchPart.h"
#include "EnergyPlot.h"
#include "ExampleWindow.h"
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "RefinePart.h"
#include "SessionFile.h"
#include "SettingsPanel.h"
#include "StartupFiles.h"
#include "TrajectoryPlayer.h"
#include "ViewEnvironment.h"

#include <QAction>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace pw;

namespace {

bool openSessionFile(MainWindow& w, const QString& path) {
    w.setErrorDialogsEnabled(false);
    w.show();
    QSignalSpy opened(&w, &MainWindow::sessionOpened);
    w.openSession(path);
    return (opened.wait(60000) || !opened.isEmpty()) && opened.front().front().toBool();
}

QJsonObject readJson(const QString& path) {
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(f.readAll()).object();
}

void writeJson(const QString& path, const QJsonObject& root) {
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(QJsonDocument(root).toJson());
}

} // namespace

class TestSessionTrajectory : public QObject {
    Q_OBJECT

private slots:
    void reopenedSessionReplaysTheTrajectory();
    void versionOneSessionOpensWithoutFrames();
    void batchMarkIsKept();
    void damagedFrameIsRefused();
};

void TestSessionTrajectory::reopenedSessionReplaysTheTrajectory() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("watched.pwsession"));
    std::vector<TrajectoryPoint> saved;
    {
        MainWindow w;
        QVERIFY(openExample(w) && w.document().score(0).has_value());
        w.settingsPanel()->setLivePaceMs(0);
        QSignalSpy finished(w.part<RefinePart>(), &RefinePart::minimizationFinished);
        w.part<RefinePart>()->minimizeAction()->trigger();
        QVERIFY(finished.wait(120000) || !finished.isEmpty());
        QVERIFY(finished.front().front().toBool());
        saved = w.part<RefinePart>()->trajectory();
        QVERIFY(saved.size() > 2);
        QVERIFY(w.saveSession(path));
    }
    QCOMPARE(readJson(path)["version"].toInt(), 2);

    MainWindow w;
    QVERIFY2(openSessionFile(w, path), qPrintable(w.lastError()));
    // Once the grids are rebuilt the pose is rescored; the trajectory stays the ligand's.
    QVERIFY(QTest::qWaitFor([&] { return w.targetReady() && !w.busy(); }, 120000));
    const std::vector<TrajectoryPoint>& back = w.part<RefinePart>()->trajectory();
    QCOMPARE(back.size(), saved.size());
    for (size_t k = 0; k < saved.size(); ++k) {
        QCOMPARE(back[k].iteration, saved[k].iteration);
        QVERIFY(std::abs(back[k].energy - saved[k].energy) < 1e-9);
        QVERIFY(std::abs(back[k].intra - saved[k].intra) < 1e-9);
        for (int t = 0; t < kScoreTermCount; ++t)
            QVERIFY(std::abs(back[k].interTerms[t] - saved[k].interTerms[t]) < 1e-9);
        QCOMPARE(back[k].coordinates.size(), saved[k].coordinates.size());
        for (size_t a = 0; a < saved[k].coordinates.size(); ++a)
            QVERIFY((back[k].coordinates[a] - saved[k].coordinates[a]).norm() < 1e-9);
    }
    // The plot shows the curve and the player replays it, as before saving.
    const int n = static_cast<int>(saved.size());
    QCOMPARE(w.part<RefinePart>()->energyPlot()->pointCount(), n);
    QCOMPARE(w.part<RefinePart>()->energyPlot()->values(0).front(), saved.front().energy);
    QCOMPARE(w.part<RefinePart>()->player()->frameCount(), n);
    w.part<RefinePart>()->player()->setCurrentFrame(0);
    QCOMPARE(w.part<RefinePart>()->termTable()->item(0, 1)->text(),
             QString::number(saved.front().energy, 'f', 3));
    w.part<RefinePart>()->player()->play();
    QVERIFY(QTest::qWaitFor([&] { return !w.part<RefinePart>()->player()->playing(); }, 60000));
    QCOMPARE(w.part<RefinePart>()->player()->currentFrame(), n - 1);
    QCOMPARE(w.part<RefinePart>()->termTable()->item(0, 1)->text(),
             QString::number(saved.back().energy, 'f', 3));
}

void TestSessionTrajectory::versionOneSessionOpensWithoutFrames() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("old.pwsession"));
    std::vector<Vec3> pose;
    {
        MainWindow w;
        QVERIFY(openExample(w) && w.document().score(0).has_value());
        w.settingsPanel()->setLivePaceMs(0);
        QSignalSpy finished(w.part<RefinePart>(), &RefinePart::minimizationFinished);
        w.part<RefinePart>()->minimizeAction()->trigger();
        QVERIFY(finished.wait(120000) || !finished.isEmpty());
        for (const Atom& a : w.document().ligands()[0].atoms)
            pose.push_back(a.position);
        QVERIFY(w.saveSession(path));
    }
    // What the previous version wrote: no trajectory, version 1.
    QJsonObject root = readJson(path);
    QJsonArray ligands = root["ligands"].toArray();
    QJsonObject first = ligands[0].toObject();
    QVERIFY(first.contains("trajectory"));
    first.remove("trajectory");
    ligands[0] = first;
    root["ligands"] = ligands;
    root["version"] = 1;
    writeJson(path, root);

    MainWindow w;
    QVERIFY2(openSessionFile(w, path), qPrintable(w.lastError()));
    QCOMPARE(w.document().ligands().size(), size_t(1));
    const Molecule& m = w.document().ligands()[0];
    QCOMPARE(m.atoms.size(), pose.size());
    for (size_t a = 0; a < pose.size(); ++a)
        QVERIFY((m.atoms[a].position - pose[a]).norm() < 1e-9);
    QVERIFY(w.part<RefinePart>()->trajectory().empty());
    QCOMPARE(w.part<RefinePart>()->player()->frameCount(), 0);
    QCOMPARE(w.part<RefinePart>()->energyPlot()->pointCount(), 0);
}

void TestSessionTrajectory::batchMarkIsKept() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("batch.pwsession"));
    {
        MainWindow w;
        QVERIFY(openExample(w) && w.document().score(0).has_value());
        w.settingsPanel()->setDevice(QStringLiteral("cpu"));
        QSignalSpy finished(w.part<BatchPart>(), &BatchPart::batchRefinementFinished);
        w.part<BatchPart>()->refineAllAction()->trigger();
        QVERIFY(finished.wait(120000) || !finished.isEmpty());
        QVERIFY2(finished.front().front().toBool(), qPrintable(w.lastError()));
        QVERIFY(w.part<RefinePart>()->trajectoryNote()->text().startsWith(
            QStringLiteral("Batch result")));
        QVERIFY(w.saveSession(path));
    }
    const QJsonObject ligand = readJson(path)["ligands"].toArray()[0].toObject();
    QVERIFY(ligand["batchDevice"].toString().startsWith(QStringLiteral("CPU")));
    QVERIFY(!ligand.contains("trajectory"));
    MainWindow w;
    QVERIFY2(openSessionFile(w, path), qPrintable(w.lastError()));
    QVERIFY2(w.part<RefinePart>()->trajectoryNote()->text().startsWith(
                 QStringLiteral("Batch result (CPU")),
             qPrintable(w.part<RefinePart>()->trajectoryNote()->text()));
    QVERIFY(w.part<RefinePart>()->trajectory().empty());
}

void TestSessionTrajectory::damagedFrameIsRefused() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("damaged.pwsession"));
    {
        MainWindow w;
        QVERIFY(openExample(w) && w.document().score(0).has_value());
        w.settingsPanel()->setLivePaceMs(0);
        QSignalSpy finished(w.part<RefinePart>(), &RefinePart::minimizationFinished);
        w.part<RefinePart>()->minimizeAction()->trigger();
        QVERIFY(finished.wait(120000) || !finished.isEmpty());
        QVERIFY(w.saveSession(path));
    }
    // Frame 2 loses an atom: the file is refused, naming the ligand and the frame.
    QJsonObject root = readJson(path);
    QJsonArray ligands = root["ligands"].toArray();
    QJsonObject first = ligands[0].toObject();
    QJsonArray frames = first["trajectory"].toArray();
    QJsonObject frame = frames[1].toObject();
    QJsonArray coords = frame["coordinates"].toArray();
    for (int k = 0; k < 3; ++k)
        coords.removeLast();
    frame["coordinates"] = coords;
    frames[1] = frame;
    first["trajectory"] = frames;
    ligands[0] = first;
    root["ligands"] = ligands;
    writeJson(path, root);
    const RestoredSession r = restoreSession(path);
    QVERIFY2(r.error.contains(QStringLiteral("damaged.pwsession")), qPrintable(r.error));
    QVERIFY2(r.error.contains(QStringLiteral("ligand 1, trajectory frame 2")), qPrintable(r.error));
    QVERIFY(r.ligands.empty());
}

QTEST_MAIN(TestSessionTrajectory)
#include "test_sessiontrajectory.moc"
