// SubstructureQuery: a substructure pattern (SMARTS, or a SMILES read as a pattern) compiled once
// by RDKit and matched against molecules given as SMILES text, as the hit store keeps them.
// The header names no RDKit type, so engine/hits can use it without seeing RDKit.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace RDKit {
class ROMol;
}

namespace pw {

// A pattern RDKit cannot read; what() says so and quotes the pattern.
class PatternError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
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

    // Whether the molecule the SMILES writes contains the pattern (chirality ignored); nullopt
    // when RDKit cannot read that SMILES (unknown, as SQL's NULL).
    std::optional<bool> matchesSmiles(const std::string& smiles) const;

private:
    std::unique_ptr<RDKit::ROMol> query_;
};

} // namespace pw
