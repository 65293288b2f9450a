// Qt Test for the shape overlay workspace: CDK2 ligands 0 (reference) and 1 (fit) overlaid by
// the engine, the fit's score in the table, and both translucent Gaussian isosurfaces drawn
// (green and magenta pixels where only background shows without them).
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "MoleculeView.h"
#include "OverlayPanel.h"
#include "OverlayPart.h"
#include "ViewEnvironment.h"
#include "chem/MoleculeReader.h"
#include "shape/ShapeModel.h"
#include "shape/ShapeOverlay.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QTemporaryDir>
#include <QImage>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

using namespace pw;

namespace {

struct Counts {
    int green = 0, magenta = 0;
};

// Pixels tinted the reference's green or the fit's magenta where, without the surfaces, only
// the background shows (so the ligands' own green carbons do not count).
Counts surfacePixels(const QImage& withSurfaces, const QImage& withoutSurfaces) {
    Counts c;
    const QImage a = withSurfaces.convertToFormat(QImage::Format_RGB32);
    const QImage b = withoutSurfaces.convertToFormat(QImage::Format_RGB32);
    const QColor bg = MoleculeView::backgroundColor();
    for (int y = 0; y < std::min(a.height(), b.height()); ++y)
        for (int x = 0; x < std::min(a.width(), b.width()); ++x) {
            const QColor q = QColor::fromRgb(b.pixel(x, y));
            if (std::abs(q.red() - bg.red()) + std::abs(q.green() - bg.green()) +
                    std::abs(q.blue() - bg.blue()) >
                6)
                continue;
            const QColor p = QColor::fromRgb(a.pixel(x, y));
            const int r = p.red() - bg.red(), g = p.green() - bg.green(), bl = p.blue() - bg.blue();
            if (g > r + 12 && g > bl + 12)
                ++c.green;
            if (r > g + 12 && bl > g + 12)
                ++c.magenta;
        }
    return c;
}

bool rendered(MoleculeView* v) {
    const int before = v->framesRendered();
    v->update();
    return QTest::qWaitFor([&] { return v->framesRendered() > before; }, 10000);
}

} // namespace

class OverlayTest : public QObject {
    Q_OBJECT
private slots:
    void twoCdk2LigandsShowBothSurfaces();
    void mainWindowOpensOverlayFile();
    void overlayFileSaysWhatTheReaderSkipped();
};

