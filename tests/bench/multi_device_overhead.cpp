// The host cost of a minimize batch on one and on two devices, without any device.
//
// 1. "split": two "devices" that return at once (NullDevice), N perturbed 1iep poses, minimize()
//    (each device's piece copied out of the batch) against minimizeLent() (moved out and back):
//    the split's own cost (tests/bench/RESULTS.md, helper scale2).
// 2. "host": devices whose GPU is instant but whose host work is the CUDA backend's, run by the
//    same functions (HostWorkDevice): the batch's templates (buildBatchTemplates), each 32,768-pose
//    chunk packed and unpacked (packChunk / unpackChunk; the kernel's stand-in copies the start
//    coordinates to the final ones), then the exact report of the start and minimized poses
//    (reportStartAndMinimizedExactly, with a pair "kernel" that copies the coordinates once, as the
//    driver's pageable upload does, and returns zeros). One device on the whole batch (what
//    `--device cuda:0` runs) against two device threads on halves (MultiDeviceBackend, lent):
//    a phase whose busiest device does not take about half the one device's time is one that
//    does not scale with the devices. Phase seconds are each device's own wall time in the phase.
//
// Not built by CMake; from a build folder that has built posewright-cli:
//   L=$(grep -A6 "build engine/posewright-cli:" build.ninja | grep LINK_LIBRARIES | sed 's/.*= //')
//   g++ -O2 -std=c++20 -I../engine -I/usr/include/eigen3 -I/usr/include/rdkit \
//       -I/usr/local/cuda/include ../tests/bench/multi_device_overhead.cpp $L \
//       -L/usr/local/cuda/lib64 -o multi_device_overhead
//   D=../tests/data/complexes/1iep
//   ./multi_device_overhead $D/receptor.pdbqt $D/box.txt $D/ligand_xtal.pdbqt 200000 \
//       [split|host|host-before]
// (host-before: the exact report as main at 42e818b made it, for the before/after.)
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "cuda/MinimizeHostPack.h"
#include "cuda/PairRescore.h"
#include "minimize/PosePerturbation.h"
#include "parallel/MultiDeviceBackend.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <mutex>
#include <string>
#include <thread>

using namespace pw;

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// This thread's user and system CPU seconds, its voluntary context switches (it slept: a
// lock, a page fault waiting for the address space's lock) and its minor page faults.
struct ThreadUsage {
    double user = 0, sys = 0;
    long waits = 0, faults = 0;
};
ThreadUsage threadCpu() {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return {u.ru_utime.tv_sec + 1e-6 * u.ru_utime.tv_usec,
            u.ru_stime.tv_sec + 1e-6 * u.ru_stime.tv_usec, u.ru_nvcsw, u.ru_minflt};
}

// The process's user and system CPU seconds and minor page faults (all threads).
ThreadUsage processUsage() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return {u.ru_utime.tv_sec + 1e-6 * u.ru_utime.tv_usec,
            u.ru_stime.tv_sec + 1e-6 * u.ru_stime.tv_usec, u.ru_nvcsw, u.ru_minflt};
}

// The exact report as the CUDA backend made it before (main at 42e818b, CudaBackend::
// reportExactly): a copy of every start pose, all poses packed into one array on this thread.
void reportExactlyBefore(cuda::ExactPairEnergies& pairs, const DockingTarget& target,
                         const std::vector<Molecule>& ligands,
                         std::vector<RefinementResult>& results) {
    std::vector<std::vector<Vec3>> starts(ligands.size());
    std::vector<cuda::ExactPose> poses;
    for (size_t i = 0; i < ligands.size(); ++i) {
        if (results[i].coordinates.size() != ligands[i].atoms.size())
            continue;
        for (const Atom& a : ligands[i].atoms)
            starts[i].push_back(a.position);
        poses.push_back({int(i), &starts[i], &results[i].start});
        poses.push_back({int(i), &results[i].coordinates, &results[i].score});
    }
    if (poses.empty())
        return;
    cuda::scoreExactPoses(pairs, target.scoring(), target.receptor(), ligands, poses);
}

bool gBefore = false; // mode host-before: the exact report as before

// A device that minimizes nothing: one default result per pose, at once.
class NullDevice final : public Backend {
public:
    std::string description() const override { return "null"; }
    bool isGpu() const override { return true; }
    void minimize(const DockingTarget&, const std::vector<Molecule>& ligands,
                  const MinimizeBatchOptions&, std::vector<RefinementResult>& results,
                  Progress*) override {
        results.assign(ligands.size(), {});
    }
    std::unique_ptr<OverlayBatch> prepareOverlay(const shape::ShapeModel&,
                                                 const shape::OverlayOptions&) override {
        return nullptr;
    }
    std::unique_ptr<LingoComparison> prepareLingo(const lingo::LingoSet&, const lingo::LingoSet&,
                                                  bool) override {
        return nullptr;
    }
};

