// Qt Test for the Hits panel's adapter to the store: a store made in the test (SDF import) comes
// into the table with every column's values as SQL reads them, NULLs as empty cells; rows selected
// in the view and exported land in an SDF holding exactly those poses with their tags; the id
// filter of a scattered selection is exact; depictions are drawn for SMILES and not for nonsense.
#include "GuiTestSetup.h"
#include "HitTableModel.h"
#include "HitTableSource.h"
#include "HitTableView.h"
#include "chem/LingoSmiles.h"
#include "chem/SubstructureQuery.h"
#include "hits/HitFilter.h"
#include "hits/HitImport.h"
#include "hits/HitsTestData.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <random>
#include <thread>

using namespace pw;
using namespace pw::hits;
using namespace pw::test;

namespace {

// Six ethanol poses; dock_score on all but "e", min_affinity on "c" and "f" only.
std::string sixPoses() {
    return ethanolRecord("a", tag("dock_score", "-9.25")) + ethanolRecord("b", tag("dock_score", "-7.5")) +
           ethanolRecord("c", tag("dock_score", "-8") + tag("minimizedAffinity", "-6.125")) +
           ethanolRecord("d", tag("dock_score", "-11")) + ethanolRecord("e", tag("series", "x")) +
           ethanolRecord("f", tag("dock_score", "-5.5") + tag("minimizedAffinity", "-4"));
}

int recordsIn(const QByteArray& sdf) {
    return int(sdf.count("$$$$\n"));
}

// The title line of every record.
QStringList namesIn(const QByteArray& sdf) {
    QStringList names;
    for (const QByteArray& record : sdf.split('$'))
        if (!record.trimmed().isEmpty())
            names << QString::fromUtf8(record.mid(record.startsWith('\n') ? 1 : 0)).section('\n', 0, 0);
    return names;
}

} // namespace

class TestHitTableSource : public QObject {
    Q_OBJECT
private slots:
    void init();
    void storeColumnsComeIntoTheTable();
    void rowsComeInRankOrderReadInParallelOrNot();
    void selectedRowsExportToSdf();
    void idFilterIsExact();
    void depictorDrawsSmiles();
    void keptFilterConnectionAnswersAsAFreshOne();

private:
    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<HitStore> store_;
};

void TestHitTableSource::init() {
    dir_ = std::make_unique<QTemporaryDir>();
    const QString sdf = dir_->filePath("poses.sdf");
    writeText(sdf, sixPoses());
    store_ = std::make_unique<HitStore>(dir_->filePath("hits.db").toStdString(), HitStore::Mode::Create);
    HitStore::Transaction tx(*store_);
    importSdf(*store_, sdf.toStdString(), {});
    tx.commit();
}

void TestHitTableSource::storeColumnsComeIntoTheTable() {
    const HitColumns h = loadHitColumns(*store_);
    QCOMPARE(h.rowCount(), size_t(6));
    QCOMPARE(h.columns.size(), store_->columns().size());
    QVERIFY(h.consistent());
    QVERIFY(h.nameColumn >= 0 && h.smilesColumn >= 0);
    const int score = h.indexOf("dock_score"), minimized = h.indexOf("min_affinity"), mw = h.indexOf("mw");
    QVERIFY(score >= 0 && minimized >= 0 && mw >= 0);
    QVERIFY(h.columns[size_t(score)].numeric && !h.columns[size_t(h.nameColumn)].numeric);
    // Each row equals what SQL reads for its id.
    for (size_t r = 0; r < h.rowCount(); ++r) {
        Statement q = store_->prepare("SELECT name, dock_score, min_affinity, mw, smiles FROM poses WHERE id = ?");
        q.bind(1, (long long)h.rowIds[r]);
        QVERIFY(q.step());
        QCOMPARE(h.columns[size_t(h.nameColumn)].texts[r], q.text(0));
        QCOMPARE(std::isnan(h.columns[size_t(score)].numbers[r]), q.isNull(1));
        if (!q.isNull(1))
            QCOMPARE(h.columns[size_t(score)].numbers[r], q.real(1));
        QCOMPARE(std::isnan(h.columns[size_t(minimized)].numbers[r]), q.isNull(2));
        QCOMPARE(h.columns[size_t(mw)].numbers[r], q.real(3));
        QCOMPARE(h.columns[size_t(h.smilesColumn)].texts[r], q.text(4));
    }
    // In the model a NULL is an empty cell.
    HitTableModel model;
    model.setColumns(h);
    int empty = 0;
    for (int r = 0; r < model.rowCount(); ++r)
        empty += model.data(model.index(r, minimized)).toString().isEmpty();
    QCOMPARE(empty, 4);
}

