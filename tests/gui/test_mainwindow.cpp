// Qt Test for the main window: on the bundled example it draws the ligand where its atoms are, a
// broken file shows its error and keeps the document, and the command line writes a screenshot.
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "MoleculeDrawings.h"
#include "MoleculeView.h"
#include "StartupFiles.h"
#include "ViewEnvironment.h"

#include <QFile>
#include <QImage>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <vector>

using pw::MainWindow;
using pw::MoleculeView;

namespace {

using Point = std::array<double, 3>;

// Waits until no load is running and a frame painted after that has been drawn.
bool waitForLoadsAndFrame(MainWindow& w, int timeoutMs = 60000) {
    if (!QTest::qWaitFor([&] { return w.pendingLoads() == 0; }, timeoutMs))
        return false;
    MoleculeView* view = w.moleculeView();
    const int before = view->framesRendered();
    view->update();
    return QTest::qWaitFor([&] { return view->framesRendered() > before; }, timeoutMs);
}

bool isBackground(QRgb c, int tolerance = 6) {
    const QColor bg = MoleculeView::backgroundColor();
    return std::abs(qRed(c) - bg.red()) <= tolerance &&
           std::abs(qGreen(c) - bg.green()) <= tolerance &&
           std::abs(qBlue(c) - bg.blue()) <= tolerance;
}

// Ligand carbons are green (DrawStyle::Ligand); nothing else in the example is.
bool isLigandGreen(QRgb c) {
    return qGreen(c) > qRed(c) + 50 && qGreen(c) > qBlue(c) + 50;
}

template <class Pred> bool anyPixelNear(const QImage& image, QPointF p, int radius, Pred pred) {
    const int cx = static_cast<int>(std::lround(p.x()));
    const int cy = static_cast<int>(std::lround(p.y()));
    for (int y = cy - radius; y <= cy + radius; ++y)
        for (int x = cx - radius; x <= cx + radius; ++x)
            if (image.valid(x, y) && (x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius &&
                pred(image.pixel(x, y)))
                return true;
    return false;
}

int countNonBackground(const QImage& image) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += isBackground(image.pixel(x, y)) ? 0 : 1;
    return n;
}

std::vector<Point> positions(const pw::Molecule& m) {
    std::vector<Point> out;
    for (const pw::Atom& a : m.atoms)
        out.push_back({a.position.x(), a.position.y(), a.position.z()});
    return out;
}

// The pixels that may show something: around each atom's projection, a disc of the on-screen
// size of `reach` Å at that atom's depth (half a bond plus a ball stays well within 2 Å).
QImage reachMask(const MoleculeView& view, QSize size, const std::vector<Point>& atoms,
                 double reach = 2.0) {
    QImage mask(size, QImage::Format_Grayscale8);
    mask.fill(0);
    QPainter painter(&mask);
    painter.setPen(Qt::NoPen);
    painter.setBrush(Qt::white);
    double up[3];
    view.renderer()->GetActiveCamera()->GetViewUp(up);
    for (const Point& a : atoms) {
        const QPointF p = view.projectToImage(a);
        const QPointF q =
            view.projectToImage({a[0] + reach * up[0], a[1] + reach * up[1], a[2] + reach * up[2]});
        const double r = std::hypot(p.x() - q.x(), p.y() - q.y()) + 3.0;
        painter.drawEllipse(p, r, r);
    }
    return mask;
}

// Samples every step-th pixel outside the mask; returns how many, and in wrong how many of
// them are not background.
int sampleOutsideMask(const QImage& image, const QImage& mask, int step, int& wrong) {
    int sampled = 0;
    wrong = 0;
    for (int y = 0; y < image.height(); y += step)
        for (int x = 0; x < image.width(); x += step) {
            if (qGray(mask.pixel(x, y)) != 0)
                continue;
            ++sampled;
            wrong += isBackground(image.pixel(x, y)) ? 0 : 1;
        }
    return sampled;
}

// Points every 0.2 Å along the 12 edges of the search box's wireframe.
std::vector<Point> boxEdgePoints(const pw::SearchBox& box) {
    std::vector<Point> out;
    for (int edge = 0; edge < 12; ++edge) {
        const int axis = edge / 4; // the edge runs along this axis, at the other two's extremes
        const int steps = static_cast<int>(box.size[axis] / 0.2);
        for (int s = 0; s <= steps; ++s) {
            Point p{};
            for (int k = 0, other = 0; k < 3; ++k) {
                const double half = box.size[k] / 2;
                if (k == axis)
                    p[k] = box.center[k] - half + box.size[k] * s / steps;
                else
                    p[k] = box.center[k] + (((edge >> other++) & 1) ? half : -half);
            }
            out.push_back(p);
        }
    }
    return out;
}

// Ligand atoms whose projection has a drawn pixel within 3 px, and carbons with a green one.
struct LigandHits {
    int atoms = 0, drawn = 0, carbons = 0, green = 0;
};

LigandHits probeLigand(const MoleculeView& view, const QImage& image, const pw::Molecule& ligand) {
    LigandHits h;
    for (const pw::Atom& a : ligand.atoms) {
        const QPointF p = view.projectToImage({a.position.x(), a.position.y(), a.position.z()});
        ++h.atoms;
        h.drawn += anyPixelNear(image, p, 3, [](QRgb c) { return !isBackground(c); }) ? 1 : 0;
        if (a.element == 6) {
            ++h.carbons;
            h.green += anyPixelNear(image, p, 4, isLigandGreen) ? 1 : 0;
        }
    }
    return h;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void rendersExampleWhereTheMoleculesAre();
    void ligandAloneLeavesTheRestBackground();
    void selectedLigandsAreShown();
    void brokenFileShowsErrorAndKeepsDocument();
    void commandLineWritesScreenshot();
    void commandLineReportsBrokenFile();

private:
    pw::StartupFiles example_;
};

void TestMainWindow::initTestCase() {
    example_ = pw::bundledExampleFiles();
    QVERIFY2(!example_.receptor.isEmpty(), "bundled example resources/examples/1stp not found");
    QCOMPARE(example_.ligands.size(), 1);
}

void TestMainWindow::rendersExampleWhereTheMoleculesAre() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openReceptor(example_.receptor);
    w.openLigands(example_.ligands);
    QVERIFY(waitForLoadsAndFrame(w));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    QVERIFY(w.document().hasReceptor());
    QVERIFY(w.document().receptor().atoms.size() > 1000);
    QCOMPARE(w.document().ligands().size(), size_t(1));
    QCOMPARE(w.ligandList()->count(), 1);

