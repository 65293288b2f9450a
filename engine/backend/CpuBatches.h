// CpuBatches: the CPU reference's prepared overlay and LINGO objects, shared by the CPU backend
// and by the CUDA backend for work its kernels do not take (e.g. a reference too large).
#pragma once

#include "LingoComparison.h"
#include "OverlayBatch.h"
#include "lingo/LingoSet.h"
#include "shape/ShapeOverlay.h"

#include <memory>

namespace pw {

// threads: worker threads (0 = hardware concurrency).
std::unique_ptr<OverlayBatch> makeCpuOverlayBatch(const shape::ShapeModel& reference,
                                                  const shape::OverlayOptions& options,
                                                  int threads);
std::unique_ptr<LingoComparison> makeCpuLingoComparison(const lingo::LingoSet& queries,
                                                        const lingo::LingoSet& database,
                                                        int threads);

} // namespace pw
