#include "CudaMinimizer.h"

#include "MinimizeKernel.cuh"
#include "core/InputError.h"
#include "core/LigandKinematics.h"
#include "minimize/IntraSmoothing.h"
#include "score/VinaConstants.h"
#include "score/VinaTopology.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace pw::cuda {
namespace {

static_assert(static_cast<int>(GridInterpolation::Trilinear) == 0 &&
                  static_cast<int>(GridInterpolation::CatmullRom) == 1 &&
                  static_cast<int>(GridInterpolation::BSpline) == 2,
              "ScoringParamsGpu::interpolation codes");

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string("CUDA ") + what + ": " + cudaGetErrorString(e));
}

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Runs f(i) for i in [0, n) on `threads` workers in contiguous blocks.
template <class F> void parallelFor(long n, int threads, F&& f) {
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

// Unordered type pair -> row of the tabulated potential (i <= j, rows in order).
int tableRow(int a, int b) {
    if (a > b)
        std::swap(a, b);
    return a * kXsTypeCount - a * (a - 1) / 2 + (b - a);
}

// Structural identity of a prepared ligand: atoms (element, AD4 and XS type) and torsion tree.
// Poses of one ligand share it, so they share one template (64-bit FNV-1a).
std::uint64_t structureKey(const Molecule& m) {
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&](std::uint64_t v) {
        h ^= v;
        h *= 1099511628211ull;
    };
    mix(m.atoms.size());
    for (const Atom& a : m.atoms) {
        mix(static_cast<std::uint64_t>(a.element) * 131 + static_cast<int>(a.xs) + 7);
        for (char c : a.ad4Type)
            mix(static_cast<unsigned char>(c));
    }
    if (m.torsionTree)
        for (const TorsionNode& n : m.torsionTree->nodes) {
            mix(0xABCDull + n.parent * 7919 + n.axisParentAtom * 104729 + n.axisChildAtom);
            for (int a : n.atoms)
                mix(a);
        }
    return h;
}

struct HostTemplate {
    TemplateGpu gpu{};
    std::vector<int> atomOfSlot; // kinematic slot -> molecule atom index
    std::vector<char> heavy;     // per molecule atom
    double numTors = 0;
    std::vector<int> atoms; // packAtom per slot
    std::vector<NodeGpu> nodes;
    std::vector<PairGpu> pairs;
};

struct Slot {
    cudaStream_t stream = nullptr;
    cudaEvent_t done = nullptr;
    size_t poseCap = 0, coordCap = 0, torsionCap = 0;
    PoseInputGpu* hIn = nullptr;
    float3 *hStart = nullptr, *hFinal = nullptr;
    float* hTorsions = nullptr;
    PoseResultGpu* hResults = nullptr;
    PoseInputGpu* dIn = nullptr;
    float3 *dStart = nullptr, *dFinal = nullptr;
    float* dTorsions = nullptr;
    PoseResultGpu* dResults = nullptr;
    long first = 0, count = 0; // poses of the batch held now
    bool busy = false;
};

template <class T> void growHost(T*& p, size_t& cap, size_t want) {
    if (cap >= want)
        return;
    if (p)
        cudaFreeHost(p);
    check(cudaMallocHost(reinterpret_cast<void**>(&p), want * sizeof(T)), "pinned allocation");
}
template <class T> void growDevice(T*& p, size_t cap, size_t want) {
    if (cap >= want)
        return;
    if (p)
        cudaFree(p);
    check(cudaMalloc(reinterpret_cast<void**>(&p), want * sizeof(T)), "device allocation");
}

} // namespace

struct CudaMinimizer::Impl {
    int device = 0;
    Slot slots[2];
    // Receptor maps and scoring tables on the device (for gridKey).
    const ReceptorGrid* gridKey = nullptr;
    ScoringKind kindKey = ScoringKind::Vina;
    std::vector<float*> deviceMaps;
    float4* dPairParams = nullptr;
    float* dTable = nullptr;
    float2* dCutoffShift = nullptr;
    ScoringParamsGpu scoring{};
    Vec3 centre = Vec3::Zero(); // kernel coordinates = lab coordinates - centre
    // Templates of the current batch.
    TemplateGpu* dTemplates = nullptr;
    int* dAtoms = nullptr;
    NodeGpu* dNodes = nullptr;
    PairGpu* dPairs = nullptr;