// The pair kernel's stand-in: the coordinates copied once (the driver stages a pageable upload
// through its own buffer with a host memcpy), zero energies.
class CopyingPairs final : public cuda::ExactPairEnergies {
public:
    void clearLigands() override { ligands_ = 0; }
    int addLigand(const LigandScorer&) override { return ligands_++; }
    void scoreTabulated(const std::vector<int>& poseLigand, const std::vector<Vec3>& coords,
                        std::vector<cuda::PairPoseEnergy>& out) override {
        constexpr size_t kStage = size_t(1) << 22; // Vec3s per staged copy (96 MiB)
        staging_.resize(std::min(kStage, coords.size()));
        for (size_t a = 0; a < coords.size(); a += kStage)
            std::memcpy(staging_.data(), coords.data() + a,
                        std::min(kStage, coords.size() - a) * sizeof(Vec3));
        out.assign(poseLigand.size(), {});
    }

private:
    int ligands_ = 0;
    std::vector<Vec3> staging_;
};

struct Phases {
    double templates = 0, pack = 0, kernel = 0, unpack = 0, exact = 0, total = 0;
    double exactUser = 0, exactSys = 0; // the exact report runs on the device's thread
    long exactWaits = 0, exactFaults = 0;
};

// The CUDA backend's host work for a minimize batch (CudaMinimizer's templates, pack and unpack
// per chunk, CudaBackend's exact report), with an instant device.
class HostWorkDevice final : public Backend {
public:
    std::string description() const override { return "host work"; }
    bool isGpu() const override { return true; }
    void minimize(const DockingTarget& target, const std::vector<Molecule>& ligands,
                  const MinimizeBatchOptions& options, std::vector<RefinementResult>& results,
                  Progress*) override {
        const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        const double t0 = now();
        const long total = long(ligands.size());
        // As CudaMinimizer: the results are made beside the templates and the first chunk.
        std::future<void> sizing =
            std::async(std::launch::async, [&results, total] { results.assign(total, {}); });
        const cuda::BatchTemplates bt = cuda::buildBatchTemplates(ligands, target, options, threads);
        const double t1 = now();
        phases.templates += t1 - t0;
        const Vec3 centre = target.box().center;
        constexpr long kChunk = 32768; // CudaMinimizer's default
        std::vector<cuda::PoseInputGpu> in;
        std::vector<float3> start;
        std::vector<cuda::PoseResultGpu> out;
        std::vector<float> torsions;
        for (long first = 0; first < total; first += kChunk) {
            const long count = std::min(kChunk, total - first);
            const double p0 = now();
            const cuda::ChunkLayout layout = cuda::chunkLayout(bt, first, count);
            in.resize(count);
            start.resize(layout.coords);
            cuda::packChunk(ligands, bt, layout, first, count, centre, in.data(), start.data(),
                            threads);
            const double p1 = now();
            // The kernel's stand-in: poses stay where they started.
            out.assign(count, cuda::PoseResultGpu{});
            for (long k = 0; k < count; ++k)
                out[k].orientation[0] = 1;
            torsions.assign(std::max<size_t>(1, layout.torsions), 0.0f);
            const double p2 = now();
            if (sizing.valid())
                sizing.get();
            cuda::unpackChunk(ligands, bt, first, count, centre, in.data(), out.data(),
                              start.data(), torsions.data(), results, threads);
            const double p3 = now();
            phases.pack += p1 - p0;
            phases.kernel += p2 - p1;
            phases.unpack += p3 - p2;
        }
        const double e0 = now();
        const auto c0 = threadCpu();
        CopyingPairs pairs;
        if (gBefore)
            reportExactlyBefore(pairs, target, ligands, results);
        else
            cuda::reportStartAndMinimizedExactly(pairs, target.scoring(), target.receptor(),
                                                 ligands, results);
        const auto c1 = threadCpu();
        phases.exact += now() - e0;
        phases.exactUser += c1.user - c0.user;
        phases.exactSys += c1.sys - c0.sys;
        phases.exactWaits += c1.waits - c0.waits;
        phases.exactFaults += c1.faults - c0.faults;
        phases.total += now() - t0;
    }
    std::unique_ptr<OverlayBatch> prepareOverlay(const shape::ShapeModel&,
                                                 const shape::OverlayOptions&) override {
        return nullptr;
    }
    std::unique_ptr<LingoComparison> prepareLingo(const lingo::LingoSet&, const lingo::LingoSet&,
                                                  bool) override {
        return nullptr;
    }
    Phases phases;
};

