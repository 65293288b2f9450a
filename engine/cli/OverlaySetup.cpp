#include "OverlaySetup.h"

#include "backend/DeviceSelection.h"
#include "core/InputError.h"
#include "cuda/ShapeOverlayCuda.h"
#include "shape/OverlayStarts.h"

#include <iostream>

namespace pw::cli {

void parseShapeOptions(const CommandLine& cl, shape::OverlayOptions& options,
                       shape::ShapeModelOptions& model) {
    options.starts = cl.intValue("starts", 4, 1, 12);
    if (!shape::validStartCount(options.starts))
        throw UsageError("--starts: expected 1, 4 or 12");
    const std::string radii = cl.value("radii", "carbon");
    if (radii == "element")
        model.radii = shape::RadiiMode::Element;
    else if (radii != "carbon")
        throw UsageError("--radii: expected carbon or element, got '" + radii + "'");
}

OverlayDevice chooseOverlayDevice(const std::string& spec, const std::string& fallback) {
    DeviceRequest request;
    try {
        request = parseDeviceRequest(spec);
    } catch (const InputError&) {
        throw UsageError("--device: expected auto, cpu, cuda or cuda:N, got '" + spec + "'");
    }
    OverlayDevice d;
    if (request.kind == DeviceRequest::Kind::Cpu)
        return d;
    std::string why;
    d.index = request.index;
    d.gpu = cuda::shapeGpuUsable(d.index, &why);
    if (!d.gpu && request.kind == DeviceRequest::Kind::Cuda)
        throw InputError("", 0, "--device " + spec + ": CUDA device not usable (" + why + ")");
    if (!d.gpu)
        std::cerr << "note: no usable CUDA device (" << why << "); " << fallback << "\n";
    return d;
}

} // namespace pw::cli
