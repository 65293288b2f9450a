// Exact (grid-free) minimization on the GPU (issue 18 item 2: `minimize --exact` runs on the GPU)
// against the CPU reference, the CPU backend with MinimizeBatchOptions::exact, on the same
// perturbed poses of 1iep, 1stp and 3ce3.
//
// The GPU minimizes in float with the intermolecular energy and gradient summed over the
// receptor atoms of the pair kernel's cell list (PairMath.cuh, in double); the CPU in double
// with LigandScorer's exact mode. Their trajectories differ by rounding, so, as in
// test_minimize.cpp, minimized poses are compared statistically: a pose agrees when its reported
// affinity is within 0.01 kcal/mol and its heavy atoms within 0.1 A RMSD, and the GPU must agree
// with the CPU about as often as either agrees with itself when only its start is rounded to
// float (the exact landscape keeps the inter ramps' kinks, which no grid read smooths, so
// rounding-sized changes can move a minimization to a neighbouring point). What must hold pose by
// pose: the reported numbers (start and minimized) are the exact scorer's for the coordinates
// returned (one pose, one number, whatever the device), the kernel's objective is the CPU's
// exact objective at the returned coordinates, and no pose ends above its start.
#include "GpuTestMain.h"
#include "GpuTestComplexes.h"
#include "MinimizeAgreement.h"

#include "backend/DeviceSelection.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "minimize/IntraSmoothing.h"
#include "minimize/PosePerturbation.h"
#include "minimize/PoseRefinement.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace pw;
using pw::test::scaledCount;
using pw::test::smallProblems;
using pw::test::sized;

using pw::test::Agreement;
using pw::test::compare;

using pw::test::Complex;
using pw::test::loadComplex;