// 600 poses with random scores (some without: unranked), imported twice so that ranks and ids
// disagree: read serially and by id ranges on several threads, the rows are the store's default
// order (rank, unranked last, then id) with the same cells.
void TestHitTableSource::rowsComeInRankOrderReadInParallelOrNot() {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> score(-1200, -300), coin(0, 9);
    std::string poses;
    for (int k = 0; k < 300; ++k)
        poses += ethanolRecord("p" + std::to_string(k),
                               coin(rng) == 0 ? tag("series", "x")
                                              : tag("dock_score", std::to_string(score(rng) / 100.0)));
    const QString sdf = dir_->filePath("many.sdf");
    writeText(sdf, poses);
    for (int round = 0; round < 2; ++round) {
        HitStore::Transaction tx(*store_);
        importSdf(*store_, sdf.toStdString(), {});
        store_->assignRanks("dock_score", true);
        tx.commit();
    }
    std::vector<std::int64_t> expected;
    Statement q = store_->prepare("SELECT id FROM poses ORDER BY rank ASC NULLS LAST, id");
    while (q.step())
        expected.push_back(q.integer(0));
    QCOMPARE(expected.size(), size_t(606));
    QVERIFY(!std::is_sorted(expected.begin(), expected.end())); // ranks and ids disagree
    const HitColumns serial = loadHitColumns(*store_, 1 << 30);
    const HitColumns parallel = loadHitColumns(*store_, 0);
    QVERIFY(serial.rowIds == expected);
    QVERIFY(parallel.rowIds == expected);
    QCOMPARE(parallel.columns.size(), serial.columns.size());
    for (size_t c = 0; c < serial.columns.size(); ++c) {
        const HitColumn& a = serial.columns[c];
        const HitColumn& b = parallel.columns[c];
        QCOMPARE(a.name, b.name);
        QVERIFY(a.texts == b.texts);
        QCOMPARE(a.numbers.size(), b.numbers.size());
        for (size_t r = 0; r < a.numbers.size(); ++r)
            QVERIFY(std::isnan(a.numbers[r]) ? std::isnan(b.numbers[r]) : a.numbers[r] == b.numbers[r]);
    }
    QVERIFY(parallel.consistent());
}

