// libFuzzer target: autogrid grid parameter files (.gpf) as `maps --gpf` reads them, then the
// grid the maps would be built on.
#include "core/InputError.h"
#include "score/ad4/Ad4GridParameterFile.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        const pw::ad4::GridParameterFile gpf = pw::ad4::parseGridParameterFile(in, "fuzz.gpf");
        (void)gpf.box.pointCount();
        (void)gpf.box.lo();
        (void)gpf.box.hi();
    } catch (const pw::InputError&) {
    }
    return 0;
}
