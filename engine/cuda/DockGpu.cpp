#include "DockGpu.h"

#include "DeviceMemory.h"
#include "DockAd4Target.h"
#include "DockKernel.cuh"
#include "MinimizeDeviceTarget.h"
#include "MinimizeTemplates.h"
#include "core/InputError.h"
#include "core/LigandKinematics.h"
#include "core/LongestFirst.h"
#include "core/ParallelFor.h"
#include "dock/AutoStop.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <exception>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>

namespace pw::cuda {
namespace {

static_assert(kDockMaxTorsions == dock::kMaxDockTorsions, "RunResultGpu::torsions");
static_assert(kMaxTemplateAtoms >= dock::kMaxDockAtoms, "the kernel's atom limit");

// Population storage of one chunk is capped (runs are launched in chunks beyond it): a screen of
// 1,000 ligands x 20 runs x 150 individuals takes ~1 GB of genotypes. Within a chunk the launch
// groups overlap the costliest ligands' generations with the rest (dockOn), so one chunk for a
// whole screen is faster; the cap is also at most an eighth of the device's memory.
constexpr std::size_t kMaxPopulationBytes = std::size_t(2) << 30;
constexpr auto kPollSleep = std::chrono::microseconds(500);
// Launch groups of a chunk (dockOn): enough for the costliest ligands' long chains of generations
// to overlap the rest; each is a stream and a host-side test after every launch.
constexpr int kLaunchGroups = 8;

// One launch group: ligands [ligandBegin, ligandEnd) of a chunk (chunk-local, in launch order),
// the generation its runs have reached, and those still going.
struct LaunchGroup {
    long ligandBegin = 0, ligandEnd = 0;
    cudaStream_t stream = nullptr;
    long generation = 0, until = 0;
    std::vector<int> live; // chunk slots
    bool inFlight = false;
};
// The live view (DockOptions::onGeneration) watches the batch's first runs only (the app docks
// one ligand); the host looks at most this often.
constexpr long kMaxWatchedRuns = 256;
constexpr double kWatchInterval = 1.0 / 30;

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void check(cudaError_t e, const char* what) {
    throwIfCudaError(e, what);
}

// The BFGS local search uses the minimizer's default line search (strong Wolfe).
SearchParamsGpu bfgsSearchParams() {
    const MinimizeOptions mo;
    SearchParamsGpu sp{};
    sp.armijo = mo.lineSearch == LineSearchKind::Armijo;
    sp.vinaCompatible = 0;
    sp.armijoC = float(mo.armijo.c), sp.armijoMultiplier = float(mo.armijo.multiplier);
    sp.armijoInitial = float(mo.armijo.initialStep), sp.armijoTrials = mo.armijo.maxTrials;
    sp.wolfeC1 = float(mo.wolfe.c1), sp.wolfeC2 = float(mo.wolfe.c2);
    sp.wolfeInitial = float(mo.wolfe.initialStep), sp.wolfeMaxStep = float(mo.wolfe.maxStep);
    sp.wolfeMaxEvaluations = mo.wolfe.maxEvaluations;
    sp.gradientTolerance = float(mo.gradientTolerance);
    sp.maxStepNorm = 2.0f; // as dock::bfgsLocalSearch: a clashing individual's -g is ~1e3 long
    return sp;
}

DockParamsGpu dockParams(const dock::DockOptions& options, const SearchBox& box,
                         int warpsPerBlock) {
    const dock::LgaOptions& o = options.lga;
    if (o.populationSize < 2 || options.runs < 1 || o.localSearchRate < 0 ||
        o.localSearchRate > 1 || warpsPerBlock < 1 || warpsPerBlock > 32)
        throw std::invalid_argument(
            "docking options: a population of at least 2, at least 1 run, a local-search rate "
            "in [0, 1] and 1-32 warps per block expected");
    if (o.localSearch == dock::LocalSearchMethod::SolisWets)
        throw std::invalid_argument("the CUDA docking search runs ADADELTA or BFGS local "
                                    "searches, not Solis-Wets");
    DockParamsGpu p{};
    p.populationSize = o.populationSize;
    p.maxGenerations = static_cast<int>(std::min<long>(o.maxGenerations, 1L << 30));
    p.lsPerGeneration = std::clamp(
        static_cast<int>(std::lround(o.localSearchRate * o.populationSize)), 0, o.populationSize);
    p.localSearch = static_cast<int>(o.localSearch == dock::LocalSearchMethod::Bfgs
                                         ? DockLocalSearch::Bfgs
                                         : DockLocalSearch::Adadelta);
    p.lsMaxIterations = o.localSearchIterations;
    p.lsTolerance = 1e-4f; // BFGS: |g| below which a pose is converged (dock::bfgsLocalSearch)
    p.adadeltaRho = static_cast<float>(o.adadelta.rho);
    p.adadeltaEpsilon = static_cast<float>(o.adadelta.epsilon);
    p.adadeltaStopBound = static_cast<float>(o.adadelta.stopRhoLowerBound);
    p.adadeltaConsecutive = std::max(1, o.adadelta.consecutiveLimit);
    p.adadeltaStopTolerance = static_cast<float>(o.adadelta.stopTolerance);
    p.crossoverRate = static_cast<float>(o.crossoverRate);
    p.mutationRate = static_cast<float>(o.mutationRate);
    p.tournamentRate = static_cast<float>(o.tournamentRate);
    p.mutationPosition = static_cast<float>(o.maxTranslationMutation);
    p.mutationAngle = static_cast<float>(o.maxAngleMutationDegrees * 3.14159265358979 / 180.0);
    for (int d = 0; d < 3; ++d)
        p.boxHalf[d] = static_cast<float>(0.5 * box.size[d]);
    p.seed = options.seed;
    return p;
}

// The launch order of a batch's runs (core/LongestFirst.h), by the estimated cost of
// one run: its evaluation budget x the atoms x the torsions + 1 (each evaluation places every
// atom and rolls the gradient up the torsion tree). Each run's random stream is keyed by
// (ligand, run) and its result goes back to its id, so the output does not depend on the order.
std::vector<long> launchOrder(const std::vector<TemplateGpu>& templates,
                              const std::vector<long>& budget, int runsPer, bool longestFirst) {
    if (!longestFirst) {
        std::vector<long> order(templates.size() * size_t(runsPer));
        for (size_t id = 0; id < order.size(); ++id)
            order[id] = long(id);
        return order;
    }
    std::vector<double> cost(templates.size());
    for (size_t k = 0; k < templates.size(); ++k)
        cost[k] = double(budget[k]) * double(std::max(1, templates[k].atomCount)) *
                  double(std::max(1, templates[k].nodeCount));
    return longestFirstOrder(cost, runsPer);
}

// Every ligand's template on `threads` threads (a batch holds hundreds; each builds its
// kinematics, typing and pair list): Vina's into `vina`, AD4's returned (their charges and pairs
// are then laid out in order by the caller). The first failing ligand's error (InputError) is
// thrown, as the loop over the ligands in order would.
std::vector<Ad4HostTemplate> buildTemplatesInParallel(const DockingTarget* vina,
                                                      const ad4::Ad4Maps* ad4,
                                                      const std::vector<Molecule>& ligands,
                                                      const FlexModel* flex, int threads,
                                                      std::vector<HostTemplate>& vinaTemplates) {
    const long n = static_cast<long>(ligands.size());
    std::vector<Ad4HostTemplate> ad4Templates(vina ? 0 : n);
    std::vector<std::exception_ptr> failure(n);
    MinimizeBatchOptions templateOptions;
    templateOptions.flex = flex;
    parallelFor(n, threads, [&](long k) {
        try {
            if (vina)
                vinaTemplates[k] = buildTemplateFor(ligands[k], *vina, templateOptions);
            else
                ad4Templates[k] = buildAd4Template(ligands[k], *ad4);
        } catch (...) {
            failure[k] = std::current_exception();
        }
    });
    for (const std::exception_ptr& f : failure)
        if (f)
            std::rethrow_exception(f);
    return ad4Templates;
}

// Page-locked host memory the kernel writes directly (mapped): the watched runs' slots.
struct MappedWatchSlots {
    DockWatchSlotGpu* host = nullptr;
    DockWatchSlotGpu* device = nullptr;
    std::size_t cap = 0;

