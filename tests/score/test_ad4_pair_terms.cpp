// AutoDock 4.2 parameters and pair terms against numbers printed by autodock4 4.2.6 (Debian
// 4.2.6-9) itself: `outlev 7` (etables) on the 1stp epdb run prints each type pair's weighted
// cA/cB, the table minimum before and after `smooth 0.5`, and the Mehler-Solmajer dielectric.
#include "core/InputError.h"
#include "score/ad4/Ad4PairTerms.h"
#include "score/ad4/Ad4Parameters.h"
#include "score/ad4/Ad4R2Spline.h"

#include <QtTest>

#include <cmath>

using namespace pw;
using namespace pw::ad4;

namespace {

// autodock4's internal tables: sample i at r^2 = i / 32 Å^2, 2048 samples (8 Å cutoff).
constexpr int kSamples = 2048;
double distanceOfSample(int i) { return std::sqrt(i / 32.0); }
int sampleOfDistance(double r) { return static_cast<int>(r * r * 32.0); }

std::vector<double> autodockTable(const PairCoefficients& c) {
    std::vector<double> t(kSamples);
    t[0] = kEnergyClamp;
    for (int i = 1; i < kSamples; ++i)
        t[i] = pairEnergy(c, distanceOfSample(i));
    return t;
}

bool relClose(double a, double b, double rel) { return std::fabs(a - b) <= rel * std::fabs(b); }

} // namespace

class TestAd4PairTerms : public QObject {
    Q_OBJECT

private slots:
    void looksUpTypes() {
        const AtomParameters& oa = parameters("OA");
        QCOMPARE(oa.Rii, 3.20);
        QCOMPARE(oa.epsii, 0.200);
        QCOMPARE(oa.vol, 17.1573);
        QCOMPARE(oa.solpar, -0.00251);
        QCOMPARE(oa.Rij_hb, 1.9);
        QCOMPARE(oa.epsij_hb, 5.0);
        QVERIFY(oa.isAcceptor());
        QVERIFY(!oa.isDonor());
        QVERIFY(parameters("HD").isDonor());
        QVERIFY(!parameters("H").isDonor());
        QCOMPARE(parameters("SA").Rij_hb, 2.5);
        QCOMPARE(parameters("Zn").Rii, 1.48);
        QCOMPARE(parameters("ZN").Rii, 1.48);
        QVERIFY(findParameters("Xx") == nullptr);
        QCOMPARE(boundCoefficients().tors, 0.2983);
        QCOMPARE(boundCoefficients().estat, 0.1406);
        QCOMPARE(static_cast<int>(parameterTable().size()), 34);
    }

    void unknownTypeIsAClearError() {
        try {
            parameters("Qq");
            QFAIL("no error for an unknown type");
        } catch (const InputError& e) {
            const QString msg = QString::fromStdString(e.what());
            QVERIFY2(msg.contains("unknown AutoDock 4 atom type 'Qq'"), qPrintable(msg));
            QVERIFY2(msg.contains("OA"), qPrintable(msg));
        }
    }

