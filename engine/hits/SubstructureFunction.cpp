#include "SubstructureFunction.h"

#include "Sqlite.h"
#include "chem/SubstructureQuery.h"

#include <map>
#include <unordered_map>

namespace pw::hits {
namespace {

// One compiled pattern and its answers so far, keyed by the stored SMILES (-1: unreadable).
struct PatternEntry {
    SubstructureQuery query;
    std::unordered_map<std::string, signed char> answers;
};

struct FunctionState {
    std::map<std::string, PatternEntry> patterns; // key: syntax letter + pattern
    size_t answerCount = 0;
};

constexpr size_t kMaxAnswers = 2'000'000; // bounded memory over a million distinct molecules

std::string textArg(sqlite3_value* v) {
    const unsigned char* t = sqlite3_value_text(v);
    return t ? std::string(reinterpret_cast<const char*>(t),
                           static_cast<size_t>(sqlite3_value_bytes(v)))
             : std::string();
}

void substructure(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    if (argc != 3 || sqlite3_value_type(argv[2]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    auto* state = static_cast<FunctionState*>(sqlite3_user_data(ctx));
    try {
        const std::string syntaxName = textArg(argv[0]), pattern = textArg(argv[1]);
        const bool smarts = syntaxName == "smarts";
        if (!smarts && syntaxName != "smiles") {
            sqlite3_result_error(ctx, "pw_substructure: syntax must be 'smarts' or 'smiles'", -1);
            return;
        }
        const std::string key = (smarts ? "a" : "i") + pattern;
        auto it = state->patterns.find(key);
        if (it == state->patterns.end()) {
            const auto syntax =
                smarts ? SubstructureQuery::Syntax::Smarts : SubstructureQuery::Syntax::Smiles;
            it = state->patterns.emplace(key, PatternEntry{SubstructureQuery(pattern, syntax), {}})
                     .first;
        }
        PatternEntry& entry = it->second;
        const std::string smiles = textArg(argv[2]);
        auto known = entry.answers.find(smiles);
        signed char answer;
        if (known != entry.answers.end()) {
            answer = known->second;
        } else {
            const std::optional<bool> m = entry.query.matchesSmiles(smiles);
            answer = m ? static_cast<signed char>(*m) : -1;
            if (state->answerCount >= kMaxAnswers) {
                for (auto& [k, e] : state->patterns)
                    e.answers.clear();
                state->answerCount = 0;
            }
            entry.answers.emplace(smiles, answer);
            ++state->answerCount;
        }
        if (answer < 0)
            sqlite3_result_null(ctx);
        else
            sqlite3_result_int(ctx, answer);
    } catch (const std::exception& e) { // a bad pattern (the filter checks them first), memory
        sqlite3_result_error(ctx, e.what(), -1);
    }
}

void destroyState(void* p) {
    delete static_cast<FunctionState*>(p);
}

} // namespace

void registerSubstructureFunction(sqlite3* db, const std::string& storePath) {
    auto* state = new FunctionState;
    // On failure SQLite calls destroyState itself.
    if (sqlite3_create_function_v2(db, kSubstructureSqlFunction, 3,
                                   SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, state,
                                   substructure, nullptr, nullptr, destroyState) != SQLITE_OK)
        throw StoreError(storePath + ": cannot register the substructure filter: " +
                         sqlite3_errmsg(db));
}

} // namespace pw::hits
