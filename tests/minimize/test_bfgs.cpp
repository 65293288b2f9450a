// Tests for the BFGS minimizer: convergence on pose-space bowls and a Rosenbrock valley on
// torsions, real ligands through the Cartesian adapter, Vina's step count, cancel, trajectories,
// run-to-run identity.
#include "core/PoseTestLigands.h"

#include "minimize/BfgsMinimizer.h"

#include <QtTest>

#include <atomic>

using namespace pw;
using namespace pw::test;

namespace {

// A bowl in pose space: anisotropic quadratic in position and torsions, and an orientation term
// k * sum_i |R e_i - Rt e_i|^2 whose minimum is the target orientation.
class PoseBowl final : public PoseObjective {
public:
    Pose target;
    Vec3 positionWeights{1.0, 10.0, 100.0};
    double orientationWeight = 5.0;
    std::vector<double> torsionWeights;
    int evaluations = 0;

    int dimension() const override { return target.dimension(); }
    double evaluate(const Pose& pose, double* g) override {
        ++evaluations;
        double e = 0;
        for (int d = 0; d < 3; ++d) {
            const double dx = pose.position[d] - target.position[d];
            e += positionWeights[d] * dx * dx;
            g[d] = 2 * positionWeights[d] * dx;
        }
        e += orientationEnergy(pose, g + kPoseRotationOffset);
        for (int t = 0; t < pose.torsionCount(); ++t) {
            const double dt = normalizeAngle(pose.torsions[t] - target.torsions[t]);
            e += torsionWeights[t] * dt * dt;
            g[kPoseTorsionOffset + t] = 2 * torsionWeights[t] * dt;
        }
        return e;
    }
    // Torque of the three unit-vector tips pulled to their target positions.
    double orientationEnergy(const Pose& pose, double* torque) const {
        const Eigen::Matrix3d r = pose.orientation.toRotationMatrix();
        const Eigen::Matrix3d rt = target.orientation.toRotationMatrix();
        double e = 0;
        Vec3 t = Vec3::Zero();
        for (int i = 0; i < 3; ++i) {
            const Vec3 d = r.col(i) - rt.col(i);
            e += orientationWeight * d.squaredNorm();
            t += r.col(i).cross(2 * orientationWeight * d);
        }
        for (int d = 0; d < 3; ++d)
            torque[d] = t[d];
        return e;
    }
};

// Rosenbrock's valley on two torsions (minimum at 1, 1), plus the bowl for the rigid part.
class TorsionRosenbrock final : public PoseObjective {
public:
    PoseBowl rigid;
    int dimension() const override { return 8; }
    double evaluate(const Pose& pose, double* g) override {
        const double e = rigid.evaluate(pose, g); // torsion weights zero: rigid part only
        const double a = pose.torsions[0], b = pose.torsions[1];
        g[6] = -2 * (1 - a) - 400 * a * (b - a * a);
        g[7] = 200 * (b - a * a);
        return e + (1 - a) * (1 - a) + 100 * (b - a * a) * (b - a * a);
    }
};

Pose poseWith(Vec3 position, Quaternion q, std::vector<double> torsions) {
    Pose p;
    p.position = position;
    p.orientation = q.normalized();
    p.torsions = std::move(torsions);
    return p;
}

PoseBowl makeBowl(int torsions) {
    PoseBowl bowl;
    std::vector<double> t;
    for (int i = 0; i < torsions; ++i) {
        t.push_back(-2.5 + 1.1 * i);
        bowl.torsionWeights.push_back(0.5 + i);
    }
    bowl.target = poseWith(Vec3(1, -2, 3), Quaternion(0.3, -0.5, 0.7, 0.2), t);
    return bowl;
}

double poseDistance(const Pose& a, const Pose& b) {
    double d = (a.position - b.position).norm();
    d = std::max(d, rotationVectorFromQuaternion(a.orientation * b.orientation.inverse()).norm());
    for (int i = 0; i < a.torsionCount(); ++i)
        d = std::max(d, std::abs(normalizeAngle(a.torsions[i] - b.torsions[i])));
    return d;
}

struct LigandProblem {
    Molecule mol;
    LigandKinematics kin;
    PullAndRepel energy;
    Pose start;
};

LigandProblem ligandProblem(const char* id, unsigned seed) {
    Molecule mol = readPdbqtLigand(complexLigand(id));
    LigandKinematics kin(mol);
    std::mt19937_64 rng(seed);
    const auto targets = kin.coordinates(randomPose(kin, rng, 1.0));
    PullAndRepel energy = makePullAndRepel(mol, targets);
    Pose start = randomPose(kin, rng, 1.0);
    return {mol, kin, energy, start};
}

} // namespace

