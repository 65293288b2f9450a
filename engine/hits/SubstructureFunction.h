// SubstructureFunction: the SQL function behind the filters smarts('...') and substructure('...'):
// pw_substructure(syntax, pattern, smiles) is 1 when the stored SMILES contains the pattern, 0 when
// not, NULL when the SMILES is NULL or unreadable. Patterns are compiled once per connection.
// Molecules in the store's screen table (ScreenIndex) are screened by fingerprint and matched once
// per pattern; others (stores written before the table) are matched from their SMILES, once per
// distinct SMILES and pattern. pw_substructure(syntax, pattern, smiles, id) gives the same answer;
// the pose's id lets a scan of many distinct molecules look answers up by id (AnswersById).
#pragma once

#include <sqlite3.h>

#include <string>

namespace pw::hits {

inline constexpr const char* kSubstructureSqlFunction = "pw_substructure";

// The function's per-connection state (patterns, the loaded screen); owned by the connection.
struct SubstructureState;

// Registers the function on the connection; its state lives until the connection closes.
// Throws StoreError naming the store when SQLite refuses.
SubstructureState* registerSubstructureFunction(sqlite3* db, const std::string& storePath);

// The store's molecules changed (a write transaction ended): the screen is read again on the
// next use, and answers tied to it are dropped.
void substructureStoreChanged(SubstructureState* state);

} // namespace pw::hits
