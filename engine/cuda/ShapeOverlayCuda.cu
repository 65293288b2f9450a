// ShapeOverlayCuda.cu: host side of the GPU overlay: pinned staging buffers, one stream, chunks
// of molecules; the CPU reference finishes the scores (world transform, colour, ratios).
#include "ShapeOverlayCuda.h"

#include "DeviceMemory.h"
#include "ShapeOverlayKernel.cuh"
#include "shape/GaussianOverlap.h"
#include "shape/OverlayStarts.h"

#include <bit>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pw::cuda {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string("CUDA error in ") + what + ": " +
                                 cudaGetErrorString(e));
}

// Molecules per launch: bounds device and pinned memory (about 40 MB per chunk at 30 atoms).
constexpr int kChunk = 1 << 18;

} // namespace

bool shapeGpuUsable(int device, std::string* why) {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        if (why)
            *why = e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device";
        return false;
    }
    if (device < 0 || device >= count) {
        if (why)
            *why = "no CUDA device " + std::to_string(device) + " (" + std::to_string(count) +
                   " present)";
        return false;
    }
    return true;
}

struct ShapeOverlayGpu::Impl {
    int device = 0;
    cudaStream_t stream = nullptr;
    shapekernel::Settings settings{};
    DeviceBuffer<float4> ref, fit;
    DeviceBuffer<float2> table;
    DeviceBuffer<int> offsets;
    DeviceBuffer<shapekernel::OverlayOut> overlays;
    DeviceBuffer<float> fitVolume;
    DeviceBuffer<shapekernel::MolOut> out;
    // Start poses (kPoseSize floats each, ShapeOverlay::startPoses order) and, for score-only
    // runs, the one identity pose.
    DeviceBuffer<float> starts, identityStart;
    PinnedBuffer<float4> hFit;
    PinnedBuffer<int> hOffsets;
    PinnedBuffer<shapekernel::MolOut> hOut;
    ~Impl() {
        if (stream)
            cudaStreamDestroy(stream);
    }
};

ShapeOverlayGpu::ShapeOverlayGpu(const shape::ShapeOverlay& cpu, int device)
    : impl_(std::make_unique<Impl>()), cpu_(cpu) {
    std::string why;
    if (!shapeGpuUsable(device, &why))
        throw std::runtime_error("CUDA device " + std::to_string(device) + " not usable: " + why);
    const shape::ShapeModel& r = cpu.reference();
    if (int(r.positions.size()) > kShapeMaxRefAtoms)
        throw std::runtime_error("reference has " + std::to_string(r.positions.size()) +
                                 " atoms; the GPU overlay takes at most " +
                                 std::to_string(kShapeMaxRefAtoms));
    Impl& I = *impl_;
    I.device = device;
    check(cudaSetDevice(device), "cudaSetDevice");
    check(cudaStreamCreateWithFlags(&I.stream, cudaStreamNonBlocking), "cudaStreamCreate");
    std::vector<float4> refAtoms;
    bool oneClass = true;
    for (size_t i = 0; i < r.framePositions.size(); ++i) {
        const Vec3& p = r.framePositions[i];
        refAtoms.push_back(make_float4(float(p.x()), float(p.y()), float(p.z()),
                                       std::bit_cast<float>(int(r.cls[i]))));
        oneClass = oneClass && r.cls[i] == 0;
    }
    std::vector<float2> tab;
    const shape::PairConstants& pc = shape::pairConstants();
    for (int a = 0; a < shape::kRadiusClassCount; ++a)
        for (int b = 0; b < shape::kRadiusClassCount; ++b)
            tab.push_back(make_float2(float(pc.k[a][b]), float(pc.c[a][b])));
    I.ref.reserve(refAtoms.size());
    I.table.reserve(tab.size());
    check(cudaMemcpy(I.ref.p, refAtoms.data(), refAtoms.size() * sizeof(float4),
                     cudaMemcpyHostToDevice),
          "reference upload");
    check(cudaMemcpy(I.table.p, tab.data(), tab.size() * sizeof(float2), cudaMemcpyHostToDevice),
          "table upload");
    const shape::OverlayOptions& o = cpu.options();
    shapekernel::Settings& S = I.settings;
    S.nRef = int(refAtoms.size());
    S.maxIterations = o.optimizer.maxIterations;
    S.maxLineSearch = o.optimizer.maxLineSearchSteps;
    S.relTol = float(o.optimizer.relativeTolerance);
    S.firstStep = float(o.optimizer.firstStep);
    S.oneClass = oneClass; // refined per batch (the fits must be class 0 as well)
    S.k0 = float(pc.k[0][0]);
    S.c0 = float(pc.c[0][0]);
    // The CPU reference's own start poses (orientations, and ring centroids when asked), so
    // that both optimize from the same starts.
    const std::vector<shape::PoseVector>& starts = cpu.startPoses();
    S.nStarts = int(starts.size());
    std::vector<float> startPoses;
    for (const shape::PoseVector& x : starts)
        for (int a = 0; a < shapekernel::kPoseSize; ++a)
            startPoses.push_back(float(x[a]));
    uploadVector(I.starts, startPoses);
    uploadVector(I.identityStart, std::vector<float>{1, 0, 0, 0, 0, 0, 0});
}

ShapeOverlayGpu::~ShapeOverlayGpu() = default;

std::string ShapeOverlayGpu::deviceName() const {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, impl_->device) != cudaSuccess)
        return "CUDA device " + std::to_string(impl_->device);
    return std::string(prop.name) + " (CUDA device " + std::to_string(impl_->device) + ")";
}

