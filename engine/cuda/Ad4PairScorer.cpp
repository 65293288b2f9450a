#include "Ad4PairScorer.h"

#include "Ad4PairPacking.h"
#include "DeviceMemory.h"

#include <chrono>
#include <stdexcept>
#include <string>

namespace pw::cuda {

static_assert(sizeof(Vec3) == 3 * sizeof(double), "coordinates are uploaded as packed doubles");

struct Ad4PairScorer::Impl {
    int device = 0;
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    Ad4PairArgs args{}; // receptor part set once; chunk part per launch
    // Receptor and tables, uploaded once.
    DeviceBuffer<ad4kernel::SitePosition> pos;
    DeviceBuffer<float4> site, bond, plane;
    DeviceBuffer<int2> kind;
    DeviceBuffer<int> donors;
    DeviceBuffer<float> pairTables, desolvation, inverseDielectric;
    DeviceBuffer<ad4kernel::Probe> probes;
    // Ligand templates: host copies (atom map, charge), uploaded when changed.
    std::vector<int> ligandBegin, ligandAtoms;
    std::vector<int> templateMap;
    std::vector<double> templateCharge;
    bool ligandsDirty = true;
    DeviceBuffer<int> dTemplateMap;
    DeviceBuffer<double> dTemplateCharge;
    // Per chunk.
    std::vector<int> atomTemplate;
    DeviceBuffer<int> dAtomTemplate;
    DeviceBuffer<long long> dPoseAtom;
    DeviceBuffer<double> dCoords;
    DeviceBuffer<Ad4PairAtomTerms> dTerms;
    DeviceBuffer<Ad4PairPoseEnergy> dOut;
    DeviceBuffer<double> dAtomEnergy, dAtomGrad; // the smooth twin's per-atom results

    ~Impl() {
        if (start)
            cudaEventDestroy(start);
        if (stop)
            cudaEventDestroy(stop);
        if (stream)
            cudaStreamDestroy(stream);
    }
};

Ad4PairScorer::Ad4PairScorer(std::shared_ptr<const ad4::MapSetup> setup, ad4::OutsideBox outside,
                             int device)
    : impl_(std::make_unique<Impl>()), setup_(std::move(setup)), outside_(outside) {
    if (!setup_)
        throw std::invalid_argument("Ad4PairScorer: no receptor setup");
    if (static_cast<int>(setup_->mapTypes.size()) > ad4kernel::kMaxMaps)
        throw std::invalid_argument("Ad4PairScorer: at most " +
                                    std::to_string(ad4kernel::kMaxMaps) +
                                    " ligand types per receptor setup (it has " +
                                    std::to_string(setup_->mapTypes.size()) + ")");
    Impl& m = *impl_;
    m.device = device;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || device < 0 || device >= count) {
        (void)cudaGetLastError();
        throw std::runtime_error("Ad4PairScorer: no CUDA device " + std::to_string(device));
    }
    throwIfCudaError(cudaSetDevice(device), "cudaSetDevice");
    throwIfCudaError(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking), "stream");
    throwIfCudaError(cudaEventCreate(&m.start), "event");
    throwIfCudaError(cudaEventCreate(&m.stop), "event");

    const PackedAd4Pair p = packAd4Pair(*setup_, outside_);
    uploadVector(m.pos, p.maps.pos);
    uploadVector(m.site, p.maps.site);
    uploadVector(m.bond, p.maps.bond);
    uploadVector(m.plane, p.maps.plane);
    uploadVector(m.kind, p.maps.kind);
    uploadVector(m.donors, p.maps.donors);
    uploadVector(m.pairTables, p.maps.pairTables);
    uploadVector(m.desolvation, p.maps.desolvation);
    uploadVector(m.inverseDielectric, p.maps.inverseDielectric);
    uploadVector(m.probes, p.maps.probes);
    m.args = p.args;
    ad4kernel::Args& a = m.args.maps;
    a.pos = m.pos.data();
    a.site = m.site.data();
    a.kind = m.kind.data();
    a.bond = m.bond.data();
    a.plane = m.plane.data();
    a.donors = m.donors.data();
    a.pairTables = m.pairTables.data();
    a.desolvation = m.desolvation.data();
    a.inverseDielectric = m.inverseDielectric.data();
    m.args.probes = m.probes.data();
}

Ad4PairScorer::~Ad4PairScorer() = default;

