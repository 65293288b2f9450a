// PreparedLigandCache: prepareLigand for streams of poses (docking and minimization outputs hold
// many poses of one molecule in a row): the topology-only work is done once per topology.
#pragma once

#include "LigandPreparation.h"

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>

namespace pw {

// prepare(input) returns exactly what prepareLigand(input, options) returns (atom order, types,
// charges, bonds, torsion tree, coordinates, names, SD tags; the same InputError for a refused
// record). When an earlier record had the same topology (same atoms in the same order: elements,
// formal and partial charges, aromatic flags, names, residues; same bonds and orders; its name,
// SD tags and coordinates may differ) its sanitization, Gasteiger charges, AD4/XS types,
// rotatable bonds and torsion tree are reused; what depends on coordinates is done again for
// every record: the positions of the hydrogens RDKit adds (addHs from the kept sanitized
// molecule) and the geometric checks (bond orders missing, flat or coordinate-less input: such
// records are prepared from scratch). Inputs with a PDBQT torsion tree are always prepared
// afresh (that path is cheap). Thread-safe; holds at most `capacity` topologies (oldest go).
class PreparedLigandCache {
public:
    explicit PreparedLigandCache(LigandPreparationOptions options = {}, size_t capacity = 64);
    ~PreparedLigandCache();

    Molecule prepare(const Molecule& input);

    long reused() const { return reused_; }       // records prepared from a kept topology
    long preparedFresh() const { return fresh_; } // records prepared by prepareLigand

private:
    struct Entry;
    std::shared_ptr<const Entry> find(const Molecule& input, size_t hash) const;
    Molecule reuse(const Entry& entry, const Molecule& input) const;

    LigandPreparationOptions options_;
    size_t capacity_;
    mutable std::mutex mutex_;
    std::deque<std::shared_ptr<const Entry>> entries_; // newest last
    std::atomic<long> reused_{0}, fresh_{0};
};

} // namespace pw
