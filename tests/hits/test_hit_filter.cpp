// --where and --order against a brute-force evaluation on a few thousand random rows (SQL's
// three-valued logic for NULLs included), and bad expressions: a clear message with the position.
#include "hits/HitExport.h"
#include "hits/HitFilter.h"
#include "hits/HitStore.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>

using namespace pw;
using namespace pw::hits;

namespace {

struct Row {
    long long id = 0;
    std::string name;
    std::optional<double> dock, minAff, mw, qed;
    std::optional<int> hbd;
    std::vector<std::pair<std::string, std::string>> contacts; // (kind, residue)
    // The molecule, built from a ring core and substituents so that what it contains is known
    // without RDKit; no smiles, or one RDKit cannot read, makes substructure filters unknown.
    bool hasMolecule = false;
    int core = 0;      // 0 phenyl, 1 pyridyl, 2 cyclohexyl
    int groups = 0;    // bits: 1 carboxylic acid, 2 primary amide, 4 chlorine, 8 hydroxyl
};

const char* const kGroupSmiles[] = {"C(=O)O", "C(=O)N", "Cl", "O"};

// The SMILES of a core with up to two substituents (x on the second ring atom, y on the last).
std::string buildSmiles(int core, int x, int y) {
    const char* const rings[][3] = {{"c1", "c", "cccc1"}, {"c1", "c", "cncc1"}, {"C1", "C", "CCCC1"}};
    std::string s = rings[core][0];
    s += rings[core][1];
    if (x >= 0)
        s += std::string("(") + kGroupSmiles[x] + ")";
    s += rings[core][2];
    if (y >= 0)
        s += kGroupSmiles[y];
    return s;
}

// Substructure filters and what each means for a built molecule.
struct PatternCase {
    const char* text;
    bool (*holds)(int core, int groups);
};
const PatternCase kPatterns[] = {
    {"smarts('c1ccccc1C(=O)[OH]')", [](int c, int g) { return c == 0 && (g & 1) != 0; }},
    {"smarts('Cl')", [](int, int g) { return (g & 4) != 0; }},
    {"substructure('NC=O')", [](int, int g) { return (g & 2) != 0; }},
    {"smarts('[nX2]')", [](int c, int) { return c == 1; }},
    {"SMARTS('[C;R]')", [](int c, int) { return c == 2; }},
    {"substructure('Oc1ccccc1')", [](int c, int g) { return c == 0 && (g & 8) != 0; }},
    {"smarts('[OX2H][CX4]')", [](int c, int g) { return c == 2 && (g & 8) != 0; }},
    {"substructure('c1ccncc1')", [](int c, int) { return c == 1; }},
};

enum class Truth { False, True, Unknown };

Truth both(Truth a, Truth b) {
    if (a == Truth::False || b == Truth::False)
        return Truth::False;
    return a == Truth::Unknown || b == Truth::Unknown ? Truth::Unknown : Truth::True;
}
Truth either(Truth a, Truth b) {
    if (a == Truth::True || b == Truth::True)
        return Truth::True;
    return a == Truth::Unknown || b == Truth::Unknown ? Truth::Unknown : Truth::False;
}
Truth negate(Truth a) {
    return a == Truth::Unknown ? a : a == Truth::True ? Truth::False : Truth::True;
}

std::optional<double> field(const Row& r, int column) {
    switch (column) {
    case 0:
        return r.dock;
    case 1:
        return r.minAff;
    case 2:
        return r.mw;
    case 3:
        return r.qed;
    default:
        return r.hbd ? std::optional<double>(*r.hbd) : std::nullopt;
    }
}
const char* const kColumns[] = {"dock_score", "min_affinity", "mw", "qed", "hbd"};
const char* const kKinds[] = {"hbond", "hydrophobic", "saltbridge", "pistack"};
const char* const kResidues[] = {"ASP86", "LEU83", "GLU81", "PHE80"};

// A random expression as text and as a predicate.
struct Expr {
    std::string text;
    std::function<Truth(const Row&)> eval;
};

Expr randomExpr(std::mt19937& rng, int depth) {
    std::uniform_int_distribution<int> pick(0, 99);
    const int p = pick(rng);
    if (depth > 0 && p < 35) {
        Expr a = randomExpr(rng, depth - 1), b = randomExpr(rng, depth - 1);
        const bool isAnd = pick(rng) < 50;
        Expr e;
        e.text = "(" + a.text + (isAnd ? " and " : " OR ") + b.text + ")";
        e.eval = [a, b, isAnd](const Row& r) {
            return isAnd ? both(a.eval(r), b.eval(r)) : either(a.eval(r), b.eval(r));
        };
        return e;
    }
    if (depth > 0 && p < 42) {
        Expr a = randomExpr(rng, depth - 1);
        return {"not " + a.text, [a](const Row& r) { return negate(a.eval(r)); }};
    }
    if (p < 47) {
        const PatternCase& pc = kPatterns[pick(rng) % std::size(kPatterns)];
        return {pc.text, [&pc](const Row& r) {
                    if (!r.hasMolecule)
                        return Truth::Unknown;
                    return pc.holds(r.core, r.groups) ? Truth::True : Truth::False;
                }};
    }
    if (p < 52) {
        const std::string kind = kKinds[pick(rng) % 4], res = kResidues[pick(rng) % 4];
        const bool any = pick(rng) < 25;
        return {(any ? "interacts" : kind) + "('" + res + "')", [=](const Row& r) {
                    for (const auto& [k, rr] : r.contacts)
                        if (rr == res && (any || k == kind))
                            return Truth::True;
                    return Truth::False;
                }};
    }
    const int column = pick(rng) % 5;
    if (p < 58) {
        const bool notNull = pick(rng) < 50;
        return {std::string(kColumns[column]) + (notNull ? " is not null" : " IS NULL"),
                [=](const Row& r) {
                    return field(r, column).has_value() == notNull ? Truth::True : Truth::False;
                }};
    }
    const char* const ops[] = {"<", "<=", ">", ">=", "=", "!="};
    const int op = pick(rng) % 6;
    double value;
    switch (column) {
    case 0:
    case 1:
        value = -12 + 0.5 * (pick(rng) % 17);
        break;
    case 2:
        value = 150 + 25 * (pick(rng) % 21);
        break;
    case 3:
        value = 0.05 * (pick(rng) % 21);
        break;
    default:
        value = pick(rng) % 7;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", value);
    value = std::stod(buf); // the number exactly as the expression states it
    std::snprintf(buf, sizeof buf, "%s %s %g", kColumns[column], ops[op], value);
    return {buf, [=](const Row& r) {
                const auto v = field(r, column);
                if (!v)
                    return Truth::Unknown;
                bool t = false;
                switch (op) {
                case 0:
                    t = *v < value;
                    break;
                case 1:
                    t = *v <= value;
                    break;
                case 2:
                    t = *v > value;
                    break;
                case 3:
                    t = *v >= value;
                    break;
                case 4:
                    t = *v == value;
                    break;
                default:
                    t = *v != value;
                }
                return t ? Truth::True : Truth::False;
            }};
}

std::vector<long long> selectedIds(const HitStore& s, const Selection& sel) {
    std::vector<long long> ids;
    forEachSelected(s, sel, {"id"}, [&](const Statement& q) { ids.push_back(q.integer(0)); });
    return ids;
}

} // namespace

class TestHitFilter : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<HitStore> store_;
    std::vector<Row> rows_;

private slots:
    void initTestCase() {
        store_ =
            std::make_unique<HitStore>(dir_.filePath("h.db").toStdString(), HitStore::Mode::Create);
        std::mt19937 rng(20261126);
        std::uniform_real_distribution<double> u(0, 1);
        HitStore::Transaction tx(*store_);
        for (int i = 0; i < 3000; ++i) {
            Row r;
            r.name = "pose" + std::to_string(i);
            PoseRecord p;
            p.name = r.name;
            // Values on a coarse grid so that equality and ties occur.
            if (u(rng) < 0.8)
                r.dock = -12 + 0.25 * int(u(rng) * 33);
            if (u(rng) < 0.6)
                r.minAff = -12 + 0.5 * int(u(rng) * 17);
            if (u(rng) < 0.9)
                r.mw = 150 + 25 * int(u(rng) * 21);
            if (u(rng) < 0.9)
                r.qed = 0.05 * int(u(rng) * 21);
            if (u(rng) < 0.9)
                r.hbd = int(u(rng) * 7);
            ColumnInfo dock{"dock_score", ColumnType::Real, ColumnOrigin::Tag, "dock_score"};
            ColumnInfo minAff{"min_affinity", ColumnType::Real, ColumnOrigin::Tag,
                              "minimizedAffinity"};
            if (r.dock)
                p.scores.emplace_back(dock, *r.dock);
            if (r.minAff)
                p.scores.emplace_back(minAff, *r.minAff);
            p.mw = r.mw;
            p.qed = r.qed;
            p.hbd = r.hbd;
            const double m = u(rng);
            if (m < 0.9) {
                r.hasMolecule = true;
                r.core = int(u(rng) * 3);
                const int x = int(u(rng) * 5) - 1, y = int(u(rng) * 5) - 1; // -1: none
                r.groups = (x >= 0 ? 1 << x : 0) | (y >= 0 ? 1 << y : 0);
                p.smiles = buildSmiles(r.core, x, y);
            } else if (m < 0.95) {
                p.smiles = u(rng) < 0.5 ? "c1ccccc" : "c1cccc1"; // unclosed ring, not aromatic
            }
            p.interactions.emplace();
            for (int k = 0; k < 4; ++k)
                for (int res = 0; res < 4; ++res)
                    if (u(rng) < 0.12) {
                        Interaction x;
                        x.kind = kKinds[k];
                        x.residueName = std::string(kResidues[res]).substr(0, 3);
                        x.residueNumber = std::stoi(std::string(kResidues[res]).substr(3));
                        x.chain = 'A';
                        p.interactions->push_back(x);
                        r.contacts.emplace_back(kKinds[k], kResidues[res]);
                    }
            r.id = store_->insertPose(p);
            rows_.push_back(r);
        }
        tx.commit();
    }