int Ad4PairScorer::addLigand(const ad4::Ad4ExactScorer& ligand) {
    if (&ligand.setup() != setup_.get())
        throw std::invalid_argument("Ad4PairScorer: the ligand's exact scorer reads another "
                                    "receptor setup than this GPU scorer");
    if (ligand.outside() != outside_)
        throw std::invalid_argument("Ad4PairScorer: the ligand's exact scorer has another "
                                    "outside-box rule than this GPU scorer");
    Impl& m = *impl_;
    m.ligandBegin.push_back(static_cast<int>(m.templateMap.size()));
    m.ligandAtoms.push_back(ligand.atomCount());
    for (int i = 0; i < ligand.atomCount(); ++i) {
        m.templateMap.push_back(ligand.mapOfAtom(i));
        m.templateCharge.push_back(ligand.charge(i));
    }
    m.ligandsDirty = true;
    return static_cast<int>(m.ligandAtoms.size()) - 1;
}

void Ad4PairScorer::clearLigands() {
    Impl& m = *impl_;
    m.ligandBegin.clear();
    m.ligandAtoms.clear();
    m.templateMap.clear();
    m.templateCharge.clear();
    m.ligandsDirty = true;
}

int Ad4PairScorer::atomCount(int ligand) const {
    return impl_->ligandAtoms.at(static_cast<size_t>(ligand));
}

int Ad4PairScorer::device() const {
    return impl_->device;
}

void Ad4PairScorer::score(const std::vector<int>& poseLigand, const std::vector<Vec3>& coords,
                          std::vector<Ad4PairPoseEnergy>& out,
                          std::vector<Ad4PairAtomTerms>* perAtom) {
    run(poseLigand, coords, false, &out, perAtom, nullptr, nullptr);
}

void Ad4PairScorer::energyAndGradient(const std::vector<int>& poseLigand,
                                      const std::vector<Vec3>& coords,
                                      std::vector<double>& energy, std::vector<Vec3>* gradient) {
    std::vector<double> atomEnergy, atomGrad;
    run(poseLigand, coords, true, nullptr, nullptr, &atomEnergy, &atomGrad);
    // Each pose's atoms added in file order, as Ad4ExactScorer::energyAndGradient adds them.
    energy.assign(poseLigand.size(), 0.0);
    size_t atom = 0;
    for (size_t p = 0; p < poseLigand.size(); ++p)
        for (int k = 0; k < impl_->ligandAtoms[static_cast<size_t>(poseLigand[p])]; ++k)
            energy[p] += atomEnergy[atom++];
    if (gradient) {
        gradient->resize(coords.size());
        for (size_t i = 0; i < coords.size(); ++i)
            (*gradient)[i] = Vec3(atomGrad[3 * i], atomGrad[3 * i + 1], atomGrad[3 * i + 2]);
    }
}