void TestHitTableSource::selectedRowsExportToSdf() {
    HitTableView view;
    view.setColumns(loadHitColumns(*store_));
    view.resize(900, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const int score = view.model()->columns().indexOf("dock_score");
    view.model()->sortByData(score, Qt::AscendingOrder); // d, a, c, b, f, e
    QTableView* table = view.table();
    auto centre = [table](int row) { return table->visualRect(table->model()->index(row, 0)).center(); };
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, centre(0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::ControlModifier, centre(3));

    QSignalSpy exported(&view, &HitTableView::exportRequested);
    const QString out = dir_->filePath("picked.sdf");
    connect(&view, &HitTableView::exportRequested, this, [&](const QList<qint64>& ids) {
        QCOMPARE(exportHitIdsToSdf(*store_, ids, out.toStdString()), 2L);
    });
    QTest::mouseClick(view.findChild<QPushButton*>("hitExport"), Qt::LeftButton);
    QCOMPARE(exported.count(), 1);
    const QByteArray sdf = readBytes(out);
    QCOMPARE(recordsIn(sdf), 2);
    QStringList names = namesIn(sdf);
    names.sort();
    QCOMPARE(names, QStringList({"b", "d"}));
    QVERIFY(sdf.contains("-11")); // d's dock_score tag travels with it
}

void TestHitTableSource::idFilterIsExact() {
    QCOMPARE(QString::fromStdString(whereIds({5, 3, 4, 9, 11, 12})),
             QString("(id >= 3 and id <= 5) or id = 9 or (id >= 11 and id <= 12)"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, whereIds({}));
    QList<qint64> scattered;
    for (qint64 i = 0; i <= kMaxIdTerms; ++i)
        scattered.push_back(2 * i);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, whereIds(scattered));
    // Every subset of the six ids exports exactly its poses.
    const HitColumns h = loadHitColumns(*store_);
    for (int mask = 1; mask < 64; mask += 5) {
        QList<qint64> ids;
        for (int i = 0; i < 6; ++i)
            if (mask & (1 << i))
                ids.push_back(h.rowIds[size_t(i)]);
        const std::string path = dir_->filePath("subset.sdf").toStdString();
        QCOMPARE(exportHitIdsToSdf(*store_, ids, path), long(ids.size()));
        QCOMPARE(recordsIn(readBytes(QString::fromStdString(path))), int(ids.size()));
    }
}

void TestHitTableSource::depictorDrawsSmiles() {
    auto depict = hitDepictor();
    const QImage ok = depict("c1ccccc1O", QSize(120, 90));
    QCOMPARE(ok.size(), QSize(120, 90));
    // Something besides the white background was drawn.
    bool inked = false;
    for (int y = 0; y < ok.height() && !inked; ++y)
        for (int x = 0; x < ok.width() && !inked; ++x)
            inked = QColor(ok.pixel(x, y)).lightness() < 128;
    QVERIFY(inked);
    QVERIFY(depict("this is not ((( smiles", QSize(120, 90)).isNull());
}

// The panel's kept filter connection, asked from several worker threads at once and pattern after
// pattern, selects what a fresh connection selects; a bad expression throws and leaves it usable.
void TestHitTableSource::keptFilterConnectionAnswersAsAFreshOne() {
    const std::string path = dir_->filePath("molecules.db").toStdString();
    {
        HitStore store(path, HitStore::Mode::Create);
        HitStore::Transaction tx(store);
        const char* smiles[] = {"c1ccccc1O", "c1ccncc1C(=O)O", "CCO", "c1ccccc1C(=O)O",
                                "O=[N+]([O-])c1ccccc1", "CC(=O)Nc1ccc(O)cc1", "c1ccc2ccccc2c1",
                                "NS(=O)(=O)c1ccccc1", "C1CCCCC1N", "OC(=O)CCc1ccncc1"};
        for (int k = 0; k < 60; ++k) {
            PoseRecord p;
            p.name = "m" + std::to_string(k);
            p.smiles = canonicalSmiles(smiles[k % 10]);
            if (k % 3 != 0) // the rest as a store written before the screen
                p.screen = screenFingerprint(*p.smiles, &p.screenMolecule);
            store.insertPose(p);
        }
        tx.commit();
    }
    const std::vector<std::string> wheres{"smarts('c1ccccc1')", "substructure('c1ccncc1')",
                                          "smarts('C(=O)[OH]') and not smarts('c1ccncc1')",
                                          "smarts('[$(N)]')", "smarts('c1ccccc1')"};
    std::vector<std::vector<std::int64_t>> expected;
    for (const std::string& w : wheres) {
        HitStore fresh(path, HitStore::Mode::ReadOnly);
        expected.push_back(matchingHitIds(fresh, w));
        QVERIFY(!expected.back().empty() && expected.back().size() < 60);
    }
    StoreFilterConnection kept(path);
    std::vector<std::vector<std::vector<std::int64_t>>> got(4);
    std::vector<std::thread> workers;
    for (size_t t = 0; t < got.size(); ++t)
        workers.emplace_back([&, t] {
            for (size_t round = 0; round < 3; ++round)
                for (size_t i = 0; i < wheres.size(); ++i)
                    got[t].push_back(kept.matchingIds(wheres[(i + t) % wheres.size()]));
        });
    for (std::thread& w : workers)
        w.join();
    for (size_t t = 0; t < got.size(); ++t)
        for (size_t k = 0; k < got[t].size(); ++k)
            QCOMPARE(got[t][k], expected[(k % wheres.size() + t) % wheres.size()]);
    QVERIFY_THROWS_EXCEPTION(FilterError, kept.matchingIds("smarts('c1cc(')"));
    QCOMPARE(kept.matchingIds(wheres[1]), expected[1]);
}

QTEST_MAIN(TestHitTableSource)
#include "test_hittablesource.moc"
