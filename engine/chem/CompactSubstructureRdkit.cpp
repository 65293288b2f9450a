// CompactSubstructureRdkit: reads RDKit's query trees by their class and description (the
// names RDKit's SMARTS parser gives them, GraphMol/QueryOps.h) and its molecules' atoms, bonds
// and ring info.
#include "CompactSubstructureRdkit.h"

// First, as in SubstructureQuery.cpp: RDConfig.h changes the layout of RDKit's query classes.
#include <RDGeneral/RDConfig.h>

#include <GraphMol/QueryOps.h>
#include <GraphMol/ROMol.h>
#include <GraphMol/RingInfo.h>

#include <map>
#include <typeinfo>

namespace pw {
namespace {

using AtomQ = RDKit::Atom::QUERYATOM_QUERY;
using BondQ = RDKit::Bond::QUERYBOND_QUERY;

const std::map<std::string, AtomFeature>& atomFeatures() {
    static const std::map<std::string, AtomFeature> m = {
        {"AtomAtomicNum", AtomFeature::AtomicNum},
        {"AtomType", AtomFeature::AtomType},
        {"AtomIsAromatic", AtomFeature::Aromatic},
        {"AtomIsAliphatic", AtomFeature::Aliphatic},
        {"AtomFormalCharge", AtomFeature::FormalCharge},
        {"AtomHCount", AtomFeature::HCount},
        {"AtomImplicitHCount", AtomFeature::ImplicitHCount},
        {"AtomExplicitDegree", AtomFeature::Degree},
        {"AtomTotalDegree", AtomFeature::TotalDegree},
        {"AtomInRing", AtomFeature::InRing},
        {"AtomInNRings", AtomFeature::RingCount},
        {"AtomMinRingSize", AtomFeature::MinRingSize},
        {"AtomRingBondCount", AtomFeature::RingBondCount},
        {"AtomHasRingBond", AtomFeature::HasRingBond},
    };
    return m;
}

const std::map<std::string, BondFeature>& bondFeatures() {
    static const std::map<std::string, BondFeature> m = {
        {"BondOrder", BondFeature::BondType},
        {"SingleOrAromaticBond", BondFeature::SingleOrAromatic},
        {"BondInRing", BondFeature::InRing},
    };
    return m;
}

std::optional<CompactPattern> patternOf(const RDKit::ROMol& query, int nesting);

// A recursive SMARTS as node `e`: its pattern goes to `recursive`; false when refused.
bool recursiveNode(const RDKit::RecursiveStructureQuery& q, CompactExpr& e,
                   std::vector<CompactPattern>* recursive, int nesting) {
    const RDKit::ROMol* mol = q.getQueryMol();
    // A root atom other than the first (SLN's _queryRootAtom) is not kept by RDKit's copy of
    // the query: such a pattern stays RDKit's.
    if (!recursive || q.getDescription() != "RecursiveStructure" || !mol ||
        mol->hasProp(RDKit::common_properties::_queryRootAtom) ||
        recursive->size() >= static_cast<size_t>(CompactMatcher::kMaxRecursive))
        return false;
    auto pattern = patternOf(*mol, nesting + 1);
    if (!pattern)
        return false;
    e.kind = CompactExpr::Kind::Recursive;
    e.value = static_cast<int>(recursive->size());
    recursive->push_back(std::move(*pattern));
    return true;
}

// Adds the node for `q` (and its subtree) to `tree`; its index, or -1 when refused.
// Arg: Atom or Bond; Features: the map of descriptions; RDKit's AtomRingQuery (its negative
// value means "not zero") and RecursiveStructureQuery (its pattern goes to `recursive`) are
// atom queries only.
template <class Arg, class Feature>
int addNode(const Queries::Query<int, Arg const*, true>* q, CompactTree& tree,
            std::vector<CompactPattern>* recursive, int nesting,
            const std::map<std::string, Feature>& features, const std::string& prefix, int depth) {
    using Base = Queries::Query<int, Arg const*, true>;
    using Equality = Queries::EqualityQuery<int, Arg const*, true>;
    using And = Queries::AndQuery<int, Arg const*, true>;
    using Or = Queries::OrQuery<int, Arg const*, true>;
    if (!q || depth > 16 || tree.nodes.size() > 4000)
        return -1;
    CompactExpr e;
    e.negate = q->getNegation();
    const std::string& what = q->getDescription();
    const std::type_info& type = typeid(*q);
    bool ringQuery = false, recursiveQuery = false;
    if constexpr (std::is_same_v<Arg, RDKit::Atom>) {
        ringQuery = type == typeid(RDKit::AtomRingQuery);
        recursiveQuery = type == typeid(RDKit::RecursiveStructureQuery);
        if (recursiveQuery &&
            !recursiveNode(static_cast<const RDKit::RecursiveStructureQuery&>(*q), e, recursive,
                           nesting))
            return -1;
    }
    if (recursiveQuery) {
        // e is set
    } else if (type == typeid(Equality) || ringQuery) {
        const auto* eq = static_cast<const Equality*>(q);
        const auto f = features.find(what);
        if (f == features.end() || eq->getTol() != 0)
            return -1;
        e.kind =
            ringQuery && eq->getVal() < 0 ? CompactExpr::Kind::NonZero : CompactExpr::Kind::Test;
        e.feature = static_cast<std::uint8_t>(f->second);
        e.value = eq->getVal();
    } else if (type == typeid(Base) && what == prefix + "Null") {
        e.kind = CompactExpr::Kind::True;
    } else if ((type == typeid(And) && what == prefix + "And") ||
               (type == typeid(Or) && what == prefix + "Or")) {
        e.kind = type == typeid(And) ? CompactExpr::Kind::And : CompactExpr::Kind::Or;
        std::vector<std::uint16_t> kids;
        for (auto c = q->beginChildren(); c != q->endChildren(); ++c) {
            const int k =
                addNode<Arg, Feature>(c->get(), tree, recursive, nesting, features, prefix, depth + 1);
            if (k < 0)
                return -1;
            kids.push_back(static_cast<std::uint16_t>(k));
        }
        e.firstChild = static_cast<std::uint16_t>(tree.children.size());
        e.childCount = static_cast<std::uint16_t>(kids.size());
        tree.children.insert(tree.children.end(), kids.begin(), kids.end());
    } else {
        return -1; // ranges, isotopes, valence, ...: RDKit's
    }
    tree.nodes.push_back(e);
    return static_cast<int>(tree.nodes.size()) - 1;
}

} // namespace

std::string compactMolecule(const RDKit::ROMol& mol) {
    const unsigned atoms = mol.getNumAtoms(), bonds = mol.getNumBonds();
    const RDKit::RingInfo* rings = mol.getRingInfo();
    if (atoms == 0 || atoms > kCompactMaxAtoms || bonds > kCompactMaxBonds || !rings ||
        !rings->isInitialized())
        return {};
    std::string out;
    out.reserve(kCompactHeader + atoms * kCompactAtomBytes + bonds * kCompactBondBytes);
    out.push_back(static_cast<char>(kCompactFormat));
    out.push_back(static_cast<char>(atoms));
    out.push_back(static_cast<char>(bonds & 0xff));
    out.push_back(static_cast<char>(bonds >> 8));
    for (const RDKit::Atom* a : mol.atoms()) {
        const unsigned num = a->getAtomicNum(), hs = a->getTotalNumHs(false),
                       inRings = rings->numAtomRings(a->getIdx()),
                       smallest = rings->minAtomRingSize(a->getIdx());
        const int charge = a->getFormalCharge();
        if (num > 255 || hs > 15 || inRings > 15 || smallest > 127 || charge < -128 || charge > 127)
            return {};
        out.push_back(static_cast<char>(num));
        out.push_back(static_cast<char>(static_cast<std::int8_t>(charge)));
        out.push_back(static_cast<char>(hs | inRings << 4));
        out.push_back(static_cast<char>((a->getIsAromatic() ? 0x80 : 0) | smallest));
    }
    for (const RDKit::Bond* b : mol.bonds()) {
        const unsigned type = b->getBondType();
        if (type > 127)
            return {};
        out.push_back(static_cast<char>(b->getBeginAtomIdx()));
        out.push_back(static_cast<char>(b->getEndAtomIdx()));
        out.push_back(static_cast<char>(type | (rings->numBondRings(b->getIdx()) ? 0x80 : 0)));
    }
    return out;
}

namespace {

// The query molecule's pattern; `nesting` counts the recursive SMARTS around it.
std::optional<CompactPattern> patternOf(const RDKit::ROMol& query, int nesting) {
    if (nesting > 8)
        return std::nullopt;
    CompactPattern p;
    for (const RDKit::Atom* a : query.atoms()) {
        // Chirality: RDKit's default match ignores it, but a pattern that names it is left to
        // RDKit rather than reasoned about here.
        if (!a->hasQuery() || a->getChiralTag() != RDKit::Atom::CHI_UNSPECIFIED)
            return std::nullopt;
        const int root = addNode<RDKit::Atom>(a->getQuery(), p.atomTree, &p.recursive, nesting,
                                              atomFeatures(), "Atom", 0);
        if (root < 0)
            return std::nullopt;
        p.atomRoot.push_back(static_cast<std::uint16_t>(root));
    }
    for (const RDKit::Bond* b : query.bonds()) {
        if (!b->hasQuery())
            return std::nullopt;
        const int root = addNode<RDKit::Bond>(b->getQuery(), p.bondTree, nullptr, nesting,
                                              bondFeatures(), "Bond", 0);
        if (root < 0)
            return std::nullopt;
        p.bonds.push_back({static_cast<std::uint8_t>(b->getBeginAtomIdx()),
                           static_cast<std::uint8_t>(b->getEndAtomIdx()),
                           static_cast<std::uint16_t>(root)});
    }
    if (p.atomRoot.empty() || p.atomRoot.size() > 64)
        return std::nullopt;
    return p;
}

} // namespace

std::optional<CompactPattern> compactPattern(const RDKit::ROMol& query) {
    return patternOf(query, 0);
}

} // namespace pw
