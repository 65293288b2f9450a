// MoleculeDescriptors: RDKit's descriptor calculators on the sanitized, hydrogen-free molecule,
// and QED from the paper's desirability functions (QedPatterns.h holds every published number).
#include "MoleculeDescriptors.h"

#include "QedPatterns.h"
#include "RdkitConvert.h"
#include "core/InputError.h"

#include <GraphMol/ChemTransforms/ChemTransforms.h>
#include <GraphMol/Descriptors/Crippen.h>
#include <GraphMol/Descriptors/Lipinski.h>
#include <GraphMol/Descriptors/MolDescriptors.h>
#include <GraphMol/Descriptors/MolSurf.h>
#include <GraphMol/MolOps.h>
#include <GraphMol/SmilesParse/SmilesParse.h>
#include <GraphMol/SmilesParse/SmilesWrite.h>
#include <GraphMol/Substruct/SubstructMatch.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

namespace pw {
namespace {

using PatternList = std::vector<std::unique_ptr<RDKit::ROMol>>;

template <size_t N> PatternList compile(const char* const (&smarts)[N]) {
    PatternList out;
    for (const char* s : smarts) {
        out.emplace_back(RDKit::SmartsToMol(s));
        if (!out.back())
            throw std::logic_error(std::string("QED pattern does not parse: ") + s);
    }
    return out;
}

// Compiled once (thread-safe static initialisation), then only read.
const PatternList& acceptorPatterns() {
    static const PatternList list = compile(qed::kAcceptorSmarts);
    return list;
}
const PatternList& alertPatterns() {
    static const PatternList list = compile(qed::kAlertSmarts);
    return list;
}
const RDKit::ROMol& aliphaticRingAtom() {
    static const std::unique_ptr<RDKit::ROMol> q(RDKit::SmartsToMol(qed::kAliphaticRingAtom));
    return *q;
}

// Paper eq. 1: asymmetric double sigmoid, scaled by its maximum so that the best value is 1.
double desirability(double x, const qed::Desirability& p) {
    const double rise = 1.0 + std::exp(-(x - p.c + p.d / 2.0) / p.e);
    const double fall = 1.0 + std::exp(-(x - p.c - p.d / 2.0) / p.f);
    return (p.a + p.b / rise * (1.0 - 1.0 / fall)) / p.dmax;
}

QedProperties qedInputs(const RDKit::ROMol& mol) {
    QedProperties p;
    p.mw = RDKit::Descriptors::calcAMW(mol);
    p.alogp = RDKit::Descriptors::calcClogP(mol);
    for (const auto& pattern : acceptorPatterns()) {
        std::vector<RDKit::MatchVectType> matches;
        p.hba += static_cast<int>(RDKit::SubstructMatch(mol, *pattern, matches));
    }
    p.hbd = static_cast<int>(RDKit::Descriptors::calcNumHBD(mol));
    p.psa = RDKit::Descriptors::calcTPSA(mol);
    p.rotb = static_cast<int>(
        RDKit::Descriptors::calcNumRotatableBonds(mol, RDKit::Descriptors::Strict));
    std::unique_ptr<RDKit::ROMol> aromaticPart(RDKit::deleteSubstructs(mol, aliphaticRingAtom()));
    RDKit::VECT_INT_VECT rings;
    p.arom = RDKit::MolOps::findSSSR(*aromaticPart, rings);
    for (const auto& pattern : alertPatterns()) {
        RDKit::MatchVectType match;
        p.alerts += RDKit::SubstructMatch(mol, *pattern, match) ? 1 : 0;
    }
    return p;
}

MoleculeDescriptors describe(RDKit::ROMol& mol) {
    MoleculeDescriptors d;
    d.smiles = RDKit::MolToSmiles(mol, /*doIsomericSmiles=*/true);
    d.mw = RDKit::Descriptors::calcAMW(mol);
    d.clogp = RDKit::Descriptors::calcClogP(mol);
    d.hbd = static_cast<int>(RDKit::Descriptors::calcNumHBD(mol));
    d.hba = static_cast<int>(RDKit::Descriptors::calcNumHBA(mol));
    d.tpsa = RDKit::Descriptors::calcTPSA(mol);
    d.rotatableBonds = static_cast<int>(
        RDKit::Descriptors::calcNumRotatableBonds(mol, RDKit::Descriptors::Strict));
    d.heavyAtoms = static_cast<int>(mol.getNumHeavyAtoms());
    d.qedInputs = qedInputs(mol);
    d.qed = qedScore(d.qedInputs);
    return d;
}

} // namespace

double qedScore(const QedProperties& p) {
    const double x[qed::kPropertyCount] = {p.mw,  p.alogp,        double(p.hba),  double(p.hbd),
                                           p.psa, double(p.rotb), double(p.arom), double(p.alerts)};
    double weighted = 0, weights = 0;
    for (int i = 0; i < qed::kPropertyCount; ++i) {
        weighted += qed::kMeanWeights[i] * std::log(desirability(x[i], qed::kDesirability[i]));
        weights += qed::kMeanWeights[i];
    }
    return std::exp(weighted / weights);
}

// Coordinates off the z = 0 plane: a real 3D pose whose geometry fixes its stereochemistry
// (a flat 2D drawing does not).
bool hasDepth(const Molecule& m) {
    double lo = 0, hi = 0;
    for (size_t i = 0; i < m.atoms.size(); ++i) {
        const double z = m.atoms[i].position.z();
        lo = i ? std::min(lo, z) : z;
        hi = i ? std::max(hi, z) : z;
    }
    return hi - lo > 0.01;
}

// Sanitized, stereochemistry from a 3D pose's coordinates (poses carry it in their coordinates
// only, and the canonical SMILES keeps it), hydrogens removed.
std::unique_ptr<RDKit::RWMol> preparedForDescriptors(const Molecule& m) {
    std::unique_ptr<RDKit::RWMol> mol = toRdkit(m);
    sanitizeOrThrow(*mol, m);
    if (mol->getNumConformers() && hasDepth(m))
        RDKit::MolOps::assignStereochemistryFrom3D(*mol);
    RDKit::MolOps::removeHs(*mol);
    return mol;
}

MoleculeDescriptors computeDescriptors(const Molecule& m) {
    return describe(*preparedForDescriptors(m));
}

std::string poseSmiles(const Molecule& m) {
    return RDKit::MolToSmiles(*preparedForDescriptors(m), /*doIsomericSmiles=*/true);
}

MoleculeDescriptors descriptorsFromSmiles(const std::string& smiles) {
    std::unique_ptr<RDKit::RWMol> mol;
    try {
        mol.reset(RDKit::SmilesToMol(smiles));
    } catch (const std::exception&) {
        mol.reset();
    }
    if (!mol)
        throw InputError("<smiles>", 0, "cannot parse SMILES '" + smiles + "'");
    return describe(*mol);
}

} // namespace pw
