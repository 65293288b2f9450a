// One warp minimizes one pose. All 32 lanes run the same scalar BFGS/line-search logic on
// warp-uniform values (every reduction ends in a butterfly, so all lanes hold identical sums);
// the lanes split the atoms, the intramolecular pairs and the vector/matrix work.
#include "MinimizeKernel.cuh"
#include "MinimizeSearch.cuh"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace pw::cuda {
namespace {

using namespace mk;

// pw::StopReason values (CudaMinimizer checks the correspondence).
enum : int { kConverged = 0, kMaxIterations = 1, kLineSearchFailed = 2, kCancelled = 3 };

// Per-warp staging of the Tensor Core reduction (16 x 8 membership + 8 x 16 values, then the
// 16 x 16 result in the same place).
constexpr int kWmmaFloats = 256;

// One instance per reduction and intermolecular term (maps or exact pair sums): with the choices
// compile-time constants each instance carries only its own code (and register pressure).
template <Reduction reduction, bool kExact>
__global__ void __launch_bounds__(128, 6)
    minimizeKernel(BatchGpu b, ScoringParamsGpu s, SearchParamsGpu sp, int floatsPerWarp) {
    extern __shared__ __align__(128) float smem[];
    const int warp = threadIdx.x >> 5;
    const int poseIndex = blockIdx.x * (blockDim.x >> 5) + warp;
    if (poseIndex >= b.poseCount)
        return; // whole warp: no block-wide barrier follows
    const PoseInputGpu in = b.poses[poseIndex];
    const TemplateGpu tp = b.templates[in.templ];

    WarpState w;
    w.lane = threadIdx.x & 31;
    w.A = tp.atomCount, w.N = tp.nodeCount, w.nPairs = tp.pairCount;
    w.T = tp.torsionCount, w.D = 6 + w.T;
    w.movingNodes = tp.movingNodes;
    w.atoms = b.atoms + tp.atomBegin;
    w.nodes = b.nodes + tp.nodeBegin;
    w.pairs = b.pairs + tp.pairBegin;
    float* m = smem + static_cast<size_t>(warp) * floatsPerWarp; // 32-byte aligned
    w.mma = nullptr;
    if (reduction == Reduction::TensorCoreWmma) {
        w.mma = m; // first: WMMA loads and stores need 32-byte alignment
        m += kWmmaFloats;
    }
    w.misc = m; // 8-byte aligned for the double energy slot
    m += 4;
    const int A = b.maxAtoms, N = b.maxNodes, P = 7 + b.maxTorsions, D = 6 + b.maxTorsions;
    auto take3 = [&](int n) {
        float3* p = reinterpret_cast<float3*>(m);
        m += 3 * n;
        return p;
    };
    w.local = take3(A), w.coords = take3(A), w.grad = take3(A);
    w.relOrigin = take3(N), w.relAxis = take3(N), w.origin = take3(N), w.axis = take3(N);
    w.force = take3(N), w.moment = take3(N);
    w.rot = m, m += 9 * N;
    w.x = m, m += P;
    w.trial = m, m += P;
    w.start = m, m += P;
    w.g = m, m += D;
    w.gT = m, m += D;
    w.p = m, m += D;
    w.y = m, m += D;
    w.hy = m, m += D;
    w.H = m, m += D * D;

    // Start coordinates define the kinematics (like LigandKinematics of the start molecule).
    const float3* start = b.start + in.coordOffset;
    for (int i = w.lane; i < w.A; i += 32)
        w.coords[i] = start[i];
    __syncwarp();
    for (int k = w.lane; k < w.N; k += 32) {
        const NodeGpu& nd = w.nodes[k];
        const float3 o = w.coords[nd.originAtom];
        w.origin[k] = o;
        if (k > 0 && nd.parent >= 0) {
            const float3 ax = o - w.coords[nd.axisParentAtom];
            w.relAxis[k] = rsqrtf(dot3(ax, ax)) * ax;
        } else {
            w.relAxis[k] = make_float3(0, 0, 0);
        }
    }
    __syncwarp();
    // A side chain's fixed root: relOrigin is its absolute start origin (its frame is set
    // below, once; placeAtoms never visits it).
    for (int k = w.lane; k < w.N; k += 32) {
        const int parent = w.nodes[k].parent;
        w.relOrigin[k] = k == 0        ? make_float3(0, 0, 0)
                         : parent >= 0 ? w.origin[k] - w.origin[parent]
                                       : w.origin[k];
    }
    // The side chains' fixed roots: where they start (origin, above), unrotated, for good.
    for (int k = w.movingNodes + w.lane; k < w.N; k += 32)
        for (int e = 0; e < 9; ++e)
            w.rot[9 * k + e] = (e % 4 == 0) ? 1.0f : 0.0f;
    for (int i = w.lane; i < w.A; i += 32)
        w.local[i] = w.coords[i] - w.origin[w.atoms[i] >> 8];
    float startInter, startIntra;
    reportedTerms<kExact>(w, s, startInter, startIntra);
    if (w.lane == 0) {
        w.x[0] = w.origin[0].x, w.x[1] = w.origin[0].y, w.x[2] = w.origin[0].z;
        w.x[3] = 1, w.x[4] = 0, w.x[5] = 0, w.x[6] = 0;
    }
    for (int i = w.lane; i < w.T; i += 32)
        w.x[7 + i] = 0.0f;
    __syncwarp();
    copyPose(w, w.start, w.x);
    setScaledIdentity(w, 1.0f);

    // BfgsMinimizer::minimize, step for step.
    const bool vina = sp.vinaCompatible != 0;
    float f0 = evaluate<kExact>(w, s, reduction, w.x, w.g);
    int evaluations = 1, iterations = 0, reason = kMaxIterations;
    const float fStart = f0;
    LineOf<kExact> line{w, s, reduction};
    for (int step = 0; step < tp.maxSteps; ++step) {
        // Issued before the gradient norm's reduction so that its latency overlaps it; lane 0
        // reads, every lane gets its value (the loop stays warp-uniform).
        int stop = 0;
        if (b.cancel && w.lane == 0)
            stop = *static_cast<const volatile int*>(b.cancel);
        const float gNorm = sqrtf(warpDot(w, w.g, w.g, w.D));
        if (__shfl_sync(0xffffffffu, stop, 0)) { // before the stop test, as BfgsMinimizer
            reason = kCancelled;
            break;
        }
        if (!vina && !(gNorm >= sp.gradientTolerance)) {
            reason = isfinite(gNorm) ? kConverged : kLineSearchFailed;
            break;
        }
        for (int i = w.lane; i < w.D; i += 32) {
            float sum = 0;
            for (int j = 0; j < w.D; ++j)
                sum += w.H[i * w.D + j] * w.g[j];
            w.p[i] = -sum;
        }
        __syncwarp();
        float pg = warpDot(w, w.p, w.g, w.D);
        if (!vina && !(pg < 0)) {
            setScaledIdentity(w, 1.0f);
            for (int i = w.lane; i < w.D; i += 32)
                w.p[i] = -w.g[i];
            __syncwarp();
            pg = -gNorm * gNorm;
        }
        float initial = sp.armijo ? sp.armijoInitial : sp.wolfeInitial;
        if (sp.maxStepNorm > 0.0f)
            initial = fminf(initial, sp.maxStepNorm / sqrtf(warpDot(w, w.p, w.p, w.D)));
        LineResult ls =
            sp.armijo ? armijo(line, f0, pg, sp, initial) : strongWolfe(line, f0, pg, sp, initial);
        evaluations += ls.evaluations;
        float updateAlpha = ls.alpha;
        if (!ls.satisfied) {
            const bool vinaTakesIt = vina && sp.armijo;
            if (!vinaTakesIt && !(ls.alpha > 0 && ls.value < f0)) {
                reason = kLineSearchFailed;
                break;
            }
            if (vinaTakesIt)
                updateAlpha = ls.alpha * sp.armijoMultiplier;
        }
        if (!ls.trialIsResult) {
            float slope;
            ls.value = line(ls.alpha, slope);
            ++evaluations;
        }
        for (int i = w.lane; i < w.D; i += 32)
            w.y[i] = w.gT[i] - w.g[i];
        __syncwarp();
        f0 = ls.value;
        float* t = w.x;
        w.x = w.trial, w.trial = t;
        t = w.g;
        w.g = w.gT, w.gT = t;
        ++iterations;
        if (vina && !(gNorm >= sp.gradientTolerance)) {
            reason = kConverged;
            break;
        }
        if (step == 0) {
            const float yy = warpDot(w, w.y, w.y, w.D);
            if (fabsf(yy) > kCurvatureEpsilon)
                setScaledIdentity(w, updateAlpha * warpDot(w, w.y, w.p, w.D) / yy);
        }
        bfgsUpdate(w, updateAlpha);
    }
    if (reason == kMaxIterations && !vina &&
        sqrtf(warpDot(w, w.g, w.g, w.D)) < sp.gradientTolerance)
        reason = kConverged;
    if (!(f0 <= fStart)) {
        f0 = fStart;
        copyPose(w, w.x, w.start);
    }

    placeAtoms(w, w.x);
    float inter, intra;
    reportedTerms<kExact>(w, s, inter, intra);
    float3* out = b.final + in.coordOffset;
    for (int i = w.lane; i < w.A; i += 32)
        out[i] = w.coords[i];
    for (int i = w.lane; i < w.T; i += 32)
        b.torsions[in.torsionOffset + i] = w.x[7 + i];
    if (w.lane == 0) {
        PoseResultGpu r;
        r.energy = f0, r.startEnergy = fStart;
        r.startInter = startInter, r.startIntra = startIntra;
        r.inter = inter, r.intra = intra;
        for (int d = 0; d < 3; ++d)
            r.position[d] = w.x[d];
        for (int d = 0; d < 4; ++d)
            r.orientation[d] = w.x[3 + d];
        r.iterations = iterations, r.evaluations = evaluations, r.reason = reason;
        b.results[poseIndex] = r;
        if (b.finished)
            atomicAdd(b.finished, 1u);
    }
}

} // namespace

