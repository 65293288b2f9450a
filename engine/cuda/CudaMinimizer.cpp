#include "CudaMinimizer.h"

#include "DeviceMemory.h"
#include "MinimizeDeviceTarget.h"
#include "MinimizeKernel.cuh"
#include "MinimizeTemplates.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace pw::cuda {
namespace {

// With a Progress to honour, chunks are sized so that each takes about this long from launch to
// completion: a cancel then waits for at most the chunk in flight (two 32k-pose chunks take 0.2 s
// for 1iep with Vina's steps, 0.7 s with --smooth). The size is found by doubling and halving,
// not from a rate: a small chunk leaves most of the GPU idle, so its latency is that of its
// slowest pose rather than proportional to its size.
constexpr double kCancellableChunkSeconds = 0.04;
constexpr long kMinChunk = 1024;

void check(cudaError_t e, const char* what) {
    throwIfCudaError(e, what);
}

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Runs f(i) for i in [0, n) on `threads` workers in contiguous blocks (cheap per-pose work).
template <class F> void blockParallelFor(long n, int threads, F&& f) {
    threads = static_cast<int>(std::clamp<long>(threads, 1, std::max<long>(1, n / 256)));
    if (threads <= 1) {
        for (long i = 0; i < n; ++i)
            f(i);
        return;
    }
    std::vector<std::thread> pool;
    const long per = (n + threads - 1) / threads;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            const long b = t * per, e = std::min(n, b + per);
            for (long i = b; i < e; ++i)
                f(i);
        });
    for (auto& th : pool)
        th.join();
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
    double launched = 0;       // when its copies and kernel were queued
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
    }
};

CudaMinimizer::CudaMinimizer(int device) : impl_(std::make_unique<Impl>()) {
    impl_->device = device;
    check(cudaSetDevice(device), "set device");
    for (Slot& s : impl_->slots) {
        check(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking), "stream");
        check(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming), "event");
    }
}

CudaMinimizer::~CudaMinimizer() = default;

