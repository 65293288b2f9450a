#include "OverlaySetup.h"

#include "shape/OverlayStarts.h"

namespace pw::cli {

void parseShapeOptions(const CommandLine& cl, shape::OverlayOptions& options,
                       shape::ShapeModelOptions& model) {
    options.starts = cl.intValue("starts", 4, 1, 12);
    if (!shape::validStartCount(options.starts))
        throw UsageError("--starts: expected 1, 4 or 12");
    options.ringStarts = cl.flag("ring-starts");
    const std::string radii = cl.value("radii", "carbon");
    if (radii == "element")
        model.radii = shape::RadiiMode::Element;
    else if (radii != "carbon")
        throw UsageError("--radii: expected carbon or element, got '" + radii + "'");
}

} // namespace pw::cli
