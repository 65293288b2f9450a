// DeviceMemory: owning, growable device and pinned-host arrays for the CUDA engines (shape overlay,
// minimizer, docking, pair scorer): freed in the destructor, reallocated only when a larger size
// is asked for.
//
// Device arrays grow without synchronizing the device. cudaFree waits for every stream of the
// device, so a docking lane that grew a buffer waited for the other lane's whole launch on the
// same GPU (4-7 s of its pack_and_upload on two H200s, tests/bench/RESULTS.md, eighth session).
// Where the device has memory pools (every GPU this project targets), a buffer is allocated and
// freed in stream order (cudaMallocAsync / cudaFreeAsync) on the calling thread's per-thread
// stream, which holds nothing but these allocations and the uploads below, from the device's
// default pool; the pool keeps freed memory for reuse (kPoolKeepFraction) instead of returning it
// to the driver at every synchronization. Elsewhere: cudaMalloc / cudaFree as before.
// The rule for callers (every buffer's owner follows it): a buffer grows, or is destroyed, only
// when no queued work uses its old block any more (its owner has synchronized the streams that
// used it); cudaFree's device-wide wait used to hide a breach of that rule.
#pragma once

#include "backend/DeviceMemoryBudget.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pw::cuda {

inline void throwIfCudaError(cudaError_t e, const char* what) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string("CUDA error in ") + what + ": " +
                                 cudaGetErrorString(e));
}

namespace detail {

// The share of a device's memory that its default pool keeps after frees, for reuse by the next
// allocation, instead of returning it at the next synchronization (the default, 0, would make
// every growth map fresh memory). A quarter: two lanes' docking buffers fit many times over, and
// what a job keeps stays well below what other jobs on the GPU may need (it held its largest
// buffers anyway: a buffer never shrinks).
constexpr std::uint64_t kPoolKeepFraction = 4;

// Whether device d allocates in stream order; its default pool's release threshold set once.
inline bool streamOrderedPool(int d) {
    constexpr int kDevices = 64;
    static std::mutex m;
    static std::array<signed char, kDevices> known{}; // 0 unknown, 1 yes, -1 no
    if (d < 0 || d >= kDevices)
        return false;
    std::lock_guard lock(m);
    if (known[d] == 0) {
        int pools = 0;
        cudaMemPool_t pool = nullptr;
        size_t freeBytes = 0, totalBytes = 0;
        const bool ok = cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, d) ==
                            cudaSuccess &&
                        pools != 0 && cudaDeviceGetDefaultMemPool(&pool, d) == cudaSuccess &&
                        cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess;
        std::uint64_t keep = totalBytes / kPoolKeepFraction;
        if (!ok || cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) !=
                       cudaSuccess)
            (void)cudaGetLastError(); // a refused query is not an error of the caller's work
        known[d] = ok ? 1 : -1;
    }
    return known[d] > 0;
}

inline int currentDevice() {
    int d = 0;
    throwIfCudaError(cudaGetDevice(&d), "current device");
    return d;
}

} // namespace detail

// A device block of `bytes` on the current device, in stream order where the device has pools
// (then usable from any stream on return: the per-thread stream is synchronized, which waits for
// nothing but this thread's allocations). A refusal (a full GPU, or the test hook
// injectedDeviceAllocationFailure) becomes one message that says how much was asked and what was
// free, never an abort.
inline void allocateDevice(void** p, size_t bytes) {
    cudaError_t e = cudaErrorMemoryAllocation;
    if (!injectedDeviceAllocationFailure()) {
        if (detail::streamOrderedPool(detail::currentDevice())) {
            e = cudaMallocAsync(p, bytes, cudaStreamPerThread);
            if (e == cudaSuccess)
                e = cudaStreamSynchronize(cudaStreamPerThread);
        } else {
            e = cudaMalloc(p, bytes);
        }
    }
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError(); // not sticky: the context stays usable
        size_t freeBytes = 0, totalBytes = 0;
        if (cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess)
            freeBytes = totalBytes = 0;
        throw DeviceMemoryError(deviceAllocationFailedMessage(bytes, freeBytes, totalBytes));
    }
    throwIfCudaError(e, "memory allocation");
}

