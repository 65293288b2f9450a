// `posewright-cli bench pairscore`: exact rescoring of many poses of one ligand (issue 18): the
// GPU pair kernel (PairScorer) against the CPU exact scorer on one core and on all cores, in one
// run on one machine. One JSON line: poses/s and pairs/s of each, the GPU's speed-up, and the
// GPU's largest difference from the CPU on the poses both scored.
#include "BenchClock.h"
#include "CommandLine.h"
#include "Commands.h"
#include "Json.h"
#include "TargetSetup.h"
#include "backend/DeviceSelection.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "core/InputError.h"
#include "core/ParallelFor.h"
#include "minimize/PosePerturbation.h"
#include "score/DockingTarget.h"
#ifdef POSEWRIGHT_HAVE_CUDA
#include "cuda/PairScorer.h"
#endif

#include <algorithm>
#include <cmath>
#include <iostream>
#include <thread>

namespace pw::cli {

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// Receptor atoms examined (cell-list candidates) and pairs within the cutoff, per pose, over the
// given poses: the work both implementations do.
struct PairCounts {
    double candidates = 0, withinCutoff = 0;
};

PairCounts countPairs(const LigandScorer& scorer, const ReceptorModel& rec,
                      const std::vector<Vec3>& flat, int atoms, long poses) {
    PairCounts c;
    const double cut2 = scorer.scoringFunction().cutoffSquared();
    const Vec3 lo = rec.region().begin, hi = rec.region().end();
    for (long p = 0; p < poses; ++p)
        for (int a = 0; a < atoms; ++a) {
            if (scorer.topology().types[a] == XsType::None)
                continue;
            Vec3 x = flat[size_t(p) * atoms + a];
            if (rec.penalizeOutside())
                x = x.cwiseMax(lo).cwiseMin(hi);
            const auto span = rec.candidates(x);
            c.candidates += double(span.end - span.begin);
            for (auto* s = span.begin; s != span.end; ++s)
                c.withinCutoff += (x - Vec3(s->x, s->y, s->z)).squaredNorm() < cut2;
        }
    c.candidates /= double(poses);
    c.withinCutoff /= double(poses);
    // Intramolecular pairs (all scored) count as pairs too.
    c.withinCutoff += double(scorer.topology().intraPairs.size());
    return c;
}

} // namespace

int runBenchPairScore(const std::vector<std::string>& args) {
    auto spec = targetOptionSpec();
    spec.insert({{"ligand", OptionKind::Value},
                 {"poses", OptionKind::Value},
                 {"cpu-poses", OptionKind::Value},
                 {"seed", OptionKind::Value},
                 {"repeat", OptionKind::Value},
                 {"threads", OptionKind::Value}});
    const CommandLine cl(args, spec);
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional()[0] + "'");
    const std::string ligandFile = cl.required("ligand");
    const long poses = cl.intValue("poses", 1000000, 1, 100000000);
    const long cpuPoses = std::min<long>(poses, cl.intValue("cpu-poses", 20000, 1, 100000000));
    const int seed = cl.intValue("seed", 1, 0, 1 << 30);
    const int repeat = cl.intValue("repeat", 5, 1, 1000);
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = cl.intValue("threads", hw, 1, 1024);

    TargetInputs inputs = loadTarget(cl, ligandFile);
    DockingTarget target(inputs.receptor, inputs.box, inputs.scoring, threads);
    auto reader = MoleculeReader::open(ligandFile);
    Molecule raw;
    if (!reader->next(raw))
        throw InputError(ligandFile, 0, "no molecule in the file");
    const Molecule ligand = prepareLigand(raw);
    const ScoringFunction& sf = target.scoring();
    const ReceptorModel& rec = target.receptor();
    LigandScorer cpu(ligand, sf, rec);
    const int atoms = static_cast<int>(ligand.atoms.size());

    // The poses: Vina-like random starts around the input pose (PosePerturbation's defaults).
    double t0 = benchNow();
    std::vector<Vec3> flat(size_t(poses) * atoms);
    {
        PosePerturbation perturb(ligand);
        parallelFor(poses, threads, [&](long p) {
            const std::vector<Vec3> x = perturb.coordinates(uint64_t(seed), uint64_t(p));
            std::copy(x.begin(), x.end(), flat.begin() + long(p) * atoms);
        });
    }
    const double generateSeconds = benchNow() - t0;
    const PairCounts pairs = countPairs(cpu, rec, flat, atoms, std::min<long>(cpuPoses, 5000));

    auto poseCoords = [&](long p) {
        return std::vector<Vec3>(flat.begin() + p * atoms, flat.begin() + (p + 1) * atoms);
    };
    // One core: the numbers the GPU computes (Vina's tabulated inter and intra).
    std::vector<double> cpuInter(static_cast<size_t>(cpuPoses)), cpuIntra(static_cast<size_t>(cpuPoses));
    t0 = benchNow();
    for (long p = 0; p < cpuPoses; ++p) {
        const std::vector<Vec3> x = poseCoords(p);
        cpuInter[size_t(p)] = cpu.interTabulated(x);
        cpuIntra[size_t(p)] = cpu.intraTabulated(x);
    }
    const double oneCore = double(cpuPoses) / (benchNow() - t0);
    // All cores, on as many poses per thread.
    const long allPoses = std::min<long>(poses, cpuPoses * threads);
    std::vector<double> sink(static_cast<size_t>(allPoses));
    t0 = benchNow();
    parallelFor(allPoses, threads, [&](long p) {
        const std::vector<Vec3> x = poseCoords(p);
        sink[size_t(p)] = cpu.interTabulated(x) + cpu.intraTabulated(x);
    });
    const double allCores = double(allPoses) / (benchNow() - t0);
    // One core, the full report (finalScore: also the per-term breakdown over all atoms).
    const long finalPoses = std::min<long>(cpuPoses, 2000);
    t0 = benchNow();
    for (long p = 0; p < finalPoses; ++p)
        sink[size_t(p % allPoses)] = cpu.finalScore(poseCoords(p)).affinity;
    const double oneCoreFinal = double(finalPoses) / (benchNow() - t0);

    JsonObject o;
    o.add("bench", "pairscore").add("ligand", ligandFile).add("poses", poses);
    o.add("ligand_atoms", atoms).add("scoring", std::string(scoringKindName(sf.kind())));
    o.add("candidates_per_pose", pairs.candidates, 6).add("pairs_per_pose", pairs.withinCutoff, 6);
    o.add("generate_seconds", generateSeconds, 4).add("threads", threads);
    o.add("cpu1_poses_per_s", oneCore, 6).add("cpu1_pairs_per_s", oneCore * pairs.withinCutoff, 6);
    o.add("cpu1_final_score_poses_per_s", oneCoreFinal, 6);
    o.add("cpu_all_poses_per_s", allCores, 6);
    o.add("cpu_all_pairs_per_s", allCores * pairs.withinCutoff, 6);

