// CUDA LINGO against the CPU reference: identical similarities on every pair of the NCI 5k set
// (tensor-core and SIML-style kernels, all-vs-all and query-vs-database), identical hits.
#include "GpuTestMain.h"
#include "chem/LingoSmiles.h"
#include "cuda/LingoCuda.h"
#include "lingo/LingoSearch.h"

#include <QtTest>

using namespace pw;
using namespace pw::lingo;

namespace {

long countMismatches(const LingoSet& q, const LingoSet& db, size_t r0, size_t r1,
                     const std::vector<float>& gpuRows) {
    std::vector<float> cpu((r1 - r0) * db.size());
    similarityRows(q, db, r0, r1, cpu.data());
    long bad = 0;
    for (size_t i = 0; i < cpu.size(); ++i)
        bad += cpu[i] != gpuRows[i];
    return bad;
}

void compareHits(const HitLists& a, const HitLists& b) {
    QCOMPARE(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].size(), b[i].size());
        for (size_t h = 0; h < a[i].size(); ++h) {
            QCOMPARE(a[i][h].index, b[i][h].index);
            QCOMPARE(a[i][h].similarity, b[i][h].similarity);
        }
    }
}

} // namespace

class TestLingoCuda : public QObject {
    Q_OBJECT
    LingoSet nci_;
    LingoSet queries_; // every 7th molecule: a query set that differs from the database

private slots:
    void initTestCase() {
        // The shared data is part of every checkout: a missing file is a broken set-up, not a
        // reason to pass. On a machine where ../shared is elsewhere (the lent GPU machine), the
        // environment variable POSEWRIGHT_SHARED_DATA names the folder that holds smiles/.
        const QByteArray override = qgetenv("POSEWRIGHT_SHARED_DATA");
        const std::string dir =
            override.isEmpty() ? std::string(POSEWRIGHT_SHARED_DATA) : override.toStdString();
        const std::string path = dir + "/smiles/nci_first_5k.smi";
        QVERIFY2(QFile::exists(QString::fromStdString(path)),
                 qPrintable(QString::fromStdString(path + " is missing (set POSEWRIGHT_SHARED_DATA "
                                                          "to the folder that holds smiles/)")));
        LingoMolecules m = readLingoSmiles(path);
        QVERIFY(m.canonical.size() > 4900);
        if (pw::test::smallProblems()) // the first 1000: 1e6 pairs instead of 2.5e7
            m.canonical.resize(1000);
        nci_ = LingoSet::fromCanonicalSmiles(m.canonical);
        std::vector<std::string> q;
        for (size_t i = 0; i < m.canonical.size(); i += 7)
            q.push_back(m.canonical[i]);
        queries_ = LingoSet::fromCanonicalSmiles(q);
        QVERIFY(gpu::probeDevice(0).usable);
    }

    void allPairsIdentical_data() {
        QTest::addColumn<int>("kernel");
        QTest::newRow("tensorcore") << int(gpu::Kernel::TensorCore);
        QTest::newRow("merge") << int(gpu::Kernel::Merge);
    }
    void allPairsIdentical() {
        QFETCH(int, kernel);
        gpu::LingoGpu g(nci_, nci_, true, 0, gpu::Kernel(kernel));
        const size_t n = nci_.size();
        // Full matrix left on the GPU (symmetric tiles), copied through similarityRows...
        g.computeFullMatrix();
        QCOMPARE(g.fullMatrixAt(3, 3), 1.0f);
        QCOMPARE(g.fullMatrixAt(10, n - 1), similarity(nci_, 10, nci_, n - 1));
        std::vector<float> rows(n * n);
        g.similarityRows(0, n, rows.data());
        QCOMPARE(countMismatches(nci_, nci_, 0, n, rows), 0L);
        // ...and a block that starts mid-tile (rows 1000-1332; 334-666 of the small set).
        const size_t r0 = n > 2000 ? 1000 : n / 3 + 1, r1 = r0 + std::min<size_t>(333, n / 3);
        std::vector<float> part((r1 - r0) * n);
        g.similarityRows(r0, r1, part.data());
        QCOMPARE(countMismatches(nci_, nci_, r0, r1, part), 0L);
        if (kernel == int(gpu::Kernel::TensorCore))
            qInfo("dense width %u of %u items, tail pairs %llu", g.stats().denseWidth,
                  g.stats().totalItems, (unsigned long long)g.stats().tailPairs);
    }

    void queryVsDatabaseIdentical() {
        for (auto kernel : {gpu::Kernel::TensorCore, gpu::Kernel::Merge}) {
            gpu::LingoGpu g(queries_, nci_, false, 0, kernel);
            std::vector<float> rows(queries_.size() * nci_.size());
            g.similarityRows(0, queries_.size(), rows.data());
            QCOMPARE(countMismatches(queries_, nci_, 0, queries_.size(), rows), 0L);
        }
    }

    void hitsIdentical() {
        gpu::LingoGpu all(nci_, nci_, true, 0);
        for (int k : {1, 10, 50, 300}) {
            SearchOptions o;
            o.topK = k;
            o.excludeSelf = true;
            compareHits(all.search(o), search(nci_, nci_, o));
        }
        SearchOptions t;
        t.topK = 0;
        t.threshold = 0.6f;
        const HitLists th = all.search(t);
        compareHits(th, search(nci_, nci_, t));
        size_t total = 0;
        for (const auto& h : th)
            total += h.size();
        QVERIFY(total > nci_.size()); // self hits plus real neighbours
        gpu::LingoGpu qd(queries_, nci_, false, 0);
        SearchOptions o;
        o.topK = 5;
        o.threshold = 0.3f;
        compareHits(qd.search(o), search(queries_, nci_, o));
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestLingoCuda)
#include "test_lingo_cuda.moc"
