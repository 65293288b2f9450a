// Qt Test for the workflow parts' pieces of the session file: a session saved with a hit list in
// the similarity table and a file in the shape overlay reopens with both shown again; a session
// with a piece of a part this build lacks still opens; a bad "parts" entry is refused clearly.
#include "ExampleWindow.h"
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "OverlayPanel.h"
#include "OverlayPart.h"
#include "SimilarityMatrixModel.h"
#include "SimilarityPanel.h"
#include "SimilarityPart.h"
#include "StartupFiles.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace pw;

namespace {

const QString kHits = QStringLiteral(POSEWRIGHT_TEST_DATA "/similarity/hits_with_bad_line.smi");
const QString kShapes = QStringLiteral(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf");

// A signal that may already have come (a restore can finish before the caller waits).
bool received(QSignalSpy& spy, int timeoutMs) {
    return !spy.isEmpty() || spy.wait(timeoutMs);
}

bool openSession(MainWindow& w, const QString& path) {
    w.setErrorDialogsEnabled(false);
    w.show();
    QSignalSpy opened(&w, &MainWindow::sessionOpened);
    w.openSession(path);
    return received(opened, 60000) && opened.front().front().toBool();
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

class TestPartSession : public QObject {
    Q_OBJECT

private slots:
    void eachPartsStateComesBack();
    void pieceOfAnUnknownPartIsIgnored();
    void badPartsEntryIsRefused();
};

void TestPartSession::eachPartsStateComesBack() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("parts.pwsession"));
    int hits = 0;
    int bestFit = -1;
    {
        MainWindow w;
        QVERIFY(openExample(w));
        auto* similarity = w.part<SimilarityPart>();
        auto* overlay = w.part<OverlayPart>();
        QVERIFY(similarity && overlay);
        QSignalSpy hitsDone(similarity->panel(), &SimilarityPanel::finished);
        similarity->openHitList(kHits);
        QVERIFY(received(hitsDone, 60000));
        hits = similarity->panel()->model()->hitCount();
        QVERIFY(hits > 0);
        QSignalSpy overlayDone(overlay->panel(), &OverlayPanel::finished);
        overlay->openFile(kShapes);
        QVERIFY(received(overlayDone, 120000));
        QVERIFY(overlayDone.front().front().toBool());
        bestFit = overlay->panel()->result().ranking.front();
        QVERIFY(w.saveSession(path));
    }
    // The pieces are in the file under the parts' names.
    const QJsonObject parts = readJson(path)[QStringLiteral("parts")].toObject();
    QVERIFY(parts.contains(QStringLiteral("similarity")));
    QVERIFY(parts.contains(QStringLiteral("overlay")));
    // Relative to the session's folder, like the receptor and ligand files: a project can move.
    const QString hitList =
        parts[QStringLiteral("similarity")][QStringLiteral("hitList")].toString();
    QVERIFY2(QDir::isRelativePath(hitList), qPrintable(hitList));
    QVERIFY(
        QDir::isRelativePath(parts[QStringLiteral("overlay")][QStringLiteral("file")].toString()));

    MainWindow reopened;
    auto* similarity = reopened.part<SimilarityPart>();
    auto* overlay = reopened.part<OverlayPart>();
    QVERIFY(similarity->dock()->isHidden() && overlay->dock()->isHidden());
    QSignalSpy hitsDone(similarity->panel(), &SimilarityPanel::finished);
    QSignalSpy overlayDone(overlay->panel(), &OverlayPanel::finished);
    QVERIFY2(openSession(reopened, path), qPrintable(reopened.lastError()));
    QVERIFY(received(hitsDone, 60000));
    QCOMPARE(similarity->panel()->model()->hitCount(), hits);
    QVERIFY(similarity->dock()->isVisible());
    QVERIFY(received(overlayDone, 120000));
    QVERIFY(overlayDone.front().front().toBool());
    QCOMPARE(overlay->panel()->result().ranking.front(), bestFit);
    QVERIFY(overlay->dock()->isVisible());
}

void TestPartSession::pieceOfAnUnknownPartIsIgnored() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("plain.pwsession"));
    {
        MainWindow w;
        QVERIFY(openExample(w));
        QVERIFY(w.saveSession(path));
    }
    // Saved by a build with a workflow this one leaves out (or a later one).
    QJsonObject root = readJson(path);
    QVERIFY(!root.contains(QStringLiteral("parts"))); // nothing shown: no piece written
    root[QStringLiteral("parts")] =
        QJsonObject{{QStringLiteral("docking"), QJsonObject{{QStringLiteral("runs"), 10}}}};
    writeJson(path, root);
    MainWindow reopened;
    QVERIFY2(openSession(reopened, path), qPrintable(reopened.lastError()));
    QCOMPARE(reopened.document().ligands().size(), size_t(1));
    QVERIFY(reopened.part<SimilarityPart>()->dock()->isHidden());
}

void TestPartSession::badPartsEntryIsRefused() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.pwsession"));
    {
        MainWindow w;
        QVERIFY(openExample(w));
        QVERIFY(w.saveSession(path));
    }
    QJsonObject root = readJson(path);
    root[QStringLiteral("parts")] = QStringLiteral("overlay");
    writeJson(path, root);
    MainWindow reopened;
    QVERIFY(!openSession(reopened, path));
    QVERIFY2(reopened.lastError().contains(QStringLiteral("bad.pwsession")) &&
                 reopened.lastError().contains(QStringLiteral("\"parts\"")),
             qPrintable(reopened.lastError()));
    QVERIFY(reopened.document().ligands().empty()); // the document is as it was
}

QTEST_MAIN(TestPartSession)
#include "test_partsession.moc"
