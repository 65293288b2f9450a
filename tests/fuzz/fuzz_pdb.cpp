// libFuzzer target: the PDB reader and the analysis of what it reads, on arbitrary bytes.
#include "FuzzReader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    pw::fuzz::readAndAnalyse(data, size, pw::FileFormat::Pdb);
    return 0;
}
