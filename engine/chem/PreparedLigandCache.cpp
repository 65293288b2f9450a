#include "PreparedLigandCache.h"

#include "LigandPreparationSteps.h"

#include <GraphMol/Conformer.h>
#include <GraphMol/MolOps.h>
#include <RDGeneral/RDLog.h>

#include <cstring>
#include <functional>

namespace pw {

struct PreparedLigandCache::Entry {
    size_t hash = 0;
    Molecule topology;                       // the first input of this topology
    Molecule prepared;                       // its prepareLigand result
    std::shared_ptr<const RDKit::RWMol> mol; // sanitized, before addHs
    size_t workAtoms = 0;                    // atoms before addHs (the rest are added hydrogens)
};

namespace {

// FNV-1a over everything prepareLigand reads from the input except coordinates, name, SD tags
// and source (those are carried per record).
struct Hasher {
    size_t h = 1469598103934665603ull;
    void bytes(const void* p, size_t n) {
        const auto* c = static_cast<const unsigned char*>(p);
        for (size_t i = 0; i < n; ++i)
            h = (h ^ c[i]) * 1099511628211ull;
    }
    template <class T> void value(const T& v) { bytes(&v, sizeof v); }
    void text(const std::string& s) {
        value(s.size());
        bytes(s.data(), s.size());
    }
};

size_t topologyHash(const Molecule& m) {
    Hasher h;
    h.value(m.atoms.size());
    for (const Atom& a : m.atoms) {
        h.value(a.element), h.value(a.formalCharge), h.value(a.aromatic), h.value(a.charge);
        h.value(a.residue), h.value(a.serial), h.value(a.xs);
        h.text(a.name), h.text(a.ad4Type);
    }
    h.value(m.bonds.size());
    for (const Bond& b : m.bonds)
        h.value(b.a), h.value(b.b), h.value(b.order), h.value(b.rotatable);
    h.value(m.residues.size());
    for (const Residue& r : m.residues)
        h.text(r.name), h.value(r.number), h.value(r.chain), h.value(r.insertion),
            h.value(r.hetero);
    return h.h;
}

bool sameTopology(const Molecule& x, const Molecule& y) {
    if (x.atoms.size() != y.atoms.size() || x.bonds.size() != y.bonds.size() ||
        x.residues.size() != y.residues.size())
        return false;
    for (size_t i = 0; i < x.atoms.size(); ++i) {
        const Atom& a = x.atoms[i];
        const Atom& b = y.atoms[i];
        // Partial charges compared bit for bit (they are copied when Gasteiger fails).
        if (a.element != b.element || a.formalCharge != b.formalCharge ||
            a.aromatic != b.aromatic || std::memcmp(&a.charge, &b.charge, sizeof a.charge) != 0 ||
            a.residue != b.residue || a.serial != b.serial || a.xs != b.xs || a.name != b.name ||
            a.ad4Type != b.ad4Type)
            return false;
    }
    for (size_t i = 0; i < x.bonds.size(); ++i) {
        const Bond& a = x.bonds[i];
        const Bond& b = y.bonds[i];
        if (a.a != b.a || a.b != b.b || a.order != b.order || a.rotatable != b.rotatable)
            return false;
    }
    for (size_t i = 0; i < x.residues.size(); ++i) {
        const Residue& a = x.residues[i];
        const Residue& b = y.residues[i];
        if (a.name != b.name || a.number != b.number || a.chain != b.chain ||
            a.insertion != b.insertion || a.hetero != b.hetero)
            return false;
    }
    return true;
}

} // namespace

PreparedLigandCache::PreparedLigandCache(LigandPreparationOptions options, size_t capacity)
    : options_(std::move(options)), capacity_(std::max<size_t>(capacity, 1)) {}

PreparedLigandCache::~PreparedLigandCache() = default;

std::shared_ptr<const PreparedLigandCache::Entry> PreparedLigandCache::find(const Molecule& input,
                                                                            size_t hash) const {
    std::vector<std::shared_ptr<const Entry>> candidates;
    {
        std::lock_guard lock(mutex_);
        for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
            if ((*it)->hash == hash)
                candidates.push_back(*it);
    }
    for (auto& e : candidates) // compared outside the lock: entries never change
        if (sameTopology(e->topology, input))
            return e;
    return nullptr;
}

Molecule PreparedLigandCache::prepare(const Molecule& input) {
    if (input.torsionTree || input.atoms.empty()) {
        ++fresh_;
        return prepareLigand(input, options_);
    }
    const size_t hash = topologyHash(input);
    if (auto entry = find(input, hash)) {
        Molecule work = ligandWorkCopy(input, options_);
        // The decisions prepareLigand takes from coordinates must come out as they did for the
        // kept record (coordinates used as given, bond orders trusted); otherwise: from scratch.
        if (hasConformer(work) && !isFlat(work) && !lacksBondOrders(work)) {
            ++reused_;
            return reuse(*entry, work);
        }
        ++fresh_;
        return prepareLigand(input, options_);
    }
    ++fresh_;
    std::unique_ptr<RDKit::RWMol> mol;
    Molecule prepared = prepareLigandKeeping(input, options_, &mol); // a refusal is not kept
    if (!mol)
        return prepared;
    auto entry = std::make_shared<Entry>();
    entry->hash = hash;
    entry->topology = input;
    entry->topology.name.clear();
    entry->topology.properties.clear();
    entry->prepared = prepared;
    entry->workAtoms = mol->getNumAtoms();
    entry->mol = std::move(mol);
    std::lock_guard lock(mutex_);
    entries_.push_back(std::move(entry));
    if (entries_.size() > capacity_)
        entries_.pop_front();
    return prepared;
}

Molecule PreparedLigandCache::reuse(const Entry& entry, const Molecule& work) const {
    // As fromRdkit(mol, work): per-record fields from the work copy, the rest from the kept
    // preparation, coordinates of the input atoms as read.
    Molecule out = entry.prepared;
    out.name = work.name;
    out.properties = work.properties;
    out.residues = work.residues;
    out.sourceFile = work.sourceFile;
    out.sourceRecord = work.sourceRecord;
    for (size_t i = 0; i < entry.workAtoms; ++i)
        out.atoms[i].position = work.atoms[i].position;
    if (out.atoms.size() == entry.workAtoms)
        return out;
    // Added hydrogens sit where RDKit puts them for THESE coordinates: the same addHs call as
    // prepareLigand, on a copy of the same sanitized molecule with this record's conformer.
    RDLog::LogStateSetter quiet;
    RDKit::RWMol mol(*entry.mol);
    RDKit::Conformer& conf = mol.getConformer();
    for (size_t i = 0; i < entry.workAtoms; ++i) {
        const Vec3& p = work.atoms[i].position;
        conf.setAtomPos(static_cast<unsigned>(i), RDGeom::Point3D(p.x(), p.y(), p.z()));
    }
    RDKit::MolOps::addHs(mol, /*explicitOnly=*/false, /*addCoords=*/true);
    const RDKit::Conformer& withH = mol.getConformer();
    for (size_t i = entry.workAtoms; i < out.atoms.size(); ++i) {
        const RDGeom::Point3D& p = withH.getAtomPos(static_cast<unsigned>(i));
        out.atoms[i].position = Vec3(p.x, p.y, p.z);
    }
    return out;
}

} // namespace pw
