// The screen index kept whole in pw_screen_pack (engine/hits/ScreenPack.cpp): read back, it is the
// index pw_screen gives molecule for molecule; a pack that is stale (pw_screen changed after it),
// truncated, corrupt or missing is never used, the filter answers the same, and a store opened
// read-only is not written.
#include "hits/HitFilter.h"
#include "hits/HitStore.h"
#include "hits/ScreenIndex.h"
#include "chem/LingoSmiles.h"
#include "chem/SubstructureQuery.h"

#include "HitsTestData.h"
#include "SyntheticScreenStore.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <random>

using namespace pw;
using namespace pw::hits;
using namespace pw::test;

namespace {

// Stores written here use the pack unless a test turns it off; restored after each test.
struct PackSwitch {
    explicit PackSwitch(bool on) { ScreenIndex::setPackEnabled(on); }
    ~PackSwitch() { ScreenIndex::setPackEnabled(true); }
};

// The index read from pw_screen alone (the pack off): the oracle.
void loadFromTable(ScreenIndex& index, const HitStore& store, int threads) {
    PackSwitch off(false);
    index.load(store.handle(), store.path(), threads);
}

// Molecule for molecule: SMILES, fingerprint, compact form, look-up, and the binary molecule
// once read (the pack leaves them in pw_screen until a pattern needs RDKit).
bool sameIndex(ScreenIndex& a, ScreenIndex& b, const HitStore& store, QString& why) {
    a.loadBinaries(store.handle());
    b.loadBinaries(store.handle());
    if (a.size() != b.size()) {
        why = QString("sizes %1 and %2").arg(a.size()).arg(b.size());
        return false;
    }
    for (uint32_t i = 0; i < a.size(); ++i)
        if (a.smiles(i) != b.smiles(i) || !(a.fingerprint(i) == b.fingerprint(i)) ||
            a.compact(i) != b.compact(i) || a.binary(i) != b.binary(i) ||
            b.find(a.smiles(i)) != std::optional<uint32_t>(i)) {
            why = QString("molecule %1 (%2)").arg(i).arg(QString::fromStdString(a.smiles(i)));
            return false;
        }
    return true;
}

std::vector<long long> filteredIds(const HitStore& store, const std::string& where) {
    SqlFragment w = compileWhere(where, store);
    Statement s = store.prepare("SELECT id FROM poses WHERE " + w.sql + " ORDER BY id");
    for (size_t i = 0; i < w.params.size(); ++i)
        s.bind(static_cast<int>(i) + 1, w.params[i]);
    std::vector<long long> ids;
    while (s.step())
        ids.push_back(s.integer(0));
    return ids;
}

} // namespace

