// LingoGpu: host side of the CUDA LINGO searches: uploads, chunking of query rows so that any
// database size fits (one chunk buffer of at most 1 GiB), kernel launches, selection, timing.
#include "DeviceMemory.h"
#include "LingoCuda.h"
#include "LingoKernels.cuh"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

namespace pw::lingo::gpu {
namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string("CUDA error in ") + what + ": " +
                                 cudaGetErrorString(e));
}
#define PW_CUDA(call) check((call), #call)

template <typename T> class DevBuf {
public:
    DevBuf() = default;
    ~DevBuf() { reset(); }
    DevBuf(const DevBuf&) = delete;
    DevBuf& operator=(const DevBuf&) = delete;
    void reset() {
        if (p_)
            cudaFree(p_);
        p_ = nullptr;
        n_ = 0;
    }
    void alloc(size_t n) {
        if (n <= n_ && p_)
            return;
        reset();
        pw::cuda::allocateDevice(reinterpret_cast<void**>(&p_), std::max<size_t>(n, 1) * sizeof(T));
        n_ = n;
    }
    void upload(const std::vector<T>& v) {
        alloc(v.size());
        if (!v.empty())
            PW_CUDA(cudaMemcpy(p_, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    }
    std::vector<T> download(size_t n) const {
        std::vector<T> v(n);
        if (n)
            PW_CUDA(cudaMemcpy(v.data(), p_, n * sizeof(T), cudaMemcpyDeviceToHost));
        return v;
    }
    T* get() const { return p_; }

private:
    T* p_ = nullptr;
    size_t n_ = 0;
};

struct DevSetBufs {
    DevBuf<uint32_t> offsets, lingos, counts, sizes;
    void upload(const LingoSet& s) {
        offsets.upload(s.offsets);
        lingos.upload(s.lingos);
        counts.upload(s.counts);
        sizes.upload(s.sizes);
    }
    kernels::DevSet view() const {
        return {offsets.get(), lingos.get(), counts.get(), sizes.get()};
    }
};

constexpr size_t kChunkBytes = size_t(1) << 30; // matrix rows held at once in searches
constexpr int kMaxGpuTopK = 128;

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

DeviceStatus probeDevice(int device) {
    DeviceStatus st;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        st.why = std::string("no usable CUDA driver/device (") + cudaGetErrorString(e) + ")";
        return st;
    }
    if (device < 0 || device >= count) {
        st.why = "CUDA device " + std::to_string(device) + " does not exist (" +
                 std::to_string(count) + " found)";
        return st;
    }
    cudaDeviceProp p{};
    if ((e = cudaGetDeviceProperties(&p, device)) != cudaSuccess ||
        (e = cudaSetDevice(device)) != cudaSuccess) {
        st.why = std::string("CUDA device unusable (") + cudaGetErrorString(e) + ")";
        return st;
    }
    cudaFuncAttributes attr{};
    if ((e = cudaFuncGetAttributes(&attr, kernels::itemProductKernel)) != cudaSuccess) {
        st.why = std::string("no kernel image for ") + p.name + " (sm_" +
                 std::to_string(p.major * 10 + p.minor) + "): " + cudaGetErrorString(e);
        return st;
    }
    st.usable = true;
    st.name = std::string(p.name) + " (cuda:" + std::to_string(device) + ", sm_" +
              std::to_string(p.major * 10 + p.minor) + ")";
    return st;
}

struct LingoGpu::Impl {
    int device = 0;
    Kernel kernel = Kernel::TensorCore;
    bool same = false;
    size_t nQ = 0, nDb = 0;
    uint32_t maxQDistinct = 0;
    std::string name;
    GpuStats stats;
    LingoItems items;
    DevSetBufs q, db;
    DevBuf<uint8_t> denseQ, denseDb;
    DevBuf<uint32_t> tailQMols, tailDbMols;
    DevBuf<uint32_t> lingosT, countsT, dbDistinct;
    size_t nDbPad = 0;
    DevBuf<float> matrix;
    size_t matrixRows = 0;
    // per-launch work lists
    DevBuf<int2> tiles;
    DevBuf<uint64_t> prefix;
    DevBuf<uint32_t> wQStart, wDbStart, wDbCount;
    cudaEvent_t start{}, mid{}, stop{};

    kernels::DevSet dbView() const { return same ? q.view() : db.view(); }

    // Everything a launch over rows [r0, r1) needs, uploaded before the timed region.
    struct Plan {
        size_t r0, r1;
        int nTiles = 0;
        bool mirror = false;
        uint64_t tailPairs = 0;
        int nWork = 0;
    };

    Plan prepare(size_t r0, size_t r1, bool symmetric) {
        Plan p{r0, r1};
        if (kernel != Kernel::TensorCore)
            return p;
        std::vector<int2> list;
        const int tm0 = int(r0 / kernels::kTile),
                  tm1 = int((r1 + kernels::kTile - 1) / kernels::kTile);
        const int tn1 = int((nDb + kernels::kTile - 1) / kernels::kTile);
        p.mirror = symmetric;
        for (int tm = tm0; tm < tm1; ++tm)
            for (int tn = symmetric ? tm : 0; tn < tn1; ++tn)
                list.push_back(make_int2(tm, tn));
        tiles.upload(list);
        p.nTiles = int(list.size());
        const TailWork w = tailWork(items, r0, r1);
        prefix.upload(w.prefix);
        wQStart.upload(w.qStart);
        wDbStart.upload(w.dbStart);
        wDbCount.upload(w.dbCount);
        p.tailPairs = w.pairs();
        p.nWork = int(w.qStart.size());
        return p;
    }

    void launch(const Plan& p, float* out, long ld) {
        if (kernel == Kernel::TensorCore) {
            if (p.nTiles > 0)
                kernels::itemProductKernel<<<p.nTiles, kernels::kThreads, kernels::kMmaSmem>>>(
                    denseQ.get(), same ? denseQ.get() : denseDb.get(), int(items.denseWidth),
                    tiles.get(), q.sizes.get(), dbView().sizes, long(p.r0), long(p.r1), long(nDb),
                    out, ld, p.mirror ? 1 : 0);
            PW_CUDA(cudaEventRecord(mid));
            if (p.tailPairs > 0) {
                const unsigned blocks = unsigned((p.tailPairs + 255) / 256);
                kernels::tailFixKernel<<<blocks, 256>>>(
                    p.tailPairs, p.nWork, prefix.get(), wQStart.get(), wDbStart.get(),
                    wDbCount.get(), tailQMols.get(), same ? tailQMols.get() : tailDbMols.get(),
                    q.view(), dbView(), long(p.r0), out, ld);
            }
        } else {
            const dim3 grid(unsigned((nDb + 255) / 256), unsigned(p.r1 - p.r0));
            kernels::mergePairsKernel<<<grid, 256, 2 * maxQDistinct * sizeof(uint32_t)>>>(
                q.view(), lingosT.get(), countsT.get(), dbDistinct.get(), dbView().sizes, long(nDb),
                long(nDbPad), long(p.r0), out, ld);
        }
        PW_CUDA(cudaGetLastError());
    }

    size_t chunkRows() const {
        size_t rows = kChunkBytes / sizeof(float) / std::max<size_t>(nDb, 1);
        rows = std::max<size_t>(kernels::kTile, rows / kernels::kTile * kernels::kTile);
        return std::min<size_t>(rows, 65535 / kernels::kTile * kernels::kTile);
    }

    // Computes rows [r0, r1) (r1 - r0 <= chunkRows()) into the chunk buffer; returns seconds.
    double computeChunk(size_t r0, size_t r1) {
        matrix.alloc((r1 - r0) * nDb);
        matrixRows = 0; // the buffer no longer holds a full matrix
        const Plan p = prepare(r0, r1, false);
        PW_CUDA(cudaEventRecord(start));
        launch(p, matrix.get(), long(nDb));
        PW_CUDA(cudaEventRecord(stop));
        PW_CUDA(cudaEventSynchronize(stop));
        float ms = 0;
        PW_CUDA(cudaEventElapsedTime(&ms, start, stop));
        return ms * 1e-3;
    }
};

LingoGpu::LingoGpu(const LingoSet& queries, const LingoSet& database, bool sameSet, int device,
                   Kernel kernel, const ItemizeOptions& itemOptions)
    : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    const double t0 = now();
    const DeviceStatus st = probeDevice(device);
    if (!st.usable)
        throw std::runtime_error(st.why);
    m.device = device;
    m.name = st.name;
    m.kernel = kernel;
    m.same = sameSet;
    m.nQ = queries.size();
    m.nDb = database.size();
    m.maxQDistinct = std::max(1u, queries.maxDistinct());
    PW_CUDA(cudaSetDevice(device));
    PW_CUDA(cudaEventCreate(&m.start));
    PW_CUDA(cudaEventCreate(&m.stop));
    PW_CUDA(cudaEventCreate(&m.mid));
    PW_CUDA(cudaFuncSetAttribute(kernels::itemProductKernel,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, kernels::kMmaSmem));
    m.q.upload(queries);
    if (!sameSet)
        m.db.upload(database);
    if (kernel == Kernel::TensorCore) {
        m.items = itemize(queries, database, sameSet, itemOptions);
        m.denseQ.upload(m.items.denseQ);
        if (!sameSet)
            m.denseDb.upload(m.items.denseDb);
        m.tailQMols.upload(m.items.tailQMols);
        if (!sameSet)
            m.tailDbMols.upload(m.items.tailDbMols);
        // The dense arrays are on the device now; the host keeps only the postings.
        std::vector<uint8_t>().swap(m.items.denseQ);
        std::vector<uint8_t>().swap(m.items.denseDb);
        m.stats.denseWidth = m.items.denseWidth;
        m.stats.totalItems = m.items.totalItems;
        m.stats.tailPairs = m.items.tailPairs;
    } else {
        const size_t smem = 2 * size_t(m.maxQDistinct) * sizeof(uint32_t);
        if (smem > 200 * 1024)
            throw std::runtime_error("a query has too many distinct LINGOs for the merge kernel");
        PW_CUDA(cudaFuncSetAttribute(kernels::mergePairsKernel,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
        const uint32_t maxLen = std::max(1u, database.maxDistinct());
        m.nDbPad = (m.nDb + 31) / 32 * 32;
        std::vector<uint32_t> lt(size_t(maxLen) * m.nDbPad, 0xffffffffu), ct(lt.size(), 0),
            nd(m.nDb);
        for (size_t d = 0; d < m.nDb; ++d) {
            nd[d] = database.distinct(d);
            for (uint32_t j = 0; j < nd[d]; ++j) {
                lt[size_t(j) * m.nDbPad + d] = database.lingos[database.offsets[d] + j];
                ct[size_t(j) * m.nDbPad + d] = database.counts[database.offsets[d] + j];
            }
        }
        m.lingosT.upload(lt);
        m.countsT.upload(ct);
        m.dbDistinct.upload(nd);
    }
    PW_CUDA(cudaDeviceSynchronize());
    m.stats.uploadSeconds = now() - t0;
}

LingoGpu::~LingoGpu() {
    if (impl_) {
        cudaEventDestroy(impl_->start);
        cudaEventDestroy(impl_->stop);
        cudaEventDestroy(impl_->mid);
    }
}

const GpuStats& LingoGpu::stats() const {
    return impl_->stats;
}
std::string LingoGpu::deviceName() const {
    return impl_->name;
}

void LingoGpu::similarityRows(size_t r0, size_t r1, float* out) {
    Impl& m = *impl_;
    const size_t step = m.chunkRows();
    for (size_t a = r0; a < r1; a += step) {
        const size_t b = std::min(r1, a + step);
        m.stats.kernelSeconds = m.computeChunk(a, b);
        PW_CUDA(cudaMemcpy(out + (a - r0) * m.nDb, m.matrix.get(), (b - a) * m.nDb * sizeof(float),
                           cudaMemcpyDeviceToHost));
    }
}

double LingoGpu::computeFullMatrix() {
    Impl& m = *impl_;
    m.matrix.alloc(m.nQ * m.nDb);
    const Impl::Plan p = m.prepare(0, m.nQ, m.same);
    PW_CUDA(cudaEventRecord(m.start));
    m.launch(p, m.matrix.get(), long(m.nDb));
    PW_CUDA(cudaEventRecord(m.stop));
    PW_CUDA(cudaEventSynchronize(m.stop));
    float ms = 0;
    PW_CUDA(cudaEventElapsedTime(&ms, m.start, m.stop));
    m.matrixRows = m.nQ;
    m.stats.kernelSeconds = ms * 1e-3;
    if (m.kernel == Kernel::TensorCore) {
        PW_CUDA(cudaEventElapsedTime(&ms, m.start, m.mid));
        m.stats.denseSeconds = ms * 1e-3;
        PW_CUDA(cudaEventElapsedTime(&ms, m.mid, m.stop));
        m.stats.tailSeconds = ms * 1e-3;
    }
    return m.stats.kernelSeconds;
}

float LingoGpu::fullMatrixAt(size_t i, size_t j) const {
    const Impl& m = *impl_;
    if (m.matrixRows != m.nQ || i >= m.nQ || j >= m.nDb)
        throw std::runtime_error("no full matrix on the GPU (call computeFullMatrix first)");
    float v = 0;
    PW_CUDA(cudaMemcpy(&v, m.matrix.get() + i * m.nDb + j, sizeof(float), cudaMemcpyDeviceToHost));
    return v;
}

HitLists LingoGpu::search(const SearchOptions& o) {
    Impl& m = *impl_;
    HitLists result(m.nQ);
    const size_t step = m.chunkRows();
    const int k = std::max(0, o.topK);
    DevBuf<uint32_t> idx;
    DevBuf<float> val;
    DevBuf<int> cnt;
    DevBuf<unsigned long long> counts, offsets;
    double kernelSeconds = 0;
    for (size_t r0 = 0; r0 < m.nQ; r0 += step) {
        const size_t r1 = std::min(m.nQ, r0 + step);
        const int rows = int(r1 - r0);
        kernelSeconds += m.computeChunk(r0, r1);
        const unsigned blocks = unsigned((size_t(rows) * 32 + 255) / 256);
        if (k > 0 && k <= kMaxGpuTopK) {
            idx.alloc(size_t(rows) * k);
            val.alloc(size_t(rows) * k);
            cnt.alloc(rows);
            if (k <= 16)
                kernels::topKKernel<16><<<blocks, 256>>>(m.matrix.get(), long(m.nDb), rows,
                                                         long(m.nDb), k, o.threshold, o.excludeSelf,
                                                         long(r0), idx.get(), val.get(), cnt.get());
            else
                kernels::topKKernel<kMaxGpuTopK><<<blocks, 256>>>(
                    m.matrix.get(), long(m.nDb), rows, long(m.nDb), k, o.threshold, o.excludeSelf,
                    long(r0), idx.get(), val.get(), cnt.get());
            PW_CUDA(cudaGetLastError());
            const auto hi = idx.download(size_t(rows) * k);
            const auto hv = val.download(size_t(rows) * k);
            const auto hc = cnt.download(rows);
            for (int r = 0; r < rows; ++r)
                for (int h = 0; h < hc[r]; ++h)
                    result[r0 + r].push_back({hi[size_t(r) * k + h], hv[size_t(r) * k + h]});
        } else if (k > 0) { // rare large k: select on the host from the chunk
            std::vector<float> rowsHost(size_t(rows) * m.nDb);
            PW_CUDA(cudaMemcpy(rowsHost.data(), m.matrix.get(), rowsHost.size() * sizeof(float),
                               cudaMemcpyDeviceToHost));
            for (int r = 0; r < rows; ++r)
                selectHits(rowsHost.data() + size_t(r) * m.nDb, m.nDb, r0 + r, o, result[r0 + r]);
        } else {
            counts.alloc(rows);
            offsets.alloc(rows);
            kernels::thresholdKernel<<<blocks, 256>>>(
                m.matrix.get(), long(m.nDb), rows, long(m.nDb), o.threshold, o.excludeSelf,
                long(r0), 0, counts.get(), nullptr, nullptr, nullptr);
            PW_CUDA(cudaGetLastError());
            const auto hc = counts.download(rows);
            std::vector<unsigned long long> off(rows + 1, 0);
            for (int r = 0; r < rows; ++r)
                off[r + 1] = off[r] + hc[r];
            offsets.upload(std::vector<unsigned long long>(off.begin(), off.end() - 1));
            idx.alloc(off[rows]);
            val.alloc(off[rows]);
            kernels::thresholdKernel<<<blocks, 256>>>(
                m.matrix.get(), long(m.nDb), rows, long(m.nDb), o.threshold, o.excludeSelf,
                long(r0), 1, counts.get(), offsets.get(), idx.get(), val.get());
            PW_CUDA(cudaGetLastError());
            const auto hi = idx.download(off[rows]);
            const auto hv = val.download(off[rows]);
            for (int r = 0; r < rows; ++r) {
                auto& list = result[r0 + r];
                for (auto h = off[r]; h < off[r + 1]; ++h)
                    list.push_back({hi[h], hv[h]});
                std::sort(list.begin(), list.end(), betterHit);
            }
        }
    }
    m.stats.kernelSeconds = kernelSeconds;
    return result;
}

} // namespace pw::lingo::gpu
