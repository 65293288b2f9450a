// HitFilter: the small expression language of `hits query --where` and `--order`, compiled to SQL
// with every literal as a bound parameter (user text never becomes SQL), checked against the
// store's columns.
#pragma once

#include "HitStore.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace pw::hits {

// A bad expression: what() says what was expected; column() is the 1-based character position.
class FilterError : public std::runtime_error {
public:
    FilterError(int column, const std::string& what)
        : std::runtime_error("column " + std::to_string(column) + ": " + what), column_(column) {}
    int column() const { return column_; }

private:
    int column_;
};

struct SqlFragment {
    std::string sql;              // refers to the poses table as "poses"
    std::vector<SqlValue> params; // bound to its '?' in order
};

// where := expr; expr := term {or term}; term := factor {and factor}; factor := not factor |
// ( expr ) | KIND('RES') | operand (< <= > >= = == != <>) operand | operand is [not] null |
// operand like 'TEXT'. Operands are column names, numbers and quoted strings. KIND is one of
// hbond, saltbridge, pistack, halogen, hydrophobic, or interacts (any kind); RES is a residue
// label as "ASP86" or "A:ASP86". smarts('PATTERN') and substructure('SMILES') hold when the
// pose's molecule (its stored canonical SMILES) contains the pattern; they are unknown (as NULL)
// for a pose without SMILES. Keywords are case-insensitive.
SqlFragment compileWhere(const std::string& expression, const HitStore& store);

// order := item {, item}; item := [-|+]column [asc|desc]. NULLs sort last either way.
std::string compileOrder(const std::string& order, const HitStore& store);

// Interaction kinds the store and the filter know.
const std::vector<std::string>& interactionKinds();

} // namespace pw::hits