class TestScreenPack : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // A synthetic store (SyntheticScreenStore.h): every part of the pack, no RDKit.
    QString syntheticStore(const QString& name, int n) {
        const QString path = dir_.filePath(name);
        test::writeSyntheticScreenStore(path.toStdString(), n, 21);
        return path;
    }

    // A copy of `from` whose pack is then changed by `damage` on a read-write connection.
    QString damagedCopy(const QString& from, const QString& name,
                        const std::function<void(HitStore&)>& damage) {
        const QString path = dir_.filePath(name);
        QFile::remove(path);
        if (!QFile::copy(from, path))
            qFatal("cannot copy %s", qPrintable(from));
        HitStore store(path.toStdString(), HitStore::Mode::ReadWrite);
        damage(store);
        return path;
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // Written once, read back equal to pw_screen's index by one reader and by parts in
    // parallel; written again only when stale.
    void packReadsBackTheIndex() {
        constexpr int n = 40000; // three parts of 16,384
        const QString path = syntheticStore("synthetic.db", n);
        {
            HitStore store(path.toStdString(), HitStore::Mode::ReadWrite);
            QCOMPARE(writeScreenPack(store, 2), long(n));
            QCOMPARE(writeScreenPack(store, 2), 0L); // current: nothing to write
            Statement parts = store.prepare("SELECT count(*) FROM pw_screen_pack");
            QVERIFY(parts.step());
            QCOMPARE(parts.integer(0), 5LL); // the header, three parts, the pose map
        }
        HitStore store(path.toStdString(), HitStore::Mode::ReadOnly);
        ScreenIndex table;
        loadFromTable(table, store, 1);
        QVERIFY(!table.loadedFromPack());
        QCOMPARE(table.size(), size_t(n));
        for (int threads : {1, 4}) {
            ScreenIndex packed;
            packed.load(store.handle(), store.path(), threads, -1, /*binaries=*/false);
            QVERIFY(packed.loadedFromPack());
            QVERIFY(packed.binariesPending());
            QCOMPARE(packed.withoutCompact(), table.withoutCompact());
            QString why;
            QVERIFY2(sameIndex(table, packed, store, why), qPrintable(why));
            QVERIFY(!packed.find(table.smiles(5) + "O"));
            // The pose map: each pose id's molecule is its SMILES' (ids 1..n here).
            QVERIFY(!packed.poseMolecules(1, n - 1) && !packed.poseMolecules(2, n));
            const uint32_t* molecule = packed.poseMolecules(1, n);
            QVERIFY(molecule);
            Statement poses = store.prepare("SELECT id, smiles FROM poses ORDER BY id");
            long long checked = 0;
            while (poses.step()) {
                const uint32_t m = molecule[poses.integer(0) - 1];
                QVERIFY(m > 0);
                QCOMPARE(packed.smiles(m - 1), poses.text(1));
                ++checked;
            }
            QCOMPARE(checked, static_cast<long long>(n));
        }
        // binaries = true: read at once after the pack.
        ScreenIndex withBinaries;
        withBinaries.load(store.handle(), store.path(), 2);
        QVERIFY(withBinaries.loadedFromPack());
        QVERIFY(!withBinaries.binariesPending());
        int binaries = 0;
        for (uint32_t i = 0; i < withBinaries.size(); ++i)
            binaries += !withBinaries.binary(i).empty();
        QCOMPARE(binaries, n - n / 5);
    }

    // Checking that a pack is current takes a few B-tree descents, not a scan: the pack's
    // first and last SMILES against pw_screen's, and the pose id range (min() and max() in one
    // SELECT made SQLite scan both tables: 0.5-0.8 s of a cold filter over 1M molecules).
    // Counted in SQLite's virtual-machine steps (a progress callback every 100), not in time.
    void packCheckDoesNotScanTheTables() {
        constexpr int n = 40000;
        const QString path = syntheticStore("descents.db", n);
        {
            HitStore store(path.toStdString(), HitStore::Mode::ReadWrite);
            QCOMPARE(writeScreenPack(store, 1), long(n));
        }
        HitStore store(path.toStdString(), HitStore::Mode::ReadOnly);
        long long callbacks = 0;
        sqlite3_progress_handler(
            store.handle(), 100,
            [](void* count) {
                ++*static_cast<long long*>(count);
                return 0;
            },
            &callbacks);
        ScreenIndex packed;
        packed.load(store.handle(), store.path(), 1, -1, /*binaries=*/false);
        const auto [lo, hi] = poseIdRange(store.handle());
        sqlite3_progress_handler(store.handle(), 0, nullptr, nullptr);
        QVERIFY(packed.loadedFromPack());
        QCOMPARE(packed.size(), size_t(n));
        QCOMPARE(lo, 1LL);
        QCOMPARE(hi, static_cast<long long>(n));
        // A scan of either table is over 40,000 rows, thousands of callbacks.
        QVERIFY2(callbacks < 50, qPrintable(QString("%1 progress callbacks").arg(callbacks)));
    }

    // Every kind of damage: the pack is not used, the index is pw_screen's, and opening the
    // damaged store read-only writes nothing.
    void damagedPackIsNeverTrusted() {
        const QString good = syntheticStore("damage_base.db", 20000); // two parts
        {
            HitStore store(good.toStdString(), HitStore::Mode::ReadWrite);
            QCOMPARE(writeScreenPack(store, 2), 20000L);
        }
        const std::vector<std::pair<const char*, std::function<void(HitStore&)>>> damages{
            {"missing", [](HitStore& s) { s.exec("DELETE FROM pw_screen_pack"); }},
            {"table dropped", [](HitStore& s) { s.exec("DROP TABLE pw_screen_pack"); }},
            {"part missing", [](HitStore& s) { s.exec("DELETE FROM pw_screen_pack WHERE part = 2"); }},
            {"header missing",
             [](HitStore& s) { s.exec("DELETE FROM pw_screen_pack WHERE part = 0"); }},
            {"part truncated",
             [](HitStore& s) {
                 s.exec("UPDATE pw_screen_pack SET data = substr(data, 1, length(data) - 1) "
                        "WHERE part = 1");
             }},
            {"header truncated",
             [](HitStore& s) {
                 s.exec("UPDATE pw_screen_pack SET data = substr(data, 1, 40) WHERE part = 0");
             }},
            {"part byte changed",
             [](HitStore& s) { // one byte of a fingerprint in the middle of part 2 (|| makes text: cast back)
                 s.exec("UPDATE pw_screen_pack SET data = CAST(substr(data, 1, length(data) / 2) "
                        "|| x'7e' || substr(data, length(data) / 2 + 2) AS BLOB) WHERE part = 2");
             }},
            {"header magic changed",
             [](HitStore& s) {
                 s.exec("UPDATE pw_screen_pack SET data = CAST(x'00' || substr(data, 2) AS BLOB) "
                        "WHERE part = 0");
             }},
            {"parts swapped",
             [](HitStore& s) {
                 s.exec("UPDATE pw_screen_pack SET part = -1 WHERE part = 1");
                 s.exec("UPDATE pw_screen_pack SET part = 1 WHERE part = 2");
                 s.exec("UPDATE pw_screen_pack SET part = 2 WHERE part = -1");
             }},
            {"pose map changed", // part 3: the map of this two-part store
             [](HitStore& s) {
                 s.exec("UPDATE pw_screen_pack SET data = CAST(x'02000000' || substr(data, 5) AS "
                        "BLOB) WHERE part = 3");
             }},
            {"pose map missing", [](HitStore& s) { s.exec("DELETE FROM pw_screen_pack WHERE part = 3"); }},
            // A writer that dropped the poses' triggers, then added a pose.
            {"pose added without triggers",
             [](HitStore& s) {
                 for (const char* e : {"insert", "update", "delete"})
                     s.exec(std::string("DROP TRIGGER IF EXISTS pw_screen_pack_stale_poses_") + e);
                 s.exec("INSERT INTO poses(name, smiles) VALUES('late', 'CN1O')");
             }},
            {"not a blob", [](HitStore& s) { s.exec("UPDATE pw_screen_pack SET data = 'text' WHERE part = 1"); }},
            // A writer that dropped the triggers, then added a molecule that sorts last.
            {"stale without triggers",
             [](HitStore& s) {
                 for (const char* e : {"INSERT", "UPDATE", "DELETE"})
                     s.exec(std::string("DROP TRIGGER IF EXISTS pw_screen_pack_stale_") + e);
                 s.exec("INSERT INTO pw_screen(smiles, fp) SELECT 'zzz', fp FROM pw_screen LIMIT 1");
             }},
        };
        for (const auto& [what, damage] : damages) {
            const QString path = damagedCopy(good, "damaged.db", damage);
            const QByteArray bytes = readBytes(path);
            {
                HitStore store(path.toStdString(), HitStore::Mode::ReadOnly);
                ScreenIndex table, packed;
                loadFromTable(table, store, 1);
                for (int threads : {1, 4}) {
                    packed.load(store.handle(), store.path(), threads, -1, false);
                    QVERIFY2(!packed.loadedFromPack(), what);
                    QString why;
                    QVERIFY2(sameIndex(table, packed, store, why),
                             qPrintable(QString(what) + ": " + why));
                }
            }
            QVERIFY2(readBytes(path) == bytes, what); // read-only: the file as it was
            // Read-write, the next writeScreenPack replaces it with a valid one.
            HitStore store(path.toStdString(), HitStore::Mode::ReadWrite);
            QVERIFY2(writeScreenPack(store, 2) > 0, what);
            ScreenIndex again;
            again.load(store.handle(), store.path(), 2, -1, false);
            QVERIFY2(again.loadedFromPack(), what);
        }
    }

    // Any change of pw_screen (a new molecule, a changed compact form, a deleted row) empties
    // the pack at once, through the triggers: the next load reads pw_screen and sees the change.
    void changedScreenMakesThePackStale() {
        const QString base = syntheticStore("stale_base.db", 3000);
        {
            HitStore store(base.toStdString(), HitStore::Mode::ReadWrite);
            QCOMPARE(writeScreenPack(store, 2), 3000L);
        }
        const std::vector<std::pair<const char*, const char*>> changes{
            {"insert", "INSERT INTO pw_screen(smiles, fp) SELECT 'CCN0O' || 'S', fp FROM pw_screen "
                       "LIMIT 1"},
            {"update", "UPDATE pw_screen SET cmol = x'0102' WHERE smiles IN (SELECT smiles FROM "
                       "pw_screen LIMIT 1)"},
            {"delete", "DELETE FROM pw_screen WHERE smiles IN (SELECT smiles FROM pw_screen "
                       "LIMIT 1 OFFSET 7)"},
            // The poses: which molecule an id is (the pack's pose map).
            {"pose insert", "INSERT INTO poses(name, smiles) VALUES('new', 'CN1O')"},
            {"pose smiles update", "UPDATE poses SET smiles = 'CN1O' WHERE id = 5"},
            {"pose delete", "DELETE FROM poses WHERE id = 9"},
        };
        for (const auto& [what, sql] : changes) {
            const QString path = damagedCopy(base, "changed.db", [sql = sql](HitStore& s) {
                HitStore::Transaction tx(s);
                s.exec(sql);
                tx.commit();
            });
            HitStore store(path.toStdString(), HitStore::Mode::ReadOnly);
            Statement left = store.prepare("SELECT count(*) FROM pw_screen_pack");
            QVERIFY(left.step());
            QVERIFY2(left.integer(0) == 0, what);
            ScreenIndex table, index;
            loadFromTable(table, store, 1);
            index.load(store.handle(), store.path(), 2, -1, false);
            QVERIFY2(!index.loadedFromPack(), what);
            QString why;
            QVERIFY2(sameIndex(table, index, store, why), qPrintable(QString(what) + ": " + why));
        }
    }

    // Real molecules through the filter: a store with a pack answers every pattern as the same
    // store without one, and as a damaged one; in one connection after its pack went stale too.
    void filterAnswersTheSameWithAndWithoutThePack() {
        const auto nci =
            readSmilesColumn(QString(POSEWRIGHT_TEST_DATA) + "/smiles/nci_first_300.smi");
        std::vector<std::string> molecules;
        for (const std::string& s : nci) {
            try {
                molecules.push_back(canonicalSmiles(s));
            } catch (const std::exception&) {
            }
        }
        std::mt19937 rng(5);
        std::uniform_int_distribution<size_t> pick(0, molecules.size() - 1);
        for (int k = 0; k < 2500; ++k)
            molecules.push_back(canonicalSmiles(molecules[pick(rng)] + "." + molecules[pick(rng)]));
        const QString path = dir_.filePath("real.db");
        {
            HitStore store(path.toStdString(), HitStore::Mode::Create);
            HitStore::Transaction tx(store);
            for (size_t i = 0; i < molecules.size(); ++i) {
                PoseRecord p;
                p.name = "m" + std::to_string(i);
                p.smiles = molecules[i];
                p.screen = screenFingerprint(molecules[i], i % 2 ? &p.screenMolecule : nullptr,
                                             i % 4 ? &p.screenCompact : nullptr);
                store.insertPose(p);
            }
            tx.commit();
        }
        const std::vector<std::string> wheres{
            "smarts('c1ccccc1')", "smarts('[NX3;H2]c')", "not smarts('C(=O)[OH]')",
            "substructure('c1ccncc1') or smarts('[r5]')", "smarts('[$(C=O)]N')",
            "smarts('[N+](=O)[O-]') or smarts('Cl')"};
        std::vector<std::vector<long long>> expected;
        {
            PackSwitch off(false);
            HitStore store(path.toStdString(), HitStore::Mode::ReadOnly);
            for (const std::string& w : wheres)
                expected.push_back(filteredIds(store, w));
        }
        {
            HitStore store(path.toStdString(), HitStore::Mode::ReadWrite);
            QVERIFY(writeScreenPack(store, 2) > 2000);
        }
        struct Restore {
            long long was = ScreenIndex::parallelLoadAfter();
            ~Restore() { ScreenIndex::setParallelLoadAfter(was); }
        } restore;
        for (long long parallelAfter : {1LL << 40, 0LL}) { // one reader, then parts in parallel
            ScreenIndex::setParallelLoadAfter(parallelAfter);
            HitStore store(path.toStdString(), HitStore::Mode::ReadOnly);
            ScreenIndex probe;
            probe.load(store.handle(), store.path(), 2, -1, false);
            QVERIFY(probe.loadedFromPack());
            for (int round = 0; round < 2; ++round)
                for (size_t k = 0; k < wheres.size(); ++k) {
                    QVERIFY2(filteredIds(store, wheres[k]) == expected[k], wheres[k].c_str());
                    QVERIFY2(!expected[k].empty(), wheres[k].c_str());
                }
        }
        // A corrupt part: the same rows.
        const QString bad = damagedCopy(path, "real_bad.db", [](HitStore& s) {
            s.exec("UPDATE pw_screen_pack SET data = CAST(substr(data, 1, 100) || x'ff' || "
                   "substr(data, 102) AS BLOB) WHERE part = 1");
        });
        {
            HitStore store(bad.toStdString(), HitStore::Mode::ReadOnly);
            for (size_t k = 0; k < wheres.size(); ++k)
                QVERIFY2(filteredIds(store, wheres[k]) == expected[k], wheres[k].c_str());
        }
        // On a kept connection: answers with the pack, then a new molecule (pack emptied by
        // the trigger), then the pack written again: each time what pw_screen says.
        HitStore store(path.toStdString(), HitStore::Mode::ReadWrite);
        QVERIFY(filteredIds(store, wheres[0]) == expected[0]);
        long long added = 0;
        {
            HitStore::Transaction tx(store);
            PoseRecord p;
            p.name = "added";
            p.smiles = canonicalSmiles("c1ccccc1CCCCCCCCCCCCN");
            p.screen = screenFingerprint(*p.smiles, nullptr, &p.screenCompact);
            added = store.insertPose(p);
            tx.commit();
        }
        std::vector<long long> withAdded = expected[0];
        withAdded.push_back(added);
        QVERIFY(filteredIds(store, wheres[0]) == withAdded);
        QVERIFY(writeScreenPack(store, 2) > 2000);
        QVERIFY(filteredIds(store, wheres[0]) == withAdded);
        ScreenIndex probe;
        probe.load(store.handle(), store.path(), 2, -1, false);
        QVERIFY(probe.loadedFromPack());
        QVERIFY(probe.find(canonicalSmiles("c1ccccc1CCCCCCCCCCCCN")));
        // A pose given another molecule outside a transaction of the store (no notice to the
        // connection's filter state, the same id range): the pose map is no longer used, the
        // pattern asked anew sees the change.
        QVERIFY(probe.poseMolecules(1, added));
        const std::vector<long long> withPack = filteredIds(store, "smarts('[NX3;H2]c')");
        QVERIFY(!withPack.empty());
        // The last: after the first kBulkAfter molecules answered by SMILES, rows are by id.
        const long long changed = withPack.back();
        {
            Statement u = store.prepare("UPDATE poses SET smiles = 'CCO' WHERE id = ?");
            u.bind(1, changed);
            u.run();
        }
        std::vector<long long> expectedAfter = withPack;
        expectedAfter.pop_back();
        QVERIFY(filteredIds(store, "smarts('[NX3;H2][c]')") == expectedAfter);
    }
};

QTEST_GUILESS_MAIN(TestScreenPack)
#include "test_screen_pack.moc"
