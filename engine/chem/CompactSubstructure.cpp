// CompactSubstructure: decoding the compact molecule, evaluating the query trees, and a
// depth-first search that maps pattern atoms one by one along bonds (as RDKit's VF2, answering
// only "is there a match", or listing every match of a recursive pattern).
#include "CompactSubstructure.h"

#include <algorithm>
#include <array>

namespace pw {
namespace {

constexpr int kMaxPatternAtoms = 64;
constexpr int kMaxTreeDepth = 32;

struct MolAtom {
    std::uint8_t atomicNum, implicitH, hNeighbours, degree, ringBonds, rings, minRing;
    std::int8_t charge;
    bool aromatic;
};
struct Neighbour {
    std::uint8_t atom;
    std::uint8_t type; // RDKit's bond type
    bool inRing;
};

// The molecule decoded into fixed arrays on the stack: nothing allocated per molecule.
struct MolView {
    int atomCount = 0;
    std::array<MolAtom, kCompactMaxAtoms> atoms;
    std::array<std::uint16_t, kCompactMaxAtoms + 1> firstNeighbour;
    std::array<Neighbour, 2 * kCompactMaxBonds> neighbours;

    bool decode(std::string_view bytes) {
        const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
        if (bytes.size() < kCompactHeader || b[0] != kCompactFormat)
            return false;
        atomCount = b[1];
        const int bondCount = b[2] | (b[3] << 8);
        if (atomCount == 0 || bondCount > kCompactMaxBonds ||
            bytes.size() != static_cast<size_t>(kCompactHeader + atomCount * kCompactAtomBytes +
                                                bondCount * kCompactBondBytes))
            return false;
        const unsigned char* a = b + kCompactHeader;
        for (int i = 0; i < atomCount; ++i, a += kCompactAtomBytes) {
            MolAtom& m = atoms[i];
            m.atomicNum = a[0];
            m.charge = static_cast<std::int8_t>(a[1]);
            m.implicitH = a[2] & 0x0f;
            m.rings = a[2] >> 4;
            m.aromatic = (a[3] & 0x80) != 0;
            m.minRing = a[3] & 0x7f;
            m.hNeighbours = m.degree = m.ringBonds = 0;
        }
        const unsigned char* bond = a;
        for (int k = 0; k < bondCount; ++k, bond += kCompactBondBytes) {
            if (bond[0] >= atomCount || bond[1] >= atomCount || bond[0] == bond[1])
                return false;
            for (int end = 0; end < 2; ++end) {
                MolAtom& m = atoms[bond[end]];
                ++m.degree;
                m.ringBonds += bond[2] >> 7;
                m.hNeighbours += atoms[bond[1 - end]].atomicNum == 1;
            }
        }
        firstNeighbour[0] = 0;
        for (int i = 0; i < atomCount; ++i)
            firstNeighbour[i + 1] = static_cast<std::uint16_t>(firstNeighbour[i] + atoms[i].degree);
        std::array<std::uint16_t, kCompactMaxAtoms> filled;
        for (int i = 0; i < atomCount; ++i)
            filled[i] = firstNeighbour[i];
        bond = a;
        for (int k = 0; k < bondCount; ++k, bond += kCompactBondBytes) {
            const Neighbour toEnd{bond[1], static_cast<std::uint8_t>(bond[2] & 0x7f),
                                  (bond[2] & 0x80) != 0};
            Neighbour toBegin = toEnd;
            toBegin.atom = bond[0];
            neighbours[filled[bond[0]]++] = toEnd;
            neighbours[filled[bond[1]]++] = toBegin;
        }
        return true;
    }
};

int atomFeature(AtomFeature f, const MolAtom& a) {
    switch (f) {
    case AtomFeature::AtomicNum:
        return a.atomicNum;
    case AtomFeature::AtomType:
        return a.atomicNum + (a.aromatic ? 1000 : 0);
    case AtomFeature::Aromatic:
        return a.aromatic;
    case AtomFeature::Aliphatic:
        return !a.aromatic;
    case AtomFeature::FormalCharge:
        return a.charge;
    case AtomFeature::HCount:
        return a.implicitH + a.hNeighbours;
    case AtomFeature::ImplicitHCount:
        return a.implicitH;
    case AtomFeature::Degree:
        return a.degree;
    case AtomFeature::TotalDegree:
        return a.degree + a.implicitH;
    case AtomFeature::InRing:
        return a.rings != 0;
    case AtomFeature::RingCount:
        return a.rings;
    case AtomFeature::MinRingSize:
        return a.minRing;
    case AtomFeature::RingBondCount:
        return a.ringBonds;
    case AtomFeature::HasRingBond:
        return a.ringBonds != 0;
    }
    return -1;
}

int bondFeature(BondFeature f, const Neighbour& b) {
    switch (f) {
    case BondFeature::BondType:
        return b.type;
    case BondFeature::SingleOrAromatic:
        return b.type == 1 || b.type == 12;
    case BondFeature::InRing:
        return b.inRing;
    }
    return -1;
}

// RDKit's Query::Match on one tree: And/Or of the children, True, or a leaf (a test, or a
// recursive pattern's anchor set) answered by `leaf`; negate inverts any node.
template <class Leaf>
bool evaluate(const CompactTree& tree, int node, const Leaf& leaf) {
    const CompactExpr& e = tree.nodes[node];
    bool result = true;
    switch (e.kind) {
    case CompactExpr::Kind::True:
        result = true;
        break;
    case CompactExpr::Kind::And:
        for (int c = 0; c < e.childCount && result; ++c)
            result = evaluate(tree, tree.children[e.firstChild + c], leaf);
        break;
    case CompactExpr::Kind::Or:
        result = false;
        for (int c = 0; c < e.childCount && !result; ++c)
            result = evaluate(tree, tree.children[e.firstChild + c], leaf);
        break;
    default:
        result = leaf(e);
    }
    return result != e.negate;
}

// Whether every node below `node` exists, the tree is no deeper than kMaxTreeDepth, and each
// Recursive node names one of `recursiveCount` patterns (bond trees: none, -1).
bool validTree(const CompactTree& tree, int node, int depth, int recursiveCount) {
    if (node < 0 || static_cast<size_t>(node) >= tree.nodes.size() || depth > kMaxTreeDepth)
        return false;
    const CompactExpr& e = tree.nodes[node];
    if (e.kind == CompactExpr::Kind::Recursive)
        return e.value >= 0 && e.value < recursiveCount;
    if (e.kind != CompactExpr::Kind::And && e.kind != CompactExpr::Kind::Or)
        return true;
    if (static_cast<size_t>(e.firstChild) + e.childCount > tree.children.size())
        return false;
    for (int c = 0; c < e.childCount; ++c)
        if (!validTree(tree, tree.children[e.firstChild + c], depth + 1, recursiveCount))
            return false;
    return true;
}

// How much an atom's test narrows the candidates: a heteroatom first (rarer than carbon), then
// atoms with more conditions; negated and OR-ed tests count for little.
int selectivity(const CompactTree& tree, int node) {
    const CompactExpr& e = tree.nodes[node];
    if (e.negate)
        return 0;
    int s = 0;
    switch (e.kind) {
    case CompactExpr::Kind::Test: {
        const auto f = static_cast<AtomFeature>(e.feature);
        if (f == AtomFeature::AtomicNum || f == AtomFeature::AtomType)
            return e.value % 1000 == 6 ? 2 : 6;
        return 1;
    }
    case CompactExpr::Kind::NonZero:
        return 1;
    case CompactExpr::Kind::True:
        return 0;
    case CompactExpr::Kind::Recursive: // rare, but worked out for the whole molecule at once
        return 2;
    case CompactExpr::Kind::And:
        for (int c = 0; c < e.childCount; ++c)
            s += selectivity(tree, tree.children[e.firstChild + c]);
        return s;
    case CompactExpr::Kind::Or:
        s = 1 << 20;
        for (int c = 0; c < e.childCount; ++c)
            s = std::min(s, selectivity(tree, tree.children[e.firstChild + c]));
        return e.childCount ? s : 0;
    }
    return 0;
}

using AtomSet = std::array<std::uint64_t, 4>; // one bit per molecule atom (<= 255)

// Per molecule: each recursive pattern's anchor atoms, worked out when a test first asks for
// them (RDKit works them all out before matching; one never asked for changes no answer).
struct RecursiveMemo {
    std::array<bool, CompactMatcher::kMaxRecursive> known{};
    std::array<AtomSet, CompactMatcher::kMaxRecursive> anchors;
    bool refused = false; // a recursive pattern reached kRecursiveMatchLimit: RDKit answers
};

} // namespace

// A depth-first search over the matcher's steps. It stops at the first match, or, given
// `anchors`, enumerates every match (as RDKit's recursive matcher, uniquify off) and records
// the atom each maps the pattern's anchor to.
struct CompactSearch {
    const CompactMatcher& matcher;
    const MolView& mol;
    RecursiveMemo& memo;
    AtomSet* anchors = nullptr;
    int found = 0;
    std::array<std::uint8_t, kMaxPatternAtoms> mapped{}; // per step: the molecule atom
    AtomSet used{};                                      // molecule atoms taken

