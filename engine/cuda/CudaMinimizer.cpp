#include "CudaMinimizer.h"

#include "DeviceMemory.h"
#include "MinimizeDeviceTarget.h"
#include "MinimizeHostPack.h"
#include "MinimizeKernel.cuh"
#include "MinimizeTemplates.h"
#include "backend/DeviceMemoryBudget.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <future>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace pw::cuda {
namespace {

// With a Progress to honour, the host thread waits for a chunk by polling its event: it reads
// the device's finished-pose counter and calls onProgress at most this often, and forwards a
// cancel to the device flag within one sleep of it being set. The kernel polls that flag once per
// BFGS step, so chunks keep their full size (small chunks cost 57% of the throughput with random
// starts: the slowest pose of each chunk, not its size, set its time).
constexpr double kProgressInterval = 1.0 / 30.0;
constexpr auto kPollSleep = std::chrono::microseconds(250);
static_assert(static_cast<int>(StopReason::Cancelled) == 3, "kCancelled in MinimizeKernel.cu");

void check(cudaError_t e, const char* what) {
    throwIfCudaError(e, what);
}

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// One chunk's staging: pinned host arrays (asynchronous copies) and their device twins, copied
// and minimized on the slot's own stream so that one chunk's transfers overlap another's kernel.
struct Slot {
    cudaStream_t stream = nullptr;
    cudaEvent_t done = nullptr;
    PinnedBuffer<PoseInputGpu> hIn;
    PinnedBuffer<float3> hStart, hFinal;
    PinnedBuffer<float> hTorsions;
    PinnedBuffer<PoseResultGpu> hResults;
    DeviceBuffer<PoseInputGpu> dIn;
    DeviceBuffer<float3> dStart, dFinal;
    DeviceBuffer<float> dTorsions;
    DeviceBuffer<PoseResultGpu> dResults;
    long first = 0, count = 0; // poses of the batch held now
    bool busy = false;

    void reserve(size_t poses, size_t coords, size_t torsions) {
        hIn.reserve(poses), dIn.reserve(poses);
        hResults.reserve(poses), dResults.reserve(poses);
        hStart.reserve(coords), dStart.reserve(coords);
        hFinal.reserve(coords), dFinal.reserve(coords);
        hTorsions.reserve(std::max<size_t>(1, torsions));
        dTorsions.reserve(std::max<size_t>(1, torsions));
    }
};

SearchParamsGpu searchParams(const MinimizeBatchOptions& options) {
    SearchParamsGpu sp{};
    const MinimizeOptions& mo = options.refinement.minimize;
    const bool vinaSteps = options.refinement.vinaSteps;
    sp.armijo = vinaSteps || mo.lineSearch == LineSearchKind::Armijo;
    sp.vinaCompatible = vinaSteps || mo.vinaCompatible;
    const ArmijoParameters ap = vinaSteps ? ArmijoParameters{} : mo.armijo;
    sp.armijoC = float(ap.c), sp.armijoMultiplier = float(ap.multiplier);
    sp.armijoInitial = float(ap.initialStep), sp.armijoTrials = ap.maxTrials;
    sp.wolfeC1 = float(mo.wolfe.c1), sp.wolfeC2 = float(mo.wolfe.c2);
    sp.wolfeInitial = float(mo.wolfe.initialStep), sp.wolfeMaxStep = float(mo.wolfe.maxStep);
    sp.wolfeMaxEvaluations = mo.wolfe.maxEvaluations;
    sp.gradientTolerance = float(vinaSteps ? 1e-5 : mo.gradientTolerance);
    sp.maxStepNorm = vinaSteps ? 0.0f : float(mo.maxStepNorm);
    return sp;
}

} // namespace

struct CudaMinimizer::Impl {
    int device = 0;
    Slot slots[2];
    // Device-side control of one minimize() call: [0] the cancel flag the kernel polls, [1] the
    // finished-pose counter. Written and read with small copies on controlStream, which waits
    // for nothing, so they pass the kernels and copies queued on the slots' streams.
    cudaStream_t controlStream = nullptr;
    DeviceBuffer<int> control;
    PinnedBuffer<int> hControl; // [0] = 1: the cancel copy's source, [1] counter read back
    DeviceScoringTarget target;
    // Templates of the current batch.
    DeviceBuffer<TemplateGpu> templates;
    DeviceBuffer<int> atoms;
    DeviceBuffer<NodeGpu> nodes;
    DeviceBuffer<PairGpu> pairs;

