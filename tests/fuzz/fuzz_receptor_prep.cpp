// libFuzzer target: receptor preparation (AD4 types, Gasteiger charges, XS types; sp2 centres and
// charged groups judged from geometry and hydrogens) of PDB or PDBQT records from the fuzzer's
// bytes. The first byte picks the format ('q': PDBQT, else PDB).
#include "FuzzReader.h"
#include "chem/ReceptorPreparation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1)
        return 0;
    const pw::FileFormat format = data[0] == 'q' ? pw::FileFormat::Pdbqt : pw::FileFormat::Pdb;
    pw::fuzz::forEachRecord(data + 1, size - 1, format, 1, [](const pw::Molecule& m) {
        pw::prepareReceptor(m);
    });
    return 0;
}
