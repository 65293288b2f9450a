#include "SubstructureFunction.h"

#include "ScreenIndex.h"
#include "Sqlite.h"

#include <map>
#include <memory>
#include <unordered_map>

namespace pw::hits {

namespace {
struct SmilesHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
} // namespace

// One compiled pattern; its answers over the screen index, and by SMILES for molecules outside
// it (-1: unreadable). Shared: a running statement keeps the entries its arguments name (SQLite's
// auxiliary data) even when the connection lets them go.
struct PatternEntry {
    bool smarts = true;
    std::unique_ptr<SubstructureQuery> query;
    std::unique_ptr<PatternAnswers> indexed;
    size_t indexedGeneration = 0; // the state's generation that `indexed` numbers molecules by
    std::unordered_map<std::string, signed char, SmilesHash, std::equal_to<>> answers;
    // The molecule asked about last and its answer: the poses of one ligand are consecutive
    // rows (an import writes them in file order), so most rows repeat the row before's
    // molecule, and one comparison replaces the hash look-up. An answer depends on the SMILES
    // and the pattern alone, so it never goes stale.
    std::string lastSmiles;
    signed char lastAnswer = -2; // -2: none yet
};

struct SubstructureState {
    sqlite3* db = nullptr;
    std::string path;
    ScreenIndex index;
    size_t generation = 0; // one more each time the store's molecules change
    std::map<std::string, std::shared_ptr<PatternEntry>> patterns; // key: syntax letter + pattern
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

void deleteEntryRef(void* p) {
    delete static_cast<std::shared_ptr<PatternEntry>*>(p);
}

// The compiled pattern of this call: from the statement's auxiliary data on the pattern argument
// (kept while it is a constant, as the filter's bound parameter is), else from the connection's
// patterns (compiled on first use), then attached to the argument for the statement's next rows.
PatternEntry& patternOf(sqlite3_context* ctx, SubstructureState& state, bool smarts,
                        sqlite3_value* patternArg) {
    if (auto* held = static_cast<std::shared_ptr<PatternEntry>*>(sqlite3_get_auxdata(ctx, 1));
        held && (*held)->smarts == smarts)
        return **held;
    const std::string_view pattern = textArg(patternArg);
    std::string key(1, smarts ? 'a' : 'i');
    key.append(pattern);
    auto it = state.patterns.find(key);
    if (it == state.patterns.end()) {
        if (state.patterns.size() >= kMaxPatterns) {
            state.patterns.clear(); // running statements keep theirs through the aux data
            state.answerCount = 0;
        }
        auto entry = std::make_shared<PatternEntry>();
        entry->smarts = smarts;
        entry->query = std::make_unique<SubstructureQuery>(
            key.substr(1), smarts ? SubstructureQuery::Syntax::Smarts
                                  : SubstructureQuery::Syntax::Smiles);
        it = state.patterns.emplace(key, std::move(entry)).first;
    }
    std::shared_ptr<PatternEntry> entry = it->second;
    // SQLite calls deleteEntryRef itself if it cannot keep the data (or right away for a value
    // that is not constant): the entry then lives on in the connection's map.
    sqlite3_set_auxdata(ctx, 1, new std::shared_ptr<PatternEntry>(entry), deleteEntryRef);
    return *entry;
}

signed char answerFor(SubstructureState& state, PatternEntry& entry, std::string_view smiles) {
    if (!state.index.loaded())
        state.index.load(state.db, state.path);
    if (const auto i = state.index.find(smiles)) {
        if (!entry.indexed || entry.indexedGeneration != state.generation) {
            entry.indexed = std::make_unique<PatternAnswers>(*entry.query);
            entry.indexedGeneration = state.generation;
        }
        return entry.indexed->answer(state.index, *i);
    }
    if (auto known = entry.answers.find(smiles); known != entry.answers.end())
        return known->second;
    const std::optional<bool> m = entry.query->matchesSmiles(std::string(smiles));
    const signed char answer = m ? static_cast<signed char>(*m) : -1;
    if (state.answerCount >= kMaxAnswers) {
        for (auto& [k, e] : state.patterns)
            e->answers.clear();
        entry.answers.clear(); // perhaps no longer in the map
        state.answerCount = 0;
    }
    entry.answers.emplace(std::string(smiles), answer);
    ++state.answerCount;
    return answer;
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
        PatternEntry& entry = patternOf(ctx, *state, smarts, argv[1]);
        const std::string_view smiles = textArg(argv[2]);
        signed char answer;
        if (entry.lastAnswer != -2 && smiles == entry.lastSmiles) {
            answer = entry.lastAnswer;
        } else {
            answer = answerFor(*state, entry, smiles);
            entry.lastSmiles.assign(smiles);
            entry.lastAnswer = answer;
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
    ++state->generation; // entries a running statement holds drop their answers on next use
    for (auto& [key, entry] : state->patterns)
        entry->indexed.reset();
}

} // namespace pw::hits