#ifdef POSEWRIGHT_HAVE_CUDA
    std::string why;
    const std::vector<CudaDeviceInfo> devices = cudaDevices(&why);
    if (devices.empty()) {
        o.add("gpu", "none: " + why);
    } else {
        cuda::PairScorer gpu(sf, rec, 0);
        gpu.setChunkSize(1 << 20);
        const int id = gpu.addLigand(cpu);
        const std::vector<int> all(size_t(poses), id);
        std::vector<cuda::PairPoseEnergy> out;
        // Warm-up (context, module), then the whole set `repeat` times.
        const long warm = std::min<long>(poses, 65536);
        gpu.scoreTabulated(std::vector<int>(size_t(warm), id),
                           std::vector<Vec3>(flat.begin(), flat.begin() + warm * atoms), out);
        std::vector<double> kernel, total;
        for (int r = 0; r < repeat; ++r) {
            gpu.scoreTabulated(all, flat, out);
            kernel.push_back(gpu.lastKernelSeconds());
            total.push_back(gpu.lastTotalSeconds());
        }
        double worst = 0;
        long over = 0;
        for (long p = 0; p < cpuPoses; ++p) {
            const double e = std::max(
                std::abs(out[size_t(p)].inter - cpuInter[size_t(p)]) /
                    std::max(std::abs(cpuInter[size_t(p)]), 1.0),
                std::abs(out[size_t(p)].intra - cpuIntra[size_t(p)]) /
                    std::max(std::abs(cpuIntra[size_t(p)]), 1.0));
            worst = std::max(worst, e);
            over += e > 1e-4;
        }
        // The minimizer's evaluation: analytic energy and gradient (one pass).
        std::vector<Vec3> gradient;
        gpu.evaluate(all, flat, out, &gradient);
        const double gradKernel = gpu.lastKernelSeconds();
        const double k = median(kernel), t = median(total);
        o.add("gpu", devices[0].name).add("gpu_sms", devices[0].multiprocessors);
        o.add("gpu_kernel_seconds", k, 6).add("gpu_total_seconds", t, 6);
        o.add("gpu_poses_per_s", double(poses) / k, 6);
        o.add("gpu_pairs_per_s", double(poses) / k * pairs.withinCutoff, 6);
        o.add("gpu_candidates_per_s", double(poses) / k * pairs.candidates, 6);
        o.add("gpu_end_to_end_poses_per_s", double(poses) / t, 6);
        o.add("speedup_vs_cpu1", double(poses) / k / oneCore, 5);
        o.add("speedup_vs_cpu_all", double(poses) / k / allCores, 5);
        o.add("gpu_gradient_kernel_seconds", gradKernel, 6);
        o.add("checked_poses", cpuPoses).add("worst_relative_difference", worst, 3);
        o.add("poses_over_1e-4", over);
    }
#else
    o.add("gpu", "none: this build has no CUDA backend");
#endif
    o.add("peak_rss_mib", peakRssMiB(), 6);
    std::cout << o.str() << std::endl;
    return 0;
}

} // namespace pw::cli
