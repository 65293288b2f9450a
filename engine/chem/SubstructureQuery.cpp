// SubstructureQuery: RDKit's SMARTS/SMILES parsers and its VF2 substructure match.
#include "SubstructureQuery.h"

#include <GraphMol/ROMol.h>
#include <GraphMol/SmilesParse/SmilesParse.h>
#include <GraphMol/Substruct/SubstructMatch.h>
#include <RDGeneral/RDLog.h>

namespace pw {

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
}

SubstructureQuery::~SubstructureQuery() = default;
SubstructureQuery::SubstructureQuery(SubstructureQuery&&) noexcept = default;
SubstructureQuery& SubstructureQuery::operator=(SubstructureQuery&&) noexcept = default;

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

} // namespace pw