    MappedWatchSlots() = default;
    MappedWatchSlots(const MappedWatchSlots&) = delete;
    MappedWatchSlots& operator=(const MappedWatchSlots&) = delete;
    ~MappedWatchSlots() {
        if (host)
            cudaFreeHost(host);
    }
    // At least n zeroed slots (call only while no kernel writes them).
    void reset(std::size_t n) {
        if (n > cap) {
            if (host)
                cudaFreeHost(host);
            host = device = nullptr, cap = 0;
            void* p = nullptr;
            check(cudaHostAlloc(&p, n * sizeof(DockWatchSlotGpu), cudaHostAllocMapped),
                  "watch slots");
            host = static_cast<DockWatchSlotGpu*>(p);
            void* d = nullptr;
            check(cudaHostGetDevicePointer(&d, p, 0), "watch slots");
            device = static_cast<DockWatchSlotGpu*>(d);
            cap = n;
        }
        std::memset(host, 0, n * sizeof(DockWatchSlotGpu));
    }
};

// A consistent copy of a slot the kernel may be writing (the writer's sequence brackets the
// data: unchanged and even means untorn); false when torn or not written yet.
bool readSlot(const DockWatchSlotGpu* slot, DockWatchSlotGpu& out) {
    const volatile DockWatchSlotGpu* s = slot;
    const unsigned before = s->sequence;
    std::atomic_thread_fence(std::memory_order_acquire);
    if (before == 0 || (before & 1u))
        return false;
    out.generation = s->generation;
    out.best = s->best;
    out.mean = s->mean;
    for (int f = 0; f < 7 + kDockMaxTorsions; ++f)
        out.genotype[f] = s->genotype[f];
    std::atomic_thread_fence(std::memory_order_acquire);
    out.sequence = s->sequence;
    return out.sequence == before;
}

} // namespace

struct CudaDocker::Impl {
    int device = 0;
    cudaStream_t controlStream = nullptr;
    DeviceScoringTarget target;
    DeviceAd4Maps ad4Maps;
    DeviceBuffer<float> charges;
    DeviceBuffer<Ad4PairGpu> ad4Pairs;
    DeviceBuffer<TemplateGpu> templates;
    DeviceBuffer<int> atoms;
    DeviceBuffer<NodeGpu> nodes;
    DeviceBuffer<PairGpu> pairs;
    DeviceBuffer<float3> reference, final;
    DeviceBuffer<RunInputGpu> runs;
    DeviceBuffer<RunResultGpu> results;
    DeviceBuffer<float> population;
    DeviceBuffer<RunStateGpu> state; // per run of a chunk: where it paused
    DeviceBuffer<float> energies;    // per run of a chunk: its paused population's energies
    // Launch groups (see dockOn): a stream each, with priorities from the highest down, and
    // the device copy of the group's live runs.
    std::vector<cudaStream_t> groupStreams;
    DeviceBuffer<int> groupLive[kLaunchGroups];
    DeviceBuffer<int> control; // [0] cancel flag, [1] finished runs
    PinnedBuffer<int> hControl;
    MappedWatchSlots watch; // the live view's slots (only when an observer is set)

