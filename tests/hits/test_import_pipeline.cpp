// The import pipeline (one cutting thread, N parsing threads, the inserting caller): the same
// rows, scores, texts, warnings and counts for every number of threads and batch size, in file
// order; an error in the inserting stage (here: afterBatch throwing) stops the other stages and
// leaves the store as it was.
#include "hits/HitImport.h"
#include "hits/HitStore.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <optional>
#include <random>
#include <stdexcept>
#include <tuple>

#include "HitsTestData.h"

using namespace pw;
using namespace pw::hits;
using namespace pw::test;

namespace {

// Every column of every row, molblock and tags included, in id order, as one text.
std::string dumpRows(const HitStore& s) {
    std::string sql = "SELECT ";
    for (const ColumnInfo& c : s.columns())
        sql += "quote(poses." + quoteIdentifier(c.name) + "), ";
    sql +=
        "pose_blocks.molblock, pose_blocks.sd_tags FROM " + s.blocksFrom() + " ORDER BY poses.id";
    Statement q = s.prepare(sql);
    std::string out;
    const int n = static_cast<int>(s.columns().size()) + 2;
    while (q.step()) {
        for (int i = 0; i < n; ++i)
            out += q.text(i) + "\t";
        out += "\n";
    }
    return out;
}

struct Imported {
    ImportStats stats;
    std::vector<std::string> warnings;
    std::vector<long> reported;
    std::string rows;
};

Imported importWith(const QString& dir, const QString& sdf, int threads, int batch) {
    Imported r;
    const QString db = dir + QString("/t%1_b%2.db").arg(threads).arg(batch);
    HitStore s(db.toStdString(), HitStore::Mode::Create);
    {
        HitStore::Transaction tx(s);
        ImportOptions options;
        options.threads = threads;
        options.batch = batch;
        options.warn = [&](const std::string& w) { r.warnings.push_back(w); };
        options.afterBatch = [&](long n) { r.reported.push_back(n); };
        r.stats = importSdf(s, sdf.toStdString(), options);
        tx.commit();
    }
    r.rows = dumpRows(s);
    return r;
}

// cdk2.sdf three times, with a record the reader refuses and one RDKit cannot sanitize (a
// pentavalent carbon) between them.
std::string mixedInput() {
    const QByteArray cdk2 = readBytes(QString(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf"));
    std::string text = cdk2.toStdString();
    text += "broken\n  x\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\nnot an atom line\nM  "
            "END\n$$$$\n";
    text += cdk2.toStdString();
    text += "pentavalent\n  x\n\n  6  5  0  0  0  0  0  0  0  0999 V2000\n";
    for (int i = 0; i < 6; ++i)
        text += "    " + std::to_string(i) +
                ".0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  "
                "0  0  0  0\n";
    for (int i = 2; i <= 6; ++i)
        text += "  1  " + std::to_string(i) + "  1  0\n";
    text += "M  END\n" + tag("dock_score", "-7.5") + "$$$$\n";
    text += cdk2.toStdString();
    return text;
}

} // namespace

class TestImportPipeline : public QObject {
    Q_OBJECT
private slots:
    void sameRowsForEveryThreadAndBatchCount() {
        QTemporaryDir dir;
        const QString sdf = dir.filePath("in.sdf");
        writeText(sdf, mixedInput());
        const Imported one = importWith(dir.path(), sdf, 1, 1024);
        QCOMPARE(one.stats.poses, 3L * 47 + 1);
        QCOMPARE(one.stats.skipped, 1L);
        QCOMPARE(one.stats.noProperties, 1L);
        QCOMPARE(one.warnings.size(), size_t(2));
        QVERIFY2(one.warnings[0].find("record skipped") != std::string::npos,
                 one.warnings[0].c_str());
        QVERIFY2(one.warnings[1].find("stored without properties") != std::string::npos,
                 one.warnings[1].c_str());
        QCOMPARE(one.reported, std::vector<long>{one.stats.poses});
        for (const auto& [threads, batch] :
             std::vector<std::pair<int, int>>{{1, 1}, {2, 5}, {3, 2}, {4, 7}, {8, 1}, {4, 64}}) {
            const Imported other = importWith(dir.path(), sdf, threads, batch);
            const QByteArray what = QString("threads %1 batch %2").arg(threads).arg(batch).toUtf8();
            QVERIFY2(other.rows == one.rows, what.constData());
            QVERIFY2(other.warnings == one.warnings, what.constData());
            QCOMPARE(other.stats.poses, one.stats.poses);
            QCOMPARE(other.stats.skipped, one.stats.skipped);
            QCOMPARE(other.stats.noProperties, one.stats.noProperties);
            // Every batch reported once, in order, the last with every row.
            const long records = 3 * 47 + 2;
            QCOMPARE(long(other.reported.size()), (records + batch - 1) / batch);
            for (size_t k = 1; k < other.reported.size(); ++k)
                QVERIFY2(other.reported[k] >= other.reported[k - 1], what.constData());
            QCOMPARE(other.reported.back(), one.stats.poses);
        }
    }

    void anInserterErrorStopsEveryStageAndRollsBack() {
        QTemporaryDir dir;
        const QString sdf = dir.filePath("in.sdf");
        std::string text;
        const std::string cdk2 =
            readBytes(QString(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf")).toStdString();
        for (int i = 0; i < 20; ++i)
            text += cdk2;
        writeText(sdf, text);
        const std::string db = dir.filePath("h.db").toStdString();
        HitStore s(db, HitStore::Mode::Create);
        for (int threads : {1, 4}) {
            bool threw = false;
            long batches = 0;
            try {
                HitStore::Transaction tx(s);
                ImportOptions options;
                options.threads = threads;
                options.batch = 3;
                options.afterBatch = [&](long) {
                    if (++batches == 2)
                        throw std::runtime_error("stopped by the test");
                };
                importSdf(s, sdf.toStdString(), options);
                tx.commit();
            } catch (const std::runtime_error& e) {
                threw = std::string(e.what()) == "stopped by the test";
            }
            QVERIFY(threw);
            QCOMPARE(batches, 2L); // nothing was inserted or reported after the error
            QCOMPARE(s.poseCount(), 0LL);
        }
        // The store is usable afterwards: a full import of the same file.
        {
            HitStore::Transaction tx(s);
            ImportOptions options;
            options.threads = 3;
            options.batch = 5;
            QCOMPARE(importSdf(s, sdf.toStdString(), options).poses, 20L * 47);
            tx.commit();
        }
        QCOMPARE(s.poseCount(), 20LL * 47);
    }

    void ranksMatchASortWithTiesAndNulls() {
        // Ranks by one column (ties by id, NULL where the column is NULL), then again by another
        // column the other way: each equals a plain sort of the rows.
        QTemporaryDir dir;
        std::mt19937 rng(5);
        std::uniform_int_distribution<int> score(-20, 5), coin(0, 4);
        std::string text;
        std::vector<std::optional<int>> a, b;
        for (int i = 0; i < 3000; ++i) {
            a.push_back(coin(rng) ? std::optional<int>(score(rng)) : std::nullopt); // ties
            b.push_back(coin(rng) ? std::optional<int>(score(rng)) : std::nullopt);
            text += ethanolRecord("p" + std::to_string(i),
                                  (a.back() ? tag("dock_score", std::to_string(*a.back())) : "") +
                                      (b.back() ? tag("other", std::to_string(*b.back())) : ""));
        }
        const QString sdf = dir.filePath("in.sdf");
        writeText(sdf, text);
        HitStore s(dir.filePath("h.db").toStdString(), HitStore::Mode::Create);
        HitStore::Transaction tx(s);
        ImportOptions options;
        options.threads = 2;
        importSdf(s, sdf.toStdString(), options);
        for (const auto& [column, values, ascending] :
             {std::tuple{std::string("dock_score"), a, true},
              std::tuple{std::string("other"), b, false}}) {
            s.assignRanks(column, ascending);
            std::vector<int> order; // row indices with a value, best first, ties by id
            for (int i = 0; i < int(values.size()); ++i)
                if (values[i])
                    order.push_back(i);
            std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
                return ascending ? *values[x] < *values[y] : *values[x] > *values[y];
            });
            std::vector<std::optional<long long>> expected(values.size());
            for (size_t k = 0; k < order.size(); ++k)
                expected[order[k]] = static_cast<long long>(k + 1);
            Statement q = s.prepare("SELECT rank FROM poses ORDER BY id");
            for (size_t i = 0; i < values.size(); ++i) {
                QVERIFY(q.step());
                const std::optional<long long> got =
                    q.isNull(0) ? std::nullopt : std::optional<long long>(q.integer(0));
                QVERIFY2(got == expected[i],
                         qPrintable(QString("%1 row %2").arg(column.c_str()).arg(i)));
            }
            QVERIFY(!q.step());
        }
        tx.commit();
    }
};

QTEST_GUILESS_MAIN(TestImportPipeline)
#include "test_import_pipeline.moc"
