#include "RdkitConvert.h"

#include "core/Element.h"
#include "core/InputError.h"

#include <GraphMol/Conformer.h>
#include <GraphMol/DistGeomHelpers/Embedder.h>
#include <GraphMol/ForceFieldHelpers/MMFF/MMFF.h>
#include <GraphMol/ForceFieldHelpers/UFF/UFF.h>
#include <GraphMol/MolOps.h>
#include <GraphMol/MonomerInfo.h>
#include <GraphMol/SanitException.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

namespace pw {
namespace {

// Fixed seed: the same input always gives the same conformer (reproducible runs and tests).
constexpr int kEmbedSeed = 0x5eed;
constexpr int kForceFieldIterations = 2000;

} // namespace

std::string moleculeLabel(const Molecule& m) {
    return m.name.empty() ? std::string("molecule") : "molecule '" + m.name + "'";
}

std::unique_ptr<RDKit::RWMol> toRdkit(const Molecule& m) {
    auto mol = std::make_unique<RDKit::RWMol>();
    bool hasCoords = false;
    for (const Atom& a : m.atoms) {
        auto* ra = new RDKit::Atom(a.element);
        ra->setFormalCharge(a.formalCharge);
        const Residue* res = a.residue >= 0 && a.residue < static_cast<int>(m.residues.size())
                                 ? &m.residues[a.residue]
                                 : nullptr;
        if (!a.name.empty() || res) {
            auto* info = new RDKit::AtomPDBResidueInfo(a.name, a.serial);
            if (res) {
                info->setResidueName(res->name);
                info->setResidueNumber(res->number);
                info->setChainId(std::string(1, res->chain));
                info->setInsertionCode(std::string(1, res->insertion));
                info->setIsHeteroAtom(res->hetero);
            }
            ra->setMonomerInfo(info);
        }
        mol->addAtom(ra, /*updateLabel=*/false, /*takeOwnership=*/true);
        hasCoords = hasCoords || a.position.squaredNorm() > 1e-12;
    }
    for (const Bond& b : m.bonds) {
        RDKit::Bond::BondType t = RDKit::Bond::SINGLE;
        switch (b.order) {
        case BondOrder::Single:
            t = RDKit::Bond::SINGLE;
            break;
        case BondOrder::Double:
            t = RDKit::Bond::DOUBLE;
            break;
        case BondOrder::Triple:
            t = RDKit::Bond::TRIPLE;
            break;
        case BondOrder::Aromatic:
            t = RDKit::Bond::AROMATIC;
            break;
        }
        // RDKit aborts a second bond between two atoms with an exception of its own; the readers
        // refuse it with its line, this covers molecules made any other way.
        if (mol->getBondBetweenAtoms(static_cast<unsigned>(b.a), static_cast<unsigned>(b.b)))
            throw InputError(m.sourceFile, m.sourceRecord,
                             moleculeLabel(m) + ": atoms " + std::to_string(b.a + 1) + " and " +
                                 std::to_string(b.b + 1) + " are bonded twice");
        unsigned n = mol->addBond(static_cast<unsigned>(b.a), static_cast<unsigned>(b.b), t);
        if (b.order == BondOrder::Aromatic) {
            RDKit::Bond* rb = mol->getBondWithIdx(n - 1);
            rb->setIsAromatic(true);
            rb->getBeginAtom()->setIsAromatic(true);
            rb->getEndAtom()->setIsAromatic(true);
        }
    }
    if (hasCoords) {
        auto* conf = new RDKit::Conformer(m.atoms.size());
        conf->set3D(true);
        for (size_t i = 0; i < m.atoms.size(); ++i) {
            const Vec3& p = m.atoms[i].position;
            conf->setAtomPos(static_cast<unsigned>(i), RDGeom::Point3D(p.x(), p.y(), p.z()));
        }
        mol->addConformer(conf, /*assignId=*/true);
    }
    return mol;
}

void sanitizeOrThrow(RDKit::RWMol& mol, const Molecule& origin) {
    try {
        RDKit::MolOps::sanitizeMol(mol);
    } catch (const RDKit::MolSanitizeException& e) {
        throw InputError(origin.sourceFile, origin.sourceRecord,
                         moleculeLabel(origin) + " is not a valid structure (" + e.what() +
                             "): check bond orders, charges and hydrogens");
    }
}

Molecule fromRdkit(const RDKit::ROMol& mol, const Molecule& origin) {
    Molecule out;
    out.name = origin.name;
    out.properties = origin.properties;
    out.residues = origin.residues;
    out.sourceFile = origin.sourceFile;
    out.sourceRecord = origin.sourceRecord;

    const RDKit::Conformer* conf = mol.getNumConformers() ? &mol.getConformer() : nullptr;
    out.atoms.resize(mol.getNumAtoms());
    for (const RDKit::Atom* ra : mol.atoms()) {
        const unsigned i = ra->getIdx();
        Atom& a = out.atoms[i];
        if (i < origin.atoms.size()) {
            const Atom& o = origin.atoms[i];
            a.name = o.name;
            a.residue = o.residue;
            a.serial = o.serial;
        }
        a.element = ra->getAtomicNum();
        a.formalCharge = ra->getFormalCharge();
        a.aromatic = ra->getIsAromatic();
        double q = 0.0;
        if (ra->getPropIfPresent<double>("_GasteigerCharge", q) && std::isfinite(q))
            a.charge = q;
        else if (i < origin.atoms.size())
            a.charge = origin.atoms[i].charge;
        if (conf) {
            const RDGeom::Point3D& p = conf->getAtomPos(i);
            a.position = Vec3(p.x, p.y, p.z);
        }
    }
    // Kekulé orders keep the file formats honest; the aromatic flags stay on the atoms.
    RDKit::RWMol kek(mol);
    bool kekule = true;
    try {
        RDKit::MolOps::Kekulize(kek, /*markAtomsBonds=*/false);
    } catch (const RDKit::MolSanitizeException&) {
        kekule = false; // keep aromatic bond orders rather than fail
    }
    const RDKit::ROMol& src = kekule ? static_cast<const RDKit::ROMol&>(kek) : mol;
    for (const RDKit::Bond* rb : src.bonds()) {
        Bond b;
        b.a = static_cast<int>(rb->getBeginAtomIdx());
        b.b = static_cast<int>(rb->getEndAtomIdx());
        switch (rb->getBondType()) {
        case RDKit::Bond::DOUBLE:
            b.order = BondOrder::Double;
            break;
        case RDKit::Bond::TRIPLE:
            b.order = BondOrder::Triple;
            break;
        case RDKit::Bond::AROMATIC:
            b.order = BondOrder::Aromatic;
            break;
        default:
            b.order = BondOrder::Single;
            break;
        }
        out.bonds.push_back(b);
    }
    // Added hydrogens: named by element (as Meeko and ADT write them), residue of their parent.
    for (size_t i = origin.atoms.size(); i < out.atoms.size(); ++i) {
        Atom& a = out.atoms[i];
        if (a.name.empty())
            a.name = std::string(elementSymbol(a.element));
        for (const RDKit::Atom* nb : mol.atomNeighbors(mol.getAtomWithIdx(i))) {
            a.residue = out.atoms[nb->getIdx()].residue;
            break;
        }
    }
    return out;
}

} // namespace pw