void CudaMinimizer::minimize(const DockingTarget& target, const std::vector<Molecule>& ligands,
                             const MinimizeBatchOptions& options,
                             std::vector<RefinementResult>& results, Progress* progress) {
    const double t0 = now();
    Impl& im = *impl_;
    check(cudaSetDevice(im.device), "set device");
    if (!target.grid())
        throw std::invalid_argument(
            "CudaMinimizer: the target has no grid (DockingTarget::gridFor)");
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
    results.assign(total, {});

    // Templates: one per distinct structure.
    std::vector<std::uint64_t> keys(total);
    blockParallelFor(total, threads, [&](long i) { keys[i] = structureKey(ligands[i]); });
    std::unordered_map<std::uint64_t, int> byKey;
    std::vector<HostTemplate> templates;
    std::vector<int> templateOf(total);
    for (long i = 0; i < total; ++i) {
        auto [it, fresh] = byKey.emplace(keys[i], static_cast<int>(templates.size()));
        if (fresh)
            templates.push_back(buildTemplate(ligands[i], target, options));
        templateOf[i] = it->second;
    }
    std::vector<TemplateGpu> tg;
    std::vector<int> atoms;
    std::vector<NodeGpu> nodes;
    std::vector<PairGpu> pairs;
    int maxAtoms = 1, maxNodes = 1;
    for (HostTemplate& h : templates) {
        h.gpu.atomBegin = static_cast<int>(atoms.size());
        h.gpu.nodeBegin = static_cast<int>(nodes.size());
        h.gpu.pairBegin = static_cast<int>(pairs.size());
        atoms.insert(atoms.end(), h.atoms.begin(), h.atoms.end());
        nodes.insert(nodes.end(), h.nodes.begin(), h.nodes.end());
        pairs.insert(pairs.end(), h.pairs.begin(), h.pairs.end());
        tg.push_back(h.gpu);
        maxAtoms = std::max(maxAtoms, h.gpu.atomCount);
        maxNodes = std::max(maxNodes, h.gpu.nodeCount);
    }
    timing_.templates = static_cast<int>(templates.size());
    if (total == 0)
        return;
    // The interpolation and intra smoothing are per batch (not part of the uploaded maps).
    ScoringParamsGpu& scoring = im.target.params();
    scoring.interpolation = static_cast<int>(options.refinement.gridInterpolation);
    scoring.rampHalfWidth = static_cast<float>(options.refinement.rampSmoothing);
    scoring.shiftCutoff = options.refinement.intraCutoffShift ? 1 : 0;
    uploadVector(im.templates, tg);
    uploadVector(im.atoms, atoms);
    uploadVector(im.nodes, nodes);
    uploadVector(im.pairs, pairs);
    const SearchParamsGpu sp = searchParams(options);
    const Vec3 centre = im.target.centre();

    const int maxTorsions = maxNodes - 1;
    const long fullChunk = std::max(1, chunk_);
    // A cancellable run starts small and sizes its chunks from the measured rate.
    long chunk = progress ? std::min(fullChunk, kMinChunk) : fullChunk;
    double gpuWait = 0, packTime = 0, unpackTime = 0;
    long doneCount = 0;

    auto unpack = [&](Slot& s) {
        const double u0 = now();
        blockParallelFor(s.count, threads, [&](long k) {
            const long i = s.first + k;
            const HostTemplate& h = templates[templateOf[i]];
            const PoseInputGpu& in = s.hIn.p[k];
            const PoseResultGpu& g = s.hResults.p[k];
            RefinementResult& r = results[i];
            const Molecule& mol = ligands[i];
            r.coordinates.resize(mol.atoms.size());
            double sum = 0;
            int heavy = 0;
            for (size_t slot = 0; slot < h.atomOfSlot.size(); ++slot) {
                const int a = h.atomOfSlot[slot];
                const float3 c = s.hFinal.p[in.coordOffset + slot];
                r.coordinates[a] = Vec3(c.x, c.y, c.z) + centre;
                if (h.heavy[a]) {
                    sum += (r.coordinates[a] - mol.atoms[a].position).squaredNorm();
                    ++heavy;
                }
            }
            r.rmsdFromStart = heavy ? std::sqrt(sum / heavy) : 0.0;
            r.pose.position = Vec3(g.position[0], g.position[1], g.position[2]) + centre;
            r.pose.orientation =
                Quaternion(g.orientation[0], g.orientation[1], g.orientation[2], g.orientation[3]);
            r.pose.torsions.resize(h.gpu.nodeCount - 1);
            for (int t = 0; t < h.gpu.nodeCount - 1; ++t)
                r.pose.torsions[t] = s.hTorsions.p[in.torsionOffset + t];
            r.start = reportedScore(g.startInter, g.startIntra, h.numTors, h.gpu.affinityDivisor);
            r.score = reportedScore(g.inter, g.intra, h.numTors, h.gpu.affinityDivisor);
            r.energy = g.energy;
            r.iterations = g.iterations;
            r.evaluations = g.evaluations;
            r.reason = static_cast<StopReason>(g.reason);
        });
        unpackTime += now() - u0;
        doneCount += s.count;
        if (progress && progress->onProgress)
            progress->onProgress(doneCount, total);
        s.busy = false;
    };
    auto finish = [&](Slot& s) {
        if (!s.busy)
            return;
        const double w0 = now();
        check(cudaEventSynchronize(s.done), "minimization");
        const double w1 = now();
        gpuWait += w1 - w0;
        if (progress && s.count == chunk) {
            const double latency = w1 - s.launched;
            if (latency < 0.5 * kCancellableChunkSeconds)
                chunk = std::min(fullChunk, 2 * chunk);
            else if (latency > kCancellableChunkSeconds)
                chunk = std::max(kMinChunk, chunk / 2);
        }
        unpack(s);
    };

    int which = 0;
    for (long first = 0; first < total;) {
        if (progress && progress->cancelled())
            break;
        Slot& s = im.slots[which];
        which ^= 1;
        finish(s); // the chunk that used this slot two rounds ago
        if (progress && progress->cancelled())
            break;
        const long count = std::min(chunk, total - first);
        // Offsets of this chunk.
        size_t coords = 0, tors = 0;
        std::vector<std::pair<int, int>> offsets(count);
        for (long k = 0; k < count; ++k) {
            const TemplateGpu& t = tg[templateOf[first + k]];
            offsets[k] = {static_cast<int>(coords), static_cast<int>(tors)};
            coords += t.atomCount;
            tors += t.nodeCount - 1;
        }
        const double p0 = now();
        s.reserve(count, coords, tors);
        blockParallelFor(count, threads, [&](long k) {
            const long i = first + k;
            const HostTemplate& h = templates[templateOf[i]];
            s.hIn.p[k] = {templateOf[i], offsets[k].first, offsets[k].second};
            const Molecule& mol = ligands[i];
            float3* out = s.hStart.p + offsets[k].first;
            for (size_t slot = 0; slot < h.atomOfSlot.size(); ++slot) {
                const Vec3 p = mol.atoms[h.atomOfSlot[slot]].position - centre;
                out[slot] = make_float3(float(p.x()), float(p.y()), float(p.z()));
            }
        });
        packTime += now() - p0;
        s.first = first;
        s.count = count;
        s.launched = now();
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
        check(launchMinimize(b, scoring, sp, reduction_, warpsPerBlock_, s.stream), "launch");
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
    }
    // Chunks complete in launch order: the older one is in the slot `which` points at.
    finish(im.slots[which]);
    finish(im.slots[which ^ 1]);
    if (progress && progress->cancelled())
        for (long i = doneCount; i < total; ++i)
            results[i].reason = StopReason::Cancelled;
    timing_.pack = packTime;
    timing_.gpu = gpuWait;
    timing_.unpack = unpackTime;
    timing_.total = now() - t0;
}

} // namespace pw::cuda
