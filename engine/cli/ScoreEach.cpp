#include "ScoreEach.h"

#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "core/InputError.h"

#include <iostream>

namespace pw::cli {

int scoreEachLigand(const std::string& ligandFile,
                    const std::function<void(const Molecule& ligand, long index)>& scoreOne) {
    ReadOptions options;
    options.warn = [](const std::string& msg) { std::cerr << "warning: " << msg << "\n"; };
    auto reader = MoleculeReader::open(ligandFile, options);
    Molecule raw;
    long scored = 0, refused = 0;
    std::string lastError;
    while (reader->next(raw)) {
        const long index = reader->recordsRead() - 1;
        try {
            // A PDBQT ligand keeps its types, charges and torsion tree; other formats are
            // prepared (hydrogens, charges, types, tree).
            scoreOne(prepareLigand(raw), index);
            ++scored;
        } catch (const InputError& e) {
            ++refused;
            lastError = e.what();
            std::cerr << "warning: " << e.what() << "\n";
        }
    }
    if (scored == 0) {
        std::cerr << "error: " << ligandFile << ": no ligand could be scored"
                  << (lastError.empty() ? "" : " (last: " + lastError + ")") << "\n";
        return 1;
    }
    if (refused + reader->recordsSkipped() > 0)
        std::cerr << ligandFile << ": " << scored << " scored, "
                  << refused + reader->recordsSkipped() << " skipped\n";
    return 0;
}

} // namespace pw::cli
