// Qt Test for the similarity table: a 50-hit slice of NCI SMILES gives an N x N matrix with 1.0
// on the diagonal and the engine's LINGO similarity in every cell; threshold greying, clustered
// and by-hit orders, nearest neighbours, depictions of a chosen cell, a bad line reported, and
// File > Open hit list in the main window.
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "SimilarityHeatDelegate.h"
#include "SimilarityMatrixModel.h"
#include "SimilarityOrder.h"
#include "SimilarityPanel.h"
#include "SimilarityPart.h"
#include "StructureDepictionView.h"
#include "ViewEnvironment.h"
#include "chem/LingoSmiles.h"
#include "chem/MoleculeSmiles.h"
#include "lingo/LingoSet.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QListWidget>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace pw;

namespace {

const QString kNci = QStringLiteral(POSEWRIGHT_TEST_DATA "/smiles/nci_first_300.smi");
const QString kBad = QStringLiteral(POSEWRIGHT_TEST_DATA "/similarity/hits_with_bad_line.smi");

// The first `lines` lines of the NCI file in a temporary file.
QString slice(const QTemporaryDir& dir, int lines) {
    QFile in(kNci);
    if (!in.open(QIODevice::ReadOnly))
        return {};
    const QString path = dir.filePath(QStringLiteral("slice.smi"));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    for (int i = 0; i < lines && !in.atEnd(); ++i)
        out.write(in.readLine());
    return path;
}

bool load(SimilarityPanel& panel, const QString& path) {
    QSignalSpy done(&panel, &SimilarityPanel::finished);
    panel.openSmilesFile(path);
    return done.wait(60000) && done.first().first().toBool();
}

// Number of pixels that are neither white nor (almost) the background.
int inkPixels(QWidget* w) {
    const QImage img = w->grab().toImage();
    int ink = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if (qGray(img.pixel(x, y)) < 160)
                ++ink;
    return ink;
}

} // namespace

class SimilarityTest : public QObject {
    Q_OBJECT
private slots:
    void matrixMatchesEngine();
    void thresholdGreysCells();
    void ordersAndNeighbours();
    void cellShowsDepictions();
    void badLineIsReportedAndSkipped();
    void clusteredOrderKeepsGroupsTogether();
    void cancelKeepsPreviousTable();
    void mainWindowOpensHitList();
};

