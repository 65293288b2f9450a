// The exact mode's pose-space gradient inside the minimizer kernel against central differences
// of the CPU's exact objective (and against the CPU's analytic gradient), read through the
// public minimize() call: one BFGS iteration whose Armijo search starts at alpha = eps from the
// identity Hessian moves the pose by -eps * g exactly when its first trial is accepted, so the
// returned pose (position, rotation vector of the quaternion, torsions) gives the kernel's g.
// The energy the kernel moves on is the CPU's (gpu_test_minimize_exact checks the values); this
// checks its derivative, where a dropped clamp, a wrong sign or a wrong frame would show.
#include "GpuTestMain.h"

#include "backend/DeviceSelection.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "core/LigandKinematics.h"
#include "minimize/IntraSmoothing.h"
#include "minimize/PoseObjective.h"
#include "minimize/PosePerturbation.h"
#include "minimize/PoseRefinement.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

#include <algorithm>
#include <cmath>

using namespace pw;
using pw::test::scaledCount;
using pw::test::sized;

namespace {

constexpr double kEps = 1e-4; // the Armijo search's first trial (pose-space step = kEps * g)
constexpr double kH = 1e-6;   // central-difference step of the CPU objective (double)

struct Complex {
    std::string id;
    Molecule receptor, ligand;
    std::unique_ptr<DockingTarget> target;
};

Complex load(const std::string& id) {
    Complex c;
    c.id = id;
    const std::string dir = std::string(POSEWRIGHT_TEST_DATA) + "/complexes/" + id + "/";
    c.receptor = prepareReceptor(readMolecule(dir + "receptor.pdbqt"));
    c.ligand = prepareLigand(readMolecule(dir + "ligand_xtal.pdbqt"));
    c.target = std::make_unique<DockingTarget>(c.receptor, readBoxConfig(dir + "box.txt"),
                                               ScoringKind::Vina, 0);
    return c;
}

// The kernel's pose-space gradient from the pose one accepted step of -kEps * g reached from
// the reference pose (root origin, identity, zero torsions).
std::vector<double> kernelGradient(const Pose& start, const Pose& moved) {
    std::vector<double> g(6 + moved.torsions.size());
    for (int d = 0; d < 3; ++d)
        g[d] = (start.position[d] - moved.position[d]) / kEps;
    // q = (cos(a/2), sin(a/2) v/|v|) for the rotation vector v = -kEps * g_rot.
    const Eigen::Vector3d vec(moved.orientation.x(), moved.orientation.y(), moved.orientation.z());
    const double s = std::min(1.0, vec.norm());
    const double scale = s > 0 ? 2.0 * std::asin(s) / s : 0.0;
    const double sign = moved.orientation.w() < 0 ? -1.0 : 1.0;
    for (int d = 0; d < 3; ++d)
        g[3 + d] = -sign * scale * vec[d] / kEps;
    for (size_t t = 0; t < moved.torsions.size(); ++t)
        g[6 + t] = -std::remainder(moved.torsions[t], 2 * M_PI) / kEps;
    return g;
}

} // namespace