    void namedExample() {
        const Selection sel{"dock_score < -9 and mw < 500 and hbond('ASP86')", "", -1};
        std::vector<long long> expected;
        for (const Row& r : rows_) {
            bool hb = false;
            for (const auto& [k, res] : r.contacts)
                hb |= k == "hbond" && res == "ASP86";
            if (r.dock && *r.dock < -9 && r.mw && *r.mw < 500 && hb)
                expected.push_back(r.id);
        }
        QVERIFY(expected.size() > 10);
        auto got = selectedIds(*store_, sel);
        std::sort(got.begin(), got.end());
        QCOMPARE(got, expected);
        // The same with a chain and upper/lower case keywords.
        const Selection chained{"DOCK_SCORE < -9 AND mw < 500 AND hbond('A:asp86')", "", -1};
        got = selectedIds(*store_, chained);
        std::sort(got.begin(), got.end());
        QCOMPARE(got, expected);
    }

    void randomFiltersMatchBruteForce() {
        std::mt19937 rng(7);
        int nonTrivial = 0;
        for (int trial = 0; trial < 300; ++trial) {
            const Expr e = randomExpr(rng, 3);
            std::vector<long long> expected;
            for (const Row& r : rows_)
                if (e.eval(r) == Truth::True)
                    expected.push_back(r.id);
            auto got = selectedIds(*store_, {e.text, "", -1});
            std::sort(got.begin(), got.end());
            QVERIFY2(got == expected, qPrintable(QString::fromStdString(e.text)));
            nonTrivial += !expected.empty() && expected.size() < rows_.size();
        }
        QVERIFY(nonTrivial > 100); // the trials really discriminate
    }

