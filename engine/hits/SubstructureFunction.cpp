#include "SubstructureFunction.h"

#include "ScreenIndex.h"
#include "Sqlite.h"
#include "HitsTrace.h"

#include "core/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <string_view>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>

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
    // Once every molecule of the index is answered: the answer of every pose by id, filled on
    // all cores (see answersById), so that the rest of the scan reads one byte per row instead
    // of looking its SMILES up (a hash and two cache misses per row, serial: ~0.35 s a million
    // distinct rows here). kAskBySmiles for poses whose molecule is not in the index.
    std::vector<signed char> byId;
    long long firstId = 0;
    size_t byIdGeneration = 0;
    bool byIdTried = false;
};

constexpr signed char kAskBySmiles = -3;

struct SubstructureState {
    sqlite3* db = nullptr;
    std::string path;
    ScreenIndex index;
    size_t generation = 0; // one more each time the store's molecules change
    std::map<std::string, std::shared_ptr<PatternEntry>> patterns; // key: syntax letter + pattern
    size_t answerCount = 0;
    // SQLite's data_version when the screen and the answers by id were last valid: another
    // connection's commit (another process importing into the store a panel keeps open) changes
    // it, and may have given a deleted pose's id to another molecule.
    long long dataVersion = -1;
};

void substructureStoreChangedElsewhere(SubstructureState& state);

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
    // Here on a statement's first row for this pattern (later rows find the auxiliary data).
    substructureStoreChangedElsewhere(state);
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
    if (!state.index.loaded()) { // RDKit's binary molecules once a pattern needs them (below)
        HitsTrace trace("screen-load");
        state.index.load(state.db, state.path, 0, -1, /*binaries=*/false);
    }
    if (const auto i = state.index.find(smiles)) {
        if (!entry.indexed || entry.indexedGeneration != state.generation) {
            entry.indexed = std::make_unique<PatternAnswers>(*entry.query);
            entry.indexedGeneration = state.generation;
            if (!entry.indexed->compact() || state.index.withoutCompact() > 0)
                state.index.loadBinaries(state.db);
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

// Fills entry.byId: the poses read by id ranges on read-only connections of their own, in
// parallel, each SMILES looked up in the (complete) screen answers. Not when other connections
// would see another store than this one (uncommitted writes of its own, WAL), for small stores,
// or on any error (the scan then goes on by SMILES).
void answersById(SubstructureState& state, PatternEntry& entry) {
    HitsTrace trace("by-pose-id");
    entry.byIdTried = true;
    sqlite3* db = state.db;
    const char* file = sqlite3_db_filename(db, "main");
    int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (!file || !*file || sqlite3_txn_state(db, "main") == SQLITE_TXN_WRITE)
        return;
    long long lo = 0, hi = -1;
    bool wal = false;
    {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &s, nullptr) == SQLITE_OK &&
            sqlite3_step(s) == SQLITE_ROW)
            wal = std::string_view(reinterpret_cast<const char*>(sqlite3_column_text(s, 0))) ==
                  "wal";
        sqlite3_finalize(s);
        std::tie(lo, hi) = poseIdRange(db);
    }
    if (hi < lo || hi - lo + 1 > (1LL << 26)) // a byte per id: at most 64 MiB a pattern
        return;
    // The pack's pose map, while the pack it came with is still the store's (any change of the
    // poses or the screen since emptied it): each pose's answer is its molecule's, no pose read.
    if (const uint32_t* molecule = state.index.poseMolecules(lo, hi);
        molecule && screenPackIsCurrent(db, state.index.packNonce())) {
        std::vector<signed char> byId(static_cast<size_t>(hi - lo + 1));
        const PatternAnswers& answers = *entry.indexed;
        constexpr long kBlock = 1 << 16;
        const long blocks = static_cast<long>((byId.size() + kBlock - 1) / kBlock);
        parallelFor(blocks, blocks >= 4 ? threads : 1, [&](long b) {
            const size_t from = static_cast<size_t>(b) * kBlock,
                         to = std::min(byId.size(), from + kBlock);
            for (size_t i = from; i < to; ++i)
                byId[i] = molecule[i] ? answers.known(molecule[i] - 1) : kAskBySmiles;
        });
        entry.byId = std::move(byId);
        entry.firstId = lo;
        entry.byIdGeneration = state.generation;
        return;
    }
    if (threads < 2 || wal || hi - lo + 1 < ScreenIndex::parallelLoadAfter())
        return;
    const std::string path = file;
    std::vector<signed char> byId(static_cast<size_t>(hi - lo + 1), kAskBySmiles);
    const long chunks = threads * 8L;
    const long long step = (hi - lo + chunks) / chunks;
    std::atomic<bool> failed{false};
    const PatternAnswers& answers = *entry.indexed;
    const ScreenIndex& index = state.index;
    parallelFor(chunks, threads, [&](long c) {
        const long long from = lo + c * step, to = std::min(hi + 1, from + step);
        if (failed || from >= to)
            return;
        ReaderConnection r(path, "SELECT id, smiles FROM poses WHERE id >= ? AND id < ? AND "
                                 "smiles IS NOT NULL");
        if (!r.ok()) {
            failed = true;
            return;
        }
        // No busy wait (see ScreenIndex::loadInParallel): on a lock, the answers by SMILES.
        sqlite3_bind_int64(r.stmt, 1, from);
        sqlite3_bind_int64(r.stmt, 2, to);
        int rc;
        while ((rc = sqlite3_step(r.stmt)) == SQLITE_ROW) {
            const long long id = sqlite3_column_int64(r.stmt, 0);
            if (sqlite3_column_type(r.stmt, 1) != SQLITE_TEXT || id < from || id >= to)
                continue;
            const std::string_view smiles(
                reinterpret_cast<const char*>(sqlite3_column_text(r.stmt, 1)),
                static_cast<size_t>(sqlite3_column_bytes(r.stmt, 1)));
            if (const auto i = index.find(smiles))
                byId[static_cast<size_t>(id - lo)] = answers.known(*i);
        }
        if (rc != SQLITE_DONE)
            failed = true;
    });
    if (failed)
        return;
    entry.byId = std::move(byId);
    entry.firstId = lo;
    entry.byIdGeneration = state.generation;
}

