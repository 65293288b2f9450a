// libFuzzer target: SMILES lines to molecules (RDKit parsing, hydrogens, our conversion), without
// the 3D embedding, whose cost is bounded separately (tests/chem/test_prep_limits).
#include "chem/SmilesReader.h"
#include "core/InputError.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::string line;
    for (int n = 0; n < 8 && std::getline(in, line); ++n) {
        try {
            pw::moleculeFromSmiles(line, "fuzz", /*embed=*/false, "fuzz");
        } catch (const pw::InputError&) {
        }
    }
    return 0;
}