class TestBfgs : public QObject {
    Q_OBJECT
private slots:
    void bowlConverges_data() {
        QTest::addColumn<int>("search");
        QTest::newRow("strong-wolfe") << static_cast<int>(LineSearchKind::StrongWolfe);
        QTest::newRow("armijo") << static_cast<int>(LineSearchKind::Armijo);
    }
    void bowlConverges() {
        QFETCH(int, search);
        PoseBowl bowl = makeBowl(4);
        const Pose start = poseWith(Vec3(0, 0, 0), Quaternion::Identity(), {0, 0, 0, 0});
        MinimizeOptions o;
        o.lineSearch = static_cast<LineSearchKind>(search);
        o.gradientTolerance = 1e-8;
        const MinimizeResult r = BfgsMinimizer::minimize(bowl, start, o);
        QCOMPARE(r.reason, StopReason::Converged);
        QVERIFY(r.gradientNorm < 1e-8);
        QVERIFY2(poseDistance(r.pose, bowl.target) < 1e-7,
                 qPrintable(QString::number(poseDistance(r.pose, bowl.target))));
        QVERIFY(r.energy < 1e-14);
        QVERIFY(r.initialEnergy > 1.0);
        QCOMPARE(r.evaluations, bowl.evaluations);
        QVERIFY2(r.iterations < 100, qPrintable(QString::number(r.iterations)));
        QVERIFY(r.coordinates.empty()); // no atoms in this objective
    }

    void rosenbrockOnTorsions_data() { bowlConverges_data(); }
    void rosenbrockOnTorsions() {
        QFETCH(int, search);
        TorsionRosenbrock f;
        f.rigid = makeBowl(2);
        f.rigid.torsionWeights = {0, 0};
        const Pose start = poseWith(Vec3(0.5, 0, 0), Quaternion(1, 0.2, 0, 0), {-1.2, 1.0});
        MinimizeOptions o;
        o.lineSearch = static_cast<LineSearchKind>(search);
        o.maxIterations = 500;
        const MinimizeResult r = BfgsMinimizer::minimize(f, start, o);
        QCOMPARE(r.reason, StopReason::Converged);
        QVERIFY(r.gradientNorm < 1e-5);
        QVERIFY2(std::abs(r.pose.torsions[0] - 1) < 1e-5 && std::abs(r.pose.torsions[1] - 1) < 1e-5,
                 qPrintable(QString("%1 %2").arg(r.pose.torsions[0]).arg(r.pose.torsions[1])));
        QVERIFY(r.energy < 1e-10);
    }

    void energiesDecreaseAndTrajectoryMatches() {
        LigandProblem p = ligandProblem("1iep", 21);
        CartesianPoseObjective f(p.kin, p.energy);
        MinimizeOptions o;
        o.recordTrajectory = true;
        const MinimizeResult r = BfgsMinimizer::minimize(f, p.start, o);
        QCOMPARE(r.reason, StopReason::Converged);
        QVERIFY(r.iterations > 5);
        QCOMPARE(static_cast<int>(r.trajectory.size()), r.iterations + 1);
        QCOMPARE(r.trajectory.front().energy, r.initialEnergy);
        QCOMPARE(r.trajectory.back().energy, r.energy);
        std::vector<Vec3> g(p.kin.atomCount());
        for (size_t k = 0; k < r.trajectory.size(); ++k) {
            const TrajectoryFrame& frame = r.trajectory[k];
            const auto coords = p.kin.coordinates(frame.pose);
            QCOMPARE(frame.coordinates.size(), coords.size());
            for (size_t i = 0; i < coords.size(); ++i)
                QVERIFY((frame.coordinates[i] - coords[i]).norm() < 1e-12);
            for (auto& v : g)
                v.setZero();
            QVERIFY(std::abs(p.energy(coords, g) - frame.energy) <= 1e-12 * std::abs(frame.energy));
            if (k > 0) // every accepted step satisfied sufficient decrease
                QVERIFY(frame.energy < r.trajectory[k - 1].energy);
        }
        for (size_t i = 0; i < r.coordinates.size(); ++i)
            QCOMPARE(r.coordinates[i], r.trajectory.back().coordinates[i]);
    }

