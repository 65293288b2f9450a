// The CPU backend's overlay and LINGO operations against the direct engine calls on real inputs
// (47 CDK2 ligands, 300 NCI SMILES): the same numbers, in input order; progress counts up to the
// total; a cancel stops early and the status says so; the device note on fallback.
#include "TestInputs.h"

#include "backend/Backend.h"
#include "backend/DeviceSelection.h"
#include "core/InputError.h"
#include "lingo/LingoSearch.h"
#include "shape/ShapeOverlay.h"

#include <QtTest>

#include <atomic>
#include <mutex>

using namespace pw;

namespace {

bool sameScores(const shape::ShapeScores& a, const shape::ShapeScores& b) {
    return a.tanimoto == b.tanimoto && a.tverskyRef == b.tverskyRef &&
           a.tverskyFit == b.tverskyFit && a.overlap == b.overlap && a.volumeFit == b.volumeFit &&
           a.rotation == b.rotation && a.translation == b.translation && a.start == b.start;
}

bool sameHits(const lingo::HitLists& a, const lingo::HitLists& b) {
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].size() != b[i].size())
            return false;
        for (size_t h = 0; h < a[i].size(); ++h)
            if (a[i][h].index != b[i][h].index || a[i][h].similarity != b[i][h].similarity)
                return false;
    }
    return true;
}

} // namespace

class TestCpuBackend : public QObject {
    Q_OBJECT