std::vector<shape::ShapeScores>
ShapeOverlayGpu::overlayAll(const std::vector<shape::ShapeModel>& fits, bool scoreOnly,
                            ShapeGpuTiming* timing) {
    return overlayAll(fits, scoreOnly, timing, nullptr);
}

std::vector<shape::ShapeScores>
ShapeOverlayGpu::overlayAll(const std::vector<shape::ShapeModel>& fits, bool scoreOnly,
                            ShapeGpuTiming* timing, Progress* progress) {
    Impl& I = *impl_;
    check(cudaSetDevice(I.device), "cudaSetDevice");
    const shape::ShapeModel& ref = cpu_.reference();
    std::vector<shape::ShapeScores> results(fits.size());
    ShapeGpuTiming t;
    std::vector<size_t> onGpu;
    onGpu.reserve(fits.size());
    for (size_t i = 0; i < fits.size(); ++i) {
        if (int(fits[i].positions.size()) <= kShapeMaxFitAtoms)
            onGpu.push_back(i);
        else
            results[i] = scoreOnly ? cpu_.scoreAsGiven(fits[i]) : cpu_.overlay(fits[i]);
    }
    shapekernel::Settings S = I.settings;
    const float* starts = scoreOnly ? I.identityStart.p : I.starts.p;
    if (scoreOnly) { // one identity "start", no iteration: fits arrive in the reference frame
        S.nStarts = 1;
        S.maxIterations = 0;
    }
    const long total = long(fits.size()), onCpu = total - long(onGpu.size());
    if (progress && progress->onProgress && onCpu > 0)
        progress->onProgress(onCpu, total);
    for (size_t c0 = 0; c0 < onGpu.size(); c0 += kChunk) {
        if (progress && progress->cancelled())
            return {};
        const size_t n = std::min<size_t>(kChunk, onGpu.size() - c0);
        auto tp = Clock::now();
        size_t atoms = 0;
        bool oneClass = I.settings.oneClass != 0;
        for (size_t k = 0; k < n; ++k)
            atoms += fits[onGpu[c0 + k]].positions.size();
        I.hFit.reserve(atoms);
        I.hOffsets.reserve(n + 1);
        I.hOut.reserve(n);
        size_t at = 0;
        for (size_t k = 0; k < n; ++k) {
            const shape::ShapeModel& m = fits[onGpu[c0 + k]];
            I.hOffsets.p[k] = int(at);
            for (size_t a = 0; a < m.positions.size(); ++a) {
                const Vec3 p = scoreOnly
                                   ? Vec3(ref.frame.axes * (m.positions[a] - ref.frame.centroid))
                                   : m.framePositions[a];
                I.hFit.p[at++] = make_float4(float(p.x()), float(p.y()), float(p.z()),
                                             std::bit_cast<float>(int(m.cls[a])));
                oneClass = oneClass && m.cls[a] == 0;
            }
        }
        I.hOffsets.p[n] = int(at);
        S.nMol = int(n);
        S.oneClass = oneClass;
        I.fit.reserve(atoms);
        I.offsets.reserve(n + 1);
        I.overlays.reserve(n * S.nStarts);
        I.fitVolume.reserve(n);
        I.out.reserve(n);
        t.pack += since(tp);

        auto td = Clock::now();
        check(cudaMemcpyAsync(I.fit.p, I.hFit.p, atoms * sizeof(float4), cudaMemcpyHostToDevice,
                              I.stream),
              "fit upload");
        check(cudaMemcpyAsync(I.offsets.p, I.hOffsets.p, (n + 1) * sizeof(int),
                              cudaMemcpyHostToDevice, I.stream),
              "offset upload");
        shapekernel::launchOverlay(I.ref.p, I.table.p, I.fit.p, I.offsets.p, starts, S,
                                   I.overlays.p, I.fitVolume.p, I.out.p, I.stream);
        check(cudaGetLastError(), "overlay kernel launch");
        check(cudaMemcpyAsync(I.hOut.p, I.out.p, n * sizeof(shapekernel::MolOut),
                              cudaMemcpyDeviceToHost, I.stream),
              "result download");
        check(cudaStreamSynchronize(I.stream), "overlay kernel");
        t.device += since(td);
        t.overlays += (long long)n * S.nStarts;

        auto tf = Clock::now();
        for (size_t k = 0; k < n; ++k) {
            const shapekernel::MolOut& r = I.hOut.p[k];
            const shape::ShapeModel& m = fits[onGpu[c0 + k]];
            shape::ShapeScores& s = results[onGpu[c0 + k]];
            if (scoreOnly) {
                // The given pose expressed in the frames, as ShapeOverlay::scoreAsGiven does.
                const Eigen::Matrix3d Q = ref.frame.axes * m.frame.axes.transpose();
                const Vec3 tr = ref.frame.axes * (m.frame.centroid - ref.frame.centroid);
                s = cpu_.scoresFromFramePose(m, Eigen::Quaterniond(Q), tr, r.overlap, r.fitVolume);
                s.rotation.setIdentity();
                s.translation.setZero();
            } else {
                Eigen::Quaterniond q(r.x[0], r.x[1], r.x[2], r.x[3]);
                s = cpu_.scoresFromFramePose(m, q, Vec3(r.x[4], r.x[5], r.x[6]), r.overlap,
                                             r.fitVolume);
                s.start = r.start;
                s.iterations = r.iterations;
            }
        }
        t.finish += since(tf);
        if (progress && progress->onProgress)
            progress->onProgress(onCpu + long(c0 + n), total);
    }
    if (timing)
        *timing = t;
    return results;
}

} // namespace pw::cuda