    ~Impl() {
        cudaSetDevice(device);
        for (Slot& s : slots) {
            if (s.stream)
                cudaStreamSynchronize(s.stream);
            if (s.done)
                cudaEventDestroy(s.done);
            if (s.stream)
                cudaStreamDestroy(s.stream);
        }
        if (controlStream) {
            cudaStreamSynchronize(controlStream);
            cudaStreamDestroy(controlStream);
        }
    }
};

CudaMinimizer::CudaMinimizer(int device) : impl_(std::make_unique<Impl>()) {
    impl_->device = device;
    check(cudaSetDevice(device), "set device");
    for (Slot& s : impl_->slots) {
        check(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking), "stream");
        // Waited for by sleeping, not spinning: with two workers per GPU (the minimize
        // command) every waiting worker otherwise kept a core busy that the host's preparation
        // and formatting need.
        check(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming | cudaEventBlockingSync),
              "event");
    }
    check(cudaStreamCreateWithFlags(&impl_->controlStream, cudaStreamNonBlocking), "stream");
    impl_->control.reserve(2);
    impl_->hControl.reserve(2);
    impl_->hControl.p[0] = 1;
    impl_->hControl.p[1] = 0;
}

CudaMinimizer::~CudaMinimizer() = default;

void CudaMinimizer::minimize(const DockingTarget& target, const std::vector<Molecule>& ligands,
                             const MinimizeBatchOptions& options,
                             std::vector<RefinementResult>& results, Progress* progress,
                             const PairScorer* exact) {
    const double t0 = now();
    Impl& im = *impl_;
    check(cudaSetDevice(im.device), "set device");
    // The previous call's chunks (also any an error left in flight) are done before their
    // buffers are reused or freed: a free no longer waits for the device (DeviceMemory.h).
    for (Slot& s : im.slots)
        check(cudaStreamSynchronize(s.stream), "previous chunks");
    const bool exactInter = options.exact || !target.grid();
    if (exactInter && (!exact || exact->device() != im.device))
        throw std::invalid_argument("CudaMinimizer: exact (grid-free) minimization needs the "
                                    "target's PairScorer on the same device");
    const int threads = hostThreads_ > 0
                            ? hostThreads_
                            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    timing_ = {};
    {
        const double u0 = now();
        if (im.target.upload(target, threads))
            timing_.gridUpload = now() - u0;
    }
    const long total = static_cast<long>(ligands.size());
    // The results (672 bytes each: a serial second per million poses, with the previous batch's
    // freed) are made while the first chunks are packed and minimized; the first unpack waits.
    std::future<void> sizing =
        std::async(std::launch::async, [&results, total] { results.assign(total, {}); });
    auto resultsReady = [&] {
        if (sizing.valid())
            sizing.get();
    };

    // Templates: one per distinct structure.
    const double b0 = now();
    const BatchTemplates bt = buildBatchTemplates(ligands, target, options, threads);
    const std::vector<TemplateGpu>& tg = bt.tg;
    const int maxAtoms = bt.maxAtoms, maxNodes = bt.maxNodes;
    timing_.templates = static_cast<int>(bt.templates.size());
    if (total == 0) {
        resultsReady();
        return;
    }
    // The interpolation and intra smoothing are per batch (not part of the uploaded maps).
    ScoringParamsGpu& scoring = im.target.params();
    scoring.interpolation = static_cast<int>(options.refinement.gridInterpolation);
    scoring.rampHalfWidth = static_cast<float>(options.refinement.rampSmoothing);
    scoring.shiftCutoff = options.refinement.intraCutoffShift ? 1 : 0;
    scoring.exact = {};
    if (exactInter) {
        scoring.exact.receptor = exact->receptorView();
        scoring.exact.scoring = exact->scoringView();
        const Vec3 c = im.target.centre();
        for (int d = 0; d < 3; ++d)
            scoring.exact.centre[d] = c[d];
    }
    uploadVector(im.templates, tg);
    uploadVector(im.atoms, bt.atoms);
    uploadVector(im.nodes, bt.nodes);
    uploadVector(im.pairs, bt.pairs);
    timing_.templateSeconds = now() - b0;
    const SearchParamsGpu sp = searchParams(options);
    const Vec3 centre = im.target.centre();

    const int maxTorsions = bt.maxTorsions;
    // Chunk size within the memory the batch may use: a batch that does not fit is split into
    // more chunks; one whose templates alone do not fit is refused with a clear message. (The
    // templates are already on the device, so without a cap they count twice: a safe margin.)
    std::size_t freeBytes = 0, totalBytes = 0;
    check(cudaMemGetInfo(&freeBytes, &totalBytes), "memory info");
    const std::size_t available =
        options.maxDeviceBytes > 0 ? std::min(options.maxDeviceBytes, freeBytes) : freeBytes;
    const std::size_t fixedBytes =
        tg.size() * sizeof(TemplateGpu) + bt.atoms.size() * sizeof(int) +
        bt.nodes.size() * sizeof(NodeGpu) + bt.pairs.size() * sizeof(PairGpu);
    const std::size_t perPose = sizeof(PoseInputGpu) + sizeof(PoseResultGpu) +
                                2 * static_cast<std::size_t>(maxAtoms) * sizeof(float3) +
                                static_cast<std::size_t>(std::max(1, maxTorsions)) * sizeof(float);
    const ChunkBudget budget =
        posesPerChunkWithin(available, fixedBytes, perPose, std::max(1, chunk_), 2);
    if (budget.posesPerChunk == 0)
        throw std::runtime_error(budget.message);
    const long chunk = budget.posesPerChunk;
    double gpuWait = 0, packTime = 0, unpackTime = 0;
    long doneCount = 0; // poses of the chunks unpacked so far

    // Cancel flag and counter start at zero, before this call's kernels (the slots' streams do
    // not wait for the legacy stream, so a plain cudaMemset would not be ordered before them).
    check(cudaMemsetAsync(im.control.p, 0, 2 * sizeof(int), im.controlStream), "control reset");
    check(cudaStreamSynchronize(im.controlStream), "control reset");
    bool cancelSent = false;
    long reported = 0;
    double lastReport = t0;
    auto report = [&](long done, bool force) {
        done = std::min(done, total);
        if (!progress || !progress->onProgress || done <= reported)
            return;
        const double t = now();
        if (!force && t - lastReport < kProgressInterval)
            return;
        reported = done, lastReport = t;
        progress->onProgress(done, total);
    };
    auto sendCancel = [&] {
        if (cancelSent)
            return;
        check(cudaMemcpyAsync(im.control.p, im.hControl.p, sizeof(int), cudaMemcpyHostToDevice,
                              im.controlStream),
              "cancel");
        cancelSent = true;
    };
    auto finishedOnDevice = [&]() -> long {
        check(cudaMemcpyAsync(im.hControl.p + 1, im.control.p + 1, sizeof(int),
                              cudaMemcpyDeviceToHost, im.controlStream),
              "progress");
        check(cudaStreamSynchronize(im.controlStream), "progress");
        return static_cast<long>(static_cast<unsigned>(im.hControl.p[1]));
    };
    // Without a Progress: block. With one: poll, forward a cancel, report the device's counter.
    auto wait = [&](Slot& s) {
        if (!progress) {
            check(cudaEventSynchronize(s.done), "minimization");
            return;
        }
        double lastPoll = now();
        for (;;) {
            const cudaError_t q = cudaEventQuery(s.done);
            if (q == cudaSuccess)
                return;
            if (q != cudaErrorNotReady)
                check(q, "minimization");
            if (progress->cancelled()) {
                sendCancel();
            } else if (progress->onProgress && now() - lastPoll >= kProgressInterval) {
                report(std::max(doneCount, finishedOnDevice()), false);
                lastPoll = now();
            }
            std::this_thread::sleep_for(kPollSleep);
        }
    };

    auto unpack = [&](Slot& s) {
        resultsReady();
        const double u0 = now();
        unpackChunk(ligands, bt, s.first, s.count, centre, s.hIn.p, s.hResults.p, s.hFinal.p,
                    s.hTorsions.p, results, threads);
        unpackTime += now() - u0;
        doneCount += s.count;
        report(doneCount, false);
        s.busy = false;
    };
    auto finish = [&](Slot& s) {
        if (!s.busy)
            return;
        const double w0 = now();
        wait(s);
        gpuWait += now() - w0;
        unpack(s);
    };

    int which = 0;
    long launched = 0; // poses handed to the device
    for (long first = 0; first < total;) {
        if (progress && progress->cancelled())
            break;
        Slot& s = im.slots[which];
        which ^= 1;
        finish(s); // the chunk that used this slot two rounds ago
        if (progress && progress->cancelled())
            break;
        const long count = std::min(chunk, total - first);
        const double p0 = now();
        const ChunkLayout layout = chunkLayout(bt, first, count);
        const size_t coords = layout.coords, tors = layout.torsions;
        s.reserve(count, coords, tors);
        packChunk(ligands, bt, layout, first, count, centre, s.hIn.p, s.hStart.p, threads);
        packTime += now() - p0;
        s.first = first;
        s.count = count;
        check(cudaMemcpyAsync(s.dIn.p, s.hIn.p, count * sizeof(PoseInputGpu),
                              cudaMemcpyHostToDevice, s.stream),
              "upload");
        check(cudaMemcpyAsync(s.dStart.p, s.hStart.p, coords * sizeof(float3),
                              cudaMemcpyHostToDevice, s.stream),
              "upload");
        BatchGpu b{};
        b.templates = im.templates.p, b.atoms = im.atoms.p, b.nodes = im.nodes.p;
        b.pairs = im.pairs.p, b.poses = s.dIn.p, b.poseCount = static_cast<int>(count);
        b.start = s.dStart.p, b.final = s.dFinal.p, b.torsions = s.dTorsions.p;
        b.results = s.dResults.p;
        b.maxAtoms = maxAtoms, b.maxNodes = maxNodes, b.maxTorsions = maxTorsions;
        b.cancel = im.control.p;
        b.finished = reinterpret_cast<unsigned int*>(im.control.p + 1);
        check(launchMinimize(b, scoring, sp, reduction_, warpsPerBlock_, s.stream, exactInter),
              "launch");
        check(cudaMemcpyAsync(s.hResults.p, s.dResults.p, count * sizeof(PoseResultGpu),
                              cudaMemcpyDeviceToHost, s.stream),
              "download");
        check(cudaMemcpyAsync(s.hFinal.p, s.dFinal.p, coords * sizeof(float3),
                              cudaMemcpyDeviceToHost, s.stream),
              "download");
        if (tors)
            check(cudaMemcpyAsync(s.hTorsions.p, s.dTorsions.p, tors * sizeof(float),
                                  cudaMemcpyDeviceToHost, s.stream),
                  "download");
        check(cudaEventRecord(s.done, s.stream), "event");
        s.busy = true;
        first += count;
        launched = first;
    }
    if (progress && progress->cancelled())
        sendCancel(); // the chunks in flight stop at their poses' next step
    // Chunks complete in launch order: the older one is in the slot `which` points at.
    finish(im.slots[which]);
    finish(im.slots[which ^ 1]);
    check(cudaStreamSynchronize(im.controlStream), "cancel"); // before the next call's reset
    // Poses never launched have no partial result: only their reason says so. (Those launched
    // and stopped in the kernel keep their pose at that step, reason Cancelled.)
    resultsReady(); // also when no chunk ran (cancelled before the first)
    for (long i = launched; i < total; ++i)
        results[i].reason = StopReason::Cancelled;
    report(total, true);
    timing_.pack = packTime;
    timing_.gpu = gpuWait;
    timing_.unpack = unpackTime;
    timing_.total = now() - t0;
}

} // namespace pw::cuda