    bool inAnchorsOf(int recursive, int molAtom) {
        const int slot = matcher.firstSlot_ + recursive;
        if (!memo.known[slot]) {
            memo.anchors[slot] = AtomSet{};
            const CompactMatcher& sub = matcher.recursive_[recursive];
            if (mol.atomCount >= static_cast<int>(sub.steps_.size())) {
                CompactSearch search{sub, mol, memo, &memo.anchors[slot]};
                search.extend(0);
            }
            memo.known[slot] = true;
        }
        return memo.anchors[slot][molAtom >> 6] >> (molAtom & 63) & 1;
    }
    bool atomOk(int patternAtom, int molAtom) {
        const auto leaf = [&](const CompactExpr& e) {
            if (e.kind == CompactExpr::Kind::Recursive)
                return inAnchorsOf(e.value, molAtom);
            const int v = atomFeature(static_cast<AtomFeature>(e.feature), mol.atoms[molAtom]);
            return e.kind == CompactExpr::Kind::Test ? v == e.value : v != 0;
        };
        return evaluate(matcher.pattern_.atomTree, matcher.pattern_.atomRoot[patternAtom], leaf);
    }
    bool bondOk(int patternBond, const Neighbour& b) const {
        const auto leaf = [&](const CompactExpr& e) {
            const int v = bondFeature(static_cast<BondFeature>(e.feature), b);
            return e.kind == CompactExpr::Kind::Test ? v == e.value : v != 0;
        };
        return evaluate(matcher.pattern_.bondTree, matcher.pattern_.bonds[patternBond].root, leaf);
    }
    const Neighbour* bondBetween(int a, int b) const {
        for (int k = mol.firstNeighbour[a]; k < mol.firstNeighbour[a + 1]; ++k)
            if (mol.neighbours[k].atom == b)
                return &mol.neighbours[k];
        return nullptr;
    }
    // true: stop the search (a match, or the memo's refusal).
    bool tryAtom(size_t step, int molAtom) {
        if (used[molAtom >> 6] >> (molAtom & 63) & 1)
            return false;
        const CompactMatcher::Step& s = matcher.steps_[step];
        if (!atomOk(s.atom, molAtom))
            return memo.refused;
        for (int c = 0; c < s.closureCount; ++c) {
            const CompactMatcher::Closure& closure = matcher.closures_[s.firstClosure + c];
            const Neighbour* b = bondBetween(molAtom, mapped[closure.otherStep]);
            if (!b || !bondOk(closure.bond, *b))
                return false;
        }
        used[molAtom >> 6] |= std::uint64_t{1} << (molAtom & 63);
        mapped[step] = static_cast<std::uint8_t>(molAtom);
        if (extend(step + 1))
            return true;
        used[molAtom >> 6] &= ~(std::uint64_t{1} << (molAtom & 63));
        return false;
    }
    bool matched() {
        if (!anchors)
            return true;
        const int atom = mapped[matcher.anchorStep_];
        (*anchors)[atom >> 6] |= std::uint64_t{1} << (atom & 63);
        if (++found >= kRecursiveMatchLimit)
            memo.refused = true;
        return memo.refused;
    }
    bool extend(size_t step) {
        if (step == matcher.steps_.size())
            return matched();
        const CompactMatcher::Step& s = matcher.steps_[step];
        if (s.parentStep < 0) {
            for (int a = 0; a < mol.atomCount; ++a)
                if (tryAtom(step, a))
                    return true;
            return false;
        }
        const int from = mapped[s.parentStep];
        for (int k = mol.firstNeighbour[from]; k < mol.firstNeighbour[from + 1]; ++k)
            if (bondOk(s.parentBond, mol.neighbours[k]) && tryAtom(step, mol.neighbours[k].atom))
                return true;
        return false;
    }
};

std::optional<CompactMatcher> CompactMatcher::make(CompactPattern pattern) {
    int slots = 0;
    return makeOne(std::move(pattern), slots, 0);
}

std::optional<CompactMatcher> CompactMatcher::makeOne(CompactPattern pattern, int& slots,
                                                      int depth) {
    const int n = static_cast<int>(pattern.atomRoot.size());
    const int recursiveCount = static_cast<int>(pattern.recursive.size());
    if (n == 0 || n > kMaxPatternAtoms || pattern.anchor >= n || depth > kMaxTreeDepth)
        return std::nullopt;
    for (std::uint16_t root : pattern.atomRoot)
        if (!validTree(pattern.atomTree, root, 0, recursiveCount))
            return std::nullopt;
    for (const CompactPattern::Bond& b : pattern.bonds)
        if (b.begin >= n || b.end >= n || b.begin == b.end ||
            !validTree(pattern.bondTree, b.root, 0, -1))
            return std::nullopt;

    CompactMatcher m;
    m.firstSlot_ = slots;
    slots += recursiveCount;
    if (slots > kMaxRecursive)
        return std::nullopt;
    for (CompactPattern& sub : pattern.recursive) {
        auto matcher = makeOne(std::move(sub), slots, depth + 1);
        if (!matcher)
            return std::nullopt;
        m.recursive_.push_back(std::move(*matcher));
    }
    pattern.recursive.clear();

    std::vector<int> stepOf(n, -1), score(n);
    for (int a = 0; a < n; ++a)
        score[a] = selectivity(pattern.atomTree, pattern.atomRoot[a]);
    for (int placed = 0; placed < n; ++placed) {
        // Next: the unplaced atom with the most bonds to placed ones (ring closures checked
        // early), then the most selective; a new component when none touches a placed atom.
        int best = -1, bestLinks = -1;
        for (int a = 0; a < n; ++a) {
            if (stepOf[a] >= 0)
                continue;
            int links = 0;
            for (const CompactPattern::Bond& b : pattern.bonds)
                links +=
                    (b.begin == a && stepOf[b.end] >= 0) || (b.end == a && stepOf[b.begin] >= 0);
            if (placed > 0 && links == 0 && bestLinks > 0)
                continue;
            if (links > bestLinks || (links == bestLinks && score[a] > score[best])) {
                best = a;
                bestLinks = links;
            }
        }
        Step step;
        step.atom = static_cast<std::uint8_t>(best);
        step.firstClosure = static_cast<std::uint16_t>(m.closures_.size());
        for (size_t k = 0; k < pattern.bonds.size(); ++k) {
            const CompactPattern::Bond& b = pattern.bonds[k];
            const int other = b.begin == best ? b.end : b.end == best ? b.begin : -1;
            if (other < 0 || stepOf[other] < 0)
                continue;
            if (step.parentStep < 0) {
                step.parentStep = stepOf[other];
                step.parentBond = static_cast<std::uint16_t>(k);
            } else {
                m.closures_.push_back(
                    {static_cast<std::uint8_t>(stepOf[other]), static_cast<std::uint16_t>(k)});
            }
        }
        step.closureCount = static_cast<std::uint16_t>(m.closures_.size() - step.firstClosure);
        stepOf[best] = placed;
        m.steps_.push_back(step);
    }
    m.anchorStep_ = stepOf[pattern.anchor];
    m.pattern_ = std::move(pattern);
    return m;
}

std::optional<bool> CompactMatcher::matches(std::string_view molecule) const {
    MolView mol;
    if (!mol.decode(molecule))
        return std::nullopt;
    if (mol.atomCount < static_cast<int>(steps_.size()))
        return false;
    RecursiveMemo memo;
    CompactSearch search{*this, mol, memo};
    const bool found = search.extend(0);
    if (memo.refused)
        return std::nullopt;
    return found;
}

} // namespace pw