    std::vector<shape::ShapeModel> fits_;
    lingo::LingoSet nci_, queries_;

private slots:
    void initTestCase() {
        const auto mols = test::readSdfAtoms(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf");
        QCOMPARE(int(mols.size()), 47);
        for (const Molecule& m : mols)
            fits_.push_back(shape::makeShapeModel(m, {}));
        const auto smiles =
            test::readSmilesColumn(POSEWRIGHT_TEST_DATA "/smiles/nci_first_300.smi");
        QCOMPARE(int(smiles.size()), 300);
        nci_ = lingo::LingoSet::fromCanonicalSmiles(smiles);
        queries_ = lingo::LingoSet::fromCanonicalSmiles({smiles.begin(), smiles.begin() + 25});
    }

    void overlayEqualsShapeOverlay() {
        auto backend = makeCpuBackend(2);
        QVERIFY(!backend->isGpu());
        QCOMPARE(QString::fromStdString(backend->description()), QString("CPU (2 threads)"));
        for (int starts : {1, 4}) {
            shape::OverlayOptions options;
            options.starts = starts;
            const shape::ShapeOverlay direct(fits_[3], options);
            for (bool scoreOnly : {false, true}) {
                const auto expected = direct.overlayAll(fits_, scoreOnly, 2);
                std::vector<shape::ShapeScores> got;
                Progress progress;
                std::mutex lock;
                std::vector<long> reported;
                long badTotal = 0; // progress comes from worker threads: checked afterwards
                progress.onProgress = [&](long done, long total) {
                    std::lock_guard<std::mutex> g(lock);
                    if (total != long(fits_.size()))
                        badTotal = total;
                    reported.push_back(done);
                };
                const BatchStatus st =
                    backend->overlay(fits_[3], fits_, options, scoreOnly, got, &progress);
                QVERIFY(st.complete());
                QCOMPARE(st.done, long(fits_.size()));
                QCOMPARE(got.size(), expected.size());
                for (size_t i = 0; i < got.size(); ++i)
                    QVERIFY2(sameScores(got[i], expected[i]),
                             qPrintable(QString("fit %1 (starts %2, score-only %3): %4 vs %5")
                                            .arg(i)
                                            .arg(starts)
                                            .arg(scoreOnly)
                                            .arg(got[i].tanimoto)
                                            .arg(expected[i].tanimoto)));
                QCOMPARE(badTotal, 0L);
                QCOMPARE(int(reported.size()), int(fits_.size()));
                QCOMPARE(*std::max_element(reported.begin(), reported.end()), long(fits_.size()));
            }
        }
        // The reference overlaid onto itself: a real overlay, not zeros.
        std::vector<shape::ShapeScores> self;
        backend->overlay(fits_[3], {fits_[3]}, {}, false, self);
        QVERIFY2(self[0].tanimoto > 0.99, qPrintable(QString::number(self[0].tanimoto)));
    }

    void overlayCancelStopsEarly() {
        auto backend = makeCpuBackend(1);
        auto batch = backend->prepareOverlay(fits_[0], {});
        Progress progress;
        progress.onProgress = [&](long done, long) {
            if (done == 5)
                progress.cancel = true;
        };
        std::vector<shape::ShapeScores> got;
        const BatchStatus st = batch->overlay(fits_, false, got, &progress);
        QVERIFY(st.cancelled);
        QVERIFY(!st.complete());
        QCOMPARE(st.done, 5L); // one thread: the sixth fit sees the flag
        QCOMPARE(st.total, long(fits_.size()));
        QCOMPARE(got.size(), fits_.size()); // input order kept; the rest are empty
        QVERIFY(got[4].tanimoto > 0 && got[5].tanimoto == 0 && got.back().tanimoto == 0);
        // The same batch object runs again, complete, once the flag is down.
        progress.onProgress = nullptr;
        progress.cancel = false;
        QVERIFY(batch->overlay(fits_, false, got, &progress).complete());
        QVERIFY(got.back().tanimoto > 0);
        QVERIFY(batch->lastTiming().deviceSeconds > 0);
    }

    void lingoSearchEqualsEngine() {
        auto backend = makeCpuBackend(2);
        // All-vs-all top-10 (self excluded), threshold-only, and queries against the database.
        lingo::SearchOptions top;
        top.topK = 10;
        top.excludeSelf = true;
        top.threads = 2;
        lingo::HitLists got;
        QVERIFY(backend->lingoSearch(nci_, nci_, top, got).complete());
        const lingo::HitLists expected = lingo::search(nci_, nci_, top);
        QVERIFY(sameHits(got, expected));
        QCOMPARE(int(got[0].size()), 10);
        QVERIFY(got[0][0].similarity >= got[0][9].similarity && got[0][0].index != 0);

        lingo::SearchOptions threshold;
        threshold.topK = 0;
        threshold.threshold = 0.5f;
        threshold.threads = 2;
        QVERIFY(backend->lingoSearch(queries_, nci_, threshold, got).complete());
        const lingo::HitLists expectedT = lingo::search(queries_, nci_, threshold);
        QVERIFY(sameHits(got, expectedT));
        // A query is in the database: it finds itself at 1 (self is not excluded here).
        QCOMPARE(got[0].front().similarity, 1.0f);
        long hits = 0;
        for (const auto& h : got)
            hits += long(h.size());
        QVERIFY(hits > long(got.size()));
    }

    void lingoMatrixAndRowsEqualEngine() {
        auto backend = makeCpuBackend(2);
        std::vector<float> got;
        Progress progress;
        long last = 0;
        progress.onProgress = [&](long done, long) { last = done; };
        QVERIFY(backend->lingoMatrix(nci_, got, &progress).complete());
        QCOMPARE(last, 300L);
        std::vector<float> expected(nci_.size() * nci_.size());
        lingo::similarityRows(nci_, nci_, 0, nci_.size(), expected.data(), 2);
        QVERIFY(got == expected);
        QCOMPARE(got[0], 1.0f);
        // Rows of a query-vs-database comparison.
        auto comparison = backend->prepareLingo(queries_, nci_, false);
        std::vector<float> rows(10 * nci_.size()), direct(10 * nci_.size());
        comparison->similarityRows(5, 15, rows.data());
        lingo::similarityRows(queries_, nci_, 5, 15, direct.data(), 1);
        QVERIFY(rows == direct);
    }

    void lingoCancelStopsEarly() {
        auto backend = makeCpuBackend(1);
        lingo::SearchOptions top;
        lingo::HitLists hits;
        Progress progress;
        progress.onProgress = [&](long done, long) {
            if (done == 7)
                progress.cancel = true;
        };
        BatchStatus st = backend->lingoSearch(nci_, nci_, top, hits, &progress);
        QVERIFY(st.cancelled);
        QCOMPARE(st.done, 7L);
        QCOMPARE(st.total, 300L);
        QCOMPARE(int(hits.size()), 300);
        QVERIFY(!hits[6].empty() && hits[7].empty() && hits[299].empty());
        // The matrix stops before its first block when cancelled before it starts.
        std::vector<float> matrix;
        st = backend->lingoMatrix(nci_, matrix, &progress);
        QVERIFY(st.cancelled);
        QCOMPARE(st.done, 0L);
    }

    void deviceNotes() {
        std::string note;
        auto cpu = createBackend(parseDeviceRequest("cpu"), 3, note);
        QCOMPARE(QString::fromStdString(note), QString("device: CPU (3 threads)"));
        auto any = createBackend(parseDeviceRequest("cuda:7"), 2, note);
        if (!any->isGpu()) // no CUDA (build or device 7): the CPU and the reason, on one line
            QVERIFY2(note.rfind("device: ", 0) == 0 &&
                         note.find("; using the CPU (2 threads)") != std::string::npos &&
                         note.find('\n') == std::string::npos,
                     note.c_str());
        QVERIFY_THROWS_EXCEPTION(InputError, parseDeviceRequest("gpu"));
        QVERIFY_THROWS_EXCEPTION(InputError, parseDeviceRequest("cuda:x"));
    }
};

QTEST_GUILESS_MAIN(TestCpuBackend)
#include "test_cpu_backend.moc"
