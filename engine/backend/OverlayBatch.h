// OverlayBatch: one shape-overlay reference prepared on a backend's device
// (Backend::prepareOverlay): batches of fit molecules are overlaid onto it, scores in input order,
// with progress and cancel.
#pragma once

#include "core/BatchStatus.h"
#include "core/Progress.h"
#include "shape/ShapeModel.h"
#include "shape/ShapeScores.h"

#include <vector>

namespace pw {

class OverlayBatch {
public:
    virtual ~OverlayBatch() = default;

    // results[i] belongs to fits[i]: the best overlay over the starts or, with scoreOnly, the
    // scores of the fit where it is. On cancel the fits not reached keep default ShapeScores and
    // the status says how many were done.
    virtual BatchStatus overlay(const std::vector<shape::ShapeModel>& fits, bool scoreOnly,
                                std::vector<shape::ShapeScores>& results,
                                Progress* progress = nullptr) = 0;

    // Timing of the last overlay() (core/BatchStatus.h); benchmarks read it.
    virtual BatchTiming lastTiming() const = 0;
};

} // namespace pw
