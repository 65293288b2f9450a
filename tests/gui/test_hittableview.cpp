// Qt Test for the Hits panel widget under Xvfb: clicking a header sorts, the filter bar's text and
// range filters keep the rows a brute-force scan keeps, selecting rows and pressing Export emit the
// store ids of exactly those rows, the histogram counts the visible values, and depictions are
// drawn only for painted rows and only once.
#include "GuiTestSetup.h"
#include "HitHistogram.h"
#include "HitTableModel.h"
#include "HitTableView.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

#include <cmath>
#include <numeric>
#include <random>

using namespace pw;

namespace {

constexpr int kRows = 2000;

HitColumns randomHits() {
    std::mt19937 rng(17);
    std::uniform_int_distribution<int> tenth(0, 9);
    std::uniform_real_distribution<double> score(-14.0, -3.0), mw(150.0, 650.0);
    const char* smiles[] = {"c1ccccc1O", "CCO", "CC(=O)Nc1ccccc1", "ClCCl", "c1ccncc1"};
    HitColumns h;
    HitColumn name{"name", false, {}, {}}, smi{"smiles", false, {}, {}};
    HitColumn dock{"dock_score", true, {}, {}}, weight{"mw", true, {}, {}};
    for (int i = 0; i < kRows; ++i) {
        h.rowIds.push_back(10 * i + 3);
        name.texts.push_back((i % 3 ? "hit" : "Decoy") + std::to_string(i));
        smi.texts.push_back(smiles[rng() % 5]);
        dock.numbers.push_back(tenth(rng) == 0 ? HitColumns::null() : score(rng));
        weight.numbers.push_back(mw(rng));
    }
    h.columns = {name, smi, dock, weight};
    h.nameColumn = 0;
    h.smilesColumn = 1;
    return h;
}

void clickHeader(QTableView* table, int column) {
    QHeaderView* header = table->horizontalHeader();
    const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                    header->height() / 2);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
}

} // namespace

class TestHitTableView : public QObject {
    Q_OBJECT
private slots:
    void headerClickSorts();
    void filterBarFilters();
    void selectionAndExportEmitStoreIds();
    void histogramCountsVisibleValues();
    void depictionsAreLazyAndCached();
};

void TestHitTableView::headerClickSorts() {
    HitTableView view;
    const HitColumns h = randomHits();
    view.setColumns(h);
    view.resize(900, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.table()->model()->rowCount(), kRows);
    clickHeader(view.table(), 2); // dock_score
    const auto& rows = view.model()->visibleRows();
    int nonNull = 0;
    for (int r = 0; r < kRows; ++r)
        nonNull += std::isnan(h.columns[2].numbers[size_t(r)]) ? 0 : 1;
    // Sorted one way or the other, NULLs last.
    const bool ascending = view.table()->horizontalHeader()->sortIndicatorOrder() == Qt::AscendingOrder;
    for (int i = 1; i < nonNull; ++i) {
        double a = h.columns[2].numbers[size_t(rows[size_t(i - 1)])], b = h.columns[2].numbers[size_t(rows[size_t(i)])];
        QVERIFY(ascending ? a <= b : a >= b);
    }
    for (int i = nonNull; i < kRows; ++i)
        QVERIFY(std::isnan(h.columns[2].numbers[size_t(rows[size_t(i)])]));
    clickHeader(view.table(), 2); // and the other way
    QCOMPARE(view.table()->horizontalHeader()->sortIndicatorOrder(),
             ascending ? Qt::DescendingOrder : Qt::AscendingOrder);
    const double first = h.columns[2].numbers[size_t(view.model()->visibleRows()[0])];
    const double last = h.columns[2].numbers[size_t(view.model()->visibleRows()[size_t(nonNull - 1)])];
    QVERIFY(ascending ? first >= last : first <= last);
}

void TestHitTableView::filterBarFilters() {
    HitTableView view;
    const HitColumns h = randomHits();
    view.setColumns(h);
    view.show();
    auto* text = view.findChild<QLineEdit*>("hitTextFilter");
    auto* column = view.findChild<QComboBox*>("hitRangeColumn");
    auto* min = view.findChild<QLineEdit*>("hitRangeMin");
    auto* max = view.findChild<QLineEdit*>("hitRangeMax");
    auto* apply = view.findChild<QPushButton*>("hitRangeApply");
    auto* clear = view.findChild<QPushButton*>("hitClearFilters");
    QVERIFY(text && column && min && max && apply && clear);
    QCOMPARE(column->count(), 2); // the numeric columns only
    QCOMPARE(column->itemText(0), QString("dock_score"));

    QTest::keyClicks(text, "decoy1");
    QTest::keyClicks(min, "-10.5");
    QTest::keyClicks(max, "-6");
    QTest::mouseClick(apply, Qt::LeftButton);
    int expected = 0;
    for (int r = 0; r < kRows; ++r) {
        const double s = h.columns[2].numbers[size_t(r)];
        const bool inRange = !std::isnan(s) && s >= -10.5 && s <= -6.0;
        const bool named = QString::fromStdString(h.columns[0].texts[size_t(r)]).contains("decoy1", Qt::CaseInsensitive);
        expected += inRange && named;
    }
    QVERIFY(expected > 0);
    QCOMPARE(view.table()->model()->rowCount(), expected);

    // Only a lower bound on mw, the text filter still on.
    column->setCurrentIndex(1);
    min->clear();
    max->clear();
    QTest::keyClicks(min, "400");
    QTest::mouseClick(apply, Qt::LeftButton);
    expected = 0;
    for (int r = 0; r < kRows; ++r) {
        const double s = h.columns[2].numbers[size_t(r)];
        expected += !std::isnan(s) && s >= -10.5 && s <= -6.0 && h.columns[3].numbers[size_t(r)] >= 400.0 &&
                    QString::fromStdString(h.columns[0].texts[size_t(r)]).contains("decoy1", Qt::CaseInsensitive);
    }
    QCOMPARE(view.table()->model()->rowCount(), expected);

    // SMILES match as written.
    QTest::mouseClick(clear, Qt::LeftButton);
    QCOMPARE(view.table()->model()->rowCount(), kRows);
    QTest::keyClicks(text, "ccncc");
    expected = 0;
    for (int r = 0; r < kRows; ++r)
        expected += h.columns[1].texts[size_t(r)] == "c1ccncc1";
    QCOMPARE(view.table()->model()->rowCount(), expected);
}