class TestMinimizeExactGradientGpu : public QObject {
    Q_OBJECT
private slots:
    void kernelGradientMatchesFiniteDifferences() {
        std::string note;
        DeviceRequest request;
        request.kind = DeviceRequest::Kind::Cuda;
        auto gpu = createBackend(request, 0, note);
        QVERIFY2(gpu->isGpu(), "a CUDA device is usable, so the backend must be the GPU");
        for (const char* id : {"1iep", "3ce3"}) {
            Complex c = load(id);
            PerturbationOptions near;
            near.maxRotationDegrees = 5.0;
            near.maxTranslation = 5.0 / 30.0;
            near.randomTorsions = false;
            near.maxTorsionDegrees = 5.0;
            PosePerturbation perturbation(c.ligand, near);
            const int n = sized(40, 8);
            std::vector<Molecule> ligands;
            for (int i = 0; i < n; ++i)
                ligands.push_back(perturbation.perturbed(404, i));

            MinimizeBatchOptions options;
            options.exact = true;
            options.refinement = RefinementOptions::wellConditioned(); // C1 intra terms included
            MinimizeOptions& mo = options.refinement.minimize;
            mo.lineSearch = LineSearchKind::Armijo;
            mo.armijo.initialStep = kEps;
            mo.maxIterations = 1;
            mo.gradientTolerance = 0;
            mo.maxStepNorm = 0;
            std::vector<RefinementResult> results;
            gpu->minimize(*c.target, ligands, options, results);
            QCOMPARE(results.size(), ligands.size());

            int accepted = 0, posesOk = 0;
            double worst = 0;
            std::string firstBad;
            for (int i = 0; i < n; ++i) {
                const RefinementResult& r = results[i];
                if (r.iterations != 1 || r.evaluations != 2)
                    continue; // the first trial was not taken: the step is not -kEps * g
                ++accepted;
                LigandKinematics kinematics(ligands[i]);
                LigandScorer exact(ligands[i], c.target->scoring(), c.target->receptor());
                const IntraSmoothing ramps(exact, options.refinement.rampSmoothing,
                                           options.refinement.intraCutoffShift);
                CartesianPoseObjective objective(
                    kinematics, [&](const std::vector<Vec3>& x, std::vector<Vec3>& g) {
                        double e = exact.evaluate(x, &g);
                        if (!ramps.empty())
                            e += ramps.evaluate(x, &g);
                        return e;
                    });
                const Pose start = kinematics.referencePose();
                const int dim = objective.dimension();
                const std::vector<double> kernel = kernelGradient(start, r.pose);
                QCOMPARE(int(kernel.size()), dim);
                std::vector<double> analytic(dim), scratch(dim);
                objective.evaluate(start, analytic.data());
                bool ok = true;
                for (int k = 0; k < dim; ++k) {
                    std::vector<double> step(dim, 0.0);
                    step[k] = 1.0;
                    Pose plus = start, minus = start;
                    plus.applyStep(step.data(), kH);
                    minus.applyStep(step.data(), -kH);
                    const double fd = (objective.evaluate(plus, scratch.data()) -
                                       objective.evaluate(minus, scratch.data())) /
                                      (2 * kH);
                    const double tol = 0.05 + 0.02 * std::abs(fd);
                    const double d =
                        std::max(std::abs(kernel[k] - fd), std::abs(kernel[k] - analytic[k]));
                    worst = std::max(worst, d / (1.0 + std::abs(fd)));
                    if (std::abs(kernel[k] - fd) > tol ||
                        std::abs(kernel[k] - analytic[k]) > 0.05 + 0.02 * std::abs(analytic[k])) {
                        ok = false;
                        if (firstBad.empty())
                            firstBad = std::string(id) + " pose " + std::to_string(i) +
                                       " component " + std::to_string(k) + ": kernel " +
                                       std::to_string(kernel[k]) + ", central difference " +
                                       std::to_string(fd) + ", CPU analytic " +
                                       std::to_string(analytic[k]);
                    }
                }
                posesOk += ok;
            }
            qInfo("%s: first trial taken on %d/%d poses; every gradient component within "
                  "0.05 + 2%% of the central difference and the CPU's analytic value on %d/%d; "
                  "worst |d|/(1+|fd|) %.3g%s%s",
                  id, accepted, n, posesOk, accepted, worst,
                  firstBad.empty() ? "" : "; first: ", firstBad.c_str());
            QVERIFY(accepted >= scaledCount(36, 40, n));
            QVERIFY2(posesOk >= accepted - scaledCount(2, 40, n), firstBad.c_str());
        }
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestMinimizeExactGradientGpu)
#include "test_minimize_exact_gradient.moc"