    void ordersMatchBruteForce() {
        for (int column = 0; column < 5; ++column)
            for (int descending = 0; descending < 2; ++descending) {
                std::vector<const Row*> sorted;
                for (const Row& r : rows_)
                    sorted.push_back(&r);
                // NULLs last, ties by id (the store's tie-break).
                std::stable_sort(sorted.begin(), sorted.end(), [&](const Row* a, const Row* b) {
                    const auto x = field(*a, column), y = field(*b, column);
                    if (!x || !y)
                        return x.has_value() && !y.has_value();
                    return descending ? *x > *y : *x < *y;
                });
                const std::string order = (descending ? "-" : "") + std::string(kColumns[column]);
                const auto got = selectedIds(*store_, {"", order, 200});
                QCOMPARE(got.size(), size_t(200));
                for (size_t i = 0; i < got.size(); ++i)
                    QCOMPARE(got[i], sorted[i]->id);
                // "col desc" is the same as "-col".
                if (descending)
                    QCOMPARE(
                        selectedIds(*store_, {"", std::string(kColumns[column]) + " desc", 200}),
                        got);
            }
        // Two keys: hbd descending, then dock_score ascending.
        auto got = selectedIds(
            *store_, {"hbd is not null and dock_score is not null", "-hbd, dock_score", -1});
        std::vector<const Row*> ref;
        for (const Row& r : rows_)
            if (r.hbd && r.dock)
                ref.push_back(&r);
        std::stable_sort(ref.begin(), ref.end(), [](const Row* a, const Row* b) {
            return *a->hbd != *b->hbd ? *a->hbd > *b->hbd : *a->dock < *b->dock;
        });
        QCOMPARE(got.size(), ref.size());
        for (size_t i = 0; i < got.size(); ++i)
            QCOMPARE(got[i], ref[i]->id);
    }

