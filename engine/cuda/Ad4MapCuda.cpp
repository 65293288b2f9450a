#include "Ad4MapCuda.h"

#include "Ad4MapKernel.cuh"
#include "Ad4MapPacking.h"
#include "DeviceMemory.h"

#include <chrono>
#include <cmath>

namespace pw::cuda {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Stream {
    cudaStream_t s = nullptr;
    Stream() { throwIfCudaError(cudaStreamCreate(&s), "cudaStreamCreate"); }
    ~Stream() { cudaStreamDestroy(s); }
};

struct Event {
    cudaEvent_t e = nullptr;
    Event() { throwIfCudaError(cudaEventCreate(&e), "cudaEventCreate"); }
    ~Event() { cudaEventDestroy(e); }
};

} // namespace

bool ad4MapGpuUsable(int device, std::string* why) {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
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

ad4::Ad4Maps buildAd4MapsCuda(const ad4::MapSetup& setup, int device, Ad4MapGpuTiming* timing) {
    const int nmaps = static_cast<int>(setup.mapTypes.size());
    if (nmaps > kAd4GpuMaxMapTypes)
        throw std::runtime_error("AD4 maps on the GPU: at most " +
                                 std::to_string(kAd4GpuMaxMapTypes) +
                                 " ligand types per build (asked " + std::to_string(nmaps) + ")");
    std::string why;
    if (!ad4MapGpuUsable(device, &why))
        throw std::runtime_error("CUDA device unusable: " + why);
    throwIfCudaError(cudaSetDevice(device), "cudaSetDevice");
    const auto t0 = std::chrono::steady_clock::now();

    const PackedAd4Maps packed = packAd4Maps(setup);
    Stream stream;
    DeviceBuffer<ad4kernel::SitePosition> dPos;
    DeviceBuffer<float4> dSite, dBond, dPlane;
    DeviceBuffer<int2> dKind;
    DeviceBuffer<int> dDonors;
    DeviceBuffer<float> dPair, dDesolv, dDiel, dOut;
    uploadVector(dPos, packed.pos);
    uploadVector(dSite, packed.site);
    uploadVector(dBond, packed.bond);
    uploadVector(dPlane, packed.plane);
    uploadVector(dKind, packed.kind);
    uploadVector(dDonors, packed.donors);
    uploadVector(dPair, packed.pairTables);
    uploadVector(dDesolv, packed.desolvation);
    uploadVector(dDiel, packed.inverseDielectric);
    const long long points = setup.box.pointCount();
    const int total = setup.mapCount();
    dOut.reserve(static_cast<size_t>(points) * total);
    if (timing)
        timing->upload = secondsSince(t0);

    ad4kernel::Args a = packed.args;
    a.pos = dPos.data();
    a.site = dSite.data();
    a.kind = dKind.data();
    a.bond = dBond.data();
    a.plane = dPlane.data();
    a.donors = dDonors.data();
    a.pairTables = dPair.data();
    a.desolvation = dDesolv.data();
    a.inverseDielectric = dDiel.data();
    a.out = dOut.data();

    Event start, stop;
    throwIfCudaError(cudaEventRecord(start.e, stream.s), "cudaEventRecord");
    ad4kernel::launchMaps(a, packed.probes.data(), stream.s);
    throwIfCudaError(cudaEventRecord(stop.e, stream.s), "cudaEventRecord");
    throwIfCudaError(cudaEventSynchronize(stop.e), "AD4 map kernel");
    float ms = 0;
    throwIfCudaError(cudaEventElapsedTime(&ms, start.e, stop.e), "cudaEventElapsedTime");

    const auto t1 = std::chrono::steady_clock::now();
    ad4::Ad4Maps g(setup.box, setup.typeNames);
    for (int k = 0; k < total; ++k)
        throwIfCudaError(cudaMemcpy(g.values(k).data(),
                                    dOut.data() + static_cast<size_t>(k) * points,
                                    sizeof(float) * points, cudaMemcpyDeviceToHost),
                         "AD4 maps download");
    if (timing) {
        timing->kernel = ms / 1000.0;
        timing->download = secondsSince(t1);
    }
    return g;
}

} // namespace pw::cuda
