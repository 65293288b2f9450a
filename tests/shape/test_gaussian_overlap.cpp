// Gaussian overlap building blocks: closed-form pair volumes, the 7-D gradient against finite
// differences, principal frames and start orientations.
#include "shape/GaussianOverlap.h"
#include "shape/OverlayStarts.h"
#include "shape/ShapeConstants.h"
#include "shape/ShapeOptimizer.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace pw;
using namespace pw::shape;

class TestGaussianOverlap : public QObject {
    Q_OBJECT

    static std::vector<Vec3> randomCloud(int n, unsigned seed) {
        std::mt19937 rng(seed);
        std::normal_distribution<double> g(0, 2.0);
        std::vector<Vec3> v;
        for (int i = 0; i < n; ++i)
            v.emplace_back(g(rng), g(rng) * 0.7, g(rng) * 0.4);
        return v;
    }

private slots:
    void pairVolumeClosedForm() {
        // One carbon on another: p^2 (pi/2a)^1.5, close to the 1.70 A sphere's 20.58 A^3.
        const double a = kKappa / (1.7 * 1.7);
        std::vector<Vec3> one{Vec3::Zero()}, moved{Vec3(1.5, 0, 0)};
        std::vector<std::uint8_t> c0{0};
        const double self = overlapVolume(one, c0, one, c0);
        QVERIFY(std::abs(self - 8 * std::pow(kPi / (2 * a), 1.5)) < 1e-12);
        QVERIFY(std::abs(self - 4.0 / 3.0 * kPi * std::pow(1.7, 3)) < 0.05 * self);
        const double off = overlapVolume(one, c0, moved, c0);
        QVERIFY(std::abs(off - self * std::exp(-a / 2 * 2.25)) < 1e-12);
        // Element radii: oxygen on nitrogen uses their own alphas.
        std::vector<std::uint8_t> cN{std::uint8_t(radiusClass(7, RadiiMode::Element))},
            cO{std::uint8_t(radiusClass(8, RadiiMode::Element))};
        const double aN = kKappa / (1.55 * 1.55), aO = kKappa / (1.52 * 1.52);
        QVERIFY(std::abs(overlapVolume(one, cN, moved, cO) -
                         8 * std::pow(kPi / (aN + aO), 1.5) *
                             std::exp(-aN * aO / (aN + aO) * 2.25)) < 1e-12);
    }

    void gradientMatchesFiniteDifferences() {
        const auto ref = randomCloud(20, 1), fit = randomCloud(25, 2);
        std::vector<std::uint8_t> rc(ref.size(), 0), fc(fit.size(), 0);
        for (size_t i = 0; i < fc.size(); i += 3)
            fc[i] = 2; // mixed classes
        PoseVector x;
        x << 0.9, 0.3, -0.2, 0.25, 0.4, -0.3, 0.2; // q not unit on purpose
        PoseVector g;
        poseOverlap(ref, rc, fit, fc, x, &g);
        const double h = 1e-6;
        for (int k = 0; k < 7; ++k) {
            PoseVector xp = x, xm = x;
            xp[k] += h;
            xm[k] -= h;
            const double fd = (poseOverlap(ref, rc, fit, fc, xp, nullptr) -
                               poseOverlap(ref, rc, fit, fc, xm, nullptr)) /
                              (2 * h);
            QVERIFY2(
                std::abs(fd - g[k]) < 1e-5 * std::max(1.0, std::abs(fd)),
                qPrintable(
                    QString("d/dx%1: analytic %2, finite difference %3").arg(k).arg(g[k]).arg(fd)));
        }
        // Scaling q changes nothing: the gradient is orthogonal to q.
        QVERIFY(std::abs(g.head<4>().dot(x.head<4>())) < 1e-8 * g.norm());
    }

    void optimizerRecoversKnownPose() {
        const auto ref = randomCloud(22, 3);
        std::vector<std::uint8_t> cls(ref.size(), 0);
        const Eigen::Quaterniond q =
            Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Vec3(1, 2, 3).normalized()));
        const Vec3 t(0.7, -0.4, 0.3);
        std::vector<Vec3> fit; // fit = R^T (ref - t): the pose (q, t) maps it back onto ref
        for (const Vec3& p : ref)
            fit.push_back(q.toRotationMatrix().transpose() * (p - t));
        PoseVector x0;
        x0 << 1, 0, 0, 0, 0, 0, 0;
        OptimizerSettings s;
        s.maxIterations = 100;
        s.relativeTolerance = 1e-10;
        OptimizeResult r = optimizePose(ref, cls, fit, cls, x0, s);
        const double self = overlapVolume(ref, cls, ref, cls);
        QVERIFY2(r.overlap > 0.9999 * self, qPrintable(QString::number(r.overlap / self)));
        QVERIFY((r.x.tail<3>() - t).norm() < 1e-3);
        QVERIFY(Eigen::Quaterniond(r.x[0], r.x[1], r.x[2], r.x[3]).angularDistance(q) < 1e-3);
        // Fewer iterations cannot do better.
        s.maxIterations = 2;
        QVERIFY(optimizePose(ref, cls, fit, cls, x0, s).overlap <= r.overlap + 1e-9);
    }

    void principalFrameAndStarts() {
        const auto pts = randomCloud(30, 4);
        PrincipalFrame f = principalFrame(pts);
        QVERIFY((f.axes * f.axes.transpose() - Eigen::Matrix3d::Identity()).norm() < 1e-12);
        QVERIFY(std::abs(f.axes.determinant() - 1) < 1e-12);
        // Spread along the first axis is the largest.
        double s0 = 0, s2 = 0;
        for (const Vec3& p : pts) {
            Vec3 y = f.axes * (p - f.centroid);
            s0 += y.x() * y.x();
            s2 += y.z() * y.z();
        }
        QVERIFY(s0 > s2);
        for (int n : {1, 4, 12}) {
            auto st = overlayStarts(n);
            QCOMPARE(int(st.size()), n);
            for (size_t i = 0; i < st.size(); ++i)
                for (size_t j = 0; j < i; ++j)
                    QVERIFY(st[i].angularDistance(st[j]) > 0.1); // all distinct
        }
        QVERIFY(!validStartCount(3));
    }
};

QTEST_GUILESS_MAIN(TestGaussianOverlap)
#include "test_gaussian_overlap.moc"