    void coefficientsEqualAutodock4() {
        // autodock4 outlev 7: "E = coeff_vdW * (...) = cA/r^12 - cB/r^6" lines.
        const PairCoefficients cc = pairCoefficients(parameters("C"), parameters("C"));
        QVERIFY(relClose(cc.cA, 418255.99488, 1e-9));
        QVERIFY(relClose(cc.cB, 204.22656, 1e-7));
        QCOMPARE(cc.xB, 6);
        QVERIFY(!cc.hbond);
        const PairCoefficients coa = pairCoefficients(parameters("C"), parameters("OA"));
        QVERIFY(relClose(coa.cA, 136402.28826, 1e-9));
        QVERIFY(relClose(coa.cB, 125.32469, 1e-7));
        const PairCoefficients hb = pairCoefficients(parameters("OA"), parameters("HD"));
        QVERIFY(hb.hbond);
        QCOMPARE(hb.xB, 10);
        QVERIFY(relClose(hb.cA, 6689.74434, 1e-9));
        QVERIFY(relClose(hb.cB, 2223.73773, 1e-8));
        const PairCoefficients bh = pairCoefficients(parameters("HD"), parameters("OA"));
        QCOMPARE(bh.cA, hb.cA);
        QCOMPARE(bh.cB, hb.cB);
        // Two donors, or a donor and a non-acceptor: plain 12-6.
        QVERIFY(!pairCoefficients(parameters("HD"), parameters("HD")).hbond);
        QVERIFY(!pairCoefficients(parameters("HD"), parameters("N")).hbond);
        QVERIFY(pairCoefficients(parameters("HD"), parameters("NA")).hbond);
        // The well: -epsij at Rij.
        QVERIFY(std::fabs(pairEnergy(cc, 4.0) + 0.15 * 0.1662) < 1e-12);
        QVERIFY(std::fabs(pairEnergy(hb, 1.9) + 5.0 * 0.1209) < 1e-12);
        QCOMPARE(pairEnergy(cc, 0.2), kEnergyClamp);
    }

    void smoothingEqualsAutodock4() {
        // "before smoothing internal C-C minval= -0.024930 over d= 4.00000 to 4.00000",
        // "after smoothing ... over d= 3.75000 to 4.25367" (and C-OA, OA-HD likewise).
        struct Case {
            const char* a;
            const char* b;
            double minval;
            double firstBefore, firstAfter, lastAfter;
        };
        const Case cases[] = {{"C", "C", -0.024930, 4.00000, 3.75000, 4.25367},
                              {"C", "OA", -0.028787, 3.60122, 3.35410, 3.85276},
                              {"OA", "HD", -0.604346, 1.90394, 1.65831, 2.15783}};
        for (const Case& k : cases) {
            const std::vector<double> raw = autodockTable(pairCoefficients(parameters(k.a), parameters(k.b)));
            const std::vector<double> smooth =
                smoothWithWindowMinimum(raw, kSmoothWidth, distanceOfSample, sampleOfDistance);
            const auto minAt = [](const std::vector<double>& t, double& m, int& first, int& last) {
                m = *std::min_element(t.begin(), t.end());
                first = static_cast<int>(std::find(t.begin(), t.end(), m) - t.begin());
                last = static_cast<int>(t.rend() - std::find(t.rbegin(), t.rend(), m)) - 1;
            };
            double m = 0;
            int first = 0, last = 0;
            minAt(raw, m, first, last);
            QVERIFY2(std::fabs(m - k.minval) < 5e-7, k.b);
            QVERIFY2(std::fabs(distanceOfSample(first) - k.firstBefore) < 5e-6, k.b);
            minAt(smooth, m, first, last);
            QVERIFY2(std::fabs(m - k.minval) < 5e-7, k.b);
            QVERIFY2(std::fabs(distanceOfSample(first) - k.firstAfter) < 5e-6, k.b);
            QVERIFY2(std::fabs(distanceOfSample(last) - k.lastAfter) < 5e-6, k.b);
        }
    }

    void closedFormSmoothingIsTheFineTableLimit() {
        // Sampled every 0.0005 Å, the window minimum converges on the closed form.
        for (const auto& [a, b] : {std::pair{"C", "OA"}, std::pair{"OA", "HD"}, std::pair{"Zn", "OA"}}) {
            const PairCoefficients c = pairCoefficients(parameters(a), parameters(b));
            for (double r = 1.0; r < 8.0; r += 0.0371) {
                double m = kEnergyClamp;
                for (double s = r - 0.25; s <= r + 0.25 + 1e-12; s += 0.0005)
                    m = std::min(m, pairEnergy(c, s));
                double d = 0;
                const double e = smoothedPairEnergy(c, r, kSmoothWidth, &d);
                QVERIFY2(std::fabs(e - m) < 1e-6 * std::max(1.0, std::fabs(m)),
                         qPrintable(QString("%1-%2 r=%3 %4 %5").arg(a, b).arg(r).arg(e).arg(m)));
            }
        }
    }

