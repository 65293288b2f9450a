#include "ShapeFeatures.h"

#include "RdkitConvert.h"

#include <GraphMol/RingInfo.h>
#include <GraphMol/SmilesParse/SmilesParse.h>
#include <GraphMol/Substruct/SubstructMatch.h>

#include <memory>
#include <mutex>

namespace pw {
namespace {

// Our own SMARTS, in the spirit of the Mills & Dean implicit colour types (J. Comput.-Aided
// Mol. Des. 1996, 10, 607) that ROCS uses: one atom per feature, hydrogens implicit.
struct Pattern {
    shape::ColourType type;
    const char* smarts;
};
const Pattern kPatterns[] = {
    // N or O carrying a hydrogen (amide NH, amine NH, hydroxyl, aromatic NH).
    {shape::ColourType::Donor, "[#7,#8;!H0;+0,+1]"},
    // Oxygens (not nitro's), pyridine-like aromatic N, nitrile N.
    {shape::ColourType::Acceptor, "[$([#8;!$([#8]~[#7+]);!$([#8;H1]);+0,-1]),$([OH1;!$(O-C=O)]),"
                                  "$([n;H0;+0;X2]),$([N;H0;+0]#*)]"},
    // Charged cations and basic amines (sp3 N not on an aryl, carbonyl, sulfonyl or heteroatom);
    // amidine/guanidine carbon.
    {shape::ColourType::Cation,
     "[$([*+;!$(*~[*-])]),$([NX3;H0,H1,H2;!$(N-a);!$(N-[#6,#16,#15]=[#7,#8,#16]);!$(N-[#7,#8]);"
     "!$(N-C=C)]),$([CX3](=[NX2;!a])([NX3])[#6,#7,#1])]"},
    // Charged anions and acids (carboxylic, sulfonic, phosphonic, tetrazole NH).
    {shape::ColourType::Anion,
     "[$([*-;!$(*~[*+])]),$([OH1]-[C,S,P]=O),$([nH1]1nnnc1),$(n1[nH1]nnc1)]"},
    // Non-polar carbons and heavy halogens, aromatic carbons excluded (the ring is its own type).
    {shape::ColourType::Hydrophobe,
     "[$([C;!$(C~[#7,#8,#9,#16])]),$([Cl,Br,I]),$([S;X2;H0;!$(S~[#7,#8])])]"},
};

struct Compiled {
    shape::ColourType type;
    std::unique_ptr<RDKit::ROMol> query;
};

const std::vector<Compiled>& compiled() {
    static const std::vector<Compiled> list = [] {
        std::vector<Compiled> out;
        for (const Pattern& p : kPatterns)
            out.push_back({p.type, std::unique_ptr<RDKit::ROMol>(RDKit::SmartsToMol(p.smarts))});
        return out;
    }();
    return list;
}

} // namespace

std::vector<shape::ColourFeature> colourFeatures(const Molecule& m) {
    static std::mutex compileOnce;
    {
        std::lock_guard<std::mutex> lock(compileOnce);
        (void)compiled();
    }
    std::unique_ptr<RDKit::RWMol> mol = toRdkit(m);
    sanitizeOrThrow(*mol, m);
    std::vector<shape::ColourFeature> out;
    for (const Compiled& c : compiled()) {
        if (!c.query)
            continue;
        std::vector<RDKit::MatchVectType> matches;
        RDKit::SubstructMatch(*mol, *c.query, matches);
        for (const auto& match : matches) {
            const int atom = match.front().second;
            if (m.atoms[atom].element == 1)
                continue;
            out.push_back({c.type, m.atoms[atom].position});
        }
    }
    const RDKit::RingInfo* rings = mol->getRingInfo();
    for (const auto& ring : rings->atomRings()) {
        bool aromatic = true;
        Vec3 centroid = Vec3::Zero();
        for (int a : ring) {
            aromatic = aromatic && mol->getAtomWithIdx(a)->getIsAromatic();
            centroid += m.atoms[a].position;
        }
        if (aromatic && !ring.empty())
            out.push_back({shape::ColourType::Aromatic, centroid / double(ring.size())});
    }
    return out;
}

} // namespace pw