    MoleculeView* view = w.moleculeView();
    const QImage image = view->grabImage().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(image.size(), view->size() * view->devicePixelRatioF());

    // (a) Something is drawn: the pocket fills a good part of the view.
    const int drawn = countNonBackground(image);
    QVERIFY2(drawn > image.width() * image.height() / 10,
             qPrintable(QStringLiteral("only %1 non-background pixels").arg(drawn)));

    // (b) ... where the ligand is: every ligand atom's projection has drawn pixels next to it,
    // and its carbons show the ligand's green (the slab keeps the receptor from hiding it).
    const pw::Molecule& ligand = w.document().ligands().front();
    const LigandHits hits = probeLigand(*view, image, ligand);
    QCOMPARE(hits.drawn, hits.atoms);
    QVERIFY(hits.carbons >= 8);
    QVERIFY2(hits.green >= hits.carbons * 8 / 10,
             qPrintable(QStringLiteral("%1 of %2 ligand carbons green on screen")
                            .arg(hits.green)
                            .arg(hits.carbons)));

    // Far from every atom (receptor and ligand), nothing is drawn.
    std::vector<Point> all = positions(w.document().receptor());
    const std::vector<Point> lig = positions(ligand);
    all.insert(all.end(), lig.begin(), lig.end());
    // The search box's wireframe and the backbone tube between C-alpha atoms are drawn too.
    QVERIFY(w.document().box().has_value());
    const std::vector<Point> edges = boxEdgePoints(*w.document().box());
    all.insert(all.end(), edges.begin(), edges.end());
    for (const auto& trace : pw::backboneTraces(w.document().receptor()))
        for (size_t i = 1; i < trace.size(); ++i)
            all.push_back({(trace[i][0] + trace[i - 1][0]) / 2, (trace[i][1] + trace[i - 1][1]) / 2,
                           (trace[i][2] + trace[i - 1][2]) / 2});
    int wrong = 0;
    const int sampled = sampleOutsideMask(image, reachMask(*view, image.size(), all), 3, wrong);
    QCOMPARE(wrong, 0);
    // The pocket fills most of the view, but the check above must have looked at something: 339
    // samples lie beyond every atom's reach in the default window under Xvfb (1600x1000).
    QVERIFY2(sampled >= 100,
             qPrintable(QStringLiteral("only %1 pixels sampled far from atoms").arg(sampled)));
}