    ~Impl() {
        cudaSetDevice(device);
        for (Slot& s : slots) {
            if (s.stream)
                cudaStreamSynchronize(s.stream);
            cudaFreeHost(s.hIn), cudaFreeHost(s.hStart), cudaFreeHost(s.hFinal);
            cudaFreeHost(s.hTorsions), cudaFreeHost(s.hResults);
            cudaFree(s.dIn), cudaFree(s.dStart), cudaFree(s.dFinal), cudaFree(s.dTorsions);
            cudaFree(s.dResults);
            if (s.done)
                cudaEventDestroy(s.done);
            if (s.stream)
                cudaStreamDestroy(s.stream);
        }
        for (float* m : deviceMaps)
            cudaFree(m);
        cudaFree(dPairParams), cudaFree(dTable), cudaFree(dTemplates), cudaFree(dAtoms);
        cudaFree(dCutoffShift);
        cudaFree(dNodes), cudaFree(dPairs);
    }

    void uploadTarget(const DockingTarget& target, int threads, double& seconds) {
        const ReceptorGrid& grid = *target.grid();
        if (gridKey == &grid && kindKey == target.scoring().kind())
            return;
        const double t0 = now();
        for (float* m : deviceMaps)
            cudaFree(m);
        deviceMaps.clear();
        const ScoringFunction& sf = target.scoring();
        const GridDims& dims = grid.dims();
        const int n[3] = {dims.voxels[0] + 1, dims.voxels[1] + 1, dims.voxels[2] + 1};
        const size_t points = static_cast<size_t>(n[0]) * n[1] * n[2];
        ScoringParamsGpu s{};
        std::vector<float> host(points);
        for (int t = 0; t < kXsTypeCount; ++t) {
            s.maps[t] = nullptr;
            if (!grid.hasMap(t))
                continue;
            // The maps are read back through the interpolator at the sample points (exact there).
            parallelFor(n[0], threads, [&](long x) {
                Vec3 g, og;
                double outside;
                for (int y = 0; y < n[1]; ++y)
                    for (int z = 0; z < n[2]; ++z) {
                        const Vec3 p = dims.begin + dims.spacing * Vec3(double(x), y, z);
                        host[(static_cast<size_t>(x) * n[1] + y) * n[2] + z] =
                            static_cast<float>(grid.interpolate(t, p, g, outside, og));
                    }
            });
            float* d = nullptr;
            check(cudaMalloc(reinterpret_cast<void**>(&d), points * sizeof(float)),
                  "map allocation");
            check(cudaMemcpy(d, host.data(), points * sizeof(float), cudaMemcpyHostToDevice),
                  "map upload");
            deviceMaps.push_back(d);
            s.maps[t] = d;
        }
        s.nx = n[0], s.ny = n[1], s.nz = n[2];
        // The kernel works in coordinates relative to the box centre: small magnitudes keep
        // float steps of 1e-4 A resolvable (absolute receptor coordinates reach 50-100 A).
        centre = target.box().center;
        const Vec3 b = dims.begin - centre;
        s.gridBegin = make_float3(float(b.x()), float(b.y()), float(b.z()));
        s.spacing = static_cast<float>(dims.spacing);
        s.invSpacing = static_cast<float>(1.0 / dims.spacing);

        const bool vina = sf.kind() == ScoringKind::Vina;
        s.cutoff2 = static_cast<float>(sf.cutoffSquared());
        s.curlV = static_cast<float>(vina::kCurlV);
        s.outSlope = static_cast<float>(vina::kOutOfBoxSlope);
        for (int k = 0; k < 5; ++k)
            s.w[k] = static_cast<float>(sf.weights()[k]);
        s.secondGauss = vina ? 1 : 0;
        s.g1Offset = float(vina ? vina::kVinaGauss1Offset : vina::kVinardoGaussOffset);
        s.g1InvWidth = float(1.0 / (vina ? vina::kVinaGauss1Width : vina::kVinardoGaussWidth));
        s.g2Offset = float(vina::kVinaGauss2Offset);
        s.g2InvWidth = float(1.0 / vina::kVinaGauss2Width);
        s.hydGood = float(vina ? vina::kVinaHydrophobicGood : vina::kVinardoHydrophobicGood);
        s.hydBad = float(vina ? vina::kVinaHydrophobicBad : vina::kVinardoHydrophobicBad);
        s.hbGood = float(vina ? vina::kVinaHbondGood : vina::kVinardoHbondGood);
        s.hbBad = float(vina ? vina::kVinaHbondBad : vina::kVinardoHbondBad);

        std::vector<float4> pp(kXsTypeCount * kXsTypeCount);
        for (int i = 0; i < kXsTypeCount; ++i)
            for (int j = 0; j < kXsTypeCount; ++j) {
                const auto a = static_cast<XsType>(i), b = static_cast<XsType>(j);
                const bool hyd = xsIsHydrophobic(a) && xsIsHydrophobic(b);
                const bool hb =
                    (xsIsDonor(a) && xsIsAcceptor(b)) || (xsIsDonor(b) && xsIsAcceptor(a));
                pp[i * kXsTypeCount + j] = make_float4(float(sf.radius(a) + sf.radius(b)),
                                                       hyd ? 1.f : 0.f, hb ? 1.f : 0.f, 0.f);
            }
        cudaFree(dPairParams);
        check(cudaMalloc(reinterpret_cast<void**>(&dPairParams), pp.size() * sizeof(float4)),
              "alloc");
        check(
            cudaMemcpy(dPairParams, pp.data(), pp.size() * sizeof(float4), cudaMemcpyHostToDevice),
            "pair upload");
        s.pairParams = dPairParams;

        // Per type pair: the intra potential at the cutoff (IntraSmoothing's force shift).
        std::vector<float2> shift(kXsTypeCount * kXsTypeCount);
        for (int i = 0; i < kXsTypeCount; ++i)
            for (int j = 0; j < kXsTypeCount; ++j) {
                double value, slope;
                IntraSmoothing::cutoffShift(sf, i, j, value, slope);
                shift[i * kXsTypeCount + j] = make_float2(float(value), float(slope));
            }
        cudaFree(dCutoffShift);
        check(cudaMalloc(reinterpret_cast<void**>(&dCutoffShift), shift.size() * sizeof(float2)),
              "alloc");
        check(cudaMemcpy(dCutoffShift, shift.data(), shift.size() * sizeof(float2),
                         cudaMemcpyHostToDevice),
              "shift upload");
        s.cutoffShift = dCutoffShift;

        // Vina's tabulated potential, bin by bin, read back through ScoringFunction.
        s.tableFactor = static_cast<float>(ScoringFunction::kTableSamplesPerA2);
        s.tableSize =
            static_cast<int>(ScoringFunction::kTableSamplesPerA2 * sf.cutoffSquared()) + 3;
        const int rows = kXsTypeCount * (kXsTypeCount + 1) / 2;
        std::vector<float> table(static_cast<size_t>(rows) * s.tableSize, 0.0f);
        for (int i = 0; i < kXsTypeCount; ++i)
            for (int j = i; j < kXsTypeCount; ++j)
                for (int k = 0; k < s.tableSize - 1; ++k) {
                    const double r2 = (k + 0.5) / ScoringFunction::kTableSamplesPerA2;
                    if (r2 < sf.cutoffSquared())
                        table[static_cast<size_t>(tableRow(i, j)) * s.tableSize + k] =
                            static_cast<float>(sf.tabulatedEnergy(i, j, r2));
                }
        cudaFree(dTable);
        check(cudaMalloc(reinterpret_cast<void**>(&dTable), table.size() * sizeof(float)), "alloc");
        check(
            cudaMemcpy(dTable, table.data(), table.size() * sizeof(float), cudaMemcpyHostToDevice),
            "table upload");
        s.table = dTable;
        scoring = s;
        gridKey = &grid;
        kindKey = sf.kind();
        seconds = now() - t0;
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

namespace {

HostTemplate buildTemplate(const Molecule& mol, const DockingTarget& target,
                           const MinimizeBatchOptions& options) {
    LigandKinematics check(mol); // validates the tree (InputError naming the file)
    (void)check;
    const VinaLigandTopology topo = buildVinaLigandTopology(mol);
    TorsionTree rigid;
    const TorsionTree* tree = mol.torsionTree ? &*mol.torsionTree : nullptr;
    if (!tree) {
        rigid.nodes.resize(1);
        for (size_t i = 0; i < mol.atoms.size(); ++i)
            rigid.nodes[0].atoms.push_back(static_cast<int>(i));
        tree = &rigid;
    }
    const std::string where = mol.sourceFile.empty() ? mol.name : mol.sourceFile;
    const int atoms = static_cast<int>(mol.atoms.size());
    const int nodes = static_cast<int>(tree->nodes.size());
    if (atoms > kMaxTemplateAtoms || nodes > kMaxTemplateNodes)
        throw InputError(where, static_cast<int>(mol.sourceRecord),
                         "ligand '" + mol.name + "' has " + std::to_string(atoms) + " atoms and " +
                             std::to_string(nodes - 1) +
                             " torsions; the CUDA minimizer takes at most " +
                             std::to_string(kMaxTemplateAtoms) + " atoms and " +
                             std::to_string(kMaxTemplateNodes - 1) + " torsions");
    HostTemplate h;
    const std::vector<int> order = tree->topologicalOrder();
    std::vector<int> internal(nodes), slotOfAtom(atoms, -1);
    for (int k = 0; k < nodes; ++k)
        internal[order[k]] = k;
    std::vector<NodeGpu> nodeList(nodes);
    std::vector<int> atomInfo;
    for (int k = 0; k < nodes; ++k) {
        const TorsionNode& n = tree->nodes[order[k]];
        NodeGpu& g = nodeList[k];
        g.atomBegin = static_cast<int>(h.atomOfSlot.size());
        for (int a : n.atoms) {
            slotOfAtom[a] = static_cast<int>(h.atomOfSlot.size());
            h.atomOfSlot.push_back(a);
            const int type = static_cast<int>(topo.types[a]);
            if (type >= 0 && !target.grid()->hasMap(type))
                throw InputError(where, static_cast<int>(mol.sourceRecord),
                                 "the receptor grid has no map for XS type " +
                                     std::string(xsTypeName(topo.types[a])) +
                                     " (expected DockingTarget::gridFor with the ligand's types)");
            atomInfo.push_back(packAtom(k, type));
        }
        g.atomEnd = static_cast<int>(h.atomOfSlot.size());
        g.parent = k == 0 ? -1 : internal[n.parent];
        g.torsion = k == 0 ? -1 : order[k] - 1;
    }
    for (int k = 0; k < nodes; ++k) {
        const TorsionNode& n = tree->nodes[order[k]];
        nodeList[k].originAtom = k == 0 ? slotOfAtom[n.atoms.front()] : slotOfAtom[n.axisChildAtom];
        nodeList[k].axisParentAtom = k == 0 ? -1 : slotOfAtom[n.axisParentAtom];
    }
    std::vector<PairGpu> pairs;
    for (const auto& [i, j] : topo.intraPairs) {
        const int ti = static_cast<int>(topo.types[i]), tj = static_cast<int>(topo.types[j]);
        pairs.push_back({static_cast<std::uint16_t>(slotOfAtom[i]),
                         static_cast<std::uint16_t>(slotOfAtom[j]),
                         static_cast<std::uint16_t>(ti * kXsTypeCount + tj),
                         static_cast<std::uint16_t>(tableRow(ti, tj))});
    }
    h.heavy.resize(atoms);
    for (int a = 0; a < atoms; ++a)
        h.heavy[a] = mol.atoms[a].element != 1;
    h.numTors = topo.numTors;
    h.atoms = std::move(atomInfo);
    h.nodes = std::move(nodeList);
    h.pairs = std::move(pairs);
    h.gpu.atomCount = atoms;
    h.gpu.nodeCount = nodes;
    h.gpu.pairCount = static_cast<int>(h.pairs.size());
    h.gpu.maxSteps = options.refinement.vinaSteps ? vinaLocalOnlySteps(vinaMovableAtoms(mol))
                                                  : options.refinement.minimize.maxIterations;
    h.gpu.affinityDivisor = static_cast<float>(1.0 + target.scoring().weightRot() * topo.numTors);
    return h;
}

VinaScore reported(double inter, double intra, double numTors, double divisor) {
    VinaScore s;
    s.inter = inter;
    s.intra = intra;
    s.unbound = intra; // Vina --local_only: the pose's own intra energy
    s.numTors = numTors;
    s.terms.inter = inter;
    s.terms.intra = intra;
    const double e = s.inter + s.intra - s.unbound;
    s.affinity = std::abs(e) < 2.2e-16 ? 0.0 : e / divisor;
    s.torsional = s.affinity - e;
    return s;
}

} // namespace

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
    im.uploadTarget(target, threads, timing_.gridUpload);
    const long total = static_cast<long>(ligands.size());
    results.assign(total, {});

    // Templates: one per distinct structure.
    std::vector<std::uint64_t> keys(total);
    parallelFor(total, threads, [&](long i) { keys[i] = structureKey(ligands[i]); });
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
    auto upload = [&](auto*& d, const auto& v) {
        using T = std::decay_t<decltype(v[0])>;
        cudaFree(d);
        d = nullptr;
        const size_t n = std::max<size_t>(1, v.size());
        check(cudaMalloc(reinterpret_cast<void**>(&d), n * sizeof(T)), "template allocation");
        if (!v.empty())
            check(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice),
                  "template upload");
    };
    // The interpolation is per batch (it is not part of the uploaded maps).
    im.scoring.interpolation = static_cast<int>(options.refinement.gridInterpolation);
    im.scoring.rampHalfWidth = static_cast<float>(options.refinement.rampSmoothing);
    im.scoring.shiftCutoff = options.refinement.intraCutoffShift ? 1 : 0;
    upload(im.dTemplates, tg);
    upload(im.dAtoms, atoms);
    upload(im.dNodes, nodes);
    upload(im.dPairs, pairs);

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

