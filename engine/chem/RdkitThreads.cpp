#include "RdkitThreads.h"

#include <GraphMol/FileParsers/FileParsers.h>
#include <GraphMol/GraphMol.h>
#include <GraphMol/PeriodicTable.h>
#include <GraphMol/SmilesParse/SmilesParse.h>
#include <GraphMol/SmilesParse/SmilesWrite.h>

#include <memory>
#include <mutex>

namespace pw {

void prepareRdkitForThreads() {
    static std::once_flag once;
    std::call_once(once, [] {
        RDKit::PeriodicTable::getTable();
        // One molecule through what the parallel loops use: the SMILES parser (aromaticity,
        // charges, stereo), sanitization, canonical SMILES and the MOL block writer and reader.
        const std::unique_ptr<RDKit::RWMol> m(RDKit::SmilesToMol("C[C@H](N)C(=O)[O-].c1ccncc1"));
        if (!m)
            return;
        const std::string block = RDKit::MolToMolBlock(*m);
        RDKit::MolToSmiles(*m);
        const std::unique_ptr<RDKit::RWMol> back(RDKit::MolBlockToMol(block));
    });
}

} // namespace pw
