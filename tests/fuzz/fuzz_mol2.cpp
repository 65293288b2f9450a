// libFuzzer target: the MOL2 reader and the analysis of what it reads, on arbitrary bytes.
#include "FuzzReader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    pw::fuzz::readAndAnalyse(data, size, pw::FileFormat::Mol2);
    return 0;
}
