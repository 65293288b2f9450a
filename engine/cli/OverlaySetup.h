// OverlaySetup: the options `overlay` and `bench overlay` share (--starts, --radii, --device),
// parsed in one place so that both commands accept and refuse the same things.
#pragma once

#include "CommandLine.h"
#include "shape/ShapeModel.h"
#include "shape/ShapeOverlay.h"

#include <string>

namespace pw::cli {

// --starts (1, 4 or 12; default 4) into options, --radii (carbon|element) into model.
void parseShapeOptions(const CommandLine& cl, shape::OverlayOptions& options,
                       shape::ShapeModelOptions& model);

struct OverlayDevice {
    bool gpu = false;
    int index = 0;
};

// --device auto|cpu|cuda[:N]: auto falls back to the CPU with one stderr line ("note: ...; `fallback`");
// an explicit CUDA device that is not usable is an error (InputError).
OverlayDevice chooseOverlayDevice(const std::string& spec, const std::string& fallback);

} // namespace pw::cli