// Frees a block of allocateDevice on `device` (which was current when it was allocated): in
// stream order where the device has pools, so that no other stream is waited for.
inline void freeDevice(void* p, int device) {
    if (!p)
        return;
    int current = -1;
    if (cudaGetDevice(&current) != cudaSuccess)
        return; // the runtime is gone (process exit): nothing to give back
    if (current != device)
        (void)cudaSetDevice(device);
    const cudaError_t e = detail::streamOrderedPool(device) ? cudaFreeAsync(p, cudaStreamPerThread)
                                                            : cudaFree(p);
    if (e != cudaSuccess)
        (void)cudaGetLastError(); // not for a later launch check to report
    if (current != device)
        (void)cudaSetDevice(current);
}

namespace detail {

// Device (allocateDevice / freeDevice) or page-locked host memory (cudaMallocHost /
// cudaFreeHost; that free still waits for the device, so pinned arrays grow by half at least:
// a few growths per owner, not one per larger chunk).
template <class T, bool Device> struct CudaArray {
    T* p = nullptr;
    size_t cap = 0;  // elements
    int device = -1; // where the device block lives

    CudaArray() = default;
    CudaArray(const CudaArray&) = delete;
    CudaArray& operator=(const CudaArray&) = delete;
    CudaArray(CudaArray&& o) noexcept
        : p(std::exchange(o.p, nullptr)), cap(std::exchange(o.cap, 0)),
          device(std::exchange(o.device, -1)) {}
    CudaArray& operator=(CudaArray&& o) noexcept {
        std::swap(p, o.p);
        std::swap(cap, o.cap);
        std::swap(device, o.device);
        return *this;
    }
    ~CudaArray() { release(); }

    // At least n elements (contents not kept when it grows). The old block must be unused by
    // queued work (see the top of this file).
    void reserve(size_t n) {
        if (n <= cap)
            return;
        if constexpr (!Device)
            n = std::max(n, cap + cap / 2);
        release();
        void* q = nullptr;
        if constexpr (Device) {
            const int d = currentDevice();
            allocateDevice(&q, n * sizeof(T));
            device = d;
        } else {
            throwIfCudaError(cudaMallocHost(&q, n * sizeof(T)), "pinned host memory allocation");
        }
        p = static_cast<T*>(q);
        cap = n;
    }
    void release() {
        if (p) {
            if constexpr (Device)
                freeDevice(p, device);
            else
                (void)cudaFreeHost(p);
        }
        p = nullptr;
        cap = 0;
        device = -1;
    }
    T* data() const { return p; }
};

} // namespace detail

template <class T> using DeviceBuffer = detail::CudaArray<T, true>;
// Page-locked host memory: asynchronous copies from and to it overlap with kernels.
template <class T> using PinnedBuffer = detail::CudaArray<T, false>;

// Replaces the buffer's contents with v (at least one element is allocated so that the kernel
// always gets a valid pointer). Synchronous, on the per-thread stream (not the legacy default
// stream, which waits for the device's blocking streams, and whose pageable copy may still be in
// flight when cudaMemcpy returns): the data is on the device when this returns, and no other
// thread's stream was waited for.
template <class T> void uploadVector(DeviceBuffer<T>& d, const std::vector<T>& v) {
    d.reserve(std::max<size_t>(1, v.size()));
    if (v.empty())
        return;
    throwIfCudaError(cudaMemcpyAsync(d.p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice,
                                     cudaStreamPerThread),
                     "upload");
    throwIfCudaError(cudaStreamSynchronize(cudaStreamPerThread), "upload");
}

} // namespace pw::cuda