namespace pw {

namespace {
// RDKit 2022.09 (Debian 12) has no embedding timeout; its per-attempt callback is the one hook, and
// a plain function pointer, so the deadline travels in a thread_local and the callback throws.
using EmbedClock = std::chrono::steady_clock;
thread_local EmbedClock::time_point embedDeadline;
struct EmbedTimeout {};
void checkEmbedDeadline(unsigned int) {
    if (EmbedClock::now() > embedDeadline)
        throw EmbedTimeout{};
}
} // namespace

std::string tryEmbed3D(RDKit::RWMol& mol, const EmbedLimits& limits) {
    mol.clearConformers();
    RDKit::DGeomHelpers::EmbedParameters params = RDKit::DGeomHelpers::ETKDGv3;
    params.randomSeed = kEmbedSeed;
    params.maxIterations = unsigned(std::max(1, limits.maxAttempts));
    params.callback = checkEmbedDeadline;
    embedDeadline = EmbedClock::now() + std::chrono::duration_cast<EmbedClock::duration>(
                                            std::chrono::duration<double>(limits.maxSeconds));
    int conf = -1;
    try {
        conf = RDKit::DGeomHelpers::EmbedMolecule(mol, params);
        if (conf < 0) {
            // Strained or large systems embed more often from random starting coordinates.
            params.useRandomCoords = true;
            conf = RDKit::DGeomHelpers::EmbedMolecule(mol, params);
        }
    } catch (const EmbedTimeout&) {
        mol.clearConformers();
        std::ostringstream limit;
        limit << limits.maxSeconds;
        return "generating them took longer than " + limit.str() + " s";
    }
    if (conf < 0)
        return "none could be generated in 2 x " + std::to_string(params.maxIterations) +
               " attempts";
    RDKit::MMFF::MMFFMolProperties props(mol);
    if (props.isValid())
        RDKit::MMFF::MMFFOptimizeMolecule(mol, kForceFieldIterations);
    else // MMFF94 lacks parameters for some elements (e.g. B, Se): UFF covers them
        RDKit::UFF::UFFOptimizeMolecule(mol, kForceFieldIterations);
    return {};
}

void embed3D(RDKit::RWMol& mol, const Molecule& origin, const EmbedLimits& limits) {
    const std::string failure = tryEmbed3D(mol, limits);
    if (!failure.empty())
        throw InputError(origin.sourceFile, origin.sourceRecord,
                         "could not generate 3D coordinates for " + moleculeLabel(origin) + ": " +
                             failure);
}

} // namespace pw
