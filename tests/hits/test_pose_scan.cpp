// hits/PoseScan against a plain SELECT: every pose read once, parts in id order, each part's
// rows ascending and contiguous with the next; serially (one part) for a small store, a WAL
// store and an in-memory one; an unknown column refused before any row; a worker's error
// (a column that cannot be read as asked) stops the scan with the error.
#include "hits/HitStore.h"
#include "hits/HitFilter.h"
#include "hits/PoseScan.h"

#include <QTemporaryDir>
#include <QtTest>

#include <mutex>
#include <set>

using namespace pw::hits;

namespace {

// A store of `count` poses with a name and a dock score each, ids with gaps.
void fill(HitStore& store, int count) {
    HitStore::Transaction tx(store);
    for (int i = 0; i < count; ++i) {
        PoseRecord p;
        p.name = "pose" + std::to_string(i);
        p.smiles = "CCO";
        store.insertPose(p);
    }
    store.exec("DELETE FROM poses WHERE id % 7 = 3");
    tx.commit();
}

struct Scanned {
    int parts = 0;
    std::vector<std::vector<std::pair<long long, std::string>>> rows; // per part: (id, name)
    long count = 0;
};

Scanned scanAll(const HitStore& store, PoseScan scan) {
    Scanned out;
    std::mutex m;
    out.count = scanPoses(
        store, scan,
        [&](int parts) {
            out.parts = parts;
            out.rows.assign(size_t(parts), {});
        },
        [&](int part, const Statement& s) {
            out.rows[size_t(part)].emplace_back(s.integer(0), s.text(1)); // a part: one thread
        });
    return out;
}

std::vector<std::pair<long long, std::string>> expectedRows(const HitStore& store) {
    std::vector<std::pair<long long, std::string>> rows;
    Statement q = store.prepare("SELECT id, name FROM poses ORDER BY id");
    while (q.step())
        rows.emplace_back(q.integer(0), q.text(1));
    return rows;
}

std::vector<std::pair<long long, std::string>> joined(const Scanned& s) {
    std::vector<std::pair<long long, std::string>> all;
    for (const auto& part : s.rows)
        all.insert(all.end(), part.begin(), part.end());
    return all;
}

} // namespace

class TestPoseScan : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void partsTogetherAreTheTable() {
        HitStore store(dir_.filePath("scan.db").toStdString(), HitStore::Mode::Create);
        fill(store, 3000);
        const auto expected = expectedRows(store);
        QVERIFY(expected.size() > 2500);
        for (const int threads : {1, 2, 3, 8}) {
            PoseScan scan;
            scan.columns = {"id", "name"};
            scan.threads = threads;
            scan.parallelAfter = 0;
            const Scanned s = scanAll(store, scan);
            QCOMPARE(s.parts, threads == 1 ? 1 : threads * 4);
            QCOMPARE(s.count, long(expected.size()));
            QVERIFY(joined(s) == expected); // parts in id order, each ascending
        }
        PoseScan small; // under parallelAfter: one part on the store's connection
        small.columns = {"id", "name"};
        small.threads = 4;
        const Scanned s = scanAll(store, small);
        QCOMPARE(s.parts, 1);
        QVERIFY(joined(s) == expected);
    }

    void walAndMemoryStoresAreReadSerially() {
        const std::string path = dir_.filePath("wal.db").toStdString();
        {
            HitStore store(path, HitStore::Mode::Create);
            fill(store, 500);
            store.exec("PRAGMA journal_mode=WAL");
        }
        HitStore wal(path, HitStore::Mode::ReadOnly);
        PoseScan scan;
        scan.columns = {"id", "name"};
        scan.threads = 4;
        scan.parallelAfter = 0;
        Scanned s = scanAll(wal, scan);
        QCOMPARE(s.parts, 1);
        QVERIFY(joined(s) == expectedRows(wal));

        HitStore memory(":memory:", HitStore::Mode::Create);
        fill(memory, 200);
        s = scanAll(memory, scan);
        QCOMPARE(s.parts, 1);
        QVERIFY(joined(s) == expectedRows(memory));

        HitStore empty(dir_.filePath("empty.db").toStdString(), HitStore::Mode::Create);
        s = scanAll(empty, scan);
        QCOMPARE(s.count, 0L);
    }

    void errorsStopTheScan() {
        HitStore store(dir_.filePath("errors.db").toStdString(), HitStore::Mode::Create);
        fill(store, 400);
        PoseScan scan;
        scan.columns = {"id", "no_such_column"};
        scan.parallelAfter = 0;
        int rows = 0;
        QVERIFY_THROWS_EXCEPTION(FilterError, scanPoses(store, scan, [](int) {},
                                                        [&](int, const Statement&) { ++rows; }));
        QCOMPARE(rows, 0);
        // A row callback that throws on one part: the error comes back, the other workers stop.
        scan.columns = {"id", "name"};
        scan.threads = 3;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 scanPoses(store, scan, [](int) {}, [&](int part, const Statement&) {
                                     if (part == 5)
                                         throw std::runtime_error("part 5 failed");
                                 }));
        // The store is still usable afterwards (the scan's read transaction ended).
        store.exec("UPDATE poses SET name = 'renamed' WHERE id = 1");
    }
};

QTEST_GUILESS_MAIN(TestPoseScan)
#include "test_pose_scan.moc"