std::string phasesJson(const Phases& p) {
    char text[400];
    std::snprintf(text, sizeof text,
                  "{\"templates\":%.3f,\"pack\":%.3f,\"kernel_standin\":%.3f,\"unpack\":%.3f,"
                  "\"exact\":%.3f,\"exact_user\":%.3f,\"exact_sys\":%.3f,\"exact_sleeps\":%ld,"
                  "\"exact_faults\":%ld,\"device_total\":%.3f}",
                  p.templates, p.pack, p.kernel, p.unpack, p.exact, p.exactUser, p.exactSys,
                  p.exactWaits, p.exactFaults, p.total);
    return text;
}

void splitOverhead(const DockingTarget& target, std::vector<Molecule>& poses, size_t atoms) {
    std::vector<std::unique_ptr<Backend>> two;
    two.push_back(std::make_unique<NullDevice>());
    two.push_back(std::make_unique<NullDevice>());
    MultiDeviceBackend multi(std::move(two));
    MinimizeBatchOptions options;
    std::vector<RefinementResult> results;
    for (int repeat = 0; repeat < 3; ++repeat) {
        const double t0 = now();
        multi.minimize(target, poses, options, results);
        const double t1 = now();
        multi.minimizeLent(target, poses, options, results);
        const double t2 = now();
        std::printf("{\"poses\":%zu,\"atoms\":%zu,\"copied_s\":%.3f,\"lent_s\":%.3f}\n",
                    poses.size(), atoms, t1 - t0, t2 - t1);
    }
}

void hostWork(const DockingTarget& target, std::vector<Molecule>& poses) {
    MinimizeBatchOptions options;
    options.refinement.vinaSteps = true; // as `bench minimize`
    for (int repeat = 0; repeat < 3; ++repeat) {
        for (int devices : {1, 2}) {
            std::vector<RefinementResult> results;
            std::vector<HostWorkDevice*> seen;
            std::unique_ptr<Backend> backend;
            if (devices == 1) {
                auto d = std::make_unique<HostWorkDevice>();
                seen.push_back(d.get());
                backend = std::move(d);
            } else {
                std::vector<std::unique_ptr<Backend>> many;
                for (int k = 0; k < devices; ++k) {
                    auto d = std::make_unique<HostWorkDevice>();
                    seen.push_back(d.get());
                    many.push_back(std::move(d));
                }
                backend = std::make_unique<MultiDeviceBackend>(std::move(many));
            }
            const ThreadUsage u0 = processUsage();
            const double t0 = now();
            minimizeBatch(*backend, target, poses, options, results);
            const double wall = now() - t0;
            const ThreadUsage u1 = processUsage();
            results = {}; // freed outside the timed call (as the next batch's assign would)
            std::string each;
            for (HostWorkDevice* d : seen)
                each += (each.empty() ? "" : ",") + phasesJson(d->phases);
            std::printf("{\"exact_report\":\"%s\",\"poses\":%zu,\"devices\":%d,\"wall_s\":%.3f,"
                        "\"user_s\":%.3f,\"sys_s\":%.3f,\"page_faults\":%ld,\"per_device\":[%s]}\n",
                        gBefore ? "before" : "now", poses.size(), devices, wall,
                        u1.user - u0.user, u1.sys - u0.sys, u1.faults - u0.faults, each.c_str());
            std::fflush(stdout);
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s RECEPTOR.pdbqt BOX.txt LIGAND.pdbqt POSES [split|host]\n",
                     argv[0]);
        return 2;
    }
    const std::string what = argc > 5 ? argv[5] : "split";
    if (what != "split" && what != "host" && what != "host-before") {
        std::fprintf(stderr, "unknown mode '%s' (split, host or host-before)\n", what.c_str());
        return 2;
    }
    gBefore = what == "host-before";
    DockingTarget target(prepareReceptor(readMolecule(argv[1])), readBoxConfig(argv[2]),
                         ScoringKind::Vina, 1);
    const Molecule ligand = prepareLigand(readMolecule(argv[3]));
    const long n = std::atol(argv[4]);
    PosePerturbation perturbation(ligand, PerturbationOptions{});
    std::vector<Molecule> poses;
    poses.reserve(size_t(n));
    for (long i = 0; i < n; ++i)
        poses.push_back(perturbation.perturbed(1, std::uint64_t(i)));
    if (what == "split") {
        splitOverhead(target, poses, ligand.atoms.size());
        return 0;
    }
    // The templates check the ligand's types against the grid (as the CUDA minimizer's do).
    std::vector<XsType> types;
    for (const Atom& a : ligand.atoms)
        if (a.xs != XsType::None && std::find(types.begin(), types.end(), a.xs) == types.end())
            types.push_back(a.xs);
    target.gridFor(types);
    hostWork(target, poses);
    return 0;
}
