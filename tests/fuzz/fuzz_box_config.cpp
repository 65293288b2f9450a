// libFuzzer target: Vina config files (box, scoring, weights) as `--box` and the app read them.
#include "core/InputError.h"
#include "score/BoxConfig.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        const pw::VinaConfig c = pw::parseVinaConfig(in, "fuzz");
        std::vector<std::string> notes;
        c.scoringFunction(c.scoringOr(pw::ScoringKind::Vina), &notes);
        pw::gridDimsFor(c.box);
    } catch (const pw::InputError&) {
    }
    return 0;
}
