// LingoComparison: LINGO query and database profiles prepared on a backend's device
// (Backend::prepareLingo): similarity rows of the matrix and top-k / threshold searches.
#pragma once

#include "core/BatchStatus.h"
#include "core/Progress.h"
#include "lingo/LingoSearch.h"

#include <cstddef>

namespace pw {

class LingoComparison {
public:
    virtual ~LingoComparison() = default;

    // Similarities of queries [r0, r1) against the whole database, row-major into out
    // ((r1 - r0) x database size floats), the same floats on every backend.
    virtual void similarityRows(size_t r0, size_t r1, float* out) = 0;

    // Per query, the best hits (lingo::search's contract, sorted by lingo::betterHit).
    // options.threads is not read: the backend's own thread count applies. On cancel the
    // queries not reached have no hits and the status says how many were done.
    virtual BatchStatus search(const lingo::SearchOptions& options, lingo::HitLists& hits,
                               Progress* progress = nullptr) = 0;

    // uploadSeconds: preparing the profiles on the device; deviceSeconds: the last call's
    // computation (GPU: kernels; CPU: wall time).
    virtual BatchTiming lastTiming() const = 0;
};

} // namespace pw