    const int maxTorsions = maxNodes - 1;
    const long chunk = std::max(1, chunk_);
    double gpuWait = 0, packTime = 0, unpackTime = 0;
    std::atomic<long> doneCount{0};

    auto unpack = [&](Slot& s) {
        const double u0 = now();
        parallelFor(s.count, threads, [&](long k) {
            const long i = s.first + k;
            const HostTemplate& h = templates[templateOf[i]];
            const PoseInputGpu& in = s.hIn[k];
            const PoseResultGpu& g = s.hResults[k];
            RefinementResult& r = results[i];
            const Molecule& mol = ligands[i];
            r.coordinates.resize(mol.atoms.size());
            double sum = 0;
            int heavy = 0;
            for (size_t slot = 0; slot < h.atomOfSlot.size(); ++slot) {
                const int a = h.atomOfSlot[slot];
                const float3 c = s.hFinal[in.coordOffset + slot];
                r.coordinates[a] = Vec3(c.x, c.y, c.z) + im.centre;
                if (h.heavy[a]) {
                    sum += (r.coordinates[a] - mol.atoms[a].position).squaredNorm();
                    ++heavy;
                }
            }
            r.rmsdFromStart = heavy ? std::sqrt(sum / heavy) : 0.0;
            r.pose.position = Vec3(g.position[0], g.position[1], g.position[2]) + im.centre;
            r.pose.orientation =
                Quaternion(g.orientation[0], g.orientation[1], g.orientation[2], g.orientation[3]);
            r.pose.torsions.resize(h.gpu.nodeCount - 1);
            for (int t = 0; t < h.gpu.nodeCount - 1; ++t)
                r.pose.torsions[t] = s.hTorsions[in.torsionOffset + t];
            r.start = reported(g.startInter, g.startIntra, h.numTors, h.gpu.affinityDivisor);
            r.score = reported(g.inter, g.intra, h.numTors, h.gpu.affinityDivisor);
            r.energy = g.energy;
            r.iterations = g.iterations;
            r.evaluations = g.evaluations;
            r.reason = static_cast<StopReason>(g.reason);
        });
        unpackTime += now() - u0;
        const long d = doneCount += s.count;
        if (progress && progress->onProgress)
            progress->onProgress(d, total);
        s.busy = false;
    };
    auto finish = [&](Slot& s) {
        if (!s.busy)
            return;
        const double w0 = now();
        check(cudaEventSynchronize(s.done), "minimization");
        gpuWait += now() - w0;
        unpack(s);
    };

