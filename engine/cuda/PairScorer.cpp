#include "PairScorer.h"

#include "DeviceMemory.h"
#include "score/VinaConstants.h"

#include <chrono>
#include <stdexcept>
#include <string>

namespace pw::cuda {

static_assert(sizeof(Vec3) == 3 * sizeof(double), "coordinates are uploaded as packed doubles");
static_assert(sizeof(PairSite) == 32, "PairSite is read as two double2");

struct PairScorer::Impl {
    int device = 0;
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    // Receptor and scoring tables, uploaded once.
    DeviceBuffer<PairSite> cellSites, allSites;
    DeviceBuffer<int> cellStart;
    DeviceBuffer<double> table, spline;
    DeviceBuffer<PairTypeInfo> typeInfo;
    PairReceptorDev rec{};
    PairScoringDev sc{};
    // Ligand templates: host copies, uploaded when changed.
    std::vector<PairLigandDev> ligands;
    std::vector<int> heavyAtom, heavyType;
    std::vector<PairIntraPair> pairs;
    bool ligandsDirty = true;
    DeviceBuffer<PairLigandDev> dLigands;
    DeviceBuffer<int> dHeavyAtom, dHeavyType;
    DeviceBuffer<PairIntraPair> dPairs;
    // Per chunk.
    DeviceBuffer<int> dPoseLigand;
    DeviceBuffer<long long> dPoseAtom;
    DeviceBuffer<double> dCoords, dGradient;
    DeviceBuffer<PairPoseEnergy> dOut;

    ~Impl() {
        if (start)
            cudaEventDestroy(start);
        if (stop)
            cudaEventDestroy(stop);
        if (stream)
            cudaStreamDestroy(stream);
    }

    PairLigandsDev ligandView() {
        if (ligandsDirty) {
            uploadVector(dLigands, ligands);
            uploadVector(dHeavyAtom, heavyAtom);
            uploadVector(dHeavyType, heavyType);
            uploadVector(dPairs, pairs);
            ligandsDirty = false;
        }
        return {dLigands.data(), dHeavyAtom.data(), dHeavyType.data(), dPairs.data()};
    }
};

namespace {

std::vector<PairSite> toDevice(const std::vector<ReceptorModel::Site>& sites) {
    std::vector<PairSite> out;
    out.reserve(sites.size());
    for (const auto& s : sites)
        out.push_back({s.x, s.y, s.z, s.type, 0});
    return out;
}

} // namespace

PairScorer::PairScorer(const ScoringFunction& sf, const ReceptorModel& receptor, int device)
    : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.device = device;
    throwIfCudaError(cudaSetDevice(device), "cudaSetDevice");
    throwIfCudaError(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking), "stream");
    throwIfCudaError(cudaEventCreate(&m.start), "event");
    throwIfCudaError(cudaEventCreate(&m.stop), "event");

    uploadVector(m.cellSites, toDevice(receptor.cellSites()));
    uploadVector(m.allSites, toDevice(receptor.sites()));
    uploadVector(m.cellStart, receptor.cellStart());
    PairReceptorDev& r = m.rec;
    r.cellSites = m.cellSites.data();
    r.cellStart = m.cellStart.data();
    r.allSites = m.allSites.data();
    r.allCount = static_cast<int>(receptor.sites().size());
    const GridDims& region = receptor.region();
    const Vec3 end = region.end();
    for (int d = 0; d < 3; ++d) {
        r.cells[d] = receptor.cellCounts()[d];
        r.invCell[d] = receptor.inverseCellEdge()[d];
        r.begin[d] = region.begin[d];
        r.end[d] = end[d];
    }
    r.penalizeOutside = receptor.penalizeOutside() ? 1 : 0;

    const ScoringFunction::TableView v = sf.tableView();
    const size_t rows = static_cast<size_t>(v.tableRows), size = static_cast<size_t>(v.tableSize);
    uploadVector(m.table, std::vector<double>(v.table, v.table + rows * size));
    uploadVector(m.spline, std::vector<double>(v.spline, v.spline + rows * size * 2));
    std::vector<PairTypeInfo> info(kXsTypeCount * kXsTypeCount);
    for (int i = 0; i < kXsTypeCount; ++i)
        for (int j = 0; j < kXsTypeCount; ++j) {
            PairTypeInfo& p = info[i * kXsTypeCount + j];
            bool hyd, hb;
            sf.rampShape(i, j, &p.optimal, &hyd, &hb);
            p.hydrophobic = hyd;
            p.hbond = hb;
            p.row = v.tablePair[i * kXsTypeCount + j];
        }
    uploadVector(m.typeInfo, info);
    PairScoringDev& s = m.sc;
    s.table = m.table.data();
    s.spline = m.spline.data();
    s.types = m.typeInfo.data();
    s.tableSize = v.tableSize;
    s.typeCount = kXsTypeCount;
    s.cutoff2 = sf.cutoffSquared();
    s.hydGood = v.hydGood;
    s.hydBad = v.hydBad;
    s.hbGood = v.hbGood;
    s.hbBad = v.hbBad;
    s.wHydrophobic = sf.weights()[Hydrophobic];
    s.wHbond = sf.weights()[HydrogenBond];
}