void SimilarityTest::matrixMatchesEngine() {
    QTemporaryDir dir;
    const QString path = slice(dir, 50);
    SimilarityPanel panel;
    QVERIFY(load(panel, path));
    SimilarityMatrixModel* m = panel.model();
    QCOMPARE(m->rowCount(), 50);
    QCOMPARE(m->columnCount(), 50);
    // The engine's own answer: canonicalise the same file and compare pairs with LingoSet.
    const LingoMolecules mols = readLingoSmiles(path.toStdString(), 1);
    QCOMPARE(int(mols.canonical.size()), 50);
    const lingo::LingoSet set = lingo::LingoSet::fromCanonicalSmiles(mols.canonical);
    for (int i = 0; i < 50; ++i) {
        QCOMPARE(m->index(i, i).data(SimilarityMatrixModel::SimilarityRole).toDouble(), 1.0);
        for (int j = 0; j < 50; j += 7) {
            const double cell =
                m->index(i, j).data(SimilarityMatrixModel::SimilarityRole).toDouble();
            QCOMPARE(cell, double(lingo::similarity(set, size_t(i), set, size_t(j))));
        }
    }
    // Not a constant matrix: LINGO separates these molecules.
    std::set<double> distinct;
    for (int j = 0; j < 50; ++j)
        distinct.insert(m->index(0, j).data(SimilarityMatrixModel::SimilarityRole).toDouble());
    QVERIFY(distinct.size() > 5);
    QCOMPARE(m->headerData(1, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("2"));
}

void SimilarityTest::thresholdGreysCells() {
    QTemporaryDir dir;
    SimilarityPanel panel;
    QVERIFY(load(panel, slice(dir, 30)));
    SimilarityMatrixModel* m = panel.model();
    auto countBelow = [m] {
        int below = 0;
        for (int i = 0; i < m->rowCount(); ++i)
            for (int j = 0; j < m->columnCount(); ++j)
                below += m->index(i, j).data(SimilarityMatrixModel::BelowThresholdRole).toBool();
        return below;
    };
    QCOMPARE(countBelow(), 0);
    panel.thresholdBox()->setValue(0.3);
    const int below = countBelow();
    QVERIFY(below > 0);
    QVERIFY(below < 30 * 30 - 30); // the diagonal (1.0) always stays
    for (int i = 0; i < 30; ++i)
        for (int j = 0; j < 30; ++j) {
            const QModelIndex c = m->index(i, j);
            const bool grey = c.data(SimilarityMatrixModel::BelowThresholdRole).toBool();
            QCOMPARE(grey, c.data(SimilarityMatrixModel::SimilarityRole).toDouble() < 0.3);
            QCOMPARE(c.data(Qt::DisplayRole).toString().isEmpty(), grey);
        }
    // The delegate paints a greyed cell grey and a kept cell in its heat colour.
    panel.resize(900, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTableView* t = panel.table();
    QModelIndex greyCell, keptCell;
    for (int j = 1; j < 30 && !greyCell.isValid(); ++j)
        if (m->index(0, j).data(SimilarityMatrixModel::BelowThresholdRole).toBool())
            greyCell = m->index(0, j);
    keptCell = m->index(0, 0);
    QVERIFY(greyCell.isValid());
    t->scrollTo(greyCell);
    const QImage img = t->viewport()->grab().toImage();
    const QRect gr = t->visualRect(greyCell);
    QCOMPARE(QColor(img.pixel(gr.left() + 4, gr.top() + 4)),
             SimilarityHeatDelegate::belowThresholdColor());
    t->scrollTo(keptCell);
    const QImage img2 = t->viewport()->grab().toImage();
    const QRect kr = t->visualRect(keptCell);
    QCOMPARE(QColor(img2.pixel(kr.left() + 4, kr.top() + 4)).rgb(),
             SimilarityHeatDelegate::heatColor(1.0).rgb());
}

void SimilarityTest::ordersAndNeighbours() {
    QTemporaryDir dir;
    SimilarityPanel panel;
    QVERIFY(load(panel, slice(dir, 40)));
    SimilarityMatrixModel* m = panel.model();
    panel.choosePair(5, 5);
    panel.orderBox()->setCurrentIndex(SimilarityPanel::ByChosenHit);
    QCOMPARE(m->hitAt(0), 5);
    for (int p = 1; p + 1 < 40; ++p)
        QVERIFY(m->similarity(5, m->hitAt(p)) >= m->similarity(5, m->hitAt(p + 1)));
    // Diagonal stays 1.0 in any order (rows and columns share the permutation).
    for (int p = 0; p < 40; ++p)
        QCOMPARE(m->index(p, p).data(SimilarityMatrixModel::SimilarityRole).toDouble(), 1.0);
    // Clicking a column header sorts by that column's hit.
    const int hit = m->hitAt(10);
    emit panel.table()->horizontalHeader()->sectionClicked(10);
    QCOMPARE(m->hitAt(0), hit);
    // Neighbours: best first, the chosen hit not among them.
    QListWidget* nn = panel.neighbourList();
    QVERIFY(nn->count() > 0);
    float previous = 2.0f;
    for (int i = 0; i < nn->count(); ++i) {
        const int other = nn->item(i)->data(Qt::UserRole).toInt();
        QVERIFY(other != hit);
        QVERIFY(m->similarity(hit, other) <= previous);
        previous = m->similarity(hit, other);
    }
    // The threshold also filters the neighbours.
    panel.thresholdBox()->setValue(0.99);
    for (int i = 0; i < nn->count(); ++i)
        QVERIFY(m->similarity(hit, nn->item(i)->data(Qt::UserRole).toInt()) >= 0.99f);
    panel.orderBox()->setCurrentIndex(SimilarityPanel::InputOrder);
    QCOMPARE(m->hitAt(7), 7);
}

void SimilarityTest::cellShowsDepictions() {
    QTemporaryDir dir;
    SimilarityPanel panel;
    QVERIFY(load(panel, slice(dir, 20)));
    panel.resize(1000, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCOMPARE(inkPixels(panel.depictionA()), 0);
    // Choose the cell (row of hit 1, column of hit 2) the way a user does.
    panel.table()->setCurrentIndex(panel.model()->index(1, 2));
    QCOMPARE(panel.chosenHit(), 1);
    const StructureDrawing& a = panel.depictionA()->drawing();
    const StructureDrawing& b = panel.depictionB()->drawing();
    // Hit 1 is S(SC1=NC2=CC=CC=C2S1)C3=NC4=C(S3)C=CC=C4: 20 heavy atoms, 23 bonds, kekulised;
    // hit 2 is 2-chloro-4,6-dinitrophenol: 14 heavy atoms.
    QCOMPARE(a.atoms.size(), 20);
    QCOMPARE(a.bonds.size(), 23);
    QVERIFY(
        std::any_of(a.bonds.begin(), a.bonds.end(), [](const auto& x) { return x.order == 2; }));
    QCOMPARE(b.atoms.size(), 14);
    QVERIFY(inkPixels(panel.depictionA()) > 50);
    QVERIFY(inkPixels(panel.depictionB()) > 50);
}

void SimilarityTest::badLineIsReportedAndSkipped() {
    SimilarityPanel panel;
    QVERIFY(load(panel, kBad));
    QCOMPARE(panel.model()->hitCount(), 30);
    const QString msg = panel.messages();
    QVERIFY2(msg.contains(QStringLiteral("hits_with_bad_line.smi:21")), qPrintable(msg));
    QVERIFY2(msg.contains(QStringLiteral("1 line(s) skipped")), qPrintable(msg));
    // The hit after the bad line is NCI 21, kept under its own name.
    QCOMPARE(panel.model()->headerData(20, Qt::Vertical, Qt::DisplayRole).toString(),
             QStringLiteral("21"));
    // A missing file: an error, the previous table kept.
    QSignalSpy done(&panel, &SimilarityPanel::finished);
    panel.openSmilesFile(QStringLiteral("/nonexistent/hits.smi"));
    QVERIFY(done.wait(20000));
    QCOMPARE(done.first().first().toBool(), false);
    QVERIFY(panel.messages().contains(QStringLiteral("/nonexistent/hits.smi")));
    QCOMPARE(panel.model()->hitCount(), 30);
}

void SimilarityTest::clusteredOrderKeepsGroupsTogether() {
    // Two groups {0,2,4} and {1,3}, strongly similar inside, weakly across.
    const int n = 5;
    std::vector<float> m(n * n, 0.1f);
    auto set = [&](int i, int j, float s) { m[i * n + j] = m[j * n + i] = s; };
    for (int i = 0; i < n; ++i)
        set(i, i, 1.0f);
    set(0, 2, 0.9f), set(0, 4, 0.8f), set(2, 4, 0.85f), set(1, 3, 0.7f);
    QCOMPARE(clusteredOrder(m.data(), n), (std::vector<int>{0, 2, 4, 1, 3}));
    QCOMPARE(orderBySimilarityTo(m.data(), n, 4), (std::vector<int>{4, 2, 0, 1, 3}));
    const auto nn = nearestNeighbours(m.data(), n, 0, 1);
    QCOMPARE(int(nn.size()), 1);
    QCOMPARE(nn[0].first, 2);
}

void SimilarityTest::cancelKeepsPreviousTable() {
    QTemporaryDir dir;
    SimilarityPanel panel;
    QVERIFY(load(panel, slice(dir, 10)));
    QSignalSpy done(&panel, &SimilarityPanel::finished);
    panel.openSmilesFile(kNci);
    QVERIFY(panel.busy());
    panel.cancel();
    QVERIFY(done.wait(60000));
    QCOMPARE(done.first().first().toBool(), false);
    QVERIFY2(panel.messages().contains(QStringLiteral("cancelled")), qPrintable(panel.messages()));
    QCOMPARE(panel.model()->hitCount(), 10);
    // Not cancelled, the same file gives all 300 hits.
    QVERIFY(load(panel, kNci));
    QCOMPARE(panel.model()->hitCount(), 300);
}

void SimilarityTest::mainWindowOpensHitList() {
    MainWindow w;
    w.show();
    auto* action = w.findChild<QAction*>(QStringLiteral("openHitListAction"));
    QVERIFY(action);
    QVERIFY(w.part<SimilarityPart>()->panel());
    QSignalSpy done(w.part<SimilarityPart>()->panel(), &SimilarityPanel::finished);
    w.part<SimilarityPart>()->openHitList(kBad);
    QVERIFY(done.wait(60000));
    QVERIFY(done.first().first().toBool());
    QCOMPARE(w.part<SimilarityPart>()->panel()->model()->hitCount(), 30);
    QVERIFY(w.part<SimilarityPart>()->panel()->isVisible());

    // The loaded ligands (47 CDK2 ligands from an SDF) as the hit list.
    QSignalSpy loaded(&w, &MainWindow::loadFinished);
    w.openLigands(QStringLiteral(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf"));
    QVERIFY(loaded.wait(60000));
    QCOMPARE(int(w.document().ligands().size()), 47);
    done.clear();
    auto* ligands = w.findChild<QAction*>(QStringLiteral("ligandSimilarityAction"));
    QVERIFY(ligands);
    ligands->trigger();
    QVERIFY(done.wait(60000));
    QVERIFY2(done.first().first().toBool(),
             qPrintable(w.part<SimilarityPart>()->panel()->messages()));
    SimilarityMatrixModel* m = w.part<SimilarityPart>()->panel()->model();
    QCOMPARE(m->hitCount(), 47);
    QCOMPARE(m->headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(),
             QStringLiteral("ZINC03814457"));
    // Each cell is the LINGO similarity of the RDKit SMILES of the two ligands.
    const std::string s0 = moleculeSmiles(w.document().ligands()[0]);
    const std::string s9 = moleculeSmiles(w.document().ligands()[9]);
    QCOMPARE(double(m->similarity(0, 9)),
             double(lingo::tanimoto(lingo::makeProfile(s0), lingo::makeProfile(s9))));
    QCOMPARE(double(m->similarity(9, 9)), 1.0);
}

QTEST_MAIN(SimilarityTest)
#include "test_similarity.moc"
