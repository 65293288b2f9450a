// libFuzzer target: ligand preparation (RDKit sanitization, hydrogens, Gasteiger charges, AD4 and
// XS types, torsion tree) of every SDF or MOL2 record the readers accept from the fuzzer's bytes.
// The first byte picks the format ('2': MOL2, else SDF). 3D embedding is bounded tightly so that
// one input stays quick.
#include "FuzzReader.h"
#include "chem/LigandPreparation.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1)
        return 0;
    const pw::FileFormat format = data[0] == '2' ? pw::FileFormat::Mol2 : pw::FileFormat::Sdf;
    pw::LigandPreparationOptions options;
    options.maxHeavyAtoms = 150;
    options.maxEmbedAttempts = 3;
    options.maxEmbedSeconds = 2.0;
    pw::fuzz::forEachRecord(data + 1, size - 1, format, 4, [&](const pw::Molecule& m) {
        const pw::Molecule ligand = pw::prepareLigand(m, options);
        // A prepared ligand always has a sound torsion tree: anything else is a finding.
        const std::string problem = ligand.torsionTree
                                        ? pw::checkTorsionTree(ligand, *ligand.torsionTree)
                                        : std::string("no torsion tree");
        if (!problem.empty()) {
            std::fprintf(stderr, "prepared ligand with a broken torsion tree: %s\n",
                         problem.c_str());
            std::abort();
        }
    });
    return 0;
}
