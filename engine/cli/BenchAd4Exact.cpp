// `posewright-cli bench ad4exact --gpf GPF --receptor R.pdbqt --ligand L`: AutoDock 4's exact
// intermolecular energies (issue 18) of many poses of one ligand: the GPU pair scorer
// (cuda::Ad4PairScorer) against the CPU reference (Ad4ExactScorer::inter) on one core and on all
// cores, in one run on one machine. One JSON line: poses/s and receptor-site evaluations/s of
// each, the GPU's speed-up, and its largest difference from the CPU on the poses both scored.
// The poses: random perturbations of the input pose (PosePerturbation's defaults, as bench
// pairscore), scored under the GPF box's outside rule (--outside penalty|exact). --gradient: the
// smooth twin with its gradient instead (energyAndGradient on both devices; the worst difference
// then covers every atom's gradient too).
#include "BenchClock.h"
#include "CommandLine.h"
#include "Commands.h"
#include "Json.h"
#include "backend/DeviceSelection.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "core/InputError.h"
#include "core/ParallelFor.h"
#include "minimize/PosePerturbation.h"
#include "score/ad4/Ad4ExactScorer.h"
#include "score/ad4/Ad4GridParameterFile.h"
#ifdef POSEWRIGHT_HAVE_CUDA
#include "cuda/Ad4PairScorer.h"
#endif

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <thread>

namespace pw::cli {

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

double relativeDifference(double a, double b) {
    return std::abs(a - b) / std::max(std::abs(b), 1.0);
}

} // namespace

int runBenchAd4Exact(const std::vector<std::string>& args) {
    const CommandLine cl(args, {{"gpf", OptionKind::Value},
                                {"receptor", OptionKind::Value},
                                {"ligand", OptionKind::Value},
                                {"poses", OptionKind::Value},
                                {"cpu-poses", OptionKind::Value},
                                {"seed", OptionKind::Value},
                                {"repeat", OptionKind::Value},
                                {"outside", OptionKind::Value},
                                {"gradient", OptionKind::Flag},
                                {"threads", OptionKind::Value}});
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional()[0] + "'");
    const std::string gpfFile = cl.required("gpf");
    const std::string receptorFile = cl.required("receptor");
    const std::string ligandFile = cl.required("ligand");
    const long poses = cl.intValue("poses", 100000, 1, 100000000);
    const long cpuPoses = std::min<long>(poses, cl.intValue("cpu-poses", 300, 1, 100000000));
    const int seed = cl.intValue("seed", 1, 0, 1 << 30);
    const int repeat = cl.intValue("repeat", 3, 1, 1000);
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = cl.intValue("threads", hw, 1, 1024);
    // --gradient: the smooth twin with its gradient (energyAndGradient) on both devices.
    const bool gradient = cl.flag("gradient");
    const std::string outsideName = cl.value("outside", "penalty");
    if (outsideName != "penalty" && outsideName != "exact")
        throw UsageError("--outside expects penalty or exact, got '" + outsideName + "'");
    const ad4::OutsideBox outside =
        outsideName == "exact" ? ad4::OutsideBox::ExactSum : ad4::OutsideBox::Penalty;

    const ad4::GridParameterFile gpf = ad4::readGridParameterFile(gpfFile);
    const auto setup = std::make_shared<const ad4::MapSetup>(ad4::prepareMaps(
        readMolecule(receptorFile), gpf.box, gpf.ligandTypes, gpf.options));
    auto reader = MoleculeReader::open(ligandFile);
    Molecule raw;
    if (!reader->next(raw))
        throw InputError(ligandFile, 0, "no molecule in the file");
    const Molecule ligand = prepareLigand(raw);
    const ad4::Ad4ExactScorer cpu(setup, ligand, outside);
    const int atoms = cpu.atomCount();

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
    auto poseCoords = [&](long p) {
        return std::vector<Vec3>(flat.begin() + p * atoms, flat.begin() + (p + 1) * atoms);
    };
    // Atoms that sweep the receptor (under the penalty rule an atom outside the box does not).
    long swept = 0;
    const long counted = std::min<long>(poses, 10000);
    for (long i = 0; i < counted * atoms; ++i)
        swept += outside == ad4::OutsideBox::ExactSum || setup->box.contains(flat[size_t(i)]);
    const double sweptPerPose = double(swept) / double(counted);
    const double sitesPerPose = sweptPerPose * double(setup->sites.size());

    // One core: the numbers the GPU computes.
    std::vector<ad4::Ad4Energy> reference(static_cast<size_t>(cpuPoses));
    std::vector<double> smoothReference(static_cast<size_t>(cpuPoses));
    std::vector<std::vector<Vec3>> gradientReference(static_cast<size_t>(cpuPoses));
    t0 = benchNow();
    for (long p = 0; p < cpuPoses; ++p) {
        if (gradient)
            smoothReference[size_t(p)] =
                cpu.energyAndGradient(poseCoords(p), &gradientReference[size_t(p)]);
        else
            reference[size_t(p)] = cpu.inter(poseCoords(p));
    }
    const double oneCore = double(cpuPoses) / (benchNow() - t0);
    // All cores, on as many poses per thread.
    const long allPoses = std::min<long>(poses, cpuPoses * threads);
    std::vector<double> sink(static_cast<size_t>(allPoses));
    t0 = benchNow();
    parallelFor(allPoses, threads, [&](long p) {
        std::vector<Vec3> g;
        sink[size_t(p)] = gradient ? cpu.energyAndGradient(poseCoords(p), &g)
                                   : cpu.inter(poseCoords(p)).inter();
    });
    const double allCores = double(allPoses) / (benchNow() - t0);

    JsonObject o;
    o.add("bench", "ad4exact").add("gpf", gpfFile).add("ligand", ligandFile).add("poses", poses);
    o.add("ligand_atoms", atoms).add("receptor_sites", static_cast<long>(setup->sites.size()));
    o.add("outside", outsideName).add("gradient", gradient);
    o.add("swept_atoms_per_pose", sweptPerPose, 5);
    o.add("generate_seconds", generateSeconds, 4).add("threads", threads);
    o.add("cpu1_poses_per_s", oneCore, 6).add("cpu1_sites_per_s", oneCore * sitesPerPose, 6);
    o.add("cpu_all_poses_per_s", allCores, 6);