void Ad4PairScorer::run(const std::vector<int>& poseLigand, const std::vector<Vec3>& coords,
                        bool smooth, std::vector<Ad4PairPoseEnergy>* outPtr,
                        std::vector<Ad4PairAtomTerms>* perAtom, std::vector<double>* atomEnergy,
                        std::vector<double>* atomGrad) {
    const auto t0 = std::chrono::steady_clock::now();
    Impl& m = *impl_;
    throwIfCudaError(cudaSetDevice(m.device), "cudaSetDevice");
    const size_t n = poseLigand.size();
    std::vector<long long> poseAtom(n + 1, 0);
    for (size_t p = 0; p < n; ++p) {
        const int l = poseLigand[p];
        if (l < 0 || l >= static_cast<int>(m.ligandAtoms.size()))
            throw std::invalid_argument("Ad4PairScorer: pose " + std::to_string(p) +
                                        " names unknown ligand " + std::to_string(l));
        poseAtom[p + 1] = poseAtom[p] + m.ligandAtoms[l];
    }
    if (static_cast<size_t>(poseAtom[n]) != coords.size())
        throw std::invalid_argument("Ad4PairScorer: " + std::to_string(coords.size()) +
                                    " coordinates for poses of " + std::to_string(poseAtom[n]) +
                                    " atoms");
    if (outPtr)
        outPtr->resize(n);
    if (perAtom)
        perAtom->resize(coords.size());
    if (smooth) {
        atomEnergy->resize(coords.size());
        atomGrad->resize(3 * coords.size());
    }
    if (m.ligandsDirty) {
        uploadVector(m.dTemplateMap, m.templateMap);
        uploadVector(m.dTemplateCharge, m.templateCharge);
        m.ligandsDirty = false;
    }
    kernelSeconds_ = 0;
    for (size_t a = 0; a < n; a += static_cast<size_t>(chunk_)) {
        const size_t b = std::min(n, a + static_cast<size_t>(chunk_));
        const int count = static_cast<int>(b - a);
        const long long atom0 = poseAtom[a], atoms = poseAtom[b] - atom0;
        std::vector<long long> local(poseAtom.begin() + long(a), poseAtom.begin() + long(b) + 1);
        for (long long& x : local)
            x -= atom0;
        m.atomTemplate.resize(static_cast<size_t>(atoms));
        for (size_t p = a; p < b; ++p) {
            const int l = poseLigand[p];
            int* t = m.atomTemplate.data() + (poseAtom[p] - atom0);
            for (int k = 0; k < m.ligandAtoms[l]; ++k)
                t[k] = m.ligandBegin[l] + k;
        }
        m.dPoseAtom.reserve(static_cast<size_t>(count) + 1);
        m.dAtomTemplate.reserve(std::max<size_t>(1, static_cast<size_t>(atoms)));
        m.dCoords.reserve(std::max<size_t>(1, static_cast<size_t>(3 * atoms)));
        if (smooth) {
            m.dAtomEnergy.reserve(std::max<size_t>(1, static_cast<size_t>(atoms)));
            m.dAtomGrad.reserve(std::max<size_t>(1, static_cast<size_t>(3 * atoms)));
        } else {
            m.dTerms.reserve(std::max<size_t>(1, static_cast<size_t>(atoms)));
            m.dOut.reserve(static_cast<size_t>(count));
        }
        throwIfCudaError(cudaMemcpyAsync(m.dPoseAtom.data(), local.data(),
                                         local.size() * sizeof(long long), cudaMemcpyHostToDevice,
                                         m.stream),
                         "upload");
        if (atoms > 0) {
            throwIfCudaError(cudaMemcpyAsync(m.dAtomTemplate.data(), m.atomTemplate.data(),
                                             static_cast<size_t>(atoms) * sizeof(int),
                                             cudaMemcpyHostToDevice, m.stream),
                             "upload");
            throwIfCudaError(cudaMemcpyAsync(m.dCoords.data(), coords[atom0].data(),
                                             static_cast<size_t>(atoms) * 3 * sizeof(double),
                                             cudaMemcpyHostToDevice, m.stream),
                             "upload");
        }
        Ad4PairArgs args = m.args;
        args.atoms = atoms;
        args.coords = m.dCoords.data();
        args.atomTemplate = m.dAtomTemplate.data();
        args.templateMap = m.dTemplateMap.data();
        args.templateCharge = m.dTemplateCharge.data();
        args.terms = m.dTerms.data();
        args.poses = count;
        args.poseAtom = m.dPoseAtom.data();
        args.out = m.dOut.data();
        args.smooth = smooth ? 1 : 0;
        args.atomEnergy = m.dAtomEnergy.data();
        args.atomGrad = m.dAtomGrad.data();
        throwIfCudaError(cudaEventRecord(m.start, m.stream), "event");
        launchAd4PairKernel(args, m.stream);
        throwIfCudaError(cudaEventRecord(m.stop, m.stream), "event");
        if (smooth && atoms > 0) {
            throwIfCudaError(cudaMemcpyAsync(atomEnergy->data() + atom0, m.dAtomEnergy.data(),
                                             static_cast<size_t>(atoms) * sizeof(double),
                                             cudaMemcpyDeviceToHost, m.stream),
                             "download");
            throwIfCudaError(cudaMemcpyAsync(atomGrad->data() + 3 * atom0, m.dAtomGrad.data(),
                                             static_cast<size_t>(3 * atoms) * sizeof(double),
                                             cudaMemcpyDeviceToHost, m.stream),
                             "download");
        }
        if (outPtr)
            throwIfCudaError(cudaMemcpyAsync(outPtr->data() + a, m.dOut.data(),
                                             count * sizeof(Ad4PairPoseEnergy),
                                             cudaMemcpyDeviceToHost, m.stream),
                             "download");
        if (perAtom && atoms > 0)
            throwIfCudaError(cudaMemcpyAsync(perAtom->data() + atom0, m.dTerms.data(),
                                             static_cast<size_t>(atoms) * sizeof(Ad4PairAtomTerms),
                                             cudaMemcpyDeviceToHost, m.stream),
                             "download");
        // The host arrays of this chunk (local, atomTemplate) are reused by the next one.
        throwIfCudaError(cudaStreamSynchronize(m.stream), "AD4 pair kernel");
        float ms = 0;
        throwIfCudaError(cudaEventElapsedTime(&ms, m.start, m.stop), "event timing");
        kernelSeconds_ += ms * 1e-3;
    }
    totalSeconds_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace pw::cuda
