// SubstructureFunction: the SQL function behind the filters smarts('...') and substructure('...'):
// pw_substructure(syntax, pattern, smiles) is 1 when the stored SMILES contains the pattern, 0 when
// not, NULL when the SMILES is NULL or unreadable. Patterns are compiled once per connection and
// each distinct SMILES is matched once per pattern (a screen repeats its molecules over poses).
#pragma once

#include <sqlite3.h>

#include <string>

namespace pw::hits {

inline constexpr const char* kSubstructureSqlFunction = "pw_substructure";

// Registers the function on the connection; its cache lives until the connection closes.
// Throws StoreError naming the store when SQLite refuses.
void registerSubstructureFunction(sqlite3* db, const std::string& storePath);

} // namespace pw::hits