    void derivativesMatchFiniteDifferences() {
        const PairCoefficients c = pairCoefficients(parameters("C"), parameters("N"));
        const double h = 1e-6;
        for (double r : {2.1, 3.0, 3.6, 3.9, 5.5, 7.7}) {
            double d = 0, dp = 0, dm = 0;
            smoothedPairEnergy(c, r, kSmoothWidth, &d);
            const double fd = (smoothedPairEnergy(c, r + h, kSmoothWidth, &dp) -
                               smoothedPairEnergy(c, r - h, kSmoothWidth, &dm)) / (2 * h);
            QVERIFY2(std::fabs(d - fd) < 1e-6 * std::max(1.0, std::fabs(fd)), qPrintable(QString::number(r)));
            const double fe = (mehlerSolmajerDielectric(r + h) - mehlerSolmajerDielectric(r - h)) / (2 * h);
            QVERIFY(std::fabs(mehlerSolmajerDielectricDerivative(r) - fe) < 1e-6);
        }
    }

    void r2SplineInterpolatesValueAndSlope() {
        // f(r2) = sin(r2) + r2^2: the cubic Hermite spline is exact at the knots and close between.
        const R2Spline s(10.0, 64, [](double r2, double* d) {
            *d = std::cos(r2) + 2 * r2;
            return std::sin(r2) + r2 * r2;
        });
        for (double r2 = 0.0; r2 < 10.0; r2 += 0.01731) {
            double d = 0;
            const double v = s(r2, &d);
            QVERIFY(std::fabs(v - (std::sin(r2) + r2 * r2)) < 1e-9);
            QVERIFY(std::fabs(d - (std::cos(r2) + 2 * r2)) < 1e-5);
        }
        double d = 1;
        QCOMPARE(s(12.0, &d), std::sin(10.0) + 100.0); // held beyond the end, slope 0
        QCOMPARE(d, 0.0);
    }

    void dielectricEqualsAutodock4() {
        // "i = 100, distance = 1.768, epsilon_fn[i] = 7.3807", i = 800 -> 24.7844, i = 12000 -> 76.9186.
        QVERIFY(std::fabs(mehlerSolmajerDielectric(distanceOfSample(100)) - 7.3807) < 5e-5);
        QVERIFY(std::fabs(mehlerSolmajerDielectric(distanceOfSample(800)) - 24.7844) < 5e-5);
        QVERIFY(std::fabs(mehlerSolmajerDielectric(distanceOfSample(12000)) - 76.9186) < 5e-5);
        QVERIFY(std::fabs(distanceOfSample(800) * mehlerSolmajerDielectric(distanceOfSample(800)) -
                          123.9221) < 5e-4);
        // Coulomb with it: 332.06363 * 0.1406 q q / (r eps).
        const double e = electrostaticEnergy(0.5, -0.25, 5.0);
        QVERIFY(std::fabs(e - 0.1406 * 332.06363 * -0.125 / (5.0 * mehlerSolmajerDielectric(5.0))) < 1e-12);
    }

    void desolvationTerms() {
        QCOMPARE(desolvationGaussian(0.0), 1.0);
        QVERIFY(std::fabs(desolvationGaussian(3.6) - std::exp(-0.5)) < 1e-15);
        const AtomParameters& c = parameters("C");
        const AtomParameters& oa = parameters("OA");
        const double f = desolvationPairFactor(c, 0.2, oa, -0.6);
        QVERIFY(std::fabs(f - (17.1573 * (-0.00143 + 0.01097 * 0.2) + 33.5103 * (-0.00251 + 0.01097 * 0.6))) < 1e-12);
        QCOMPARE(desolvationPairFactor(oa, -0.6, c, 0.2), f);
    }
};

QTEST_APPLESS_MAIN(TestAd4PairTerms)
#include "test_ad4_pair_terms.moc"