PairScorer::~PairScorer() = default;

int PairScorer::addLigand(const LigandScorer& scorer) {
    Impl& m = *impl_;
    const VinaLigandTopology& topo = scorer.topology();
    if (!topo.pseudoAtomPairs.empty() || !topo.gluePairs.empty())
        throw std::invalid_argument("PairScorer: a macrocycle's ring-closure terms are not in the "
                                    "pair kernel (score it with LigandScorer)");
    PairLigandDev l{};
    l.atomCount = static_cast<int>(topo.types.size());
    l.heavyBegin = static_cast<int>(m.heavyAtom.size());
    for (int i = 0; i < l.atomCount; ++i)
        if (topo.types[i] != XsType::None) {
            m.heavyAtom.push_back(i);
            m.heavyType.push_back(static_cast<int>(topo.types[i]));
        }
    l.heavyCount = static_cast<int>(m.heavyAtom.size()) - l.heavyBegin;
    l.pairBegin = static_cast<int>(m.pairs.size());
    for (const auto& [i, j] : topo.intraPairs)
        m.pairs.push_back({i, j, static_cast<int>(topo.types[i]), static_cast<int>(topo.types[j])});
    l.pairCount = static_cast<int>(m.pairs.size()) - l.pairBegin;
    m.ligands.push_back(l);
    m.ligandsDirty = true;
    return static_cast<int>(m.ligands.size()) - 1;
}

void PairScorer::clearLigands() {
    Impl& m = *impl_;
    m.ligands.clear();
    m.heavyAtom.clear();
    m.heavyType.clear();
    m.pairs.clear();
    m.ligandsDirty = true;
}

int PairScorer::device() const {
    return impl_->device;
}

const PairReceptorDev& PairScorer::receptorView() const {
    return impl_->rec;
}

const PairScoringDev& PairScorer::scoringView() const {
    return impl_->sc;
}

int PairScorer::atomCount(int ligand) const {
    return impl_->ligands.at(static_cast<size_t>(ligand)).atomCount;
}

void PairScorer::scoreTabulated(const std::vector<int>& poseLigand, const std::vector<Vec3>& coords,
                                std::vector<PairPoseEnergy>& out) {
    run(PairMode::Tabulated, poseLigand, coords, out, nullptr);
}

void PairScorer::evaluate(const std::vector<int>& poseLigand, const std::vector<Vec3>& coords,
                          std::vector<PairPoseEnergy>& out, std::vector<Vec3>* gradient) {
    run(gradient ? PairMode::SplineGradient : PairMode::Spline, poseLigand, coords, out, gradient);
}

