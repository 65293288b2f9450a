// ScreenIndex: the store's distinct molecules (canonical SMILES) with their substructure-screening
// fingerprints, from table pw_screen, loaded once per connection; and PatternAnswers, one
// pattern's answers over them: the fingerprint rules most molecules out with a bit test, RDKit
// matches the rest (parsed once per store session, bounded), in parallel once a query has shown
// it touches many molecules.
#pragma once

#include "chem/CompactSubstructure.h"
#include "chem/SubstructureQuery.h"

#include <sqlite3.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pw::hits {

class HitStore;

// One row per distinct SMILES that RDKit reads cleanly: (smiles TEXT PRIMARY KEY, fp BLOB, mol
// BLOB: RDKit's binary molecule, cmol BLOB: its compact form for plain SMARTS; either NULL in
// tables written before it, or where the molecule does not fit the compact form).
inline constexpr const char* kScreenTable = "pw_screen";
std::string createScreenTableSql(); // CREATE TABLE IF NOT EXISTS ...
// Creates the table, or adds the mol and cmol columns to one written without them (inside a
// transaction).
void ensureScreenTable(HitStore& store);

// The BLOB: kScreenWords words, each little-endian.
inline constexpr int kScreenBytes = kScreenWords * 8;
std::array<unsigned char, kScreenBytes> encodeScreen(const ScreenFingerprint& fp);
std::optional<ScreenFingerprint> decodeScreen(const void* data, int bytes);

// Gives every distinct stored SMILES without a screening fingerprint one (stores written before
// pw_screen, or poses added by an older Posewright), computed on `threads` threads (0 = all).
// Must run inside a HitStore::Transaction. Returns how many were added; SMILES that RDKit cannot
// read, or that are not its canonical form, get none (the filter matches those from SMILES).
long addMissingScreens(HitStore& store, int threads);
// Gives every pw_screen row without a compact form (written before cmol) one, on `threads`
// threads; a molecule that does not fit gets an empty one, so that it is not tried again (RDKit
// matches it). Inside a HitStore::Transaction. Returns how many rows got a non-empty one.
long addMissingCompactForms(HitStore& store, int threads);

// The screen index kept whole in table pw_screen_pack (ScreenPack.cpp), so that a cold filter
// reads its bytes in a few large BLOBs instead of one SQLite row per molecule. Triggers on
// pw_screen empty it on any change (by any writer, older Posewright versions included); a pack
// that is missing, stale, truncated or corrupt is never used (the index is read from pw_screen,
// the same answers).
inline constexpr const char* kScreenPackTable = "pw_screen_pack";
// Creates the table and its triggers when missing (inside a transaction; ensureScreenTable does).
void ensureScreenPackTable(HitStore& store);
// Writes the pack of the store's current pw_screen unless a valid one is there, in a transaction
// of its own (call it outside one, after the commit that changed the molecules). Returns how many
// molecules it packed (0 when the pack was current or the store has no pw_screen).
long writeScreenPack(HitStore& store, int threads = 0);
// Whether db's pw_screen_pack is still the one written with `nonce` (one indexed read).
bool screenPackIsCurrent(sqlite3* db, std::uint64_t nonce);

// The smallest and largest pose id of the store (first > second when it has no pose).
std::pair<long long, long long> poseIdRange(sqlite3* db);

class ScreenIndex {
public:
    // Molecules kept parsed per session, for the next pattern: ~10-12 KB each (RDKit's graph),
    // ~200 MB at this bound (a store of 262,144 molecules peaked at 857 MB with 32,768). Only
    // when every molecule of the index fits: in a larger store the kept ones were an arbitrary
    // few, paid for with page faults during the match and RDKit's destructors (serial) when the
    // connection closed.
    static constexpr size_t kParsedCapacity = 16384;