namespace {

std::unique_ptr<Backend> gpuBackend() {
    std::string note;
    DeviceRequest r;
    r.kind = DeviceRequest::Kind::Cuda;
    return createBackend(r, 0, note);
}

PerturbationOptions nearNative() {
    PerturbationOptions o;
    o.maxRotationDegrees = 5.0;
    o.maxTranslation = 5.0 / 30.0;
    o.randomTorsions = false;
    o.maxTorsionDegrees = 5.0;
    return o;
}

std::vector<Molecule> poses(const Molecule& lig, std::uint64_t seed, int n,
                            PerturbationOptions o = {}) {
    PosePerturbation p(lig, o);
    std::vector<Molecule> out;
    for (int i = 0; i < n; ++i)
        out.push_back(p.perturbed(seed, i));
    return out;
}

std::vector<Molecule> roundedToFloat(std::vector<Molecule> m) {
    for (Molecule& x : m)
        for (Atom& a : x.atoms)
            for (int d = 0; d < 3; ++d)
                a.position[d] = static_cast<float>(a.position[d]);
    return m;
}

std::vector<Vec3> coordsOf(const Molecule& m) {
    std::vector<Vec3> x;
    for (const Atom& a : m.atoms)
        x.push_back(a.position);
    return x;
}

// What `minimize --exact --device cuda` runs: the standard configuration (strong Wolfe with the
// first trial capped, C1 intra) without the Vina guard (the GPU has none), exact mover. On the
// exact landscape the searches end when no step lowers the energy (line search failed; the
// inter ramps' kinks keep |g| from reaching 1e-5), on both devices. The CPU agrees with itself,
// start rounded to float, on 189/200 (1iep), 180/200 (1stp), 167/200 (3ce3) and 77/100 (1iep
// Vinardo) of these near-native starts on the build machine, 185, 181, 160 and 76 on the H100's
// host (another libm); the GPU with itself on 176, 153, 143, 71 and with the CPU on 172, 153,
// 133, 69 there (tests/bench/RESULTS.md): hence the 10% margin below.
MinimizeBatchOptions exactOptions() {
    MinimizeBatchOptions o;
    o.exact = true;
    o.refinement = RefinementOptions::standard();
    o.refinement.vinaGuard = false;
    return o;
}

std::vector<RefinementResult> minimizeOn(Backend& b, const DockingTarget& target,
                                         const std::vector<Molecule>& ligands,
                                         const MinimizeBatchOptions& options) {
    std::vector<RefinementResult> r;
    b.minimize(target, ligands, options, r);
    return r;
}

double median(const std::vector<RefinementResult>& r) {
    std::vector<double> v;
    for (const auto& x : r)
        v.push_back(x.score.affinity);
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

double relErr(double a, double b) {
    return std::abs(a - b) / std::max(1.0, std::abs(b));
}

// The exact objective the minimizers move on: inter + intra + the configured intra smoothing.
double exactObjective(const LigandScorer& exact, const IntraSmoothing& ramps,
                      const std::vector<Vec3>& x) {
    return exact.evaluate(x) + (ramps.empty() ? 0.0 : ramps.evaluate(x, nullptr));
}

struct PoseChecks {
    std::string failure; // the first pose that broke a pose-by-pose rule; empty: none
    int objectiveOk = 0; // poses whose kernel objective is the CPU's at the returned pose
    double worstObjective = 0;
};

// Pose by pose: every GPU result is complete and finite, reports the exact scorer's numbers
// (LigandScorer::finalScore, Vina's tabulated sums) for its start and its returned coordinates,
// and does not end above its start; and its objective is the CPU's exact objective (spline inter
// + intra + the configured intra smoothing) at those coordinates, counted (the caller bounds the
// count: the kernel's intra is the analytic potential in float, the CPU's its spline in double).
PoseChecks checkPoseByPose(const Complex& c, const std::vector<Molecule>& ligands,
                           const std::vector<RefinementResult>& gpu,
                           const MinimizeBatchOptions& options) {
    PoseChecks out;
    auto fail = [&](size_t i, const std::string& why) {
        if (out.failure.empty())
            out.failure = c.id + " pose " + std::to_string(i) + ": " + why;
    };
    if (gpu.size() != ligands.size()) {
        out.failure = "results for " + std::to_string(gpu.size()) + " of " +
                      std::to_string(ligands.size()) + " poses";
        return out;
    }
    for (size_t i = 0; i < ligands.size(); ++i) {
        const RefinementResult& g = gpu[i];
        if (g.coordinates.size() != ligands[i].atoms.size()) {
            fail(i, "no coordinates");
            continue;
        }
        LigandScorer exact(ligands[i], c.target->scoring(), c.target->receptor());
        const VinaScore start = exact.finalScore(coordsOf(ligands[i]));
        const VinaScore score = exact.finalScore(g.coordinates);
        if (!std::isfinite(g.score.affinity) || !std::isfinite(g.energy))
            fail(i, "not finite");
        if (relErr(g.start.inter, start.inter) > 1e-4 ||
            relErr(g.start.intra, start.intra) > 1e-4 ||
            relErr(g.start.affinity, start.affinity) > 1e-4)
            fail(i, "start reported " + std::to_string(g.start.inter) + "/" +
                        std::to_string(g.start.intra) + ", the exact scorer gives " +
                        std::to_string(start.inter) + "/" + std::to_string(start.intra));
        if (relErr(g.score.inter, score.inter) > 1e-4 ||
            relErr(g.score.intra, score.intra) > 1e-4 ||
            relErr(g.score.affinity, score.affinity) > 1e-4)
            fail(i, "minimized pose reported " + std::to_string(g.score.inter) + "/" +
                        std::to_string(g.score.intra) + ", the exact scorer gives " +
                        std::to_string(score.inter) + "/" + std::to_string(score.intra));
        const IntraSmoothing ramps(exact, options.refinement.rampSmoothing,
                                   options.refinement.intraCutoffShift);
        const double end = exactObjective(exact, ramps, g.coordinates);
        const double d = std::abs(g.energy - end);
        out.objectiveOk += d <= 0.01 + 1e-4 * std::abs(end);
        if (std::abs(end) < 1000)
            out.worstObjective = std::max(out.worstObjective, d);
        // The kernel keeps the start when its end is higher (float rounding allowed for).
        const double begin = exactObjective(exact, ramps, coordsOf(ligands[i]));
        if (!(end <= begin + 0.01 + 1e-4 * std::abs(begin)))
            fail(i,
                 "ends at " + std::to_string(end) + ", above its start " + std::to_string(begin));
    }
    return out;
}

// Clashing starts (one ligand atom 0.3-1.0 A from a receptor atom) and starts pushed 1-6 A out
// of the box along one axis (test_pair_score.cpp's construction).
std::vector<Molecule> clashingAndOutside(const Complex& c, int perKind, int* outsideFrom) {
    std::vector<Molecule> out;
    const auto& sites = c.target->receptor().sites();
    const GridDims& box = c.target->receptor().region();
    std::mt19937 rng(23);
    std::vector<int> inBox;
    for (size_t k = 0; k < sites.size(); ++k)
        if (box.contains(Vec3(sites[k].x, sites[k].y, sites[k].z)))
            inBox.push_back(int(k));
    PosePerturbation randomP(c.ligand), nearP(c.ligand, nearNative());
    for (int i = 0; i < perKind; ++i) {
        Molecule m = randomP.perturbed(31, i);
        const auto& site = sites[inBox[rng() % inBox.size()]];
        const Vec3 offset(0.3 + 0.7 * (rng() % 1000) / 1000.0, 0, 0);
        const Vec3 shift =
            Vec3(site.x, site.y, site.z) + offset - m.atoms[rng() % m.atoms.size()].position;
        for (Atom& a : m.atoms)
            a.position += shift;
        out.push_back(std::move(m));
    }
    *outsideFrom = int(out.size());
    for (int i = 0; i < perKind; ++i) {
        Molecule m = nearP.perturbed(37, i);
        Vec3 shift = Vec3::Zero();
        const int axis = int(rng() % 3);
        const double side = (rng() & 1) ? 1.0 : -1.0;
        shift[axis] = side * (0.5 * box.spacing * box.voxels[axis] + 1.0 + (rng() % 50) / 10.0);
        for (Atom& a : m.atoms)
            a.position += shift;
        out.push_back(std::move(m));
    }
    return out;
}

} // namespace

class TestMinimizeExactGpu : public QObject {
    Q_OBJECT