    void realLigandsConverge_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("search");
        for (const char* id : {"1iep", "1stp", "3ce3"}) {
            QTest::newRow((std::string(id) + "/wolfe").c_str())
                << QString(id) << static_cast<int>(LineSearchKind::StrongWolfe);
            QTest::newRow((std::string(id) + "/armijo").c_str())
                << QString(id) << static_cast<int>(LineSearchKind::Armijo);
        }
    }
    void realLigandsConverge() {
        QFETCH(QString, id);
        QFETCH(int, search);
        LigandProblem p = ligandProblem(id.toLatin1().constData(), 5);
        CartesianPoseObjective f(p.kin, p.energy);
        MinimizeOptions o;
        o.lineSearch = static_cast<LineSearchKind>(search);
        const MinimizeResult r = BfgsMinimizer::minimize(f, p.start, o);
        QVERIFY2(r.reason == StopReason::Converged, stopReasonName(r.reason));
        QVERIFY(r.energy < r.initialEnergy);
        // A true stationary point: a small move in any pose direction does not lower the energy
        // to first order (checked on the function, not on the minimizer's own gradient).
        std::vector<double> step(p.kin.dimension());
        std::vector<double> grad(p.kin.dimension());
        for (int k = 0; k < p.kin.dimension(); ++k) {
            step.assign(step.size(), 0.0);
            step[k] = 1.0;
            Pose a = r.pose, b = r.pose;
            a.applyStep(step.data(), 1e-5);
            b.applyStep(step.data(), -1e-5);
            const double slope = (f.evaluate(a, grad.data()) - f.evaluate(b, grad.data())) / 2e-5;
            QVERIFY2(std::abs(slope) < 1e-4,
                     qPrintable(QString("dof %1 slope %2").arg(k).arg(slope)));
        }
    }

    void vinaStepCount() {
        LigandProblem p = ligandProblem("1iep", 9);
        CartesianPoseObjective f(p.kin, p.energy);
        QCOMPARE(vinaLocalOnlySteps(40), 21); // (25 + 40) / 3
        QCOMPARE(vinaLocalOnlySteps(18), 14);
        const MinimizeOptions o = MinimizeOptions::vinaLocalOnly(p.kin.atomCount());
        QCOMPARE(o.lineSearch, LineSearchKind::Armijo);
        QCOMPARE(o.maxIterations, 21);
        const MinimizeResult r = BfgsMinimizer::minimize(f, p.start, o);
        // Far from converged after 21 steps: Vina stops on the count.
        QCOMPARE(r.reason, StopReason::MaxIterations);
        QCOMPARE(r.iterations, 21);
        QVERIFY(r.evaluations > 21 && r.evaluations <= 1 + 21 * 10);
        QVERIFY(r.energy < r.initialEnergy);
        // The full minimization goes further than Vina's fixed count.
        const MinimizeResult full = BfgsMinimizer::minimize(f, p.start, MinimizeOptions{});
        QVERIFY(full.energy <= r.energy);
    }

    void vinaModeNeverReturnsWorseThanStart() {
        // An objective whose every step looks downhill but goes up: Vina takes the failed line
        // search's step, then restores the start at the end.
        class Liar final : public PoseObjective {
        public:
            int dimension() const override { return 6; }
            double evaluate(const Pose& pose, double* g) override {
                for (int i = 0; i < 6; ++i)
                    g[i] = 1.0;
                return pose.position.norm() + 1.0;
            }
        } f;
        const MinimizeResult r =
            BfgsMinimizer::minimize(f, Pose{}, MinimizeOptions::vinaLocalOnly(5));
        QCOMPARE(r.iterations, 10);
        QCOMPARE(r.energy, 1.0);
        QCOMPARE(r.pose.position, Vec3::Zero());
        // Without Vina's quirks the first failed search stops the run.
        const MinimizeResult strict = BfgsMinimizer::minimize(f, Pose{}, MinimizeOptions{});
        QCOMPARE(strict.reason, StopReason::LineSearchFailed);
        QCOMPARE(strict.iterations, 0);
    }

    void progressCallbackCancels() {
        LigandProblem p = ligandProblem("1iep", 13);
        CartesianPoseObjective f(p.kin, p.energy);
        MinimizeOptions o;
        std::vector<int> seen;
        bool hadCoordinates = true;
        o.progress = [&](const MinimizeProgress& pr) {
            seen.push_back(pr.iteration);
            hadCoordinates = hadCoordinates && pr.coordinates &&
                             static_cast<int>(pr.coordinates->size()) == p.kin.atomCount();
            return pr.iteration < 3;
        };
        const MinimizeResult r = BfgsMinimizer::minimize(f, p.start, o);
        QCOMPARE(r.reason, StopReason::Cancelled);
        QCOMPARE(r.iterations, 3);
        QCOMPARE(seen, (std::vector<int>{0, 1, 2, 3}));
        QVERIFY(hadCoordinates);
        QVERIFY(r.energy < r.initialEnergy);
    }

    void cancelFlagStopsEarly() {
        LigandProblem p = ligandProblem("3ce3", 17);
        std::atomic<bool> cancel{false};
        int calls = 0;
        PullAndRepel energy = p.energy;
        CartesianPoseObjective f(p.kin, [&](const std::vector<Vec3>& x, std::vector<Vec3>& g) {
            if (++calls == 12)
                cancel = true; // as the GUI thread would, mid-run
            return energy(x, g);
        });
        MinimizeOptions o;
        o.cancel = &cancel;
        const MinimizeResult r = BfgsMinimizer::minimize(f, p.start, o);
        QCOMPARE(r.reason, StopReason::Cancelled);
        QVERIFY(r.evaluations >= 12 && r.evaluations < 40);
        QCOMPARE(r.evaluations, calls);
        cancel = false;
        const MinimizeResult full = BfgsMinimizer::minimize(f, p.start, o);
        QCOMPARE(full.reason, StopReason::Converged);
        QVERIFY(full.iterations > r.iterations);
    }

    void identicalRunToRun() {
        LigandProblem p = ligandProblem("1iep", 29);
        CartesianPoseObjective f(p.kin, p.energy);
        MinimizerWorkspace ws;
        MinimizeResult a, b;
        BfgsMinimizer::minimize(f, p.start, MinimizeOptions{}, ws, a);
        BfgsMinimizer::minimize(f, p.start, MinimizeOptions{}, ws, b); // reused workspace
        const MinimizeResult c = BfgsMinimizer::minimize(f, p.start, MinimizeOptions{});
        for (const MinimizeResult* other : {static_cast<const MinimizeResult*>(&b), &c}) {
            QCOMPARE(other->energy, a.energy);
            QCOMPARE(other->iterations, a.iterations);
            QCOMPARE(other->evaluations, a.evaluations);
            QCOMPARE(other->pose.position, a.pose.position);
            QCOMPARE(other->pose.orientation.coeffs(), a.pose.orientation.coeffs());
            QCOMPARE(other->pose.torsions, a.pose.torsions);
        }
    }

    void alreadyAtMinimum() {
        PoseBowl bowl = makeBowl(2);
        const MinimizeResult r = BfgsMinimizer::minimize(bowl, bowl.target, MinimizeOptions{});
        QCOMPARE(r.reason, StopReason::Converged);
        QCOMPARE(r.iterations, 0);
        QCOMPARE(r.evaluations, 1);
        QCOMPARE(r.energy, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestBfgs)
#include "test_bfgs.moc"
