#include "LigandPreparation.h"

#include "LigandPreparationSteps.h"
#include "PdbqtBondOrders.h"

#include "Ad4Typing.h"
#include "RdkitConvert.h"
#include "core/InputError.h"
#include "core/Rings.h"
#include "core/TorsionTreeBuilder.h"
#include "core/XsTyping.h"

#include <GraphMol/MolOps.h>
#include <GraphMol/PartialCharges/GasteigerCharges.h>
#include <GraphMol/SmilesParse/SmilesParse.h>
#include <GraphMol/Substruct/SubstructMatch.h>
#include <RDGeneral/RDLog.h>

#include <algorithm>
#include <cmath>

namespace pw {
namespace {

[[noreturn]] void refuse(const Molecule& m, const std::string& what) {
    throw InputError(m.sourceFile, m.sourceRecord, moleculeLabel(m) + " " + what);
}

// A copy holding only the atoms where keep[i] is true (bonds between kept atoms follow).
Molecule subset(const Molecule& m, const std::vector<bool>& keep) {
    Molecule out = m;
    out.atoms.clear();
    out.bonds.clear();
    out.torsionTree.reset();
    std::vector<int> index(m.atoms.size(), -1);
    for (size_t i = 0; i < m.atoms.size(); ++i)
        if (keep[i]) {
            index[i] = static_cast<int>(out.atoms.size());
            out.atoms.push_back(m.atoms[i]);
        }
    for (const Bond& b : m.bonds)
        if (index[b.a] >= 0 && index[b.b] >= 0)
            out.bonds.push_back({index[b.a], index[b.b], b.order, false});
    return out;
}

// Keeps the connected part with the most heavy atoms (salts, counter-ions, waters go).
Molecule largestFragment(const Molecule& m) {
    int count = 0;
    std::vector<int> comp = connectedComponents(m, &count);
    if (count <= 1)
        return m;
    std::vector<int> heavy(count, 0);
    for (size_t i = 0; i < m.atoms.size(); ++i)
        heavy[comp[i]] += m.atoms[i].element != 1;
    int best = static_cast<int>(std::max_element(heavy.begin(), heavy.end()) - heavy.begin());
    std::vector<bool> keep(m.atoms.size());
    for (size_t i = 0; i < m.atoms.size(); ++i)
        keep[i] = comp[i] == best;
    Molecule out = subset(m, keep);
    out.setProperty("pw_removed_fragments", std::to_string(count - 1));
    return out;
}

} // namespace

// True when the bonds carry no orders although the geometry shows multiple bonds: all bonds
// single, no hydrogens, and a C/N/O pair closer than any single bond between them (C-O 1.43,
// C-N 1.47, C-C 1.54 Å; double and aromatic bonds are 1.20-1.40 Å). That is a PDB ligand;
// sanitizing it as drawn would saturate every ring with hydrogens.
bool lacksBondOrders(const Molecule& m) {
    // A 2D drawing's bond lengths are the drawer's (Open Babel's cubane is drawn with 1.0 Å
    // bonds): they tell nothing about bond orders.
    if (isFlat(m))
        return false;
    for (const Atom& a : m.atoms)
        if (a.element == 1)
            return false;
    for (const Bond& b : m.bonds)
        if (b.order != BondOrder::Single)
            return false;
    auto isCno = [](int e) { return e == 6 || e == 7 || e == 8; };
    for (const Bond& b : m.bonds) {
        const Atom& x = m.atoms[b.a];
        const Atom& y = m.atoms[b.b];
        if (isCno(x.element) && isCno(y.element) && (x.position - y.position).norm() < 1.38)
            return true;
    }
    return false;
}

bool isFlat(const Molecule& m) {
    if (m.atoms.size() < 4)
        return false;
    auto [lo, hi] = m.boundingBox();
    return (hi - lo).minCoeff() < 1e-3;
}

namespace {

// Bounded 3D embedding (RdkitConvert's embed3D recipe with the options' limits), refused with
// the reason and the way out when it fails.
void embedBounded(RDKit::RWMol& mol, const Molecule& origin,
                  const LigandPreparationOptions& options) {
    const std::string failure =
        tryEmbed3D(mol, EmbedLimits{options.maxEmbedAttempts, options.maxEmbedSeconds});
    if (!failure.empty())
        refuse(origin, "has no 3D coordinates, and " + failure + " (" +
                           std::to_string(mol.getNumAtoms()) +
                           " atoms with hydrogens): give it with 3D coordinates");
}

Molecule keepPdbqtTree(const Molecule& input, const LigandPreparationOptions& options) {
    Molecule out = input;
    if (out.torsionTree->torsionCount() > options.maxTorsions)
        refuse(out, "has " + std::to_string(out.torsionTree->torsionCount()) +
                        " torsions; at most " + std::to_string(options.maxTorsions) +
                        " are accepted");
    std::string problem = checkTorsionTree(out, *out.torsionTree);
    if (!problem.empty())
        refuse(out, "has a broken torsion tree: " + problem);
    // The BRANCH axes are the rotatable bonds.
    for (Bond& b : out.bonds)
        b.rotatable = false;
    for (size_t k = 1; k < out.torsionTree->nodes.size(); ++k) {
        const TorsionNode& node = out.torsionTree->nodes[k];
        int bi = out.findBond(node.axisParentAtom, node.axisChildAtom);
        if (bi >= 0)
            out.bonds[bi].rotatable = true;
    }
    // Bond orders from Meeko's SMILES remarks, so that the ligand written as SDF is the same
    // chemistry (PDBQT itself carries no bond orders).
    applySmilesBondOrders(out);
    assignXsTypes(out);
    return out;
}

} // namespace

Molecule ligandWorkCopy(const Molecule& input, const LigandPreparationOptions& options) {
    Molecule work = options.keepLargestFragment ? largestFragment(input) : input;
    work.torsionTree.reset();
    return work;
}

bool hasConformer(const Molecule& m) {
    // toRdkit's rule for giving the RDKit molecule a conformer.
    return std::any_of(m.atoms.begin(), m.atoms.end(),
                       [](const Atom& a) { return a.position.squaredNorm() > 1e-12; });
}

Molecule prepareLigand(const Molecule& input, const LigandPreparationOptions& options) {
    return prepareLigandKeeping(input, options, nullptr);
}

Molecule prepareLigandKeeping(const Molecule& input, const LigandPreparationOptions& options,
                              std::unique_ptr<RDKit::RWMol>* sanitized) {
    if (input.atoms.empty())
        refuse(input, "has no atoms");
    if (input.heavyAtomCount() == 0)
        refuse(input, "has no heavy atoms");
    if (input.torsionTree) {
        bool typed = std::all_of(input.atoms.begin(), input.atoms.end(),
                                 [](const Atom& a) { return !a.ad4Type.empty(); });
        if (typed)
            return keepPdbqtTree(input, options);
    }

    Molecule work = ligandWorkCopy(input, options);
    if (work.heavyAtomCount() > options.maxHeavyAtoms)
        refuse(work, "has " + std::to_string(work.heavyAtomCount()) + " heavy atoms; at most " +
                         std::to_string(options.maxHeavyAtoms) +
                         " are accepted for a ligand (is it a receptor?)");
    if (lacksBondOrders(work))
        refuse(work, "has no bond orders (a PDB ligand?): give it as SDF or MOL2, or assign "
                     "bond orders from a SMILES of the compound");

    RDLog::LogStateSetter quiet; // RDKit's own warnings would repeat what we report
    std::unique_ptr<RDKit::RWMol> mol = toRdkit(work);
    sanitizeOrThrow(*mol, work);
    const bool needsCoordinates = mol->getNumConformers() == 0 || isFlat(work);
    if (sanitized && !needsCoordinates) // the state addHs starts from, for later poses
        *sanitized = std::make_unique<RDKit::RWMol>(*mol);
    RDKit::MolOps::addHs(*mol, /*explicitOnly=*/false, /*addCoords=*/!needsCoordinates);
    if (needsCoordinates) {
        // The graph alone decides the types and the torsions: refuse before the embedding, which
        // is the one slow step (minutes for a flat 300-atom input with RDKit's defaults).
        Molecule graph = fromRdkit(*mol, work);
        assignAd4Types(graph);
        const int torsions = markRotatableBonds(graph, options.bonds);
        if (torsions > options.maxTorsions)
            refuse(graph, "has " + std::to_string(torsions) + " torsions; at most " +
                              std::to_string(options.maxTorsions) + " are accepted");
        embedBounded(*mol, work, options);
    }
    if (options.computeCharges)
        RDKit::computeGasteigerCharges(*mol, 12, /*throwOnParamFailure=*/false);

    Molecule out = fromRdkit(*mol, work);
    if (!options.computeCharges)
        for (size_t i = work.atoms.size(); i < out.atoms.size(); ++i)
            out.atoms[i].charge = 0.0;
    assignAd4Types(out);
    assignXsTypes(out);
    int torsions = markRotatableBonds(out, options.bonds);
    if (torsions > options.maxTorsions)
        refuse(out, "has " + std::to_string(torsions) + " torsions; at most " +
                        std::to_string(options.maxTorsions) + " are accepted");
    out.torsionTree = buildTorsionTree(out);
    return out;
}

Molecule assignBondOrdersFromTemplate(const Molecule& input, const std::string& smiles) {
    RDLog::LogStateSetter quiet;
    std::unique_ptr<RDKit::RWMol> tmpl;
    try {
        tmpl.reset(RDKit::SmilesToMol(smiles));
    } catch (const std::exception&) {
        tmpl.reset(); // sanitization failure: reported below like a parse failure
    }
    if (!tmpl)
        refuse(input,
               "cannot take bond orders from SMILES '" + smiles + "': expected a valid SMILES");
    RDKit::MolOps::removeAllHs(*tmpl);
    RDKit::MolOps::Kekulize(*tmpl, /*markAtomsBonds=*/true);

    std::vector<bool> heavy(input.atoms.size());
    for (size_t i = 0; i < input.atoms.size(); ++i)
        heavy[i] = input.atoms[i].element != 1;
    Molecule target = subset(input, heavy);
    if (target.atoms.size() != tmpl->getNumAtoms())
        refuse(input, "has " + std::to_string(target.atoms.size()) +
                          " heavy atoms but the template SMILES '" + smiles + "' has " +
                          std::to_string(tmpl->getNumAtoms()));

    // Match on elements and connectivity only: both sides as plain single-bonded graphs.
    RDKit::RWMol bare(*tmpl);
    for (RDKit::Atom* a : bare.atoms()) {
        a->setFormalCharge(0);
        a->setIsAromatic(false);
        a->setNumExplicitHs(0);
        a->setNoImplicit(true);
    }
    for (RDKit::Bond* b : bare.bonds()) {
        b->setBondType(RDKit::Bond::SINGLE);
        b->setIsAromatic(false);
    }
    for (Bond& b : target.bonds)
        b.order = BondOrder::Single;
    for (Atom& a : target.atoms)
        a.formalCharge = 0;
    std::unique_ptr<RDKit::RWMol> graph = toRdkit(target);
    for (RDKit::Atom* a : graph->atoms())
        a->setNoImplicit(true);
    graph->updatePropertyCache(false);
    bare.updatePropertyCache(false);
    RDKit::MolOps::fastFindRings(*graph);
    RDKit::MolOps::fastFindRings(bare);
    RDKit::MatchVectType match;
    if (target.bonds.size() != bare.getNumBonds() || !RDKit::SubstructMatch(*graph, bare, match))
        refuse(input, "does not match the template SMILES '" + smiles +
                          "' (different elements or connectivity)");

    std::vector<int> toTarget(tmpl->getNumAtoms(), -1);
    for (const auto& [t, g] : match) {
        toTarget[t] = g;
        target.atoms[g].formalCharge = tmpl->getAtomWithIdx(t)->getFormalCharge();
        target.atoms[g].aromatic = false; // sanitization perceives it again
    }
    for (const RDKit::Bond* tb : tmpl->bonds()) {
        int ga = toTarget[tb->getBeginAtomIdx()];
        int gb = toTarget[tb->getEndAtomIdx()];
        int bi = target.findBond(ga, gb);
        switch (tb->getBondType()) {
        case RDKit::Bond::DOUBLE:
            target.bonds[bi].order = BondOrder::Double;
            break;
        case RDKit::Bond::TRIPLE:
            target.bonds[bi].order = BondOrder::Triple;
            break;
        default:
            target.bonds[bi].order = BondOrder::Single;
            break;
        }
    }
    return target;
}

} // namespace pw
