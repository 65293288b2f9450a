// Computed (derived) score columns of the hit store, as `hits rescore` writes them: typed columns
// of origin Derived that survive reopening, stay NULL for poses imported later, are never taken
// for an SD tag's column, are cleared when other inputs write them, and vanish with a rollback.
#include "hits/ComputedScores.h"
#include "hits/HitImport.h"
#include "hits/HitStore.h"

#include <QTemporaryDir>
#include <QtTest>

#include "HitsTestData.h"

using namespace pw::hits;
using namespace pw::test;

namespace {

std::optional<double> realAt(const HitStore& s, const std::string& column, long long id) {
    Statement q = s.prepare("SELECT " + quoteIdentifier(column) + " FROM poses WHERE id = ?");
    q.bind(1, id);
    if (!q.step() || q.isNull(0))
        return std::nullopt;
    return q.real(0);
}

void importText(HitStore& s, const QString& path, const std::string& text) {
    writeText(path, text);
    HitStore::Transaction tx(s);
    importSdf(s, path.toStdString(), {});
    tx.commit();
}

} // namespace

class TestComputedScores : public QObject {
    Q_OBJECT
private slots:
    void derivedColumnsAreKeptApartFromImportedOnes() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("h.db").toStdString();
        {
            HitStore s(path, HitStore::Mode::Create);
            importText(s, dir.filePath("a.sdf"),
                       ethanolRecord("a", tag("dock_score", "-5")) + ethanolRecord("b", ""));
            HitStore::Transaction tx(s);
            ComputedScoreWriter w(s, "test_inputs", {"rescore_affinity", "rescore_inter"}, "A");
            QVERIFY(!w.previousInputs());
            QCOMPARE(w.cleared(), 0LL);
            w.write(1, {-7.25, std::nullopt});
            w.write(2, {1.5, 3.0});
            tx.commit();
        }
        HitStore s(path, HitStore::Mode::ReadWrite);
        const ColumnInfo* c = s.column("rescore_affinity");
        QVERIFY(c);
        QCOMPARE(int(c->origin), int(ColumnOrigin::Derived));
        QCOMPARE(int(c->type), int(ColumnType::Real));
        QCOMPARE(realAt(s, "rescore_affinity", 1), std::optional<double>(-7.25));
        QVERIFY(!realAt(s, "rescore_inter", 1));
        QCOMPARE(realAt(s, "rescore_inter", 2), std::optional<double>(3.0));
        QCOMPARE(metaValue(s, "test_inputs"), std::optional<std::string>("A"));

        // A pose imported later has empty cells; an SD tag of the same name gets its own column.
        importText(s, dir.filePath("b.sdf"), ethanolRecord("c", tag("rescore_affinity", "9")));
        QVERIFY(!realAt(s, "rescore_affinity", 3));
        const ColumnInfo* tagged = s.column("rescore_affinity_2");
        QVERIFY(tagged);
        QCOMPARE(int(tagged->origin), int(ColumnOrigin::Tag));
        QCOMPARE(realAt(s, "rescore_affinity_2", 3), std::optional<double>(9.0));
        QCOMPARE(realAt(s, "rescore_affinity", 1), std::optional<double>(-7.25));

        // Names that belong to others are refused, before anything is written.
        {
            HitStore::Transaction tx(s);
            QVERIFY_THROWS_EXCEPTION(StoreError,
                                     s.ensureDerivedColumn("dock_score", ColumnType::Real));
            QVERIFY_THROWS_EXCEPTION(StoreError,
                                     s.ensureDerivedColumn("rank", ColumnType::Integer));
            QVERIFY_THROWS_EXCEPTION(
                StoreError, s.ensureDerivedColumn("rescore_affinity", ColumnType::Integer));
            QCOMPARE(&s.ensureDerivedColumn("rescore_affinity", ColumnType::Real),
                     s.column("rescore_affinity"));
        }

        // The same inputs keep the values; other inputs clear every one of them first.
        {
            HitStore::Transaction tx(s);
            ComputedScoreWriter same(s, "test_inputs", {"rescore_affinity", "rescore_inter"}, "A");
            QCOMPARE(same.cleared(), 0LL);
            QCOMPARE(same.previousInputs(), std::optional<std::string>("A"));
            tx.commit();
        }
        QCOMPARE(realAt(s, "rescore_affinity", 2), std::optional<double>(1.5));
        {
            HitStore::Transaction tx(s);
            ComputedScoreWriter other(s, "test_inputs", {"rescore_affinity", "rescore_inter"}, "B");
            QCOMPARE(other.cleared(), 2LL);
            other.write(3, {-1.0, -2.0});
            tx.commit();
        }
        QVERIFY(!realAt(s, "rescore_affinity", 1) && !realAt(s, "rescore_affinity", 2));
        QCOMPARE(realAt(s, "rescore_inter", 3), std::optional<double>(-2.0));
        QCOMPARE(metaValue(s, "test_inputs"), std::optional<std::string>("B"));
    }

    void aRolledBackWriteLeavesNoColumn() {
        QTemporaryDir dir;
        HitStore s(dir.filePath("h.db").toStdString(), HitStore::Mode::Create);
        importText(s, dir.filePath("a.sdf"), ethanolRecord("a", ""));
        const size_t columns = s.columns().size();
        {
            HitStore::Transaction tx(s);
            ComputedScoreWriter w(s, "test_inputs", {"rescore_affinity"}, "A");
            w.write(1, {-3.0});
            QVERIFY(s.column("rescore_affinity"));
        } // no commit
        QVERIFY(!s.column("rescore_affinity"));
        QCOMPARE(s.columns().size(), columns);
        QVERIFY(!metaValue(s, "test_inputs"));
        HitStore reopened(dir.filePath("h.db").toStdString(), HitStore::Mode::ReadOnly);
        QVERIFY(!reopened.column("rescore_affinity"));
    }
};

QTEST_GUILESS_MAIN(TestComputedScores)
#include "test_computed_scores.moc"