void substructure(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    if ((argc != 3 && argc != 4) || sqlite3_value_type(argv[2]) == SQLITE_NULL) {
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
        signed char answer = kAskBySmiles;
        if (argc == 4 && !entry.byId.empty() && entry.byIdGeneration == state->generation &&
            sqlite3_value_type(argv[3]) == SQLITE_INTEGER) {
            const long long at = sqlite3_value_int64(argv[3]) - entry.firstId;
            if (at >= 0 && at < static_cast<long long>(entry.byId.size()))
                answer = entry.byId[static_cast<size_t>(at)];
        }
        if (answer == kAskBySmiles) {
            const std::string_view smiles = textArg(argv[2]);
            if (entry.lastAnswer != -2 && smiles == entry.lastSmiles) {
                answer = entry.lastAnswer;
            } else {
                answer = answerFor(*state, entry, smiles);
                entry.lastSmiles.assign(smiles);
                entry.lastAnswer = answer;
            }
            if (argc == 4 && !entry.byIdTried && entry.indexed && entry.indexed->complete() &&
                entry.indexedGeneration == state->generation)
                answersById(*state, entry);
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
                                   substructure, nullptr, nullptr, destroyState) != SQLITE_OK ||
        // The same function and state with the pose's id (the connection owns the state once).
        sqlite3_create_function_v2(db, kSubstructureSqlFunction, 4,
                                   SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, state,
                                   substructure, nullptr, nullptr, nullptr) != SQLITE_OK)
        throw StoreError(storePath + ": cannot register the substructure filter: " +
                         sqlite3_errmsg(db));
    return state;
}

void substructureStoreChangedElsewhere(SubstructureState& state) {
    sqlite3_stmt* s = nullptr;
    long long version = -1;
    if (sqlite3_prepare_v2(state.db, "PRAGMA data_version", -1, &s, nullptr) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
        version = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    if (state.dataVersion != -1 && version != state.dataVersion)
        substructureStoreChanged(&state);
    state.dataVersion = version;
}

void substructureStoreChanged(SubstructureState* state) {
    if (!state)
        return;
    state->index.clear();
    ++state->generation; // entries a running statement holds drop their answers on next use
    for (auto& [key, entry] : state->patterns) {
        entry->indexed.reset();
        entry->byId.clear();
        entry->byIdTried = false;
    }
}

} // namespace pw::hits