void OverlayTest::twoCdk2LigandsShowBothSurfaces() {
    std::vector<Molecule> all = readMolecules(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf");
    QVERIFY(all.size() >= 2);
    OverlayPanel panel;
    panel.resize(1000, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy done(&panel, &OverlayPanel::finished);
    panel.setMolecules(all[0], {all[1]});
    QVERIFY(done.wait(60000));
    QVERIFY2(done.first().first().toBool(), qPrintable(panel.messages()));
    // The table shows the engine's own score for this pair.
    const shape::ShapeOverlay engine(shape::makeShapeModel(all[0], {}), {});
    const shape::ShapeScores expected = engine.overlay(shape::makeShapeModel(all[1], {}));
    QCOMPARE(panel.table()->rowCount(), 1);
    QCOMPARE(panel.table()->item(0, 1)->text(), QString::number(expected.tanimoto, 'f', 3));
    QVERIFY(expected.tanimoto > 0.3);
    QCOMPARE(panel.shownFit(), 0);
    QCOMPARE(panel.surfaceCount(), 2);

    QVERIFY(rendered(panel.view()));
    const QImage with = panel.view()->grabImage();
    panel.setSurfacesVisible(false);
    QVERIFY(rendered(panel.view()));
    const QImage without = panel.view()->grabImage();
    const Counts c = surfacePixels(with, without);
    qInfo() << "tinted pixels: green" << c.green << "magenta" << c.magenta;
    QVERIFY2(c.green > 100 && c.magenta > 100,
             qPrintable(QStringLiteral("green %1, magenta %2").arg(c.green).arg(c.magenta)));
    // Without surfaces nothing is tinted: the measure itself can fail.
    const Counts none = surfacePixels(without, without);
    QCOMPARE(none.green + none.magenta, 0);
    panel.setSurfacesVisible(true);
    QVERIFY(rendered(panel.view()));
    panel.view()->grabImage().save(QDir::temp().filePath("posewright_overlay_test.png"));
}

void OverlayTest::mainWindowOpensOverlayFile() {
    // cdk2.sdf: 47 ligands, the first the reference; the table is sorted by shape Tanimoto.
    MainWindow w;
    w.show();
    QVERIFY(w.findChild<QAction*>(QStringLiteral("openOverlayAction")));
    QSignalSpy done(w.part<OverlayPart>()->panel(), &OverlayPanel::finished);
    w.part<OverlayPart>()->openFile(QStringLiteral(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf"));
    QVERIFY(done.wait(120000));
    QVERIFY2(done.first().first().toBool(), qPrintable(w.part<OverlayPart>()->panel()->messages()));
    QTableWidget* t = w.part<OverlayPart>()->panel()->table();
    QCOMPARE(t->rowCount(), 46);
    for (int row = 0; row + 1 < t->rowCount(); ++row)
        QVERIFY(t->item(row, 1)->text().toDouble() >= t->item(row + 1, 1)->text().toDouble());
    // Choosing a row shows that fit.
    t->setCurrentCell(5, 0);
    QCOMPARE(w.part<OverlayPart>()->panel()->shownFit(),
             w.part<OverlayPart>()->panel()->result().ranking[5]);
    // A file with one molecule only: a clear message.
    done.clear();
    w.part<OverlayPart>()->openFile(QStringLiteral(POSEWRIGHT_TEST_DATA "/shapes/ref.mol"));
    QVERIFY(done.wait(60000));
    QCOMPARE(done.first().first().toBool(), false);
    QVERIFY(w.part<OverlayPart>()->panel()->messages().contains(QStringLiteral("ref.mol")));
    QVERIFY(
        w.part<OverlayPart>()->panel()->messages().contains(QStringLiteral("at least one fit")));
}

// A file with a broken record: the overlay runs on the others and says which record was skipped
// (the panel read files without the reader's notes, so skipped records and dropped salt
// fragments went unsaid); with too few molecules left, the error names the skipped record.
void OverlayTest::overlayFileSaysWhatTheReaderSkipped() {
    QFile source(QStringLiteral(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf"));
    QVERIFY(source.open(QIODevice::ReadOnly));
    const QList<QByteArray> records = source.readAll().split('$');
    // cdk2.sdf's records end with "$$$$\n": every fourth piece starts a record.
    QList<QByteArray> molecules;
    for (int i = 0; i + 4 < records.size() && molecules.size() < 3; i += 4) {
        QByteArray r = records[i];
        if (r.startsWith('\n')) // the end of the previous "$$$$" line
            r.remove(0, 1);
        molecules << r + "$$$$\n";
    }
    QCOMPARE(molecules.size(), 3);
    const QByteArray broken = "broken\n  made by hand\n\nnot a counts line\nM  END\n$$$$\n";
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto write = [&](const QString& name, const QList<QByteArray>& parts) {
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            return QString();
        for (const QByteArray& p : parts)
            f.write(p);
        return f.fileName();
    };
    const QString mixed = write(QStringLiteral("mixed.sdf"),
                                {molecules[0], broken, molecules[1], molecules[2]});
    const QString tooFew = write(QStringLiteral("too_few.sdf"), {molecules[0], broken});
    QVERIFY(!mixed.isEmpty() && !tooFew.isEmpty());

    OverlayPanel panel;
    panel.show();
    QSignalSpy done(&panel, &OverlayPanel::finished);
    panel.openFile(mixed);
    QVERIFY(done.wait(60000));
    QVERIFY2(done.first().first().toBool(), qPrintable(panel.messages()));
    QCOMPARE(panel.table()->rowCount(), 2);
    QCOMPARE(panel.result().readerNotes.size(), 1);
    QVERIFY2(panel.messages().contains(QStringLiteral("record skipped")) &&
                 panel.messages().contains(QStringLiteral("mixed.sdf")),
             qPrintable(panel.messages()));
    QLabel* status = nullptr;
    for (QLabel* l : panel.findChildren<QLabel*>())
        if (l->text() == panel.messages())
            status = l;
    QVERIFY(status);
    QVERIFY(status->toolTip().contains(QStringLiteral("record skipped")));

    done.clear();
    panel.openFile(tooFew);
    QVERIFY(done.wait(60000));
    QCOMPARE(done.first().first().toBool(), false);
    QVERIFY2(panel.messages().contains(QStringLiteral("at least one fit")) &&
                 panel.messages().contains(QStringLiteral("record skipped")),
             qPrintable(panel.messages()));
}

QTEST_MAIN(OverlayTest)
#include "test_overlay.moc"