    // Near-native starts of one complex minimized exactly on both devices.
    void compareNearNative(const std::string& id, ScoringKind kind, int n) {
        Complex c = loadComplex(id, kind);
        auto gpu = gpuBackend();
        QVERIFY2(gpu->isGpu(), "a CUDA device is usable, so the backend must be the GPU");
        auto cpu = makeCpuBackend(0);
        const std::vector<Molecule> ligands = poses(c.ligand, 1800 + n, n, nearNative());
        const MinimizeBatchOptions options = exactOptions();
        const auto g = minimizeOn(*gpu, *c.target, ligands, options);
        const auto r = minimizeOn(*cpu, *c.target, ligands, options);
        const auto rf = minimizeOn(*cpu, *c.target, roundedToFloat(ligands), options);
        const auto gf = minimizeOn(*gpu, *c.target, roundedToFloat(ligands), options);
        const PoseChecks pc = checkPoseByPose(c, ligands, g, options);
        QVERIFY2(pc.failure.empty(), pc.failure.c_str());
        const int objectiveOk = pc.objectiveOk;
        const double worstObjective = pc.worstObjective;
        const Agreement a = compare(ligands, g, r), self = compare(ligands, rf, r),
                        gs = compare(ligands, gf, g);
        int gConv = 0, cConv = 0;
        for (size_t i = 0; i < g.size(); ++i) {
            gConv += g[i].reason == StopReason::Converged;
            cConv += r[i].reason == StopReason::Converged;
        }
        qInfo("%s %s exact, near-native, standard options without guard: GPU-CPU %d/%d agree "
              "(worst in-box |d aff| %.4g, worst RMSD %.4g); CPU-CPU(float start) %d, "
              "GPU-GPU(float start) %d; "
              "objective = CPU's at the GPU pose %d/%d (worst %.3g); converged GPU %d, CPU %d; "
              "median %.4f GPU, %.4f CPU",
              id.c_str(), kind == ScoringKind::Vina ? "vina" : "vinardo", a.agree, a.total,
              a.worstAffinity, a.worstRmsd, self.agree, gs.agree, objectiveOk, n, worstObjective,
              gConv, cConv, median(g), median(r));
        QVERIFY(objectiveOk >= scaledCount(99, 100, n));
        // The agreement rates and medians are statistics of the full sample (3ce3: 133/200
        // against a floor of 120); the small-problem mode the sanitizers run (40 or 20 poses)
        // keeps the pose-by-pose checks above, not these (two failed there by sampling alone).
        if (smallProblems())
            return;
        QVERIFY(a.agree >= std::min(self.agree, gs.agree) - scaledCount(10, 100, n));
        QVERIFY(a.agree >= scaledCount(60, 100, n));
        QVERIFY(std::abs(median(g) - median(r)) <= 0.02);
    }

private slots:
    void nearNative1iep() { compareNearNative("1iep", ScoringKind::Vina, sized(200, 40)); }
    void nearNative1stp() { compareNearNative("1stp", ScoringKind::Vina, sized(200, 40)); }
    void nearNative3ce3() { compareNearNative("3ce3", ScoringKind::Vina, sized(200, 40)); }
    void nearNative1iepVinardo() {
        compareNearNative("1iep", ScoringKind::Vinardo, sized(100, 20));
    }

