#include "Ad4MapCuda.h"

#include "Ad4MapKernel.cuh"
#include "DeviceMemory.h"

#include <chrono>
#include <cmath>

namespace pw::cuda {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<float> toFloat(const std::vector<double>& v) {
    return {v.begin(), v.end()};
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

ad4::GridMaps buildAd4MapsCuda(const ad4::MapSetup& setup, int device, Ad4MapGpuTiming* timing) {
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

    // Receptor sites as the kernel reads them.
    const size_t n = setup.sites.size();
    std::vector<ad4kernel::SitePosition> pos(n);
    std::vector<float4> site(n), bond(n), plane(n);
    std::vector<int2> kind(n);
    for (size_t i = 0; i < n; ++i) {
        const ad4::ReceptorSite& s = setup.sites[i];
        pos[i] = {s.position.x(), s.position.y(), s.position.z(), 0.0};
        site[i] = make_float4(float(s.charge), float(s.vol),
                              float(s.solpar + ad4::kQSolPar * std::fabs(s.charge)), 0.f);
        bond[i] = make_float4(float(s.bond.x()), float(s.bond.y()), float(s.bond.z()), 0.f);
        plane[i] = make_float4(float(s.plane.x()), float(s.plane.y()), float(s.plane.z()), 0.f);
        kind[i] = make_int2(s.type, static_cast<int>(s.hbond) | (s.cosExponent << 8));
    }
    std::vector<ad4kernel::Probe> probes(nmaps);
    for (int m = 0; m < nmaps; ++m)
        probes[m] = {static_cast<int>(setup.mapTypes[m]->hbond), float(setup.mapTypes[m]->solpar),
                     float(setup.mapTypes[m]->vol), 0};

    Stream stream;
    DeviceBuffer<ad4kernel::SitePosition> dPos;
    DeviceBuffer<float4> dSite, dBond, dPlane;
    DeviceBuffer<int2> dKind;
    DeviceBuffer<int> dDonors;
    DeviceBuffer<float> dPair, dDesolv, dDiel, dOut;
    uploadVector(dPos, pos);
    uploadVector(dSite, site);
    uploadVector(dBond, bond);
    uploadVector(dPlane, plane);
    uploadVector(dKind, kind);
    uploadVector(dDonors, setup.donors);
    uploadVector(dPair, toFloat(setup.pairTables));
    uploadVector(dDesolv, toFloat(setup.desolvation));
    uploadVector(dDiel, toFloat(setup.inverseDielectric));
    const long long points = setup.box.pointCount();
    const int total = setup.mapCount();
    dOut.reserve(static_cast<size_t>(points) * total);
    if (timing)
        timing->upload = secondsSince(t0);

    ad4kernel::Args a{};
    a.nx = setup.box.points(0);
    a.ny = setup.box.points(1);
    a.nz = setup.box.points(2);
    a.hx = setup.box.npts[0] / 2;
    a.hy = setup.box.npts[1] / 2;
    a.hz = setup.box.npts[2] / 2;
    a.spacing = setup.box.spacing;
    a.nsites = static_cast<int>(n);
    a.ndonors = static_cast<int>(setup.donors.size());
    a.nmaps = nmaps;
    a.nrec = static_cast<int>(setup.receptorTypes.size());
    a.pos = dPos.data();
    a.site = dSite.data();
    a.kind = dKind.data();
    a.bond = dBond.data();
    a.plane = dPlane.data();
    a.donors = dDonors.data();
    a.pairTables = dPair.data();
    a.desolvation = dDesolv.data();
    a.inverseDielectric = dDiel.data();
    a.estat = static_cast<float>(setup.estatWeight);
    a.out = dOut.data();
    a.points = points;

    Event start, stop;
    throwIfCudaError(cudaEventRecord(start.e, stream.s), "cudaEventRecord");
    ad4kernel::launchMaps(a, probes.data(), stream.s);
    throwIfCudaError(cudaEventRecord(stop.e, stream.s), "cudaEventRecord");
    throwIfCudaError(cudaEventSynchronize(stop.e), "AD4 map kernel");
    float ms = 0;
    throwIfCudaError(cudaEventElapsedTime(&ms, start.e, stop.e), "cudaEventElapsedTime");

    const auto t1 = std::chrono::steady_clock::now();
    ad4::GridMaps g;
    g.box = setup.box;
    g.types = setup.typeNames;
    g.values.assign(total, std::vector<float>(static_cast<size_t>(points)));
    for (int k = 0; k < total; ++k)
        throwIfCudaError(cudaMemcpy(g.values[k].data(),
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
