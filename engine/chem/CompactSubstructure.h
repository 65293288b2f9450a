// CompactSubstructure: a substructure match without RDKit, for the SMARTS that need only plain
// atom and bond primitives, on a few bytes per molecule kept in the screen index.
// RDKit stays the oracle: engine/chem builds both forms from RDKit's own molecules and queries
// (CompactSubstructureRdkit.h) and refuses what this matcher cannot answer exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace pw {

// The molecule, as stored in pw_screen's cmol column (format byte first):
//   [0] kCompactFormat, [1] atoms (1..255), [2..3] bonds (little-endian, <= kCompactMaxBonds),
//   then 4 bytes per atom: atomic number; formal charge (int8); RDKit's getTotalNumHs(false) in
//   the low nibble and its ring count (numAtomRings, symmetrized SSSR) in the high nibble;
//   aromatic flag in bit 7 and the smallest ring size (0: in no ring, < 128) in bits 0-6;
//   then 3 bytes per bond: begin atom, end atom, RDKit's bond type in bits 0-6 and "in a ring"
//   in bit 7.
// Degree, H count (with H neighbours), total degree and ring bond count follow from the bonds.
inline constexpr unsigned char kCompactFormat = 1;
inline constexpr int kCompactHeader = 4, kCompactAtomBytes = 4, kCompactBondBytes = 3;
inline constexpr int kCompactMaxAtoms = 255, kCompactMaxBonds = 1023;

// What a pattern atom's test reads of a molecule atom; each is RDKit's query function of the
// same name (GraphMol/QueryOps.h), with RDKit's description beside it.
enum class AtomFeature : std::uint8_t {
    AtomicNum,      // AtomAtomicNum: getAtomicNum
    AtomType,       // AtomType: atomic number + 1000 if aromatic ('c', 'C', 'n')
    Aromatic,       // AtomIsAromatic: 1 or 0
    Aliphatic,      // AtomIsAliphatic: 1 or 0
    FormalCharge,   // AtomFormalCharge
    HCount,         // AtomHCount: getTotalNumHs(true), H neighbours included
    ImplicitHCount, // AtomImplicitHCount: getTotalNumHs(false)
    Degree,         // AtomExplicitDegree: getDegree
    TotalDegree,    // AtomTotalDegree: getDegree + getTotalNumHs(false)
    InRing,         // AtomInRing: 1 if in a ring of the ring info
    RingCount,      // AtomInNRings: numAtomRings (AtomRingQuery: value < 0 = "not 0")
    MinRingSize,    // AtomMinRingSize: minAtomRingSize (0 when in no ring)
    RingBondCount,  // AtomRingBondCount: bonds in a ring (AtomRingQuery as above)
    HasRingBond,    // AtomHasRingBond: 1 or 0
};
enum class BondFeature : std::uint8_t {
    BondType, // BondOrder: getBondType (RDKit's enum: 1 single, 2 double, 3 triple, 12 aromatic)
    SingleOrAromatic, // SingleOrAromaticBond: 1 or 0
    InRing,           // BondInRing: 1 or 0
};

// One node of a pattern atom's or bond's query tree, as RDKit's Query: And/Or of children, or a
// test "feature == value" (NonZero: "feature != 0"), or True (RDKit's null query: '*', '~'), or
// (atoms only) Recursive: "the atom is one a match of recursive pattern `value` maps its anchor
// to" (RDKit's RecursiveStructureQuery, SMARTS $(...)); the node's answer is inverted when
// negate is set (RDKit's negation, on any node).
struct CompactExpr {
    enum class Kind : std::uint8_t { Test, NonZero, And, Or, True, Recursive };
    Kind kind = Kind::True;
    bool negate = false;
    std::uint8_t feature = 0; // AtomFeature or BondFeature, by the tree it is in
    int value = 0;
    std::uint16_t firstChild = 0, childCount = 0; // into the tree's children
};
struct CompactTree {
    std::vector<CompactExpr> nodes;
    std::vector<std::uint16_t> children;
};

// A pattern the matcher answers exactly: atoms and bonds, each with the root of its tree.
struct CompactPattern {
    CompactTree atomTree, bondTree;
    std::vector<std::uint16_t> atomRoot; // per pattern atom
    struct Bond {
        std::uint8_t begin = 0, end = 0;
        std::uint16_t root = 0; // in bondTree
    };
    std::vector<Bond> bonds;
    // The patterns of the recursive SMARTS its atom trees name (Recursive nodes index this);
    // they may hold recursive SMARTS of their own.
    std::vector<CompactPattern> recursive;
    // As a recursive pattern: the atom whose image is recorded (RDKit's _queryRootAtom, else 0).
    std::uint8_t anchor = 0;
};

// RDKit (2022.09) records a recursive pattern's anchors from at most this many of its matches
// in the molecule (vf2_all's default limit, uniquify off); where a molecule has that many, the
// compact matcher does not answer, so that RDKit's capped answer stands.
inline constexpr int kRecursiveMatchLimit = 1000;

// The atoms' search order, worked out once per pattern: each step maps one pattern atom, reached
// from an already mapped one through a bond (or a new component's first atom), then checks the
// bonds back to the other mapped atoms.
class CompactMatcher {
public:
    // nullopt when the pattern is beyond the matcher (over 64 atoms, a malformed tree, over
    // kMaxRecursive recursive patterns in all).
    static std::optional<CompactMatcher> make(CompactPattern pattern);
    // Whether the molecule (cmol bytes) contains the pattern (chirality ignored, as RDKit's
    // default match); nullopt when the bytes are not a molecule of this format, or a recursive
    // pattern reaches kRecursiveMatchLimit matches in it (ask RDKit).
    std::optional<bool> matches(std::string_view molecule) const;
    static constexpr int kMaxRecursive = 32;
    const CompactPattern& pattern() const { return pattern_; }

    struct Step {
        std::uint8_t atom = 0;
        int parentStep = -1;          // -1: any molecule atom (first of a component)
        std::uint16_t parentBond = 0; // pattern bond to the parent step's atom
        std::uint16_t firstClosure = 0, closureCount = 0; // into closures_
    };
    struct Closure {
        std::uint8_t otherStep = 0;
        std::uint16_t bond = 0;
    };

private:
    static std::optional<CompactMatcher> makeOne(CompactPattern pattern, int& slots, int depth);

    CompactPattern pattern_; // its `recursive` moved into recursive_
    std::vector<Step> steps_;
    std::vector<Closure> closures_;
    // One matcher per recursive pattern; their anchor sets are worked out once per molecule,
    // in the slots firstSlot_, firstSlot_ + 1, ... of the search's memo (nested ones after).
    std::vector<CompactMatcher> recursive_;
    int firstSlot_ = 0;
    int anchorStep_ = 0; // the step that maps pattern_.anchor
    friend struct CompactSearch;
};

} // namespace pw
