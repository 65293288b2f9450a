// Qt Test for the hit table model: on a few thousand random rows (ties, NULLs, text columns),
// sorting and filtering equal a brute-force reference written independently of the model; the
// selection follows its rows through a sort; a malformed table is refused.
#include "GuiTestSetup.h"
#include "HitTableModel.h"

#include <QItemSelectionModel>
#include <QtTest>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <random>

using namespace pw;

namespace {

constexpr int kRows = 3000;

// Random hits: a score with many ties and 10% NULLs, a molecular weight, a name, a SMILES and a
// text column with blanks.
HitColumns randomHits(unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> tenth(0, 9);
    std::uniform_real_distribution<double> weight(150.0, 650.0);
    std::uniform_int_distribution<int> halfSteps(-30, -4);
    const char* fragments[] = {"c1ccccc1", "CCO", "C(=O)N", "Cl", "c1ccncc1", "OC", "N"};
    std::uniform_int_distribution<int> fragment(0, 6);

    HitColumns h;
    HitColumn name{"name", false, {}, {}}, smiles{"smiles", false, {}, {}};
    HitColumn score{"dock_score", true, {}, {}}, mw{"mw", true, {}, {}};
    HitColumn series{"series", false, {}, {}};
    for (int i = 0; i < kRows; ++i) {
        h.rowIds.push_back(1000 + i);
        name.texts.push_back((tenth(rng) < 5 ? "ZINC" : "Mol") + std::to_string(rng() % 500));
        smiles.texts.push_back(std::string(fragments[fragment(rng)]) + fragments[fragment(rng)]);
        score.numbers.push_back(tenth(rng) == 0 ? HitColumns::null() : 0.5 * halfSteps(rng));
        mw.numbers.push_back(tenth(rng) == 0 ? HitColumns::null() : weight(rng));
        series.texts.push_back(tenth(rng) < 3 ? std::string() : std::string(1, char('A' + rng() % 5)));
    }
    h.columns = {name, smiles, score, mw, series};
    h.nameColumn = 0;
    h.smilesColumn = 1;
    return h;
}

// Brute force: an unstable sort with the previous position as the last key is a stable sort.
std::vector<int> referenceSort(const HitColumns& h, std::vector<int> order, int column, bool descending) {
    std::vector<int> previous(h.rowCount());
    for (size_t i = 0; i < order.size(); ++i)
        previous[size_t(order[i])] = int(i);
    const HitColumn& c = h.columns[size_t(column)];
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        bool na = c.isNull(size_t(a)), nb = c.isNull(size_t(b));
        if (na != nb)
            return nb; // NULLs last
        if (!na) {
            int cmp = c.numeric ? (c.numbers[size_t(a)] < c.numbers[size_t(b)]   ? -1
                                   : c.numbers[size_t(b)] < c.numbers[size_t(a)] ? 1
                                                                                 : 0)
                                : c.texts[size_t(a)].compare(c.texts[size_t(b)]);
            if (cmp != 0)
                return descending ? cmp > 0 : cmp < 0;
        }
        return previous[size_t(a)] < previous[size_t(b)];
    });
    return order;
}

struct ReferenceFilter {
    int column = -1;
    double min = NAN, max = NAN;
    int column2 = -1;
    double min2 = NAN, max2 = NAN;
    std::string text;
};

bool inRange(double v, double lo, double hi) {
    if (std::isnan(v))
        return false;
    if (!std::isnan(lo) && v < lo)
        return false;
    if (!std::isnan(hi) && v > hi)
        return false;
    return true;
}

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::vector<int> referenceFilter(const HitColumns& h, const std::vector<int>& order, const ReferenceFilter& f) {
    std::vector<int> out;
    for (int r : order) {
        if (f.column >= 0 && !inRange(h.columns[size_t(f.column)].numbers[size_t(r)], f.min, f.max))
            continue;
        if (f.column2 >= 0 && !inRange(h.columns[size_t(f.column2)].numbers[size_t(r)], f.min2, f.max2))
            continue;
        if (!f.text.empty()) {
            bool byName = lower(h.columns[0].texts[size_t(r)]).find(lower(f.text)) != std::string::npos;
            bool bySmiles = h.columns[1].texts[size_t(r)].find(f.text) != std::string::npos;
            if (!byName && !bySmiles)
                continue;
        }
        out.push_back(r);
    }
    return out;
}

std::vector<int> identity(size_t n) {
    std::vector<int> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = int(i);
    return v;
}

} // namespace

class TestHitTableModel : public QObject {
    Q_OBJECT
private slots:
    void everyColumnSortsLikeBruteForce();
    void chainedSortsAreStable();
    void filtersMatchBruteForce();
    void cellsShowValuesAndNulls();
    void selectionFollowsRowsThroughSort();
    void depictionColumnShiftsDataColumns();
    void malformedTableIsRefused();
    void idFilterCombinesWithTheOthers();
};

