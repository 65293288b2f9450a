// Qt Test for the hits workflow part in the main window: File > Open hit store is there; a store
// made in the test opens (read on a worker) into the Hits dock; selecting rows puts exactly those poses in the
// document (the 3D view's ligands); the selection exports to SDF; a file that is not a store gives
// the frame's error, is left as it was, and keeps the table as it was; the session keeps the store.
#include "Document.h"
#include "GuiTestSetup.h"
#include "HitTableModel.h"
#include "HitTableView.h"
#include "HitsPart.h"
#include "MainWindow.h"
#include "hits/HitImport.h"
#include "hits/HitsTestData.h"

#include <QAction>
#include <QDockWidget>
#include <QDir>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace pw;
using namespace pw::hits;
using namespace pw::test;

class TestHitsPart : public QObject {
    Q_OBJECT
private slots:
    void opensSelectsShowsAndExports();
    void refusesAFileThatIsNotAStore();
};

namespace {

QString makeStore(const QTemporaryDir& dir) {
    const QString sdf = dir.filePath("poses.sdf");
    writeText(sdf, ethanolRecord("alpha", tag("dock_score", "-9.5")) +
                       ethanolRecord("beta", tag("dock_score", "-7.25")) +
                       ethanolRecord("gamma", tag("dock_score", "-8")));
    const QString db = dir.filePath("hits.db");
    HitStore store(db.toStdString(), HitStore::Mode::Create);
    HitStore::Transaction tx(store);
    importSdf(store, sdf.toStdString(), {});
    tx.commit();
    return db;
}

// Opens on the worker and waits for the outcome.
bool openAndWait(HitsPart* part, const QString& path) {
    QSignalSpy opened(part, &HitsPart::storeOpened);
    part->openStore(path);
    if (!opened.wait(60000))
        qFatal("the hit store %s never finished opening", qPrintable(path));
    return opened.first().first().toBool();
}

} // namespace

void TestHitsPart::opensSelectsShowsAndExports() {
    QTemporaryDir dir;
    const QString db = makeStore(dir);
    MainWindow w;
    w.setErrorDialogsEnabled(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    HitsPart* part = w.part<HitsPart>();
    QVERIFY(part);
    QVERIFY(w.findChild<QAction*>("openHitStoreAction"));
    QVERIFY(!part->dock()->isVisible());

    QVERIFY(openAndWait(part, db));
    QVERIFY(part->dock()->isVisible());
    HitTableView* view = part->table();
    QCOMPARE(view->model()->rowCount(), 3);
    QVERIFY(view->model()->hasDepictionColumn());

    // Best score first; select gamma (-8) and alpha (-9.5) by clicking.
    const int score = view->model()->columns().indexOf("dock_score");
    view->model()->sortByData(score, Qt::AscendingOrder); // alpha, gamma, beta
    QTableView* table = view->table();
    auto centre = [table](int row) { return table->visualRect(table->model()->index(row, 2)).center(); };
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, centre(0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::ControlModifier, centre(1));
    QCOMPARE(w.document().ligands().size(), size_t(2));
    QStringList names;
    for (const Molecule& m : w.document().ligands()) {
        names << QString::fromStdString(m.name);
        QCOMPARE(m.atoms.size(), size_t(3)); // the stored pose: ethanol's three heavy atoms
    }
    names.sort();
    QCOMPARE(names, QStringList({"alpha", "gamma"}));

    const QString out = dir.filePath("picked.sdf");
    QCOMPARE(part->exportSelection(view->selectedRowIds(), out), 2L);
    const QByteArray sdf = readBytes(out);
    QCOMPARE(sdf.count("$$$$\n"), 2);
    QVERIFY(sdf.startsWith("alpha\n") && sdf.contains("$$$$\ngamma\n") && !sdf.contains("beta"));

    // The session names the store relative to the session's folder, and restores it from there.
    const QDir sessionDir(dir.path());
    QCOMPARE(part->saveState(sessionDir).value("store").toString(), sessionDir.relativeFilePath(db));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
}

void TestHitsPart::refusesAFileThatIsNotAStore() {
    QTemporaryDir dir;
    const QString db = makeStore(dir);
    const QString junk = dir.filePath("junk.db");
    writeText(junk, "this is not a SQLite database\n");
    MainWindow w;
    w.setErrorDialogsEnabled(false);
    HitsPart* part = w.part<HitsPart>();
    QVERIFY(part && openAndWait(part, db));
    QVERIFY(!openAndWait(part, junk));
    QVERIFY(!w.lastError().isEmpty());
    QVERIFY2(w.lastError().contains("junk.db"), qPrintable(w.lastError()));
    QCOMPARE(readBytes(junk), QByteArray("this is not a SQLite database\n"));
    QCOMPARE(part->table()->model()->rowCount(), 3); // the open store stays
    QCOMPARE(part->storePath(), QFileInfo(db).absoluteFilePath());
}

QTEST_MAIN(TestHitsPart)
#include "test_hitspart.moc"