    cudaStream_t groupStream(int group) {
        while (static_cast<int>(groupStreams.size()) <= group) {
            int least = 0, greatest = 0;
            check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "stream priorities");
            // greatest is the numerically lowest: group 0 gets it, later groups one step less.
            const int priority = std::min(least, greatest + static_cast<int>(groupStreams.size()));
            cudaStream_t s = nullptr;
            check(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, priority), "stream");
            groupStreams.push_back(s);
        }
        return groupStreams[group];
    }

    ~Impl() {
        cudaSetDevice(device);
        for (cudaStream_t s : groupStreams) {
            cudaStreamSynchronize(s);
            cudaStreamDestroy(s);
        }
        if (controlStream) {
            cudaStreamSynchronize(controlStream);
            cudaStreamDestroy(controlStream);
        }
    }
};

CudaDocker::CudaDocker(int device) : impl_(std::make_unique<Impl>()) {
    impl_->device = device;
    check(cudaSetDevice(device), "set device");
    check(cudaStreamCreateWithFlags(&impl_->controlStream, cudaStreamNonBlocking), "stream");
    impl_->control.reserve(2);
    impl_->hControl.reserve(2);
}

CudaDocker::~CudaDocker() = default;

std::vector<GpuDockRun> CudaDocker::dock(const DockingTarget& target,
                                         const std::vector<Molecule>& ligands,
                                         const dock::DockOptions& options, Progress* progress,
                                         const std::vector<long>* ligandKeys) {
    return dockOn(&target, nullptr, target.box(), ligands, options, progress, ligandKeys);
}