void TestHitTableModel::everyColumnSortsLikeBruteForce() {
    const HitColumns h = randomHits(7);
    HitTableModel model;
    model.setColumns(h);
    for (int c = 0; c < int(h.columns.size()); ++c) {
        for (bool descending : {false, true}) {
            model.setColumns(h); // back to the input order
            model.sortByData(c, descending ? Qt::DescendingOrder : Qt::AscendingOrder);
            QCOMPARE(model.visibleRows(), referenceSort(h, identity(h.rowCount()), c, descending));
            QCOMPARE(model.rowCount(), kRows);
        }
    }
    // NULL scores are the last rows, in both directions.
    model.sortByData(2, Qt::DescendingOrder);
    QVERIFY(std::isnan(model.data(model.index(kRows - 1, 2), HitTableModel::ValueRole).toDouble()));
    QVERIFY(!std::isnan(model.data(model.index(0, 2), HitTableModel::ValueRole).toDouble()));
}

void TestHitTableModel::chainedSortsAreStable() {
    const HitColumns h = randomHits(11);
    HitTableModel model;
    model.setColumns(h);
    std::vector<int> ref = identity(h.rowCount());
    // series descending, then score ascending (ties in score keep the series order), then name.
    const std::pair<int, bool> steps[] = {{4, true}, {2, false}, {0, false}, {3, true}, {2, true}};
    for (auto [column, descending] : steps) {
        model.sort(column, descending ? Qt::DescendingOrder : Qt::AscendingOrder);
        ref = referenceSort(h, ref, column, descending);
        QCOMPARE(model.visibleRows(), ref);
    }
}

void TestHitTableModel::filtersMatchBruteForce() {
    const HitColumns h = randomHits(23);
    HitTableModel model;
    model.setColumns(h);
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> score(-16.0, -1.0), mw(100.0, 700.0);
    const char* texts[] = {"", "zinc1", "CCO", "c1cc", "Mol4", "Cl", "nothing-matches"};
    for (int trial = 0; trial < 40; ++trial) {
        ReferenceFilter f;
        f.column = 2;
        f.min = score(rng);
        f.max = trial % 3 == 0 ? NAN : f.min + 4.0; // some open-ended ranges
        if (trial % 2) {
            f.column2 = 3;
            f.min2 = trial % 4 == 1 ? NAN : mw(rng);
            f.max2 = mw(rng) + 200.0;
        }
        f.text = texts[trial % 7];
        model.clearFilters();
        model.setRangeFilter(f.column, f.min, f.max);
        if (f.column2 >= 0)
            model.setRangeFilter(f.column2, f.min2, f.max2);
        model.setTextFilter(QString::fromStdString(f.text));
        const std::vector<int> expected = referenceFilter(h, identity(h.rowCount()), f);
        QCOMPARE(model.visibleRows(), expected);
        QCOMPARE(model.rowCount(), int(expected.size()));
        // Sorting a filtered table keeps the same rows, in the reference's order.
        model.sortByData(3, Qt::AscendingOrder);
        QCOMPARE(model.visibleRows(),
                 referenceFilter(h, referenceSort(h, identity(h.rowCount()), 3, false), f));
        model.setColumns(h); // reset order and filters for the next trial
    }
    // The trials are not vacuous: some keep rows, some keep none.
    model.setRangeFilter(2, -10.0, -5.0);
    QVERIFY(model.rowCount() > 100 && model.rowCount() < kRows);
    model.setTextFilter("nothing-matches");
    QCOMPARE(model.rowCount(), 0);
    // Removing a range (both sides open) brings its rows back.
    model.clearFilters();
    model.setRangeFilter(3, 300.0, NAN);
    const int some = model.rowCount();
    model.setRangeFilter(3, NAN, NAN);
    QVERIFY(!model.hasRange(3));
    QCOMPARE(model.rowCount(), kRows);
    QVERIFY(some < kRows);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.setRangeFilter(0, 1.0, 2.0)); // text column
}