const char* reductionName(Reduction r) {
    switch (r) {
    case Reduction::SharedAtomics:
        return "shared";
    case Reduction::WarpShuffle:
        return "shuffle";
    case Reduction::TensorCoreWmma:
        return "wmma";
    }
    return "?";
}

std::size_t minimizeSharedBytesPerWarp(int maxAtoms, int maxNodes, int maxTorsions,
                                       Reduction reduction) {
    const int P = 7 + maxTorsions, D = 6 + maxTorsions;
    std::size_t floats = 9 * maxAtoms + 27 * maxNodes + 3 * P + 5 * D + D * D + 4;
    if (reduction == Reduction::TensorCoreWmma)
        floats += kWmmaFloats;
    floats = (floats + 7) / 8 * 8; // every warp's block starts 32-byte aligned
    return floats * sizeof(float);
}

cudaError_t launchMinimize(const BatchGpu& batch, const ScoringParamsGpu& scoring,
                           const SearchParamsGpu& search, Reduction reduction, int warpsPerBlock,
                           cudaStream_t stream, bool exactInter) {
    if (batch.poseCount == 0)
        return cudaSuccess;
    const std::size_t perWarp =
        minimizeSharedBytesPerWarp(batch.maxAtoms, batch.maxNodes, batch.maxTorsions, reduction);
    const std::size_t bytes = perWarp * warpsPerBlock;
    const int blocks = (batch.poseCount + warpsPerBlock - 1) / warpsPerBlock;
    const int floats = static_cast<int>(perWarp / sizeof(float));
    // The attribute is set to the device's whole opt-in limit, not to this launch's bytes: it
    // belongs to the kernel on the device, and a concurrent launch from another thread must never
    // find it lowered below its own size (a launch above the limit still fails here, clearly).
    int device = 0, optIn = 48 * 1024;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&optIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    auto launch = [&](auto kernel) {
        if (bytes > 48 * 1024) {
            cudaError_t e =
                cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     std::max(optIn, static_cast<int>(bytes)));
            if (e != cudaSuccess)
                return e;
        }
        kernel<<<blocks, 32 * warpsPerBlock, bytes, stream>>>(batch, scoring, search, floats);
        return cudaGetLastError();
    };
    switch (reduction) {
    case Reduction::SharedAtomics:
        return exactInter ? launch(minimizeKernel<Reduction::SharedAtomics, true>)
                          : launch(minimizeKernel<Reduction::SharedAtomics, false>);
    case Reduction::TensorCoreWmma:
        return exactInter ? launch(minimizeKernel<Reduction::TensorCoreWmma, true>)
                          : launch(minimizeKernel<Reduction::TensorCoreWmma, false>);
    case Reduction::WarpShuffle:
        break;
    }
    return exactInter ? launch(minimizeKernel<Reduction::WarpShuffle, true>)
                      : launch(minimizeKernel<Reduction::WarpShuffle, false>);
}

} // namespace pw::cuda
