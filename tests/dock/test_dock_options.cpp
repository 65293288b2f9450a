// Tests for the docking settings: AutoDock-GPU's evaluation heuristic (its shape: floor, growth
// with torsions, run scaling, smooth cap), the name parsers, and the per-run random streams.
#include "dock/DockOptions.h"
#include "dock/DockRandom.h"

#include <QtTest>

#include <cmath>
#include <set>

using namespace pw::dock;

class TestDockOptions : public QObject {
    Q_OBJECT
private slots:
    void heuristicFloorAndScaling() {
        // Few torsions: the 500k floor, times 50/20 for 20 runs, then the cap e*M/(M+e).
        const double e = 500000.0 * 50.0 / 20.0, m = 12e6;
        QCOMPARE(heuristicEvaluations(0, 20, LocalSearchMethod::Adadelta, 12'000'000),
                 static_cast<long>(std::ceil(e * m / (m + e))));
        // 100 runs get half the floor each (50/100).
        const double e100 = 250000.0;
        QCOMPARE(heuristicEvaluations(2, 100, LocalSearchMethod::Adadelta, 12'000'000),
                 static_cast<long>(std::ceil(e100 * m / (m + e100))));
    }
    void heuristicGrowsWithTorsionsAndStaysBelowCap() {
        long previous = 0;
        for (int t = 0; t <= kMaxDockTorsions; ++t) {
            const long e = heuristicEvaluations(t, 20, LocalSearchMethod::Adadelta, 12'000'000);
            QVERIFY(e >= previous);
            QVERIFY(e < 12'000'000);
            previous = e;
        }
        QVERIFY(previous > 5'000'000); // 32 torsions: far above the floor
        // Solis-Wets' estimate grows faster than ADADELTA's.
        QVERIFY(heuristicEvaluations(10, 20, LocalSearchMethod::SolisWets, 12'000'000) >
                heuristicEvaluations(10, 20, LocalSearchMethod::Adadelta, 12'000'000));
        // An explicit budget wins over the heuristic.
        LgaOptions o;
        o.maxEvaluations = 1234;
        QCOMPARE(evaluationBudget(o, 10, 20), 1234L);
    }
    void namesRoundTrip() {
        for (auto m :
             {LocalSearchMethod::SolisWets, LocalSearchMethod::Adadelta, LocalSearchMethod::Bfgs})
            QVERIFY(parseLocalSearch(localSearchName(m)) == m);
        QVERIFY(parseLocalSearch("ad") == LocalSearchMethod::Adadelta);
        QVERIFY(!parseLocalSearch("lbfgs"));
        for (auto s : {DockScoring::Vina, DockScoring::Vinardo, DockScoring::Ad4})
            QVERIFY(parseDockScoring(dockScoringName(s)) == s);
        QVERIFY(!parseDockScoring("smina"));
    }
    void randomStreamsAreKeyedAndUniform() {
        DockRandom a(7, 3, 5), b(7, 3, 5), c(7, 3, 6), d(7, 4, 5), e(8, 3, 5);
        std::set<std::uint64_t> firsts;
        for (auto* r : {&c, &d, &e})
            firsts.insert(r->next());
        const std::uint64_t fa = a.next();
        QCOMPARE(fa, b.next());
        QVERIFY(!firsts.count(fa));
        QCOMPARE(firsts.size(), size_t(3));
        double sum = 0;
        int counts[10] = {};
        for (int i = 0; i < 100000; ++i) {
            const double u = a.uniform();
            QVERIFY(u >= 0 && u < 1);
            sum += u;
            ++counts[a.below(10)];
        }
        QVERIFY(std::abs(sum / 100000 - 0.5) < 0.01);
        for (int k : counts)
            QVERIFY(std::abs(k - 10000) < 600);
    }
};

QTEST_APPLESS_MAIN(TestDockOptions)
#include "test_dock_options.moc"
