// CPU LINGO searches against brute force, and the exactness of the (LINGO, level) item split the
// GPU uses: dense indicator dot product + shared tail items == the sorted-merge intersection.
#include "lingo/LingoItems.h"
#include "lingo/LingoSearch.h"

#include <QtTest>

#include <fstream>
#include <set>

using namespace pw::lingo;

namespace {

// Raw SMILES strings of a real file (the lingo module does not care whether they are canonical).
std::vector<std::string> readSmiles(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            out.push_back(line.substr(0, line.find_first_of(" \t")));
    return out;
}

LingoSet nci300() {
    return LingoSet::fromCanonicalSmiles(
        readSmiles(std::string(POSEWRIGHT_TEST_DATA) + "/smiles/nci_first_300.smi"));
}

} // namespace

class TestLingoSearch : public QObject {
    Q_OBJECT
private slots:
    void topKMatchesBruteForce() {
        const LingoSet s = nci300();
        QCOMPARE(int(s.size()), 300);
        SearchOptions o;
        o.topK = 7;
        o.excludeSelf = true;
        o.threads = 2;
        const HitLists hits = search(s, s, o);
        for (size_t i = 0; i < s.size(); ++i) {
            std::vector<LingoHit> all;
            for (size_t j = 0; j < s.size(); ++j)
                if (j != i)
                    all.push_back({uint32_t(j), similarity(s, i, s, j)});
            std::sort(all.begin(), all.end(), betterHit);
            QCOMPARE(int(hits[i].size()), 7);
            for (int h = 0; h < 7; ++h) {
                QCOMPARE(hits[i][h].index, all[h].index);
                QCOMPARE(hits[i][h].similarity, all[h].similarity);
            }
        }
    }

    void thresholdKeepsEveryHitAbove() {
        const LingoSet s = nci300();
        SearchOptions o;
        o.topK = 0;
        o.threshold = 0.5f;
        const HitLists hits = search(s, s, o);
        size_t total = 0;
        for (size_t i = 0; i < s.size(); ++i) {
            size_t expect = 0;
            for (size_t j = 0; j < s.size(); ++j)
                expect += similarity(s, i, s, j) >= 0.5f;
            QCOMPARE(hits[i].size(), expect);
            QVERIFY(std::is_sorted(hits[i].begin(), hits[i].end(), betterHit));
            total += expect;
        }
        QVERIFY(total > s.size()); // more than the self hits: the test can fail
    }

    void rowsMatchPairs() {
        const LingoSet s = nci300();
        std::vector<float> rows(10 * s.size());
        similarityRows(s, s, 100, 110, rows.data(), 2);
        for (size_t r = 100; r < 110; ++r)
            for (size_t j = 0; j < s.size(); ++j)
                QCOMPARE(rows[(r - 100) * s.size() + j], similarity(s, r, s, j));
    }

    void itemSplitIsExact_data() {
        QTest::addColumn<int>("width");
        QTest::newRow("all tail") << 0;
        QTest::newRow("64 dense") << 64;
        QTest::newRow("cost model") << -1;
        QTest::newRow("all dense") << (1 << 16);
    }
    void itemSplitIsExact() {
        QFETCH(int, width);
        const LingoSet all = nci300();
        LingoSet q; // a different query set: first 120 molecules
        for (size_t i = 0; i < 120; ++i) {
            LingoProfile p;
            for (uint32_t e = all.offsets[i]; e < all.offsets[i + 1]; ++e) {
                p.lingos.push_back(all.lingos[e]);
                p.counts.push_back(all.counts[e]);
            }
            p.size = all.sizes[i];
            q.add(p);
        }
        for (bool same : {true, false}) {
            const LingoSet& qs = same ? all : q;
            ItemizeOptions o;
            o.forceDenseWidth = width;
            const LingoItems it = itemize(qs, all, same, o);
            QCOMPARE(it.denseWidth % 64, 0u);
            QCOMPARE(it.rowsQ % 128, size_t(0));
            QVERIFY(it.totalItems > 1000);
            // Tail pairs from the per-chunk work lists (two chunks), counted per pair.
            std::map<std::pair<uint32_t, uint32_t>, uint32_t> tail;
            uint64_t listed = 0;
            for (auto [r0, r1] : {std::pair<size_t, size_t>{0, 64}, {64, qs.size()}}) {
                const TailWork w = tailWork(it, r0, r1);
                for (size_t k = 0; k < w.qStart.size(); ++k)
                    for (uint32_t a = 0; a < w.qCount[k]; ++a)
                        for (uint32_t b = 0; b < w.dbCount[k]; ++b) {
                            const uint32_t qa = it.tailQMols[w.qStart[k] + a];
                            QVERIFY(qa >= r0 && qa < r1);
                            ++tail[{qa, it.tailDbMols[w.dbStart[k] + b]}];
                        }
                listed += w.pairs();
            }
            QCOMPARE(listed, it.tailPairs);
            const auto& dbRows = it.dbRows();
            for (size_t a = 0; a < qs.size(); ++a)
                for (size_t b = 0; b < all.size(); ++b) {
                    uint32_t dot = 0;
                    for (uint32_t k = 0; k < it.denseWidth; ++k)
                        dot += it.denseQ[a * it.denseWidth + k] * dbRows[b * it.denseWidth + k];
                    auto t = tail.find({uint32_t(a), uint32_t(b)});
                    const uint32_t shared = t == tail.end() ? 0 : t->second;
                    if (dot + shared != intersection(qs, a, all, b))
                        QFAIL(qPrintable(QString("pair %1,%2: dense %3 + tail %4 != %5")
                                             .arg(a)
                                             .arg(b)
                                             .arg(dot)
                                             .arg(shared)
                                             .arg(intersection(qs, a, all, b))));
                }
        }
    }
};

QTEST_GUILESS_MAIN(TestLingoSearch)
#include "test_lingo_search.moc"
