// DockPreparation: the ligands of `dock` and `bench dock` from their files, prepared on every
// host core. SMILES records are read in order without 3D coordinates (parsing is fast) and
// embedded (RDKit ETKDG + MMFF, the slow step: tens of ms a ligand) with the rest of their
// preparation in parallel, instead of one after the other inside the reader; a shard embeds only
// the records it owns. The molecules are the ones the reader would have embedded (same seed).
#pragma once

#include "chem/MoleculeReader.h"
#include "core/Molecule.h"
#include "core/PhaseTimings.h"

#include <memory>
#include <string>
#include <vector>

namespace pw::cli {

// Records read for one batch, with each one's index in the input (all files, readable records):
// consecutive in a single run, consecutive within each block of a shard.
struct RawBatch {
    std::vector<Molecule> molecules;
    std::vector<long> index;
    std::vector<char> embed; // read from SMILES without coordinates: embedded when prepared
    void add(Molecule m, long i, bool embedLater) {
        molecules.push_back(std::move(m));
        index.push_back(i);
        embed.push_back(embedLater);
    }
    size_t size() const { return molecules.size(); }
};

// A batch after preparation: the ready ligands (prepared without error, in record order) and
// each one's place in the batch; errors[i] is record i's refusal ("" when ready).
struct PreparedBatch {
    RawBatch raw;
    std::vector<Molecule> ready;
    std::vector<long> readyIndex;
    std::vector<std::string> errors;
};

// Opens a ligand file for docking: SMILES without embedding (embedLater is then true; the
// records are embedded by prepareBatch), any other format as MoleculeReader::open does.
std::unique_ptr<MoleculeReader> openLigandsForDocking(const std::string& file,
                                                      const ReadOptions& options,
                                                      bool& embedLater);

// Embeds (when the record asks for it) and prepares (prepareLigand) every record on `threads`
// threads; refusals (InputError) become errors. The busy time goes to `timings` as phase
// "prepare" of group `group`.
PreparedBatch prepareBatch(RawBatch raw, const ReadOptions& options, int threads,
                           PhaseTimings* timings, const std::string& group);

} // namespace pw::cli