    // Reads pw_screen (an absent table, as in stores written before it, gives an empty index:
    // every molecule is then matched from its SMILES). Throws std::runtime_error on a bad row.
    // With threads > 1 (0: every core) and at least `parallelAfter` poses, key ranges of the
    // table are read on read-only connections of their own, in parallel, and joined in key
    // order: the same index as one reader builds (a cold query over a million distinct
    // molecules spent ~0.7 s here, serial). One reader when that cannot be (a write
    // transaction open on `db`, an in-memory store, any error on the way).
    // parallelAfter < 0: parallelLoadAfter() (32,768 poses; tests set it lower).
    // binaries = false: RDKit's binary molecules are left in the table (~45% of a row's bytes)
    // until loadBinaries; the compact matcher does not need them.
    void load(sqlite3* db, const std::string& storePath, int threads = 0,
              long long parallelAfter = -1, bool binaries = true);
    // Whether load left binary molecules in the table; then loadBinaries reads them (each
    // checked against its molecule's SMILES), in parallel where load may. Until then, or for a
    // molecule whose row changed, RDKit parses the SMILES instead: slower, the same answer.
    bool binariesPending() const { return binariesPending_; }
    void loadBinaries(sqlite3* db, int threads = 0);
    // Molecules without a compact form (their matches need RDKit).
    size_t withoutCompact() const { return withoutCompact_; }
    static long long parallelLoadAfter() { return parallelLoadAfter_; }
    static void setParallelLoadAfter(long long poses) { parallelLoadAfter_ = poses; }
    bool loaded() const { return loaded_; }
    bool loadedInParallel() const { return loadedInParallel_; }
    // Whether load read the index from pw_screen_pack (a valid one) rather than from pw_screen.
    bool loadedFromPack() const { return loadedFromPack_; }
    // Tests and the bench: off, load never reads the pack (always pw_screen, as before it).
    static void setPackEnabled(bool on) { packEnabled_ = on; }
    // The index as pw_screen_pack's BLOBs: part 0 the header, then one per 16,384 molecules,
    // then (with poses) the molecule of each pose id from poseLo on (index + 1; 0: none).
    std::vector<std::string> packParts(int threads, const std::vector<uint32_t>& poseMolecule,
                                       long long poseLo, std::uint64_t nonce) const;
    // Loaded from a pack with its pose map: the molecule (index + 1, 0: none) of every pose id
    // lo..hi, when the map covers exactly that range; else nullptr. Valid only while the pack
    // is current (screenPackIsCurrent with packNonce()): the triggers empty it when poses change.
    const uint32_t* poseMolecules(long long lo, long long hi) const {
        return !poseMolecule_.empty() && lo == poseLo_ && hi >= lo &&
                       static_cast<unsigned long long>(hi - lo + 1) == poseMolecule_.size()
                   ? poseMolecule_.data()
                   : nullptr;
    }
    std::uint64_t packNonce() const { return packNonce_; }
    void clear();

