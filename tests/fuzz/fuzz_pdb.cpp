// libFuzzer target: the PDB reader and receptor preparation on arbitrary bytes.
#include "FuzzReader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    pw::fuzz::readAndPrepare(data, size, pw::FileFormat::Pdb, /*receptor=*/true);
    return 0;
}