    void badExpressionsNamePosition_data() {
        QTest::addColumn<QString>("where");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("unknown column")
            << "dock_score < -9 and mww < 500" << 21 << "unknown column 'mww'";
        QTest::newRow("missing operand") << "mw <" << 5 << "expected a column";
        QTest::newRow("missing paren") << "(mw < 500" << 10 << "expected ')'";
        QTest::newRow("unknown function") << "hbonds('ASP86')" << 1 << "unknown function";
        QTest::newRow("bad residue") << "hbond('86')" << 8 << "expected a residue";
        QTest::newRow("text vs number") << "name < 5" << 1 << "compares text";
        QTest::newRow("dangling and") << "mw < 500 and" << 13 << "expected";
        QTest::newRow("bad character")
            << "mw < 500; drop table poses" << 9 << "unexpected character";
        QTest::newRow("unterminated") << "name = 'abc" << 8 << "unterminated";
        QTest::newRow("empty") << "" << 1 << "empty";
        QTest::newRow("bad smarts") << "mw < 500 and smarts('c1ccc(')" << 22 << "cannot read the SMARTS";
        QTest::newRow("bad smiles") << "substructure('C1CC')" << 15 << "cannot read the SMILES";
        QTest::newRow("empty pattern") << "smarts('')" << 9 << "empty SMARTS";
        QTest::newRow("unquoted pattern") << "smarts(mw)" << 8 << "expected a quoted SMARTS";
    }
    void badExpressionsNamePosition() {
        QFETCH(QString, where);
        QFETCH(int, column);
        QFETCH(QString, fragment);
        try {
            compileWhere(where.toStdString(), *store_);
            QFAIL("no error");
        } catch (const FilterError& e) {
            QVERIFY2(QString(e.what()).contains(fragment), e.what());
            QCOMPARE(e.column(), column);
        }
    }

    // Each pattern alone, and negated: NOT keeps unknown rows (no or unreadable SMILES) out.
    void substructureFiltersMatchConstruction() {
        for (const PatternCase& pc : kPatterns) {
            std::vector<long long> yes, no;
            for (const Row& r : rows_)
                if (r.hasMolecule)
                    (pc.holds(r.core, r.groups) ? yes : no).push_back(r.id);
            QVERIFY2(yes.size() > 50 && no.size() > 50, pc.text);
            auto got = selectedIds(*store_, {pc.text, "", -1});
            std::sort(got.begin(), got.end());
            QVERIFY2(got == yes, pc.text);
            got = selectedIds(*store_, {std::string("not ") + pc.text, "", -1});
            std::sort(got.begin(), got.end());
            QVERIFY2(got == no, pc.text);
        }
    }

    void stringsAreBoundNotPasted() {
        // A quote in a value is data: no SQL is injected, the row simply does not match.
        auto got = selectedIds(*store_, {"name = 'x'' or 1=1 --'", "", -1});
        QVERIFY(got.empty());
        got = selectedIds(*store_, {"name like 'pose12%'", "", -1});
        QCOMPARE(got.size(), size_t(111)); // pose12, pose120..129, pose1200..1299
        QVERIFY_THROWS_EXCEPTION(FilterError, compileOrder("mw, nosuch", *store_));
    }
};

QTEST_GUILESS_MAIN(TestHitFilter)
#include "test_hit_filter.moc"