void TestMainWindow::ligandAloneLeavesTheRestBackground() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openLigands(example_.ligands);
    QVERIFY(waitForLoadsAndFrame(w));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    MoleculeView* view = w.moleculeView();
    const QImage image = view->grabImage().convertToFormat(QImage::Format_RGB32);
    const pw::Molecule& ligand = w.document().ligands().front();

    const LigandHits hits = probeLigand(*view, image, ligand);
    QCOMPARE(hits.drawn, hits.atoms);
    QCOMPARE(hits.green, hits.carbons);

    // Most of the view is far from the 16 atoms and the search box drawn around them (the ligand
    // plus 4 Å, as no box was given): all of it must be background.
    QVERIFY(w.document().box().has_value());
    QCOMPARE(w.document().boxSource(), pw::BoxSource::Ligand);
    // The wireframe is a thin line: a narrow band around it.
    QImage mask = reachMask(*view, image.size(), positions(ligand));
    {
        QPainter painter(&mask);
        painter.setCompositionMode(QPainter::CompositionMode_Lighten);
        painter.drawImage(0, 0,
                          reachMask(*view, image.size(), boxEdgePoints(*w.document().box()), 0.1));
    }
    int wrong = 0;
    const int sampled = sampleOutsideMask(image, mask, 2, wrong);
    QVERIFY2(sampled > image.width() * image.height() / 4 / 2,
             qPrintable(QStringLiteral("only %1 pixels sampled far from atoms").arg(sampled)));
    QCOMPARE(wrong, 0);

    // And the drawn pixels are inside the mask: the projection matches what was rendered.
    QVERIFY(countNonBackground(image) > 500);
}

