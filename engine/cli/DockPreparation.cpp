#include "DockPreparation.h"

#include "chem/LigandPreparation.h"
#include "chem/RdkitThreads.h"
#include "chem/SmilesReader.h"
#include "core/InputError.h"
#include "core/ParallelFor.h"

namespace pw::cli {

std::unique_ptr<MoleculeReader> openLigandsForDocking(const std::string& file,
                                                      const ReadOptions& options,
                                                      bool& embedLater) {
    embedLater = options.embedSmiles && formatFromPath(file) == FileFormat::Smiles;
    ReadOptions o = options;
    if (embedLater)
        o.embedSmiles = false;
    return MoleculeReader::open(file, o);
}

PreparedBatch prepareBatch(RawBatch raw, const ReadOptions& options, int threads,
                           PhaseTimings* timings, const std::string& group) {
    PhaseTimer timer(timings, "prepare", group);
    // The reader already gave this record's warnings (a repaired SMILES) when it parsed it.
    ReadOptions embedOptions = options;
    embedOptions.warn = nullptr;
    embedOptions.embedSmiles = true;
    PreparedBatch b;
    const size_t n = raw.size();
    std::vector<Molecule> ligands(n);
    b.errors.assign(n, {});
    prepareRdkitForThreads();
    parallelFor(static_cast<long>(n), threads, [&](long i) {
        try {
            Molecule& m = raw.molecules[i];
            const std::string* smiles = raw.embed[i] ? m.property("SMILES") : nullptr;
            if (smiles)
                m = moleculeFromSmilesRecord(*smiles, m.name, embedOptions, m.sourceFile,
                                             m.sourceRecord);
            ligands[i] = prepareLigand(m);
        } catch (const InputError& e) {
            b.errors[i] = e.what();
        }
    });
    for (size_t i = 0; i < n; ++i)
        if (b.errors[i].empty()) {
            b.ready.push_back(std::move(ligands[i]));
            b.readyIndex.push_back(static_cast<long>(i));
        }
    b.raw = std::move(raw);
    return b;
}

} // namespace pw::cli
