// HitClustering: groups hits by LINGO similarity of their canonical SMILES (engine/lingo), with
// the leader algorithm or Butina's, at a similarity threshold, and marks the best hit per cluster.
#pragma once

#include "HitExport.h"
#include "HitStore.h"

#include <string>
#include <vector>

namespace pw::hits {

enum class ClusterMethod { Leader, Butina };

struct ClusterOptions {
    ClusterMethod method = ClusterMethod::Butina;
    double threshold = 0.7; // LINGO Tanimoto similarity that joins two hits
    int threads = 0;
};

struct Clustering {
    std::vector<int> cluster; // 1-based cluster per item
    std::vector<char> best;   // 1 for the best-priority item of each cluster
    int clusters = 0;
};

// smiles: canonical SMILES in priority order (index 0 = best hit). Leader: each item joins the
// first leader (in priority order) at or above the threshold, else leads a new cluster.
// Butina (J. Chem. Inf. Comput. Sci. 39, 747 (1999)): items with the most neighbours at or above
// the threshold become centroids first and take their unassigned neighbours. Clusters are
// numbered by their best item's priority.
Clustering clusterSmiles(const std::vector<std::string>& smiles, const ClusterOptions& options);

// Clusters the poses of a selection (ordered by rank unless it says otherwise) and writes cluster
// and cluster_best; poses outside it, or without SMILES, get NULL. Runs its own transaction.
Clustering clusterStore(HitStore& store, const Selection& selection, const ClusterOptions& options);

} // namespace pw::hits
