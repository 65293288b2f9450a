#include "HitClustering.h"

#include "HitFilter.h"
#include "lingo/LingoSearch.h"
#include "lingo/LingoSet.h"

#include <algorithm>
#include <numeric>

namespace pw::hits {
namespace {

// Renumbers clusters 1.. by their best (lowest-index) member and marks that member.
void finish(Clustering& c) {
    std::vector<int> remap; // old id -> new id
    int next = 0;
    const int oldCount = c.clusters;
    remap.assign(oldCount + 1, 0);
    c.best.assign(c.cluster.size(), 0);
    for (size_t i = 0; i < c.cluster.size(); ++i) {
        int& r = remap[c.cluster[i]];
        if (!r) {
            r = ++next;
            c.best[i] = 1;
        }
    }
    for (int& id : c.cluster)
        id = remap[id];
    c.clusters = next;
}

} // namespace

Clustering clusterSmiles(const std::vector<std::string>& smiles, const ClusterOptions& options) {
    const lingo::LingoSet set = lingo::LingoSet::fromCanonicalSmiles(smiles);
    const size_t n = set.size();
    const float threshold = static_cast<float>(options.threshold);
    Clustering c;
    c.cluster.assign(n, 0);
    if (options.method == ClusterMethod::Leader) {
        std::vector<size_t> leaders;
        for (size_t i = 0; i < n; ++i) {
            for (size_t l : leaders)
                if (lingo::similarity(set, i, set, l) >= threshold) {
                    c.cluster[i] = c.cluster[l];
                    break;
                }
            if (!c.cluster[i]) {
                leaders.push_back(i);
                c.cluster[i] = ++c.clusters;
            }
        }
    } else {
        lingo::SearchOptions so;
        so.topK = 0;
        so.threshold = threshold;
        so.excludeSelf = true;
        so.threads = options.threads;
        const lingo::HitLists neighbours = lingo::search(set, set, so);
        std::vector<size_t> order(n);
        std::iota(order.begin(), order.end(), size_t(0));
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return neighbours[a].size() > neighbours[b].size();
        });
        for (size_t i : order) {
            if (c.cluster[i])
                continue;
            c.cluster[i] = ++c.clusters;
            for (const lingo::LingoHit& h : neighbours[i])
                if (!c.cluster[h.index])
                    c.cluster[h.index] = c.clusters;
        }
    }
    finish(c);
    return c;
}

Clustering clusterStore(HitStore& store, const Selection& selection,
                        const ClusterOptions& options) {
    std::vector<long long> ids;
    std::vector<std::string> smiles;
    if (!selection.where.empty())
        compileWhere(selection.where, store); // errors name positions in the user's text
    Selection withSmiles = selection;
    withSmiles.where = selection.where.empty() ? "smiles is not null"
                                               : "(" + selection.where + ") and smiles is not null";
    forEachSelected(store, withSmiles, {"id", "smiles"}, [&](const Statement& s) {
        ids.push_back(s.integer(0));
        smiles.push_back(s.text(1));
    });
    const Clustering c = clusterSmiles(smiles, options);
    HitStore::Transaction tx(store);
    store.exec("UPDATE poses SET cluster = NULL, cluster_best = NULL");
    Statement update = store.prepare("UPDATE poses SET cluster = ?, cluster_best = ? WHERE id = ?");
    for (size_t i = 0; i < ids.size(); ++i) {
        update.bind(1, static_cast<long long>(c.cluster[i]));
        update.bind(2, static_cast<long long>(c.best[i]));
        update.bind(3, ids[i]);
        update.run();
    }
    tx.commit();
    return c;
}

} // namespace pw::hits