    size_t size() const { return spans_.size(); }
    std::optional<uint32_t> find(std::string_view smiles) const;
    std::string smiles(uint32_t i) const { return std::string(text(spans_[i])); }
    const ScreenFingerprint& fingerprint(uint32_t i) const { return fps_[i]; }
    // RDKit's binary molecule as stored; empty where the table has none.
    std::string_view binary(uint32_t i) const {
        return {binaryArena_.data() + (binarySpans_[i] >> 24),
                static_cast<size_t>(binarySpans_[i] & kMaxLength)};
    }
    // The molecule's compact form as stored; empty where the table has none.
    std::string_view compact(uint32_t i) const {
        return {compactArena_.data() + (compactSpans_[i] >> 24),
                static_cast<size_t>(compactSpans_[i] & kMaxLength)};
    }
    // Molecule i parsed (kept while under the capacity); nullptr when it does not parse.
    // Safe from several threads for distinct i.
    std::shared_ptr<const ParsedMolecule> parsed(uint32_t i);

private:
    // Open addressing over the SMILES: a slot holds the molecule's index + 1 (0: empty), the
    // high half of its hash and where its text lies, so a look-up reads one slot and the text
    // (a node-based map chased three pointers per row: 15% of a 1M-row scan).
    struct Slot {
        uint32_t tag = 0;
        alignas(std::atomic_ref<uint32_t>::required_alignment) uint32_t indexPlusOne = 0;
        std::uint64_t span = 0;
    };
    // A SMILES in arena_: offset << 24 | length.
    static constexpr std::uint64_t kMaxLength = (1u << 24) - 1;
    std::string_view text(std::uint64_t span) const {
        return {arena_.data() + (span >> 24), static_cast<size_t>(span & kMaxLength)};
    }
    static size_t hashOf(std::string_view s) { return std::hash<std::string_view>{}(s); }
    void buildSlots(int threads);
    // One row of pw_screen (smiles, fp, mol, cmol columns of `s`); false for a row not ours.
    bool appendRow(sqlite3_stmt* s);
    bool loadInParallel(sqlite3* db, const std::string& select, int threads,
                        long long parallelAfter);
    // Whether read-only connections of their own see what `db` sees (a file, no pending
    // writes of `db`, not WAL).
    static bool readersSeeWhatDbSees(sqlite3* db);
    void finishLoad(int threads, bool binariesPending);
    // Reads a valid pw_screen_pack into the index (false, index cleared, when there is none).
    bool loadPack(sqlite3* db, int threads);
    static inline std::atomic<long long> parallelLoadAfter_{32768};
    static inline std::atomic<bool> packEnabled_{true};
    bool loaded_ = false;
    bool loadedInParallel_ = false;
    bool loadedFromPack_ = false;
    std::vector<uint32_t> poseMolecule_; // from the pack (see poseMolecules)
    long long poseLo_ = 0;
    std::uint64_t packNonce_ = 0;
    bool binariesPending_ = false;
    size_t withoutCompact_ = 0;
    // Vectors whose resize leaves new elements uninitialized (they are copied over at once,
    // on every core, when key ranges are joined: zeroing first was a serial pass of its own).
    template <class T> struct Uninitialized : std::allocator<T> {
        template <class U> struct rebind {
            using other = Uninitialized<U>;
        };
        Uninitialized() = default;
        template <class U> Uninitialized(const Uninitialized<U>&) noexcept {}
        template <class U> void construct(U* p) noexcept { ::new (static_cast<void*>(p)) U; }
        template <class U, class... A> void construct(U* p, A&&... a) {
            ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
        }
    };
    template <class T> using Buffer = std::vector<T, Uninitialized<T>>;
    Buffer<char> arena_;           // every SMILES, back to back
    Buffer<std::uint64_t> spans_;  // per molecule
    Buffer<ScreenFingerprint> fps_;
    // RDKit's binary molecules, back to back (one allocation, not one per molecule, to make and
    // to free); span length 0 where the table has none.
    Buffer<char> binaryArena_;
    Buffer<std::uint64_t> binarySpans_;
    Buffer<char> compactArena_; // the compact forms, as the binary molecules
    Buffer<std::uint64_t> compactSpans_;
    std::vector<Slot> slots_;         // a power of two, at least twice the molecules
    std::vector<std::shared_ptr<const ParsedMolecule>> parsed_;
    std::atomic<size_t> parsedCount_{0};
};

// What answering a pattern cost: molecules the screen ruled out and those matched after it
// (`compact` of them by the compact matcher, the rest by RDKit).
struct ScreenCounts {
    size_t screenedOut = 0;
    size_t matched = 0;
    size_t compact = 0;
};

class PatternAnswers {
public:
    // After this many molecules answered one at a time, the rest of the index is answered at
    // once on every core: a query that reaches that many will likely reach most.
    static constexpr size_t kBulkAfter = 2000;

    explicit PatternAnswers(const SubstructureQuery& query);
    // Whether the pattern is answered by the compact matcher where a molecule has a compact form.
    bool compact() const { return compact_.has_value(); }
    // Tests: every molecule through RDKit, as before the compact matcher.
    static void setCompactEnabled(bool on) { compactEnabled_ = on; }
    // 1 or 0 for molecule i of the index; -1 when RDKit cannot read it.
    signed char answer(ScreenIndex& index, uint32_t i);
    // Every molecule of the index at once (threads = 0: all cores).
    void answerAll(ScreenIndex& index, int threads = 0);
    const ScreenCounts& counts() const { return counts_; }
    // Every molecule answered (answerAll ran): known(i) is then the answer of molecule i.
    bool complete() const { return allDone_; }
    signed char known(uint32_t i) const { return known_[i]; }

private:
    signed char compute(const SubstructureQuery& query, ScreenIndex& index, uint32_t i,
                        ScreenCounts& counts) const;
    const SubstructureQuery& query_;
    std::optional<CompactMatcher> compact_;
    static inline std::atomic<bool> compactEnabled_{true};
    std::vector<signed char> known_; // per molecule: -2 not yet, else the answer
    size_t oneByOne_ = 0;
    bool allDone_ = false;
    ScreenCounts counts_;
};

} // namespace pw::hits
