// SubstructureQuery: RDKit's SMARTS/SMILES parsers, its VF2 substructure match and its pattern
// fingerprint.
#include "SubstructureQuery.h"

#include "CompactSubstructureRdkit.h"

// First: RDConfig.h defines RDK_BUILD_THREADSAFE_SSS, which adds a mutex to
// RecursiveStructureQuery; read without it, the class's later members are at the wrong offsets
// (getQueryMol() returned null here).
#include <RDGeneral/RDConfig.h>

#include <DataStructs/ExplicitBitVect.h>
#include <GraphMol/Fingerprints/Fingerprints.h>
#include <GraphMol/MolOps.h>
#include <GraphMol/MolPickler.h>
#include <GraphMol/QueryOps.h>
#include <GraphMol/ROMol.h>
#include <GraphMol/RWMol.h>
#include <GraphMol/SmilesParse/SmilesParse.h>
#include <GraphMol/SmilesParse/SmilesWrite.h>
#include <GraphMol/Substruct/SubstructMatch.h>
#include <RDGeneral/RDLog.h>

#include <istream>
#include <streambuf>
#include <string_view>
#include <vector>

namespace pw {
namespace {

ScreenFingerprint toWords(const RDKit::ROMol& mol) {
    std::unique_ptr<ExplicitBitVect> bits(RDKit::PatternFingerprintMol(mol, kScreenBits));
    ScreenFingerprint words{};
    std::vector<int> on;
    bits->getOnBits(on);
    for (int b : on)
        words[static_cast<size_t>(b) / 64] |= std::uint64_t{1} << (b % 64);
    return words;
}

using AtomQuery = RDKit::Atom::QUERYATOM_QUERY;
using AtomAndQuery = Queries::AndQuery<int, const RDKit::Atom*, true>;
constexpr int kMaxRecursion = 8; // $( $( ... ) ) nesting followed for the screen

ScreenFingerprint patternScreen(const RDKit::ROMol& pattern, int depth);

// The sub-patterns every match must contain: a $(R) in an atom's query reached through ANDs
// only (not negated, not under an OR) holds at the matched atom, so the molecule contains R and
// has R's screen bits too. RDKit's pattern fingerprint leaves such atoms out, which left every
// recursive SMARTS screened by its other atoms alone (often by nothing).
void addRequiredSubpatterns(const AtomQuery* q, ScreenFingerprint& screen, int depth) {
    if (!q || q->getNegation() || depth > kMaxRecursion)
        return;
    if (const auto* recursive = dynamic_cast<const RDKit::RecursiveStructureQuery*>(q)) {
        if (const RDKit::ROMol* inner = recursive->getQueryMol()) {
            try {
                const ScreenFingerprint bits = patternScreen(*inner, depth + 1);
                for (int w = 0; w < kScreenWords; ++w)
                    screen[w] |= bits[w];
            } catch (const std::exception&) { // no bits from it: screens less, never wrongly
            }
        }
        return;
    }
    if (dynamic_cast<const AtomAndQuery*>(q))
        for (auto child = q->beginChildren(); child != q->endChildren(); ++child)
            addRequiredSubpatterns(child->get(), screen, depth);
}

// The element an atom's query requires through ANDs only (AtomAtomicNum or AtomType), as
// RDKit's makeAtomType value (atomic number + 1000 if aromatic); -1 when none.
int requiredElement(const AtomQuery* q) {
    if (!q || q->getNegation())
        return -1;
    const std::string& what = q->getDescription();
    if (what == "AtomAtomicNum" || what == "AtomType") {
        const auto* eq =
            dynamic_cast<const Queries::EqualityQuery<int, const RDKit::Atom*, true>*>(q);
        return eq && eq->getTol() == 0 ? eq->getVal() : -1;
    }
    if (dynamic_cast<const AtomAndQuery*>(q))
        for (auto child = q->beginChildren(); child != q->endChildren(); ++child)
            if (const int e = requiredElement(child->get()); e >= 0)
                return e;
    return -1;
}

// RDKit 2022.09's pattern fingerprint reads a query atom's element from the atom, which the
// SMARTS parser sets only when the element comes first: '[+;#7]' was fingerprinted as an atom
// of element 0, a bit no molecule with the charged nitrogen has, so the screen ruled out real
// matches ('[R0;#7]', '[a;#6]', '[H3;#7]': false negatives). The copy carries the element the
// query requires, as '[#7;+]' does.
std::unique_ptr<RDKit::RWMol> withRequiredElements(const RDKit::ROMol& pattern) {
    auto copy = std::make_unique<RDKit::RWMol>(pattern);
    for (RDKit::Atom* atom : copy->atoms()) {
        const int e = atom->hasQuery() ? requiredElement(atom->getQuery()) : -1;
        if (e < 0 || e % 1000 == static_cast<int>(atom->getAtomicNum()))
            continue;
        atom->setAtomicNum(e % 1000);
        atom->setIsAromatic(e > 1000);
    }
    return copy;
}

// A pattern's screen: RDKit's pattern fingerprint of it, plus that of its required recursive
// sub-patterns.
ScreenFingerprint patternScreen(const RDKit::ROMol& pattern, int depth) {
    ScreenFingerprint screen = toWords(*withRequiredElements(pattern));
    for (const RDKit::Atom* atom : pattern.atoms())
        if (atom->hasQuery())
            addRequiredSubpatterns(atom->getQuery(), screen, depth);
    return screen;
}

} // namespace

std::optional<ScreenFingerprint> screenFingerprint(const std::string& smiles, std::string* molecule,
                                                   std::string* compact) {
    RDLog::LogStateSetter quiet;
    std::unique_ptr<RDKit::ROMol> mol;
    try {
        mol.reset(RDKit::SmilesToMol(smiles));
        // Only RDKit's own canonical SMILES: ParsedMolecule takes its aromaticity as written.
        if (!mol || RDKit::MolToSmiles(*mol) != smiles)
            return std::nullopt;
        const ScreenFingerprint words = toWords(*mol);
        if (molecule) {
            molecule->clear();
            RDKit::MolPickler::pickleMol(*mol, *molecule, RDKit::PicklerOps::NoProps);
        }
        if (compact)
            *compact = compactMolecule(*mol);
        return words;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

ParsedMolecule::ParsedMolecule(std::unique_ptr<RDKit::ROMol> mol) : mol_(std::move(mol)) {}
ParsedMolecule::~ParsedMolecule() = default;

std::shared_ptr<const ParsedMolecule> ParsedMolecule::fromCleanSmiles(const std::string& smiles) {
    RDLog::LogStateSetter quiet;
    try {
        std::unique_ptr<RDKit::RWMol> mol(RDKit::SmilesToMol(smiles, 0, /*sanitize=*/false));
        if (!mol)
            return nullptr;
        // What the match reads of a sanitized molecule: implicit hydrogens and valences, and
        // the rings as sanitization finds them (symmetrized SSSR: plain SSSR changes [R3]).
        // Aromaticity is the SMILES's own: RDKit wrote it from the sanitized molecule.
        mol->updatePropertyCache();
        RDKit::MolOps::symmetrizeSSSR(*mol);
        return std::shared_ptr<const ParsedMolecule>(new ParsedMolecule(std::move(mol)));
    } catch (const std::exception&) {
        return nullptr;
    }
}

namespace {

// A stream over bytes already in memory, one per thread, reused: RDKit's ROMol(pickle) copies
// the bytes into a std::stringstream per molecule (an allocation, and a locale whose shared
// reference count every thread of the bulk match bumps; that match ran ~3x slower per molecule
// on 16 threads than on one).
struct PickleStream {
    struct Bytes : std::streambuf {
        void reset(std::string_view b) {
            char* p = const_cast<char*>(b.data()); // read only: no put area is set
            setg(p, p, p + b.size());
        }
    } bytes;
    std::istream stream{&bytes};
};

} // namespace

std::shared_ptr<const ParsedMolecule> ParsedMolecule::fromBinary(std::string_view bytes) {
    if (bytes.empty())
        return nullptr;
    // No RDLog::LogStateSetter here: it writes RDKit's global log state, from every thread of
    // the bulk match, per molecule. These bytes are RDKit's own pickle of a sanitized molecule.
    try {
        thread_local PickleStream in;
        in.bytes.reset(bytes);
        in.stream.clear();
        auto mol = std::make_unique<RDKit::ROMol>();
        RDKit::MolPickler::molFromPickle(in.stream, mol.get());
        return std::shared_ptr<const ParsedMolecule>(new ParsedMolecule(std::move(mol)));
    } catch (const std::exception&) {
        return nullptr;
    }
}

SubstructureQuery::SubstructureQuery(const std::string& pattern, Syntax syntax) {
    const char* what = syntax == Syntax::Smarts ? "SMARTS" : "SMILES";
    if (pattern.find_first_not_of(" \t") == std::string::npos)
        throw PatternError(std::string("empty ") + what + " pattern");
    RDLog::LogStateSetter quiet; // the error below says it once
    try {
        if (syntax == Syntax::Smarts)
            query_.reset(RDKit::SmartsToMol(pattern));
        else
            query_.reset(RDKit::SmilesToMol(pattern));
    } catch (const std::exception& e) { // RDKit throws for some bad input, returns null for most
        throw PatternError(std::string("cannot read the ") + what + " '" + pattern +
                           "': " + e.what());
    }
    if (!query_)
        throw PatternError(std::string("cannot read the ") + what + " '" + pattern + "'");
    try {
        screen_ = patternScreen(*query_, 0);
    } catch (const std::exception&) {
        screen_ = {}; // a pattern the fingerprint cannot describe screens nothing out
    }
    // Disconnected patterns ('.') stay with RDKit: SMARTS component grouping is not modelled.
    if (syntax == Syntax::Smarts && pattern.find('.') == std::string::npos)
        if (auto compact = pw::compactPattern(*query_))
            compact_ = std::make_shared<const CompactPattern>(std::move(*compact));
}

SubstructureQuery::~SubstructureQuery() = default;
SubstructureQuery::SubstructureQuery(SubstructureQuery&&) noexcept = default;
SubstructureQuery& SubstructureQuery::operator=(SubstructureQuery&&) noexcept = default;

SubstructureQuery SubstructureQuery::clone() const {
    SubstructureQuery copy;
    copy.query_ = std::make_unique<RDKit::ROMol>(*query_);
    copy.screen_ = screen_;
    copy.compact_ = compact_;
    return copy;
}

std::optional<bool> SubstructureQuery::matchesSmiles(const std::string& smiles) const {
    RDLog::LogStateSetter quiet; // an unreadable stored SMILES is an unknown, not a message
    std::unique_ptr<RDKit::ROMol> mol;
    try {
        mol.reset(RDKit::SmilesToMol(smiles));
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (!mol)
        return std::nullopt;
    RDKit::MatchVectType match;
    return RDKit::SubstructMatch(*mol, *query_, match);
}

bool SubstructureQuery::matches(const ParsedMolecule& molecule) const {
    RDKit::MatchVectType match;
    return RDKit::SubstructMatch(molecule.mol(), *query_, match);
}

} // namespace pw
