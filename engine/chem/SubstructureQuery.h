// SubstructureQuery: a substructure pattern (SMARTS, or a SMILES read as a pattern) compiled once
// by RDKit and matched against molecules given as SMILES text, as the hit store keeps them.
// For stores of many distinct molecules: a screening fingerprint per molecule (RDKit's pattern
// fingerprint; a molecule that contains the pattern has every bit the pattern has), and molecules
// parsed once from SMILES known to be readable, to match again without RDKit's sanitization.
// The header names no RDKit type, so engine/hits can use it without seeing RDKit.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace RDKit {
class ROMol;
}

namespace pw {

struct CompactPattern; // chem/CompactSubstructure.h

// A pattern RDKit cannot read; what() says so and quotes the pattern.
class PatternError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// RDKit's pattern fingerprint (PatternFingerprintMol), 2048 bits in 64-bit words, bit b in word
// b / 64 at position b % 64.
inline constexpr int kScreenBits = 2048;
inline constexpr int kScreenWords = kScreenBits / 64;
using ScreenFingerprint = std::array<std::uint64_t, kScreenWords>;

// Whether the molecule can contain the pattern: every bit of the pattern's fingerprint is set in
// the molecule's. False means no match for sure; true means "match with RDKit to know".
inline bool passesScreen(const ScreenFingerprint& pattern, const ScreenFingerprint& molecule) {
    for (int w = 0; w < kScreenWords; ++w)
        if (pattern[w] & ~molecule[w])
            return false;
    return true;
}

// The screening fingerprint of the molecule a SMILES writes; nullopt when RDKit cannot read and
// sanitize it, or when the text is not RDKit's canonical SMILES of that molecule (as the store's
// SMILES are). A stored fingerprint therefore also says "ParsedMolecule may read this SMILES".
// With `molecule`, also RDKit's binary form of that sanitized molecule (~260 bytes for an NCI
// compound, rings included), which ParsedMolecule::fromBinary reads back in about a third of the
// time of even the quick SMILES parse. With `compact`, also the molecule's compact form
// (CompactSubstructureRdkit.h; empty when it does not fit), which matches plain SMARTS without
// RDKit.
std::optional<ScreenFingerprint> screenFingerprint(const std::string& smiles,
                                                   std::string* molecule = nullptr,
                                                   std::string* compact = nullptr);

// A molecule read once from a canonical SMILES that sanitizes (one with a screening fingerprint),
// kept for repeated matching: RDKit's parse without sanitization, its property cache and rings (SSSR
// symmetrized, as sanitization leaves them), about a fifth of the cost of a sanitizing parse.
class ParsedMolecule {
public:
    // nullptr when the text does not parse (then match the SMILES with matchesSmiles instead).
    static std::shared_ptr<const ParsedMolecule> fromCleanSmiles(const std::string& smiles);
    // From screenFingerprint's binary form; nullptr when it cannot be read (then the SMILES).
    static std::shared_ptr<const ParsedMolecule> fromBinary(std::string_view bytes);
    ~ParsedMolecule();
    const RDKit::ROMol& mol() const { return *mol_; }

private:
    explicit ParsedMolecule(std::unique_ptr<RDKit::ROMol> mol);
    std::unique_ptr<RDKit::ROMol> mol_;
};

class SubstructureQuery {
public:
    enum class Syntax {
        Smarts, // 'c1ccccc1C(=O)[OH]': atoms and bonds as SMARTS primitives
        Smiles, // 'c1ccccc1C(=O)O': the molecule's atoms and bonds, hydrogens left free
    };
    // Throws PatternError when the pattern is empty or does not parse.
    SubstructureQuery(const std::string& pattern, Syntax syntax);
    ~SubstructureQuery();
    SubstructureQuery(SubstructureQuery&&) noexcept;
    SubstructureQuery& operator=(SubstructureQuery&&) noexcept;
    // A copy with its own RDKit query, for another thread.
    SubstructureQuery clone() const;

    // Whether the molecule the SMILES writes contains the pattern (chirality ignored); nullopt
    // when RDKit cannot read that SMILES (unknown, as SQL's NULL).
    std::optional<bool> matchesSmiles(const std::string& smiles) const;
    // The same for a molecule parsed once (the same answer as matchesSmiles on its SMILES).
    bool matches(const ParsedMolecule& molecule) const;

    // The pattern's own fingerprint: a molecule without one of its bits cannot match. Query
    // features the fingerprint cannot express set no bits (an empty one passes everything).
    const ScreenFingerprint& screen() const { return screen_; }
    // The pattern for the compact matcher (chem/CompactSubstructure.h), decided once here:
    // nullptr when it needs RDKit (SMILES syntax, recursion, isotopes, chirality, components...).
    const CompactPattern* compactPattern() const { return compact_.get(); }

private:
    SubstructureQuery() = default;
    std::unique_ptr<RDKit::ROMol> query_;
    ScreenFingerprint screen_{};
    std::shared_ptr<const CompactPattern> compact_; // immutable: clones share it
};

} // namespace pw