#ifdef POSEWRIGHT_HAVE_CUDA
    std::string why;
    const std::vector<CudaDeviceInfo> devices = cudaDevices(&why);
    if (devices.empty()) {
        o.add("gpu", "none: " + why);
    } else {
        cuda::Ad4PairScorer gpu(setup, outside, 0);
        gpu.setChunkSize(1 << 16);
        const int id = gpu.addLigand(cpu);
        const std::vector<int> all(size_t(poses), id);
        std::vector<cuda::Ad4PairPoseEnergy> out;
        std::vector<double> smooth;
        std::vector<Vec3> smoothGradient;
        auto run = [&](const std::vector<int>& ids, const std::vector<Vec3>& coords) {
            if (gradient)
                gpu.energyAndGradient(ids, coords, smooth, &smoothGradient);
            else
                gpu.score(ids, coords, out);
        };
        // Warm-up (context, module), then the whole set `repeat` times.
        const long warm = std::min<long>(poses, 4096);
        run(std::vector<int>(size_t(warm), id),
            std::vector<Vec3>(flat.begin(), flat.begin() + warm * atoms));
        std::vector<double> kernel, total;
        for (int r = 0; r < repeat; ++r) {
            run(all, flat);
            kernel.push_back(gpu.lastKernelSeconds());
            total.push_back(gpu.lastTotalSeconds());
        }
        double worst = 0;
        long over = 0;
        for (long p = 0; p < cpuPoses; ++p) {
            double e = 0;
            if (gradient) {
                e = relativeDifference(smooth[size_t(p)], smoothReference[size_t(p)]);
                for (int i = 0; i < atoms; ++i) {
                    const Vec3& want = gradientReference[size_t(p)][size_t(i)];
                    const Vec3& got = smoothGradient[size_t(p * atoms + i)];
                    e = std::max(e, (got - want).norm() / std::max(1.0, want.norm()));
                }
            } else {
                const ad4::Ad4Energy& r = reference[size_t(p)];
                e = std::max(
                    relativeDifference(out[size_t(p)].interVdwHbDesolv, r.interVdwHbDesolv),
                    relativeDifference(out[size_t(p)].interElec, r.interElec));
            }
            worst = std::max(worst, e);
            over += e > 1e-4;
        }
        const double k = median(kernel), t = median(total);
        o.add("gpu", devices[0].name).add("gpu_sms", devices[0].multiprocessors);
        o.add("gpu_kernel_seconds", k, 6).add("gpu_total_seconds", t, 6);
        o.add("gpu_poses_per_s", double(poses) / k, 6);
        o.add("gpu_sites_per_s", double(poses) / k * sitesPerPose, 6);
        o.add("gpu_end_to_end_poses_per_s", double(poses) / t, 6);
        o.add("speedup_vs_cpu1", double(poses) / k / oneCore, 5);
        o.add("speedup_vs_cpu_all", double(poses) / k / allCores, 5);
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