void TestHitTableView::selectionAndExportEmitStoreIds() {
    HitTableView view;
    const HitColumns h = randomHits();
    view.setColumns(h);
    view.resize(900, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy selected(&view, &HitTableView::selectionChanged);
    QSignalSpy exported(&view, &HitTableView::exportRequested);
    auto* exportButton = view.findChild<QPushButton*>("hitExport");
    QVERIFY(exportButton && !exportButton->isEnabled());

    view.model()->sortByData(3, Qt::DescendingOrder); // heaviest first
    QTableView* table = view.table();
    // Click row 0, ctrl-click row 2.
    auto cellCentre = [table](int row) { return table->visualRect(table->model()->index(row, 0)).center(); };
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellCentre(0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::ControlModifier, cellCentre(2));
    QVERIFY(selected.count() >= 2);
    const QList<qint64> expectedIds = {h.rowIds[size_t(view.model()->sourceRow(0))],
                                       h.rowIds[size_t(view.model()->sourceRow(2))]};
    QCOMPARE(selected.last().at(0).value<QList<qint64>>(), expectedIds);
    QVERIFY(exportButton->isEnabled());

    QTest::mouseClick(exportButton, Qt::LeftButton);
    QCOMPARE(exported.count(), 1);
    QCOMPARE(exported.at(0).at(0).value<QList<qint64>>(), expectedIds);

    // A sort keeps the selection on the same hits.
    view.model()->sortByData(3, Qt::AscendingOrder);
    QList<qint64> afterSort = view.selectedRowIds();
    std::sort(afterSort.begin(), afterSort.end());
    QList<qint64> sortedExpected = expectedIds;
    std::sort(sortedExpected.begin(), sortedExpected.end());
    QCOMPARE(afterSort, sortedExpected);
}

void TestHitTableView::histogramCountsVisibleValues() {
    HitTableView view;
    const HitColumns h = randomHits();
    view.setColumns(h);
    view.show();
    QVERIFY(!view.histogram()->isVisible());
    view.model()->setRangeFilter(3, 200.0, 300.0);
    QTest::mouseClick(view.findChild<QPushButton*>("hitHistogramButton"), Qt::LeftButton); // dock_score
    QVERIFY(view.histogram()->isVisible());
    QCOMPARE(view.histogram()->title(), QString("dock_score"));
    int expected = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int r = 0; r < kRows; ++r) {
        const double s = h.columns[2].numbers[size_t(r)], m = h.columns[3].numbers[size_t(r)];
        if (m >= 200.0 && m <= 300.0 && !std::isnan(s)) {
            ++expected;
            lo = std::min(lo, s);
            hi = std::max(hi, s);
        }
    }
    const auto& counts = view.histogram()->counts();
    QCOMPARE(std::accumulate(counts.begin(), counts.end(), 0), expected);
    QCOMPARE(view.histogram()->valueCount(), expected);
    QCOMPARE(view.histogram()->minimum(), lo);
    QCOMPARE(view.histogram()->maximum(), hi);
    QVERIFY(!view.histogram()->grab().isNull()); // paints without trouble

    // Bins are half-open except the last: 0,1,2,3 in 2 bins over [0,3] are 2 and 2 (1.5 splits).
    HitHistogram small;
    small.setValues({0.0, 1.0, 2.0, 3.0, HitColumns::null()}, "x", 2);
    QCOMPARE(small.counts(), std::vector<int>({2, 2}));
    small.setValues({HitColumns::null()}, "x", 2);
    QVERIFY(small.counts().empty());
}

void TestHitTableView::depictionsAreLazyAndCached() {
    HitTableView view;
    HitColumns h = randomHits();
    for (size_t r = 0; r < h.rowCount(); ++r) // every row its own SMILES: no sharing of images
        h.columns[1].texts[r] = "C" + std::string(r % 50 + 1, 'C') + "O" + std::to_string(r);
    view.setColumns(h);
    int calls = 0;
    view.setDepictor([&calls](const QString& smiles, QSize size) {
        ++calls;
        QImage image(size, QImage::Format_ARGB32);
        image.fill(smiles.size() % 2 ? Qt::red : Qt::blue);
        return image;
    });
    QCOMPARE(view.model()->columnCount(), 5);
    view.resize(900, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.grab();
    const int firstPaint = calls;
    // The painted rows were drawn, and not many more (a 600 px view shows few 90 px rows).
    QVERIFY(firstPaint > 0);
    QVERIFY(firstPaint < 40);
    view.grab();
    QCOMPARE(calls, firstPaint); // cached
    view.table()->scrollToBottom();
    view.grab();
    QVERIFY(calls > firstPaint && calls < 2 * firstPaint + 10);
    const QString smiles0 = QString::fromStdString(h.columns[1].texts[0]);
    QCOMPARE(view.depictionDelegate()->depiction(smiles0, HitDepictionDelegate::kSize).pixel(0, 0),
             QColor(smiles0.size() % 2 ? Qt::red : Qt::blue).rgb());
}

QTEST_MAIN(TestHitTableView)
#include "test_hittableview.moc"
