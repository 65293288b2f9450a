#include "SubstructureFunction.h"

#include "ScreenIndex.h"
#include "Sqlite.h"

#include <map>
#include <memory>
#include <unordered_map>

namespace pw::hits {

// One compiled pattern; its answers over the screen index, and by SMILES for molecules outside
// it (-1: unreadable).
struct PatternEntry {
    std::unique_ptr<SubstructureQuery> query;
    std::unique_ptr<PatternAnswers> indexed;
    std::unordered_map<std::string, signed char> answers;
};

struct SubstructureState {
    sqlite3* db = nullptr;
    std::string path;
    ScreenIndex index;
    std::map<std::string, PatternEntry> patterns; // key: syntax letter + pattern
    size_t answerCount = 0;
};

namespace {

constexpr size_t kMaxAnswers = 2'000'000; // bounded memory over a million distinct molecules
constexpr size_t kMaxPatterns = 64;       // each holds a byte per indexed molecule

std::string_view textArg(sqlite3_value* v) {
    const unsigned char* t = sqlite3_value_text(v);
    return t ? std::string_view(reinterpret_cast<const char*>(t),
                                static_cast<size_t>(sqlite3_value_bytes(v)))
             : std::string_view();
}

void substructure(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    if (argc != 3 || sqlite3_value_type(argv[2]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    auto* state = static_cast<SubstructureState*>(sqlite3_user_data(ctx));
    try {
        const std::string_view syntaxName = textArg(argv[0]);
        const bool smarts = syntaxName == "smarts";
        if (!smarts && syntaxName != "smiles") {
            sqlite3_result_error(ctx, "pw_substructure: syntax must be 'smarts' or 'smiles'", -1);
            return;
        }
        const std::string key = (smarts ? "a" : "i") + std::string(textArg(argv[1]));
        auto it = state->patterns.find(key);
        if (it == state->patterns.end()) {
            if (state->patterns.size() >= kMaxPatterns) {
                state->patterns.clear();
                state->answerCount = 0;
            }
            const auto syntax =
                smarts ? SubstructureQuery::Syntax::Smarts : SubstructureQuery::Syntax::Smiles;
            PatternEntry entry;
            entry.query = std::make_unique<SubstructureQuery>(key.substr(1), syntax);
            it = state->patterns.emplace(key, std::move(entry)).first;
        }
        PatternEntry& entry = it->second;
        if (!state->index.loaded())
            state->index.load(state->db, state->path);
        const std::string_view smiles = textArg(argv[2]);
        signed char answer;
        if (const auto i = state->index.find(smiles)) {
            if (!entry.indexed)
                entry.indexed = std::make_unique<PatternAnswers>(*entry.query);
            answer = entry.indexed->answer(state->index, *i);
        } else if (auto known = entry.answers.find(std::string(smiles));
                   known != entry.answers.end()) {
            answer = known->second;
        } else {
            const std::optional<bool> m = entry.query->matchesSmiles(std::string(smiles));
            answer = m ? static_cast<signed char>(*m) : -1;
            if (state->answerCount >= kMaxAnswers) {
                for (auto& [k, e] : state->patterns)
                    e.answers.clear();
                state->answerCount = 0;
            }
            entry.answers.emplace(std::string(smiles), answer);
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
    delete static_cast<SubstructureState*>(p);
}

} // namespace

SubstructureState* registerSubstructureFunction(sqlite3* db, const std::string& storePath) {
    auto* state = new SubstructureState;
    state->db = db;
    state->path = storePath;
    // On failure SQLite calls destroyState itself.
    if (sqlite3_create_function_v2(db, kSubstructureSqlFunction, 3,
                                   SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, state,
                                   substructure, nullptr, nullptr, destroyState) != SQLITE_OK)
        throw StoreError(storePath + ": cannot register the substructure filter: " +
                         sqlite3_errmsg(db));
    return state;
}

void substructureStoreChanged(SubstructureState* state) {
    if (!state)
        return;
    state->index.clear();
    for (auto& [key, entry] : state->patterns)
        entry.indexed.reset();
}

} // namespace pw::hits