std::vector<GpuDockRun> CudaDocker::dock(const dock::DockTarget& target,
                                         const std::vector<Molecule>& ligands,
                                         const dock::DockOptions& options, Progress* progress,
                                         const std::vector<long>* ligandKeys) {
    if (target.scoring == dock::DockScoring::Ad4) {
        if (!target.ad4)
            throw std::invalid_argument("CudaDocker: AD4 scoring without maps");
        return dockOn(nullptr, target.ad4.get(), target.box, ligands, options, progress,
                      ligandKeys);
    }
    if (!target.vina)
        throw std::invalid_argument("CudaDocker: Vina scoring without a DockingTarget");
    return dockOn(target.vina.get(), nullptr, target.box, ligands, options, progress, ligandKeys);
}

std::vector<GpuDockRun> CudaDocker::dockOn(const DockingTarget* vina, const ad4::Ad4Maps* ad4,
                                           const SearchBox& box,
                                           const std::vector<Molecule>& ligands,
                                           const dock::DockOptions& options, Progress* progress,
                                           const std::vector<long>* ligandKeys) {
    const double t0 = now();
    Impl& im = *impl_;
    timing_ = {};
    if (ligands.empty()) // a batch whose every ligand was refused: nothing to search
        return {};
    check(cudaSetDevice(im.device), "set device");
    if (vina && !vina->grid())
        throw std::invalid_argument("CudaDocker: the target has no grid (DockingTarget::gridFor)");
    if (flex_ && (!vina || options.onGeneration))
        throw std::invalid_argument("CudaDocker: flexible side chains dock with Vina or Vinardo "
                                    "scoring and no observer");
    const DockParamsGpu params = dockParams(options, box, warpsPerBlock_);
    const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    ScoringParamsGpu scoring{};
    Vec3 centre;
    if (vina) {
        const double u0 = now();
        if (im.target.upload(*vina, threads))
            timing_.gridUpload = now() - u0;
        scoring = im.target.params();
        scoring.interpolation = 0; // Vina's trilinear read, for the search and the reported terms
        scoring.rampHalfWidth = 0.0f;
        scoring.shiftCutoff = 0;
        scoring.ad4 = {};
        centre = im.target.centre();
    } else {
        const double u0 = now();
        if (im.ad4Maps.upload(*ad4))
            timing_.gridUpload = now() - u0;
        scoring.ad4 = im.ad4Maps.params();
        centre = im.ad4Maps.centre();
    }

    // One template per ligand (its kinematic order), its reference coordinates; AD4: charges
    // and internal pairs beside it.
    const long nLig = static_cast<long>(ligands.size());
    std::vector<HostTemplate> templates(nLig);
    std::vector<float> charges;
    std::vector<Ad4PairGpu> ad4Pairs;
    std::vector<Ad4HostTemplate> ad4Templates =
        buildTemplatesInParallel(vina, ad4, ligands, flex_, threads, templates);
    for (long k = 0; k < nLig; ++k) {
        if (!vina) {
            Ad4HostTemplate& a = ad4Templates[k];
            a.kinematics.gpu.pairBegin = static_cast<int>(ad4Pairs.size());
            charges.insert(charges.end(), a.charges.begin(), a.charges.end());
            ad4Pairs.insert(ad4Pairs.end(), a.pairs.begin(), a.pairs.end());
            templates[k] = std::move(a.kinematics);
        }
        const int torsions = templates[k].gpu.torsionCount;
        if (torsions > dock::kMaxDockTorsions) {
            const Molecule& m = ligands[k];
            throw InputError(
                m.sourceFile.empty() ? m.name : m.sourceFile, static_cast<int>(m.sourceRecord),
                "ligand '" + m.name + "' has " + std::to_string(torsions) +
                    " torsions; docking takes at most " + std::to_string(dock::kMaxDockTorsions));
        }
    }
    std::vector<TemplateGpu> tg;
    std::vector<int> atoms;
    std::vector<NodeGpu> nodes;
    std::vector<PairGpu> pairs;
    std::vector<float3> reference;
    std::vector<int> refOffset(nLig);
    int maxAtoms = 1, maxNodes = 1, maxTorsions = 0;
    for (long k = 0; k < nLig; ++k) {
        HostTemplate& h = templates[k];
        h.gpu.atomBegin = static_cast<int>(atoms.size());
        h.gpu.nodeBegin = static_cast<int>(nodes.size());
        if (vina) // AD4 templates index ad4Pairs (set above)
            h.gpu.pairBegin = static_cast<int>(pairs.size());
        atoms.insert(atoms.end(), h.atoms.begin(), h.atoms.end());
        nodes.insert(nodes.end(), h.nodes.begin(), h.nodes.end());
        pairs.insert(pairs.end(), h.pairs.begin(), h.pairs.end());
        tg.push_back(h.gpu);
        maxAtoms = std::max(maxAtoms, h.gpu.atomCount);
        maxNodes = std::max(maxNodes, h.gpu.nodeCount);
        maxTorsions = std::max(maxTorsions, h.gpu.torsionCount);
        refOffset[k] = static_cast<int>(reference.size());
        for (int a : h.atomOfSlot) {
            const Vec3 p = ligands[k].atoms[a].position - centre;
            reference.push_back(make_float3(float(p.x()), float(p.y()), float(p.z())));
        }
    }
    const int runsPer = options.runs;
    std::vector<long> budget(nLig);
    for (long k = 0; k < nLig; ++k)
        budget[k] = dock::evaluationBudget(options.lga, tg[k].torsionCount, runsPer);
    const long total = nLig * runsPer;
    std::vector<GpuDockRun> out(total);
    for (long id = 0; id < total; ++id) {
        out[id].ligand = static_cast<int>(id / runsPer);
        out[id].run = static_cast<int>(id % runsPer);
        out[id].budget = budget[id / runsPer];
    }
    if (total == 0)
        return out;
    // The live view's slots belong to the launch's first blocks, which it reads as the first run
    // ids: with an observer the runs keep input order (the app watches one ligand, whose runs all
    // cost the same, so longest first would not reorder them anyway).
    const std::vector<long> order =
        launchOrder(tg, budget, runsPer, longestFirst_ && !options.onGeneration);
    uploadVector(im.templates, tg);
    uploadVector(im.atoms, atoms);
    uploadVector(im.nodes, nodes);
    uploadVector(im.pairs, pairs);
    if (ad4) {
        uploadVector(im.charges, charges);
        uploadVector(im.ad4Pairs, ad4Pairs);
    }
    uploadVector(im.reference, reference);

    const int genes = 7 + maxTorsions;
    const std::size_t perRun = std::size_t(2) * params.populationSize * genes * sizeof(float);
    // Launch chunks hold whole ligands: AutoStop tests all runs of a ligand at each checkpoint,
    // and the launch order keeps a ligand's runs together (checked here).
    for (long j = 0; j < total; ++j)
        if (order[j] / runsPer != order[j - j % runsPer] / runsPer)
            throw std::logic_error("CudaDocker: a ligand's runs are apart in the launch order");
    std::size_t freeBytes = 0, deviceBytes = 0;
    check(cudaMemGetInfo(&freeBytes, &deviceBytes), "device memory");
    const std::size_t populationCap = std::min(kMaxPopulationBytes, deviceBytes / 8);
    const long fit = std::max<long>(1, static_cast<long>(populationCap / perRun));
    const long chunk = std::min<long>(total, std::max<long>(1, fit / runsPer) * runsPer);
    im.population.reserve(static_cast<std::size_t>(chunk) * perRun / sizeof(float));
    im.state.reserve(chunk);
    im.energies.reserve(static_cast<std::size_t>(chunk) * params.populationSize);
    im.runs.reserve(chunk);
    im.results.reserve(chunk);
    im.final.reserve(static_cast<std::size_t>(chunk) * maxAtoms);
    const SearchParamsGpu sp = bfgsSearchParams();
    const bool canSplit = searchWarps_ > 0 && params.lsPerGeneration > 0;
    long splitBelow = splitBelowRuns_;
    if (splitBelow < 0) {
        int device = 0, sms = 0;
        check(cudaGetDevice(&device), "device");
        check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "device");
        splitBelow = 2L * sms;
    }

    // The live view: the watched runs' ligands' kinematics (the CPU's root-centroid genotype,
    // as GpuDockRun::pose) and the generation each run last reported.
    const bool watching = static_cast<bool>(options.onGeneration);
    const long watched = watching ? std::min(total, kMaxWatchedRuns) : 0;
    std::vector<std::unique_ptr<LigandKinematics>> watchKinematics(nLig);
    std::vector<int> reportedGeneration(watched, 0);
    for (long id = 0; id < watched; ++id) {
        const long k = id / runsPer;
        if (!watchKinematics[k])
            watchKinematics[k] =
                std::make_unique<LigandKinematics>(ligands[k], RootOrigin::RootCentroid);
    }
    // Reports every watched run of this launch (ids first..first+count) that has done a
    // generation since its last report, from this thread.
    auto reportGenerations = [&](long first, long count) {
        const long end = std::min(first + count, watched);
        for (long id = first; id < end; ++id) {
            DockWatchSlotGpu slot;
            if (!readSlot(im.watch.host + (id - first), slot) ||
                slot.generation <= reportedGeneration[id])
                continue;
            reportedGeneration[id] = slot.generation;
            const long k = id / runsPer;
            Pose pose;
            pose.position = Vec3(slot.genotype[0], slot.genotype[1], slot.genotype[2]) + centre;
            pose.orientation =
                Quaternion(slot.genotype[3], slot.genotype[4], slot.genotype[5], slot.genotype[6])
                    .normalized();
            pose.torsions.assign(slot.genotype + 7, slot.genotype + 7 + tg[k].torsionCount);
            dock::GenerationReport r;
            r.ligand = ligandKeys ? (*ligandKeys)[k] : k;
            r.run = static_cast<int>(id % runsPer);
            r.generation = slot.generation;
            r.bestEnergy = slot.best;
            r.meanEnergy = slot.mean;
            r.best = &pose;
            r.kinematics = watchKinematics[k].get();
            options.onGeneration(r);
        }
    };
    timing_.pack = now() - t0;

    check(cudaMemsetAsync(im.control.p, 0, 2 * sizeof(int), im.controlStream), "control reset");
    check(cudaStreamSynchronize(im.controlStream), "control reset");
    im.hControl.p[0] = 1;
    bool cancelSent = false;
    auto sendCancel = [&] {
        check(cudaMemcpyAsync(im.control.p, im.hControl.p, sizeof(int), cudaMemcpyHostToDevice,
                              im.controlStream),
              "cancel");
        check(cudaStreamSynchronize(im.controlStream), "cancel");
        cancelSent = true;
    };
    std::vector<RunInputGpu> runs;
    std::vector<RunResultGpu> results;
    std::vector<RunStateGpu> states;
    std::vector<float3> finals;
    std::vector<double> bests(runsPer);
    const dock::PooledAutoStop schedule(options.lga, runsPer);
    traces_.assign(nLig, {});
    long launchedRuns = 0, stoppedRuns = 0; // stopped: by AutoStop (progress)
    for (long first = 0; first < total; first += chunk) {
        if (progress && progress->cancelled())
            break;
        const long count = std::min(chunk, total - first);
        runs.assign(count, {});
        int finalCoords = 0;
        for (long q = 0; q < count; ++q) {
            const long id = order[first + q];
            const int k = static_cast<int>(id / runsPer);
            RunInputGpu& r = runs[q];
            r.templ = k;
            r.refOffset = refOffset[k];
            r.finalOffset = finalCoords;
            r.runIndex = static_cast<int>(id % runsPer);
            r.ligandIndex = static_cast<int>(ligandKeys ? (*ligandKeys)[k] : k);
            r.budget = static_cast<int>(std::min<long>(budget[k], 2000000000L));
            finalCoords += tg[k].atomCount;
        }
        uploadVector(im.runs, runs);
        // On the per-thread stream and waited for: the launches below are on non-blocking
        // streams, which would not wait for a legacy-stream memset.
        check(cudaMemsetAsync(im.state.p, 0, count * sizeof(RunStateGpu), cudaStreamPerThread),
              "state reset");
        check(cudaStreamSynchronize(cudaStreamPerThread), "state reset");
        DockBatchGpu b{};
        b.templates = im.templates.p, b.atoms = im.atoms.p, b.nodes = im.nodes.p;
        b.pairs = im.pairs.p, b.runs = im.runs.p;
        b.state = im.state.p, b.energies = im.energies.p;
        b.charges = ad4 ? im.charges.p : nullptr;
        b.ad4Pairs = ad4 ? im.ad4Pairs.p : nullptr;
        b.reference = im.reference.p, b.final = im.final.p, b.results = im.results.p;
        b.population = im.population.p, b.genes = genes;
        b.maxAtoms = maxAtoms, b.maxNodes = maxNodes, b.maxTorsions = maxTorsions;
        b.cancel = im.control.p;
        b.finished = reinterpret_cast<unsigned int*>(im.control.p + 1);
        b.watchCount = static_cast<int>(std::clamp(watched - first, 0L, count));
        if (b.watchCount > 0) {
            im.watch.reset(static_cast<std::size_t>(b.watchCount));
            b.watch = im.watch.device;
        }
        launchedRuns = first + count;

        // Launches from checkpoint to checkpoint (one launch when AutoStop is off) until every
        // run has ended or its ligand has converged (dock::PooledAutoStop, the CPU engine's
        // test on the same values: each run's best at the checkpoint). The chunk's ligands are
        // split into launch groups, each on its own stream, advancing at its own pace: a group
        // whose launch has ended is tested and relaunched while the others' launches run, so
        // that the GPU is not left with the few blocks of one launch's slowest runs (a screen's
        // flexible ligands run many more generations than the rest). The groups follow the
        // launch order (longest first) and the costliest get the highest stream priority, so
        // their blocks are scheduled first and their long chain of generations starts at once.
        // A ligand's decisions depend only on its own runs at fixed generations: the output is
        // the same whatever the grouping.
        const long chunkLigands = count / runsPer;
        std::vector<dock::PooledAutoStop> stops(chunkLigands,
                                                dock::PooledAutoStop(options.lga, runsPer));
        std::vector<char> autostopped(count, 0);
        std::vector<long> stopGeneration(chunkLigands, 0);
        states.assign(count, {});
        const int nGroups = static_cast<int>(std::min<long>(kLaunchGroups, chunkLigands));
        std::vector<LaunchGroup> groups(nGroups);
        for (int gi = 0; gi < nGroups; ++gi) {
            LaunchGroup& g = groups[gi];
            g.ligandBegin = chunkLigands * gi / nGroups;
            g.ligandEnd = chunkLigands * (gi + 1) / nGroups;
            g.stream = im.groupStream(gi);
            g.live.resize((g.ligandEnd - g.ligandBegin) * runsPer);
            std::iota(g.live.begin(), g.live.end(), static_cast<int>(g.ligandBegin * runsPer));
            im.groupLive[gi].reserve(g.live.size());
        }
        auto launchGroup = [&](int gi) {
            LaunchGroup& g = groups[gi];
            if (progress && progress->cancelled() && !cancelSent)
                sendCancel(); // the live runs end at their next generation
            g.until = schedule.nextCheckpoint(g.generation);
            // Split when the runs of every group together leave SMs idle (DockGpu.h).
            long liveRuns = 0;
            for (const LaunchGroup& other : groups)
                liveRuns += static_cast<long>(other.live.size());
            const bool split = canSplit && liveRuns < splitBelow;
            if (split)
                g.until = std::min(g.until, g.generation + 1); // a step is one generation
            DockBatchGpu gb = b;
            gb.untilGeneration = static_cast<int>(std::min<long>(g.until, 1L << 30));
            gb.runCount = static_cast<int>(g.live.size());
            uploadVector(im.groupLive[gi], g.live);
            gb.live = im.groupLive[gi].p;
            check(split ? launchDockStep(gb, scoring, params, sp, warpsPerBlock_, searchWarps_,
                                         g.stream)
                        : launchDock(gb, scoring, params, sp, warpsPerBlock_, g.stream),
                  "dock launch");
            g.inFlight = true;
        };
        // A group's launch has ended: its runs' states, each of its ligands' test, its live runs.
        auto finishGroup = [&](int gi) {
            LaunchGroup& g = groups[gi];
            g.inFlight = false;
            const long q0 = g.ligandBegin * runsPer, q1 = g.ligandEnd * runsPer;
            check(cudaMemcpyAsync(states.data() + q0, im.state.p + q0,
                                  (q1 - q0) * sizeof(RunStateGpu), cudaMemcpyDeviceToHost,
                                  g.stream),
                  "download");
            check(cudaStreamSynchronize(g.stream), "download");
            g.generation = g.until;
            // Each ligand's test (its runs are slots [l * runsPer, (l + 1) * runsPer)).
            for (long l = g.ligandBegin; l < g.ligandEnd && schedule.isCheckpoint(g.generation);
                 ++l) {
                const long r0 = l * runsPer;
                bool anyLive = false;
                for (long q = r0; q < r0 + runsPer; ++q) {
                    anyLive = anyLive || (!states[q].ended && !autostopped[q]);
                    bests[q - r0] = states[q].best;
                }
                if (!anyLive || !stops[l].check(g.generation, bests))
                    continue;
                stopGeneration[l] = g.generation;
                for (long q = r0; q < r0 + runsPer; ++q)
                    if (!states[q].ended) {
                        autostopped[q] = 1;
                        ++stoppedRuns;
                    }
            }
            g.live.clear();
            for (long q = q0; q < q1; ++q)
                if (!states[q].ended && !autostopped[q])
                    g.live.push_back(static_cast<int>(q));
        };
        const double g0 = now();
        for (int gi = 0; gi < nGroups; ++gi)
            launchGroup(gi);
        double lastReport = 0, lastWatch = now();
        for (int inFlight = nGroups; inFlight > 0;) {
            bool ended = false;
            for (int gi = 0; gi < nGroups; ++gi) {
                if (!groups[gi].inFlight)
                    continue;
                const cudaError_t q = cudaStreamQuery(groups[gi].stream);
                if (q == cudaErrorNotReady)
                    continue;
                check(q, "docking");
                ended = true;
                finishGroup(gi);
                if (groups[gi].live.empty())
                    --inFlight;
                else
                    launchGroup(gi);
            }
            if (ended)
                continue;
            if (inFlight == 1 && !progress && b.watchCount == 0) {
                // One launch left and nothing to report: wait for it without polling.
                for (const LaunchGroup& g : groups)
                    if (g.inFlight)
                        check(cudaStreamSynchronize(g.stream), "docking");
                continue;
            }
            if (b.watchCount > 0 && now() - lastWatch > kWatchInterval) {
                reportGenerations(first, count);
                lastWatch = now();
            }
            if (progress && progress->cancelled() && !cancelSent)
                sendCancel();
            if (progress && progress->onProgress && now() - lastReport > 1.0 / 30) {
                check(cudaMemcpyAsync(im.hControl.p + 1, im.control.p + 1, sizeof(int),
                                      cudaMemcpyDeviceToHost, im.controlStream),
                      "progress");
                check(cudaStreamSynchronize(im.controlStream), "progress");
                progress->onProgress(std::min<long>(total, im.hControl.p[1] + stoppedRuns), total);
                lastReport = now();
            }
            std::this_thread::sleep_for(kPollSleep);
        }
        timing_.gpu += now() - g0;
        if (b.watchCount > 0)
            reportGenerations(first, count); // every watched run's last generation
        for (long l = 0; l < count / runsPer; ++l)
            traces_[order[first + l * runsPer] / runsPer] = stops[l].trace();

        results.resize(count);
        finals.resize(finalCoords);
        check(cudaMemcpy(results.data(), im.results.p, count * sizeof(RunResultGpu),
                         cudaMemcpyDeviceToHost),
              "download");
        check(cudaMemcpy(finals.data(), im.final.p, finalCoords * sizeof(float3),
                         cudaMemcpyDeviceToHost),
              "download");

        const double u0 = now();
        parallelFor(count, threads, [&](long q) {
            const long id = order[first + q];
            const int k = static_cast<int>(id / runsPer);
            const HostTemplate& h = templates[k];
            const RunResultGpu& g = results[q];
            const Molecule& mol = ligands[k];
            GpuDockRun& r = out[id];
            r.energy = g.energy;
            r.gpuInter = g.inter, r.gpuIntra = g.intra;
            r.coordinates = std::vector<Vec3>(mol.atoms.size(), Vec3::Zero());
            for (std::size_t slot = 0; slot < h.atomOfSlot.size(); ++slot) {
                const float3 c = finals[runs[q].finalOffset + slot];
                r.coordinates[h.atomOfSlot[slot]] = Vec3(c.x, c.y, c.z) + centre;
            }
            r.pose.position = Vec3(g.position[0], g.position[1], g.position[2]) + centre;
            r.pose.orientation =
                Quaternion(g.orientation[0], g.orientation[1], g.orientation[2], g.orientation[3]);
            r.pose.torsions.assign(g.torsions, g.torsions + h.gpu.torsionCount);
            r.generations = g.generations;
            r.evaluations = g.evaluations;
            r.autostopped = autostopped[q] != 0;
            r.autoStopGeneration = stopGeneration[q / runsPer];
            r.finished = g.cancelled == 0;
        });
        timing_.unpack += now() - u0;
    }
    if (progress && progress->onProgress)
        progress->onProgress(launchedRuns, total);
    timing_.total = now() - t0;
    return out;
}

} // namespace pw::cuda