    // Clashing and out-of-box starts: complete, finite results reported by the exact scorer, no
    // pose above its start; a pushed-out pose comes back towards the box (its 1e6/A penalty
    // falls) as on the CPU.
    void clashingAndOutOfBox() {
        for (const char* id : {"1iep", "3ce3"}) {
            Complex c = loadComplex(id);
            auto gpu = gpuBackend();
            auto cpu = makeCpuBackend(0);
            int outsideFrom = 0;
            const std::vector<Molecule> ligands =
                clashingAndOutside(c, sized(40, 10), &outsideFrom);
            const MinimizeBatchOptions options = exactOptions();
            const auto g = minimizeOn(*gpu, *c.target, ligands, options);
            const auto r = minimizeOn(*cpu, *c.target, ligands, options);
            const PoseChecks pc = checkPoseByPose(c, ligands, g, options);
            QVERIFY2(pc.failure.empty(), pc.failure.c_str());
            const int objectiveOk = pc.objectiveOk;
            const double worstObjective = pc.worstObjective;
            int startPenalized = 0, gpuPenalized = 0, cpuPenalized = 0, gpuLower = 0, cpuLower = 0;
            int gpuMovedIn = 0, cpuMovedIn = 0;
            for (size_t i = 0; i < ligands.size(); ++i) {
                if (int(i) >= outsideFrom) {
                    QVERIFY(g[i].start.terms.outOfBoxPenalty > 0);
                    ++startPenalized;
                    gpuMovedIn +=
                        g[i].score.terms.outOfBoxPenalty < g[i].start.terms.outOfBoxPenalty;
                    cpuMovedIn +=
                        r[i].score.terms.outOfBoxPenalty < r[i].start.terms.outOfBoxPenalty;
                }
                gpuPenalized += g[i].score.terms.outOfBoxPenalty > 0;
                cpuPenalized += r[i].score.terms.outOfBoxPenalty > 0;
                gpuLower += g[i].score.affinity < g[i].start.affinity;
                cpuLower += r[i].score.affinity < r[i].start.affinity;
            }
            qInfo("%s exact, %d clashing + %d out-of-box starts: objective = CPU's at the GPU "
                  "pose %d/%zu (worst %.3g); penalty lowered GPU %d, CPU %d, still penalized GPU "
                  "%d, CPU %d (of %d); affinity lowered GPU %d, CPU %d; median %.4f GPU, %.4f CPU",
                  id, outsideFrom, int(ligands.size()) - outsideFrom, objectiveOk, ligands.size(),
                  worstObjective, gpuMovedIn, cpuMovedIn, gpuPenalized, cpuPenalized,
                  startPenalized, gpuLower, cpuLower, median(g), median(r));
            QVERIFY(gpuMovedIn >= cpuMovedIn - scaledCount(5, 100, startPenalized));
            QVERIFY(objectiveOk >= scaledCount(95, 100, int(ligands.size())));
            QVERIFY(gpuPenalized <= cpuPenalized + scaledCount(5, 100, int(ligands.size())));
            QVERIFY(gpuLower >= cpuLower - scaledCount(5, 100, int(ligands.size())));
        }
    }

    // A target without grid is minimized exactly on the GPU (as the CPU backend does), with the
    // same results as options.exact on a target that has a grid, or a grid without the ligand's
    // types (the exact templates ask for no map): the kernel reads none.
    void targetWithoutGridRunsExact() {
        Complex c = loadComplex("1stp");
        Complex withGrid = loadComplex("1stp");
        withGrid.target->gridFor(DockingTarget::commonLigandTypes());
        Complex otherTypes = loadComplex("1stp");
        otherTypes.target->gridFor({XsType::Br_H});
        auto gpu = gpuBackend();
        const std::vector<Molecule> ligands = poses(c.ligand, 5, sized(64, 16), nearNative());
        MinimizeBatchOptions noFlag = exactOptions();
        noFlag.exact = false;
        const auto a = minimizeOn(*gpu, *c.target, ligands, noFlag);
        const auto b = minimizeOn(*gpu, *withGrid.target, ligands, exactOptions());
        const auto o = minimizeOn(*gpu, *otherTypes.target, ligands, exactOptions());
        QCOMPARE(a.size(), ligands.size());
        for (const auto* x : {&b, &o}) {
            QCOMPARE(x->size(), a.size());
            for (size_t i = 0; i < a.size(); ++i) {
                QCOMPARE((*x)[i].energy, a[i].energy);
                QCOMPARE((*x)[i].iterations, a[i].iterations);
                QCOMPARE((*x)[i].score.affinity, a[i].score.affinity);
                QCOMPARE((*x)[i].coordinates.size(), a[i].coordinates.size());
                for (size_t k = 0; k < a[i].coordinates.size(); ++k)
                    QVERIFY((*x)[i].coordinates[k] == a[i].coordinates[k]);
            }
        }
        // And the grid mover on the grid target gives other (grid-interpolated) trajectories.
        MinimizeBatchOptions grid = exactOptions();
        grid.exact = false;
        const auto m = minimizeOn(*gpu, *withGrid.target, ligands, grid);
        int differ = 0;
        for (size_t i = 0; i < m.size(); ++i)
            differ += m[i].energy != b[i].energy;
        QVERIFY(differ > 0);
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestMinimizeExactGpu)
#include "test_minimize_exact.moc"
