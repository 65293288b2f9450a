// OverlaySetup: the shape options `overlay` and `bench overlay` share (--starts, --ring-starts,
// --radii), parsed in one place so that both commands accept and refuse the same things.
#pragma once

#include "CommandLine.h"
#include "shape/ShapeModel.h"
#include "shape/ShapeOverlay.h"

namespace pw::cli {

// --starts (1, 4 or 12; default 4) and --ring-starts (also start on every ring centroid of the
// reference) into options, --radii (carbon|element) into model.
void parseShapeOptions(const CommandLine& cl, shape::OverlayOptions& options,
                       shape::ShapeModelOptions& model);

} // namespace pw::cli
