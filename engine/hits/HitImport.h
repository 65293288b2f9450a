// HitImport: SDF results of dock, minimize and overlay into the hit store (one row per record,
// every numeric SD tag as a typed column, RDKit properties, interactions), and the LINGO hit
// lists of `posewright-cli lingo --out` as a similarity column.
#pragma once

#include "HitStore.h"
#include "PoseInteractions.h"
#include "chem/MoleculeDescriptors.h"
#include "core/Molecule.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace pw::hits {

struct ImportOptions {
    const ReceptorSites* receptor = nullptr; // interactions are computed when set
    int threads = 0;                         // parsing threads; 0 = all hardware threads
    // Records a parsing thread takes at a time (fewer with many threads: memory stays bounded).
    int batch = 1024;
    std::function<void(const std::string&)> warn; // skipped records, unreadable chemistry
    // Called after each batch is inserted (still inside the caller's transaction).
    std::function<void(long posesSoFar)> afterBatch;
};

struct ImportStats {
    long poses = 0;        // rows added
    long skipped = 0;      // records the reader could not read
    long noProperties = 0; // rows stored without RDKit properties (RDKit could not sanitize)
    // CPU seconds each stage of the pipeline spent (waiting excluded): cutting records (one
    // thread), parsing and describing them (all worker threads together), reporting and inserting
    // (the caller's thread). They tell which stage would limit a machine with more cores.
    double cutCpuSeconds = 0, parseCpuSeconds = 0, insertCpuSeconds = 0;
};

// RDKit properties and canonical SMILES per molecule graph (elements, charges, bonds with orders)
// and stereo signature (the 3D handedness of each centre and the cis/trans sense of each double
// bond), shared by the poses of one molecule: docking writes many per ligand, and RDKit (sanitize,
// stereo from 3D, canonical SMILES, QED's substructure searches) is the import's costliest step.
// Thread-safe; bounded.
class DescriptorCache {
public:
    std::shared_ptr<const MoleculeDescriptors> find(const std::string& key) const; // or null
    void add(const std::string& key, const MoleculeDescriptors& d);
    static std::string key(const Molecule& m);

private:
    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<const MoleculeDescriptors>> map_;
};

// One pose as the store keeps it: molblock and tag text as the record's text has them when it
// is given and is a plain V2000 record without export tags, else re-written from the parsed
// molecule (bond orders as read); numeric tags as columns, properties and interactions computed.
PoseRecord makePoseRecord(Molecule m, const ImportOptions& options, std::string* warning,
                          DescriptorCache* cache = nullptr, std::string_view recordText = {});

// Adds every record of an SDF file. Must run inside a HitStore::Transaction, so that a failed or
// killed import leaves nothing behind. Throws InputError when the file cannot be read.
ImportStats importSdf(HitStore& store, const std::string& path, const ImportOptions& options);

// Reads "query<TAB>hit<TAB>similarity" lines (the lingo command's --out) and stores, per pose
// whose name is a hit, the highest similarity. Returns the number of poses updated. Inside a
// transaction; a malformed line throws InputError naming file and line.
long importLingoHits(HitStore& store, const std::string& path);

} // namespace pw::hits