void PairScorer::run(PairMode mode, const std::vector<int>& poseLigand,
                     const std::vector<Vec3>& coords, std::vector<PairPoseEnergy>& out,
                     std::vector<Vec3>* gradient) {
    const auto t0 = std::chrono::steady_clock::now();
    Impl& m = *impl_;
    throwIfCudaError(cudaSetDevice(m.device), "cudaSetDevice");
    const size_t n = poseLigand.size();
    // Where each pose's atoms start; checks the poses against the coordinates given.
    std::vector<long long> poseAtom(n + 1, 0);
    for (size_t p = 0; p < n; ++p) {
        const int l = poseLigand[p];
        if (l < 0 || l >= static_cast<int>(m.ligands.size()))
            throw std::invalid_argument("PairScorer: pose " + std::to_string(p) +
                                        " names unknown ligand " + std::to_string(l));
        poseAtom[p + 1] = poseAtom[p] + m.ligands[l].atomCount;
    }
    if (static_cast<size_t>(poseAtom[n]) != coords.size())
        throw std::invalid_argument("PairScorer: " + std::to_string(coords.size()) +
                                    " coordinates for poses of " + std::to_string(poseAtom[n]) +
                                    " atoms");
    out.resize(n);
    if (gradient)
        gradient->resize(coords.size());
    const PairLigandsDev lig = m.ligandView();
    kernelSeconds_ = 0;
    for (size_t a = 0; a < n; a += static_cast<size_t>(chunk_)) {
        const size_t b = std::min(n, a + static_cast<size_t>(chunk_));
        const int count = static_cast<int>(b - a);
        const long long atom0 = poseAtom[a], atoms = poseAtom[b] - atom0;
        if (atoms == 0) { // ligands without atoms: nothing to score
            for (size_t p = a; p < b; ++p)
                out[p] = {0.0, 0.0, 0.0};
            continue;
        }
        std::vector<long long> local(poseAtom.begin() + long(a), poseAtom.begin() + long(b));
        for (long long& x : local)
            x -= atom0;
        m.dPoseLigand.reserve(count);
        m.dPoseAtom.reserve(count);
        m.dCoords.reserve(static_cast<size_t>(3 * atoms));
        m.dOut.reserve(count);
        if (gradient)
            m.dGradient.reserve(static_cast<size_t>(3 * atoms));
        throwIfCudaError(cudaMemcpyAsync(m.dPoseLigand.data(), poseLigand.data() + a,
                                         count * sizeof(int), cudaMemcpyHostToDevice, m.stream),
                         "upload");
        throwIfCudaError(cudaMemcpyAsync(m.dPoseAtom.data(), local.data(),
                                         count * sizeof(long long), cudaMemcpyHostToDevice,
                                         m.stream),
                         "upload");
        throwIfCudaError(cudaMemcpyAsync(m.dCoords.data(), coords[atom0].data(),
                                         static_cast<size_t>(atoms) * 3 * sizeof(double),
                                         cudaMemcpyHostToDevice, m.stream),
                         "upload");
        throwIfCudaError(cudaEventRecord(m.start, m.stream), "event");
        launchPairKernel(mode, m.rec, m.sc, lig, count, m.dPoseLigand.data(), m.dPoseAtom.data(),
                         m.dCoords.data(), m.dOut.data(), gradient ? m.dGradient.data() : nullptr,
                         m.stream);
        throwIfCudaError(cudaGetLastError(), "pair kernel launch");
        throwIfCudaError(cudaEventRecord(m.stop, m.stream), "event");
        throwIfCudaError(cudaMemcpyAsync(out.data() + a, m.dOut.data(),
                                         count * sizeof(PairPoseEnergy), cudaMemcpyDeviceToHost,
                                         m.stream),
                         "download");
        if (gradient)
            throwIfCudaError(cudaMemcpyAsync((*gradient)[atom0].data(), m.dGradient.data(),
                                             static_cast<size_t>(atoms) * 3 * sizeof(double),
                                             cudaMemcpyDeviceToHost, m.stream),
                             "download");
        throwIfCudaError(cudaStreamSynchronize(m.stream), "pair kernel");
        float ms = 0;
        throwIfCudaError(cudaEventElapsedTime(&ms, m.start, m.stop), "event timing");
        kernelSeconds_ += ms * 1e-3;
    }
    totalSeconds_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace pw::cuda
