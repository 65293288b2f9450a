// LINGO clustering of hits: the leader and Butina invariants checked by brute force over the
// pairwise similarities of 300 NCI SMILES, and the best hit per cluster.
#include "hits/HitClustering.h"
#include "lingo/LingoSet.h"

#include <QFile>
#include <QtTest>

#include <map>
#include <set>

using namespace pw;
using namespace pw::hits;

namespace {

std::vector<std::string> nciSmiles() {
    QFile f(QString(POSEWRIGHT_TEST_DATA) + "/smiles/nci_first_300.smi");
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read nci_first_300.smi");
    std::vector<std::string> out;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (!line.trimmed().isEmpty())
            out.push_back(line.split('\t')[0].trimmed().toStdString());
    return out;
}

} // namespace

class TestHitClustering : public QObject {
    Q_OBJECT
    std::vector<std::string> smiles_;
    lingo::LingoSet set_;
    float sim(size_t a, size_t b) const { return lingo::similarity(set_, a, set_, b); }

    // Shared by both methods: clusters 1..k, one best each (its lowest index), numbered in the
    // order of their best members.
    void checkNumbering(const Clustering& c) {
        QCOMPARE(c.cluster.size(), smiles_.size());
        std::map<int, size_t> firstIndex;
        int lastBest = 0;
        for (size_t i = 0; i < c.cluster.size(); ++i) {
            QVERIFY(c.cluster[i] >= 1 && c.cluster[i] <= c.clusters);
            if (!firstIndex.count(c.cluster[i])) {
                firstIndex[c.cluster[i]] = i;
                QVERIFY(c.best[i]);
                QCOMPARE(c.cluster[i], lastBest + 1);
                lastBest = c.cluster[i];
            } else {
                QVERIFY(!c.best[i]);
            }
        }
        QCOMPARE(int(firstIndex.size()), c.clusters);
    }

private slots:
    void initTestCase() {
        smiles_ = nciSmiles();
        QCOMPARE(smiles_.size(), size_t(300));
        set_ = lingo::LingoSet::fromCanonicalSmiles(smiles_);
    }

    void leaderInvariants() {
        for (double t : {0.3, 0.5, 0.8}) {
            const Clustering c = clusterSmiles(smiles_, {ClusterMethod::Leader, t, 1});
            checkNumbering(c);
            std::vector<size_t> leaders;
            for (size_t i = 0; i < smiles_.size(); ++i) {
                // Its cluster's leader is the first leader at or above the threshold.
                size_t joined = SIZE_MAX;
                for (size_t l : leaders)
                    if (sim(i, l) >= float(t)) {
                        joined = l;
                        break;
                    }
                if (joined == SIZE_MAX) {
                    QVERIFY(c.best[i]);
                    leaders.push_back(i);
                } else {
                    QVERIFY(!c.best[i]);
                    QCOMPARE(c.cluster[i], c.cluster[joined]);
                }
            }
            QCOMPARE(int(leaders.size()), c.clusters);
            QVERIFY(c.clusters > 1 && c.clusters < 300);
        }
    }

    void butinaInvariants() {
        for (double t : {0.3, 0.5, 0.8}) {
            const Clustering c = clusterSmiles(smiles_, {ClusterMethod::Butina, t, 2});
            checkNumbering(c);
            std::map<int, std::vector<size_t>> members;
            for (size_t i = 0; i < smiles_.size(); ++i)
                members[c.cluster[i]].push_back(i);
            // Every cluster has a centroid within the threshold of all its members.
            for (const auto& [id, m] : members) {
                bool hasCentroid = false;
                for (size_t x : m) {
                    bool all = true;
                    for (size_t y : m)
                        all &= x == y || sim(x, y) >= float(t);
                    hasCentroid |= all;
                }
                QVERIFY2(hasCentroid, qPrintable(QString("cluster %1 at %2").arg(id).arg(t)));
            }
            // The item with the most neighbours is the first centroid: its cluster is exactly it
            // and its neighbours.
            size_t top = 0, topCount = 0;
            for (size_t i = 0; i < smiles_.size(); ++i) {
                size_t n = 0;
                for (size_t j = 0; j < smiles_.size(); ++j)
                    n += i != j && sim(i, j) >= float(t);
                if (n > topCount)
                    top = i, topCount = n;
            }
            QCOMPARE(members[c.cluster[top]].size(), topCount + 1);
        }
    }

    void identicalSmilesShareACluster() {
        std::vector<std::string> s{"CCOCCN", "c1ccccc1O", "CCOCCN", "CCCCCCCC(=O)O", "c1ccccc1O"};
        for (ClusterMethod m : {ClusterMethod::Leader, ClusterMethod::Butina}) {
            const Clustering c = clusterSmiles(s, {m, 1.0, 1});
            QCOMPARE(c.clusters, 3);
            QCOMPARE(c.cluster[0], c.cluster[2]);
            QCOMPARE(c.cluster[1], c.cluster[4]);
            QVERIFY(c.best[0] && c.best[1] && !c.best[2] && c.best[3] && !c.best[4]);
        }
    }
};

QTEST_GUILESS_MAIN(TestHitClustering)
#include "test_hit_clustering.moc"
