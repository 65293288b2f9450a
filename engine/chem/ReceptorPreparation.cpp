#include "ReceptorPreparation.h"

#include "Ad4Typing.h"
#include "RdkitConvert.h"
#include "ReceptorProtonation.h"
#include "core/BondPerception.h"
#include "core/InputError.h"
#include "core/Rings.h"
#include "core/XsTyping.h"

#include <GraphMol/PartialCharges/GasteigerCharges.h>
#include <RDGeneral/RDLog.h>

#include <algorithm>
#include <cmath>

namespace pw {
namespace {

// Longest bond (Å) still counted as multiple or aromatic. Typical lengths (Allen et al., J. Chem.
// Soc. Perkin Trans. 2, 1987, S1): C-C 1.53 / aromatic 1.39 / C=C 1.34; C-N 1.47 / amide and
// aromatic 1.33-1.38; C-O 1.43 / phenol 1.36 / C=O and carboxylate 1.21-1.26.
double shortBondLimit(int e1, int e2) {
    if (e1 > e2)
        std::swap(e1, e2);
    if (e1 == 6 && e2 == 6)
        return 1.45;
    if (e1 == 6 && e2 == 7)
        return 1.40;
    if (e1 == 6 && e2 == 8)
        return 1.31;
    if (e1 == 7 && e2 == 7)
        return 1.35;
    return 0.0; // other pairs never decide sp2 here
}

bool hasPolarHydrogens(const Molecule& m) {
    for (const Bond& b : m.bonds) {
        const int x = m.atoms[b.a].element, y = m.atoms[b.b].element;
        if ((x == 1 && (y == 7 || y == 8)) || (y == 1 && (x == 7 || x == 8)))
            return true;
    }
    return false;
}

std::string receptorName(const Molecule& m) {
    return m.sourceFile.empty() ? (m.name.empty() ? std::string("<receptor>") : m.name)
                                : m.sourceFile;
}

} // namespace

Molecule prepareReceptor(const Molecule& input, const ReceptorPreparationOptions& options) {
    Molecule m = input;
    m.torsionTree.reset();
    if (m.atoms.empty())
        throw InputError(m.sourceFile, 0, "receptor " + receptorName(m) + " has no atoms");
    if (std::all_of(m.atoms.begin(), m.atoms.end(),
                    [](const Atom& a) { return !a.ad4Type.empty(); })) {
        assignXsTypes(m); // PDBQT: types and charges as given
        return m;
    }
    if (m.bonds.empty())
        perceiveBonds(m);
    if (!hasPolarHydrogens(m)) {
        const std::string refusal = "receptor " + receptorName(m) +
                                    " has no polar hydrogens: add them (e.g. reduce, pdbfixer, "
                                    "or openbabel -h) or give a PDBQT";
        if (!options.addPolarHydrogens)
            throw InputError(m.sourceFile, 0, refusal);
        const ProtonationReport report = addPolarHydrogens(m, options.pH);
        if (report.hydrogensAdded == 0)
            throw InputError(m.sourceFile, 0,
                             refusal + " (it has no standard amino-acid residues to protonate)");
        if (options.note)
            options.note(InputError::format(m.sourceFile, 0,
                                            "receptor had no polar hydrogens: " +
                                                report.summary(options.pH)));
    }
    const int n = static_cast<int>(m.atoms.size());
    const auto adj = m.neighbours();

    // Short (multiple or aromatic) bonds from geometry.
    std::vector<bool> shortBond(m.bonds.size(), false);
    std::vector<int> shortCount(n, 0);
    for (size_t i = 0; i < m.bonds.size(); ++i) {
        const Atom& x = m.atoms[m.bonds[i].a];
        const Atom& y = m.atoms[m.bonds[i].b];
        if ((x.position - y.position).norm() < shortBondLimit(x.element, y.element)) {
            shortBond[i] = true;
            ++shortCount[m.bonds[i].a];
            ++shortCount[m.bonds[i].b];
        }
    }
    // Aromatic: ring atoms with two short ring bonds (Phe, Tyr, Trp, His rings; not Pro).
    const RingMembership rings = findRingMembership(m);
    std::vector<int> shortRingBonds(n, 0);
    for (size_t i = 0; i < m.bonds.size(); ++i)
        if (shortBond[i] && rings.bondInRing[i]) {
            ++shortRingBonds[m.bonds[i].a];
            ++shortRingBonds[m.bonds[i].b];
        }
    std::vector<bool> sp2(n, false);
    for (int i = 0; i < n; ++i) {
        Atom& a = m.atoms[i];
        a.aromatic = rings.atomInRing[i] && shortRingBonds[i] >= 2 && a.element != 1;
        sp2[i] = a.element == 6 && (shortCount[i] > 0 || a.aromatic);
        a.formalCharge = 0;
    }

    // Charged groups, from connection counts (the hydrogens are there).
    auto count = [&](int i) { return static_cast<int>(adj[i].size()); };
    for (int i = 0; i < n; ++i) {
        const Atom& a = m.atoms[i];
        if (a.element == 7 && count(i) == 4)
            m.atoms[i].formalCharge = 1; // ammonium (Lys, N-terminus)
        if (a.element != 6 || !sp2[i])
            continue;
        std::vector<int> bareO, nh;
        bool carbonyl = false, imine = false;
        for (int nb : adj[i]) {
            bool isShort = shortBond[m.findBond(i, nb)];
            if (m.atoms[nb].element == 8 && count(nb) == 1)
                bareO.push_back(nb);
            if (m.atoms[nb].element == 8 && isShort)
                carbonyl = true;
            if (m.atoms[nb].element == 7 && count(nb) == 3 && isShort)
                nh.push_back(nb);
            // An =N- or =NH (two connections, not in a ring): a neutral amidine or guanidine.
            if (m.atoms[nb].element == 7 && count(nb) == 2 && !rings.atomInRing[nb])
                imine = true;
        }
        if (bareO.size() == 2)
            m.atoms[bareO[1]].formalCharge = -1; // carboxylate (Asp, Glu, C-terminus)
        else if (!carbonyl && !imine && nh.size() >= 2)
            m.atoms[nh[0]].formalCharge = 1; // guanidinium (Arg), imidazolium (His+)
    }

    assignAd4Types(m, sp2, /*refuseUnknown=*/false);
    assignXsTypes(m);

    if (options.computeCharges) {
        RDLog::LogStateSetter quiet;
        std::unique_ptr<RDKit::RWMol> mol = toRdkit(m);
        for (RDKit::Atom* ra : mol->atoms()) {
            const Atom& a = m.atoms[ra->getIdx()];
            ra->setNoImplicit(true); // the hydrogens that are missing stay missing
            bool planar = a.aromatic || (a.element == 6 && sp2[ra->getIdx()]) ||
                          (a.element == 8 && shortCount[ra->getIdx()] > 0) ||
                          (a.element == 7 && count(ra->getIdx()) == 3 &&
                           std::any_of(adj[ra->getIdx()].begin(), adj[ra->getIdx()].end(),
                                       [&](int nb) { return sp2[nb] || m.atoms[nb].aromatic; }));
            ra->setHybridization(a.element == 1 ? RDKit::Atom::S
                                 : planar       ? RDKit::Atom::SP2
                                                : RDKit::Atom::SP3);
            ra->setIsAromatic(a.aromatic);
        }
        mol->updatePropertyCache(false);
        std::vector<double> charges(mol->getNumAtoms(), 0.0);
        RDKit::computeGasteigerCharges(*mol, charges, 12, /*throwOnParamFailure=*/false);
        for (int i = 0; i < n; ++i)
            m.atoms[i].charge = std::isfinite(charges[i]) ? charges[i] : 0.0;
    }
    return m;
}

} // namespace pw
