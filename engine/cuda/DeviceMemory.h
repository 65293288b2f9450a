// DeviceMemory: owning, growable device and pinned-host arrays for the CUDA engines (shape overlay,
// minimizer): freed in the destructor, reallocated only when a larger size is asked for.
#pragma once

#include "backend/DeviceMemoryBudget.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
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

// cudaMalloc, with a refusal (a full GPU, or the test hook injectedDeviceAllocationFailure)
// turned into one message that says how much was asked and what was free.
inline void allocateDevice(void** p, size_t bytes) {
    const cudaError_t e =
        injectedDeviceAllocationFailure() ? cudaErrorMemoryAllocation : cudaMalloc(p, bytes);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError(); // not sticky: the context stays usable
        size_t freeBytes = 0, totalBytes = 0;
        if (cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess)
            freeBytes = totalBytes = 0;
        throw DeviceMemoryError(deviceAllocationFailedMessage(bytes, freeBytes, totalBytes));
    }
    throwIfCudaError(e, "memory allocation");
}

namespace detail {

inline cudaError_t mallocDevice(void** p, size_t bytes) {
    return cudaMalloc(p, bytes);
}
inline cudaError_t mallocPinned(void** p, size_t bytes) {
    return cudaMallocHost(p, bytes);
}
inline cudaError_t freeDevice(void* p) {
    return cudaFree(p);
}
inline cudaError_t freePinned(void* p) {
    return cudaFreeHost(p);
}

// Alloc/Free: cudaMalloc/cudaFree or cudaMallocHost/cudaFreeHost.
template <class T, cudaError_t (*Alloc)(void**, size_t), cudaError_t (*Free)(void*)>
struct CudaArray {
    T* p = nullptr;
    size_t cap = 0; // elements

    CudaArray() = default;
    CudaArray(const CudaArray&) = delete;
    CudaArray& operator=(const CudaArray&) = delete;
    CudaArray(CudaArray&& o) noexcept
        : p(std::exchange(o.p, nullptr)), cap(std::exchange(o.cap, 0)) {}
    CudaArray& operator=(CudaArray&& o) noexcept {
        std::swap(p, o.p);
        std::swap(cap, o.cap);
        return *this;
    }
    ~CudaArray() { release(); }

    // At least n elements (contents not kept when it grows).
    void reserve(size_t n) {
        if (n <= cap)
            return;
        release();
        void* q = nullptr;
        if constexpr (Alloc == &mallocDevice)
            allocateDevice(&q, n * sizeof(T));
        else
            throwIfCudaError(Alloc(&q, n * sizeof(T)), "pinned host memory allocation");
        p = static_cast<T*>(q);
        cap = n;
    }
    void release() {
        if (p)
            Free(p);
        p = nullptr;
        cap = 0;
    }
    T* data() const { return p; }
};

} // namespace detail

template <class T>
using DeviceBuffer = detail::CudaArray<T, detail::mallocDevice, detail::freeDevice>;
// Page-locked host memory: asynchronous copies from and to it overlap with kernels.
template <class T>
using PinnedBuffer = detail::CudaArray<T, detail::mallocPinned, detail::freePinned>;

// Replaces the buffer's contents with v (synchronous; at least one element is allocated so that
// the kernel always gets a valid pointer).
template <class T> void uploadVector(DeviceBuffer<T>& d, const std::vector<T>& v) {
    d.reserve(std::max<size_t>(1, v.size()));
    if (!v.empty())
        throwIfCudaError(cudaMemcpy(d.p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice),
                         "upload");
}

} // namespace pw::cuda