void TestMainWindow::selectedLigandsAreShown() {
    // 47 CDK2 ligands: the first is shown alone; selecting a second adds it in cyan.
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openLigands(QStringLiteral(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf"));
    QVERIFY(waitForLoadsAndFrame(w));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    QCOMPARE(w.ligandList()->count(), 47);
    QCOMPARE(w.ligandList()->selectedItems().size(), 1);
    MoleculeView* view = w.moleculeView();
    const pw::Molecule& second = w.document().ligands()[5];
    auto cyanCarbons = [&] {
        const QImage image = view->grabImage().convertToFormat(QImage::Format_RGB32);
        int n = 0;
        for (const pw::Atom& a : second.atoms) {
            if (a.element != 6)
                continue;
            const QPointF p =
                view->projectToImage({a.position.x(), a.position.y(), a.position.z()});
            n += anyPixelNear(
                     image, p, 3,
                     [](QRgb c) { return qBlue(c) > qRed(c) + 60 && qGreen(c) > qRed(c) + 60; })
                     ? 1
                     : 0;
        }
        return n;
    };
    QCOMPARE(cyanCarbons(), 0);
    w.ligandList()->item(5)->setSelected(true);
    QVERIFY(waitForLoadsAndFrame(w));
    QVERIFY(cyanCarbons() >= 3); // overlaid on the first ligand, some carbons are hidden
}

void TestMainWindow::brokenFileShowsErrorAndKeepsDocument() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A ligand whose first atom has a letter in its x coordinate (line 9 of the file).
    QFile good(example_.ligands.front());
    QVERIFY(good.open(QIODevice::ReadOnly));
    QList<QByteArray> lines = good.readAll().split('\n');
    QVERIFY(lines.size() > 9 && lines[8].startsWith("HETATM"));
    lines[8].replace(30, 8, "   x.051");
    const QString broken = dir.filePath(QStringLiteral("broken.pdbqt"));
    QFile out(broken);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(lines.join('\n'));
    out.close();

    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openReceptor(example_.receptor);
    w.openLigands(example_.ligands);
    QVERIFY(waitForLoadsAndFrame(w));
    const size_t receptorAtoms = w.document().receptor().atoms.size();
    const QString receptorPath = w.document().receptorPath();

    QSignalSpy errors(&w, &MainWindow::errorOccurred);
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    for (const bool asReceptor : {true, false}) {
        if (asReceptor)
            w.openReceptor(broken);
        else
            w.openLigands(broken);
        QVERIFY(waitForLoadsAndFrame(w));
        // The error names the file, the line and what was expected...
        QVERIFY2(w.lastError().contains(QStringLiteral("broken.pdbqt:9")),
                 qPrintable(w.lastError()));
        QVERIFY2(w.lastError().contains(QStringLiteral("coordinates")), qPrintable(w.lastError()));
        // ... in a message box the user sees,
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("loadErrorBox"));
        QVERIFY(box);
        QVERIFY(QTest::qWaitFor([box] { return box->isVisible(); }, 5000));
        QCOMPARE(box->text(), w.lastError());
        box->close();
        QTest::qWait(0); // let deleteLater run
        // ... and the document is the one before.
        QCOMPARE(w.document().receptor().atoms.size(), receptorAtoms);
        QCOMPARE(w.document().receptorPath(), receptorPath);
        QCOMPARE(w.document().ligands().size(), size_t(1));
        QCOMPARE(w.document().ligandPaths(), example_.ligands);
        QCOMPARE(w.ligandList()->count(), 1);
    }
    QCOMPARE(errors.count(), 2);
    QCOMPARE(finished.count(), 2);
    QCOMPARE(finished.at(0).at(0).toBool(), false);

    // The view still shows the ligand where it was.
    const QImage image = w.moleculeView()->grabImage().convertToFormat(QImage::Format_RGB32);
    const LigandHits hits = probeLigand(*w.moleculeView(), image, w.document().ligands().front());
    QCOMPARE(hits.drawn, hits.atoms);
}

void TestMainWindow::commandLineWritesScreenshot() {
    const QString app = QStringLiteral(POSEWRIGHT_APP);
    if (app.isEmpty())
        QSKIP("the posewright executable is not part of this build");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("shot.png"));
    QProcess p;
    p.start(app, {QStringLiteral("--screenshot"), png, QStringLiteral("--quit")});
    QVERIFY2(p.waitForFinished(120000), "posewright did not exit");
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
             p.readAllStandardError().constData());
    QImage shot(png);
    QVERIFY2(!shot.isNull(), "no readable PNG was written");
    QVERIFY(shot.width() >= 640 && shot.height() >= 480);
    // A real picture, not a blank window: the 3D view's background and many other colours.
    QSet<QRgb> colours;
    int background = 0;
    for (int y = 0; y < shot.height(); y += 2)
        for (int x = 0; x < shot.width(); x += 2) {
            colours.insert(shot.pixel(x, y) & 0xffffff);
            background += isBackground(shot.pixel(x, y)) ? 1 : 0;
        }
    QVERIFY2(colours.size() > 200, qPrintable(QString::number(colours.size())));
    QVERIFY(background > 1000);
    // Written through a temporary file: nothing else is left in the folder.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("shot.png")});
}

void TestMainWindow::commandLineReportsBrokenFile() {
    const QString app = QStringLiteral(POSEWRIGHT_APP);
    if (app.isEmpty())
        QSKIP("the posewright executable is not part of this build");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString broken = dir.filePath(QStringLiteral("hits.sdf"));
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not a molecule\n");
    f.close();
    QProcess p;
    p.start(app, {example_.receptor, broken, QStringLiteral("--quit")});
    QVERIFY2(p.waitForFinished(120000), "posewright did not exit");
    QCOMPARE(p.exitStatus(), QProcess::NormalExit); // a crash is not an answer
    QCOMPARE(p.exitCode(), 1);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(QStringLiteral("hits.sdf:1")), qPrintable(err));
}

QTEST_MAIN(TestMainWindow)
#include "test_mainwindow.moc"
