// SimilarityOrder: orderings and neighbour lists over a row-major N x N similarity matrix, for
// the similarity table (sort by one hit's column, clustered order, nearest neighbours).
#pragma once

#include <utility>
#include <vector>

namespace pw {

// `hit` first, then the others by decreasing similarity to it (ties: lower index first).
std::vector<int> orderBySimilarityTo(const float* matrix, int n, int hit);

// Clustered order: the order in which Prim's algorithm grows a maximum-similarity spanning
// forest, starting from hit 0 and, for every new component, from its lowest index. Each step
// takes the unplaced hit with the highest similarity to any placed hit (single linkage), so
// a group of mutually similar hits is placed before the walk leaves it: clusters appear as
// blocks on the diagonal. O(N^2) time, O(N) extra memory.
std::vector<int> clusteredOrder(const float* matrix, int n);

// The k hits most similar to `hit` (not itself), best first, ties by lower index; only those
// with similarity >= threshold.
std::vector<std::pair<int, float>> nearestNeighbours(const float* matrix, int n, int hit, int k,
                                                     float threshold = 0.0f);

} // namespace pw