    int which = 0;
    for (long first = 0; first < total; first += chunk) {
        if (progress && progress->cancelled())
            break;
        Slot& s = im.slots[which];
        which ^= 1;
        finish(s); // the chunk that used this slot two rounds ago
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
        size_t poseCap = s.poseCap, coordCap = s.coordCap, torsionCap = s.torsionCap;
        growHost(s.hIn, poseCap, count);
        growHost(s.hResults, poseCap, count);
        growHost(s.hStart, coordCap, coords);
        growHost(s.hFinal, coordCap, coords);
        growHost(s.hTorsions, torsionCap, std::max<size_t>(1, tors));
        growDevice(s.dIn, s.poseCap, count);
        growDevice(s.dResults, s.poseCap, count);
        growDevice(s.dStart, s.coordCap, coords);
        growDevice(s.dFinal, s.coordCap, coords);
        growDevice(s.dTorsions, s.torsionCap, std::max<size_t>(1, tors));
        s.poseCap = std::max<size_t>(s.poseCap, count);
        s.coordCap = std::max(s.coordCap, coords);
        s.torsionCap = std::max(s.torsionCap, std::max<size_t>(1, tors));
        parallelFor(count, threads, [&](long k) {
            const long i = first + k;
            const HostTemplate& h = templates[templateOf[i]];
            s.hIn[k] = {templateOf[i], offsets[k].first, offsets[k].second};
            const Molecule& mol = ligands[i];
            float3* out = s.hStart + offsets[k].first;
            for (size_t slot = 0; slot < h.atomOfSlot.size(); ++slot) {
                const Vec3 p = mol.atoms[h.atomOfSlot[slot]].position - im.centre;
                out[slot] = make_float3(float(p.x()), float(p.y()), float(p.z()));
            }
        });
        packTime += now() - p0;
        s.first = first;
        s.count = count;
        check(cudaMemcpyAsync(s.dIn, s.hIn, count * sizeof(PoseInputGpu), cudaMemcpyHostToDevice,
                              s.stream),
              "upload");
        check(cudaMemcpyAsync(s.dStart, s.hStart, coords * sizeof(float3), cudaMemcpyHostToDevice,
                              s.stream),
              "upload");
        BatchGpu b{};
        b.templates = im.dTemplates, b.atoms = im.dAtoms, b.nodes = im.dNodes, b.pairs = im.dPairs;
        b.poses = s.dIn, b.poseCount = static_cast<int>(count);
        b.start = s.dStart, b.final = s.dFinal, b.torsions = s.dTorsions, b.results = s.dResults;
        b.maxAtoms = maxAtoms, b.maxNodes = maxNodes, b.maxTorsions = maxTorsions;
        check(launchMinimize(b, im.scoring, sp, reduction_, warpsPerBlock_, s.stream), "launch");
        check(cudaMemcpyAsync(s.hResults, s.dResults, count * sizeof(PoseResultGpu),
                              cudaMemcpyDeviceToHost, s.stream),
              "download");
        check(cudaMemcpyAsync(s.hFinal, s.dFinal, coords * sizeof(float3), cudaMemcpyDeviceToHost,
                              s.stream),
              "download");
        if (tors)
            check(cudaMemcpyAsync(s.hTorsions, s.dTorsions, tors * sizeof(float),
                                  cudaMemcpyDeviceToHost, s.stream),
                  "download");
        check(cudaEventRecord(s.done, s.stream), "event");
        s.busy = true;
    }
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