// The store's answer (ids) narrows the rows with the range filter, in any sort order; ids the
// table lacks are ignored; an empty answer keeps nothing; clearing it brings the rows back.
void TestHitTableModel::idFilterCombinesWithTheOthers() {
    const HitColumns h = randomHits(31);
    HitTableModel model;
    model.setColumns(h);
    std::mt19937 rng(9);
    std::vector<std::int64_t> ids{999999, -5}; // not in the table
    std::vector<char> kept(h.rowCount(), 0);
    for (size_t row = 0; row < h.rowCount(); ++row)
        if (rng() % 3 == 0) {
            ids.push_back(h.rowIds[row]);
            kept[row] = 1;
        }
    std::shuffle(ids.begin(), ids.end(), rng);
    model.sortByData(3, Qt::DescendingOrder);
    model.setRangeFilter(2, -10.0, -5.0);
    model.setIdFilter(ids);
    QVERIFY(model.hasIdFilter());
    ReferenceFilter f;
    f.column = 2;
    f.min = -10.0;
    f.max = -5.0;
    std::vector<int> expected;
    for (int row : referenceFilter(h, referenceSort(h, identity(h.rowCount()), 3, true), f))
        if (kept[size_t(row)])
            expected.push_back(row);
    QVERIFY(expected.size() > 50);
    QCOMPARE(model.visibleRows(), expected);
    model.clearRangeFilter(2); // the id filter stays
    QCOMPARE(model.rowCount(), int(std::count(kept.begin(), kept.end(), 1)));
    model.setIdFilter({});
    QCOMPARE(model.rowCount(), 0);
    model.clearIdFilter();
    QCOMPARE(model.rowCount(), kRows);
    model.setIdFilter({h.rowIds[7]});
    model.clearFilters();
    QVERIFY(!model.hasIdFilter());
    QCOMPARE(model.rowCount(), kRows);
}

void TestHitTableModel::cellsShowValuesAndNulls() {
    HitColumns h;
    h.rowIds = {41, 42};
    h.columns = {{"name", false, {}, {"lig-a", ""}}, {"dock_score", true, {-9.25, HitColumns::null()}, {}}};
    h.nameColumn = 0;
    HitTableModel model;
    model.setColumns(h);
    QCOMPARE(model.columnCount(), 2);
    QCOMPARE(model.headerData(1, Qt::Horizontal, Qt::DisplayRole).toString(), QString("dock_score"));
    QCOMPARE(model.data(model.index(0, 1)).toString(), QString("-9.25"));
    QCOMPARE(model.data(model.index(1, 1)).toString(), QString()); // NULL is an empty cell
    QCOMPARE(model.data(model.index(1, 0)).toString(), QString());
    QCOMPARE(model.data(model.index(1, 0), HitTableModel::RowIdRole).toLongLong(), 42LL);
    QCOMPARE(model.rowId(0), 41);
    model.sortByData(1, Qt::DescendingOrder);
    QCOMPARE(model.rowId(0), 41); // the NULL stays last even when descending
}

void TestHitTableModel::selectionFollowsRowsThroughSort() {
    const HitColumns h = randomHits(3);
    HitTableModel model;
    model.setColumns(h);
    QItemSelectionModel selection(&model);
    const int rowsPicked[] = {5, 17, 1200};
    for (int r : rowsPicked)
        selection.select(model.index(r, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    model.sortByData(3, Qt::DescendingOrder);
    std::vector<int> selectedSources;
    for (const QModelIndex& i : selection.selectedRows())
        selectedSources.push_back(model.sourceRow(i.row()));
    std::sort(selectedSources.begin(), selectedSources.end());
    QCOMPARE(selectedSources, std::vector<int>({5, 17, 1200}));
}

void TestHitTableModel::depictionColumnShiftsDataColumns() {
    const HitColumns h = randomHits(9);
    HitTableModel model;
    model.setColumns(h);
    model.setDepictionColumn(true);
    QCOMPARE(model.columnCount(), int(h.columns.size()) + 1);
    QCOMPARE(model.headerData(1, Qt::Horizontal, Qt::DisplayRole).toString(), QString("name"));
    QCOMPARE(model.data(model.index(4, 0), HitTableModel::SmilesRole).toString(),
             QString::fromStdString(h.columns[1].texts[4]));
    QCOMPARE(model.data(model.index(4, 0)), QVariant()); // the delegate draws it
    model.sort(0);                                        // the Structure column sorts nothing
    QCOMPARE(model.visibleRows(), identity(h.rowCount()));
    model.sort(3); // view column 3 is data column 2, the score
    QCOMPARE(model.visibleRows(), referenceSort(h, identity(h.rowCount()), 2, false));
}

void TestHitTableModel::malformedTableIsRefused() {
    HitColumns h;
    h.rowIds = {1, 2, 3};
    h.columns = {{"dock_score", true, {1.0, 2.0}, {}}};
    HitTableModel model;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.setColumns(h));
    h.columns[0].numbers.push_back(3.0);
    h.nameColumn = 0; // a numeric column cannot be the name
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.setColumns(h));
    h.nameColumn = -1;
    model.setColumns(h);
    QCOMPARE(model.rowCount(), 3);
}

QTEST_MAIN(TestHitTableModel)
#include "test_hittablemodel.moc"
