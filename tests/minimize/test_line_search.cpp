// Tests for the line searches: Vina's Armijo backtracking (acceptance rule, halving, trial cap)
// and the strong-Wolfe search (both conditions hold at the returned step) on 1-D functions.
#include "minimize/LineSearch.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <vector>

using namespace pw;

namespace {

// phi and phi' from closures; remembers every alpha asked for.
class Line final : public LineFunction {
public:
    Line(std::function<double(double)> f, std::function<double(double)> df)
        : f_(std::move(f)), df_(std::move(df)) {}
    double evaluate(double alpha, double& slope) override {
        alphas.push_back(alpha);
        slope = df_(alpha);
        return f_(alpha);
    }
    std::vector<double> alphas;

private:
    std::function<double(double)> f_, df_;
};

// More & Thuente (1994) test function 1: phi = -a / (a^2 + beta), minimum at sqrt(beta).
Line moreThuente1(double beta) {
    return Line([beta](double a) { return -a / (a * a + beta); },
                [beta](double a) { return (a * a - beta) / ((a * a + beta) * (a * a + beta)); });
}

void verifyStrongWolfe(Line& line, const StrongWolfeParameters& p) {
    double s0 = 0;
    const double f0 = line.evaluate(0.0, s0);
    line.alphas.clear();
    const LineSearchResult r = strongWolfeSearch(line, f0, s0, p);
    QVERIFY(r.satisfied);
    QVERIFY(r.alpha > 0);
    QVERIFY(r.value <= f0 + p.c1 * r.alpha * s0);
    QVERIFY(std::abs(r.slope) <= p.c2 * std::abs(s0));
    QCOMPARE(r.evaluations, static_cast<int>(line.alphas.size()));
    QVERIFY(r.evaluations <= p.maxEvaluations);
    if (r.trialIsResult)
        QCOMPARE(line.alphas.back(), r.alpha);
}

} // namespace

class TestLineSearch : public QObject {
    Q_OBJECT
private slots:
    void armijoAcceptsFullStepOnGoodModel() {
        Line line([](double a) { return (a - 1.0) * (a - 1.0); },
                  [](double a) { return 2.0 * (a - 1.0); });
        const LineSearchResult r = armijoSearch(line, 1.0, -2.0, ArmijoParameters{});
        QVERIFY(r.satisfied);
        QCOMPARE(r.alpha, 1.0);
        QCOMPARE(r.evaluations, 1);
    }

    void armijoHalvesUntilSufficientDecrease() {
        // Minimum at 0.01: 1, 0.5, ..., 2^-6 = 0.015625 is the first step below phi(0).
        Line line([](double a) { return (a - 0.01) * (a - 0.01) * 1e4; },
                  [](double a) { return 2e4 * (a - 0.01); });
        const ArmijoParameters p;
        const LineSearchResult r = armijoSearch(line, 1.0, -200.0, p);
        QVERIFY(r.satisfied);
        QCOMPARE(r.alpha, std::ldexp(1.0, -6));
        QCOMPARE(r.evaluations, 7);
        QCOMPARE(line.alphas.front(), 1.0);
        for (size_t i = 1; i < line.alphas.size(); ++i)
            QCOMPARE(line.alphas[i], 0.5 * line.alphas[i - 1]); // Vina's multiplier
        QVERIFY(r.value - 1.0 < p.c * r.alpha * -200.0);
        // Every rejected trial broke the Armijo condition.
        for (size_t i = 0; i + 1 < line.alphas.size(); ++i) {
            const double a = line.alphas[i];
            QVERIFY(!((a - 0.01) * (a - 0.01) * 1e4 - 1.0 < p.c * a * -200.0));
        }
    }

    void armijoGivesUpAfterTenTrials() {
        Line line([](double a) { return a; }, [](double) { return 1.0; });
        const LineSearchResult r = armijoSearch(line, 0.0, -1.0, ArmijoParameters{});
        QVERIFY(!r.satisfied);
        QCOMPARE(r.evaluations, 10);
        QCOMPARE(r.alpha, std::ldexp(1.0, -9)); // the last trial, which the caller holds
        QCOMPARE(line.alphas.back(), r.alpha);
    }

    void armijoRejectsNaN() {
        Line line([](double a) { return a > 0.1 ? std::nan("") : -a; },
                  [](double) { return -1.0; });
        const LineSearchResult r = armijoSearch(line, 0.0, -1.0, ArmijoParameters{});
        QVERIFY(r.satisfied);
        QCOMPARE(r.alpha, 0.0625);
    }

    void strongWolfeOnQuadratic() {
        Line line([](double a) { return (a - 3.0) * (a - 3.0); },
                  [](double a) { return 2.0 * (a - 3.0); });
        verifyStrongWolfe(line, StrongWolfeParameters{});
    }

    void strongWolfeOnMoreThuente() {
        for (double beta : {2.0, 0.004}) {
            Line line = moreThuente1(beta);
            StrongWolfeParameters p;
            p.c2 = 0.1; // tight: forces bracketing/zoom, not just any decrease
            verifyStrongWolfe(line, p);
        }
    }

    void strongWolfeExtrapolatesAndZooms() {
        // Minimum far beyond the first step: the search must grow alpha, then zoom.
        Line line([](double a) { return std::pow(a - 20.0, 2) / 40.0 - std::sin(a); },
                  [](double a) { return (a - 20.0) / 20.0 - std::cos(a); });
        StrongWolfeParameters p;
        p.c2 = 0.1;
        verifyStrongWolfe(line, p);
        QVERIFY(line.alphas.size() >= 3);
        QVERIFY(line.alphas[1] > line.alphas[0]); // grew before zooming
    }

    void strongWolfeBacktracksFromHugeStep() {
        Line line([](double a) { return std::exp(50.0 * a) - 51.0 * a; },
                  [](double a) { return 50.0 * std::exp(50.0 * a) - 51.0; });
        StrongWolfeParameters p;
        verifyStrongWolfe(line, p);
    }

    void strongWolfeReportsFailureWithoutDecrease() {
        // Slope claims descent but the function rises: no acceptable point exists.
        Line line([](double a) { return a; }, [](double) { return 1.0; });
        const LineSearchResult r = strongWolfeSearch(line, 0.0, -1.0, StrongWolfeParameters{});
        QVERIFY(!r.satisfied);
        QCOMPARE(r.alpha, 0.0);
        QVERIFY(r.evaluations <= StrongWolfeParameters{}.maxEvaluations);
    }
};

QTEST_GUILESS_MAIN(TestLineSearch)
#include "test_line_search.moc"
