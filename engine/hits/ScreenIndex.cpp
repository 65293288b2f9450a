// ScreenIndex: loading pw_screen, the bounded cache of parsed molecules, and the screen-then-match
// answer of one pattern per molecule.
#include "ScreenIndex.h"
#include "HitsTrace.h"

#include "HitStore.h"
#include "chem/RdkitThreads.h"
#include "core/ParallelFor.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace pw::hits {

std::string createScreenTableSql() {
    return std::string("CREATE TABLE IF NOT EXISTS ") + kScreenTable +
           "(smiles TEXT PRIMARY KEY, fp BLOB NOT NULL, mol BLOB, cmol BLOB) WITHOUT ROWID";
}

void ensureScreenTable(HitStore& store) {
    store.exec(createScreenTableSql());
    for (const char* column : {"mol", "cmol"}) { // added after the table's first version
        Statement has = store.prepare(std::string("SELECT count(*) FROM pragma_table_info('") +
                                      kScreenTable + "') WHERE name = '" + column + "'");
        has.step();
        if (has.integer(0) == 0)
            store.exec(std::string("ALTER TABLE ") + kScreenTable + " ADD COLUMN " + column +
                       " BLOB");
    }
    ensureScreenPackTable(store);
}

namespace {

// The SELECT of the index's four columns, NULL for those the table lacks (and for mol unless
// `binaries`); empty when the store has no pw_screen table. `hasMol`: whether it has mol.
std::string screenSelectSql(sqlite3* db, bool binaries, bool& hasMol) {
    bool table = false, mol = false, cmol = false;
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(
            db, (std::string("SELECT name FROM pragma_table_info('") + kScreenTable + "')").c_str(),
            -1, &s, nullptr) == SQLITE_OK)
        while (sqlite3_step(s) == SQLITE_ROW) {
            const std::string_view name(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)));
            table = true;
            mol = mol || name == "mol";
            cmol = cmol || name == "cmol";
        }
    sqlite3_finalize(s);
    hasMol = mol;
    if (!table)
        return {};
    return std::string("SELECT smiles, fp, ") + (mol && binaries ? "mol" : "NULL") + ", " +
           (cmol ? "cmol" : "NULL") + " FROM " + kScreenTable;
}

} // namespace

std::array<unsigned char, kScreenBytes> encodeScreen(const ScreenFingerprint& fp) {
    std::array<unsigned char, kScreenBytes> out{};
    for (int w = 0; w < kScreenWords; ++w)
        for (int b = 0; b < 8; ++b)
            out[w * 8 + b] = static_cast<unsigned char>(fp[w] >> (8 * b));
    return out;
}

std::optional<ScreenFingerprint> decodeScreen(const void* data, int bytes) {
    if (!data || bytes != kScreenBytes)
        return std::nullopt;
    ScreenFingerprint fp{};
    if constexpr (std::endian::native == std::endian::little) { // the BLOB's own byte order
        std::memcpy(fp.data(), data, kScreenBytes);
        return fp;
    }
    const auto* p = static_cast<const unsigned char*>(data);
    for (int w = 0; w < kScreenWords; ++w)
        for (int b = 0; b < 8; ++b)
            fp[w] |= std::uint64_t{p[w * 8 + b]} << (8 * b);
    return fp;
}

long addMissingScreens(HitStore& store, int threads) {
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    ensureScreenTable(store);
    std::vector<std::string> missing;
    {
        Statement s = store.prepare(std::string("SELECT DISTINCT smiles FROM poses WHERE smiles IS "
                                                "NOT NULL AND smiles NOT IN (SELECT smiles FROM ") +
                                    kScreenTable + ")");
        while (s.step())
            missing.push_back(s.text(0));
    }
    Statement insert = store.prepare(std::string("INSERT OR IGNORE INTO ") + kScreenTable +
                                     "(smiles, fp, mol, cmol) VALUES(?, ?, ?, ?)");
    long added = 0;
    constexpr size_t kChunk = 16384; // fingerprints in flight (memory), then written in order
    std::vector<std::optional<ScreenFingerprint>> fps;
    std::vector<std::string> binary, compact;
    prepareRdkitForThreads();
    for (size_t from = 0; from < missing.size(); from += kChunk) {
        const size_t n = std::min(kChunk, missing.size() - from);
        fps.assign(n, std::nullopt);
        binary.assign(n, std::string());
        compact.assign(n, std::string());
        parallelFor(static_cast<long>(n), threads, [&](long i) {
            fps[i] = screenFingerprint(missing[from + i], &binary[i], &compact[i]);
        });
        for (size_t i = 0; i < n; ++i) {
            if (!fps[i])
                continue;
            const auto blob = encodeScreen(*fps[i]);
            insert.bind(1, std::string_view(missing[from + i]));
            insert.bindBlobStatic(2, blob.data(), kScreenBytes);
            if (!binary[i].empty())
                insert.bindBlobStatic(3, binary[i].data(), static_cast<int>(binary[i].size()));
            if (!compact[i].empty())
                insert.bindBlobStatic(4, compact[i].data(), static_cast<int>(compact[i].size()));
            insert.run();
            ++added;
        }
    }
    return added;
}

long addMissingCompactForms(HitStore& store, int threads) {
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    ensureScreenTable(store);
    std::vector<std::string> missing;
    {
        Statement s = store.prepare(std::string("SELECT smiles FROM ") + kScreenTable +
                                    " WHERE cmol IS NULL");
        while (s.step())
            missing.push_back(s.text(0));
    }
    Statement update =
        store.prepare(std::string("UPDATE ") + kScreenTable + " SET cmol = ? WHERE smiles = ?");
    long added = 0;
    constexpr size_t kChunk = 16384;
    std::vector<std::string> compact;
    prepareRdkitForThreads();
    for (size_t from = 0; from < missing.size(); from += kChunk) {
        const size_t n = std::min(kChunk, missing.size() - from);
        compact.assign(n, std::string());
        parallelFor(static_cast<long>(n), threads, [&](long i) {
            if (!screenFingerprint(missing[from + i], nullptr, &compact[i]))
                compact[i].clear();
        });
        static const char kEmpty = 0;
        for (size_t i = 0; i < n; ++i) {
            if (compact[i].empty())
                update.bindBlobStatic(1, &kEmpty, 0); // an empty BLOB, not NULL: tried
            else
                update.bindBlobStatic(1, compact[i].data(), static_cast<int>(compact[i].size()));
            update.bind(2, std::string_view(missing[from + i]));
            update.run();
            added += !compact[i].empty();
        }
    }
    return added;
}

void ScreenIndex::clear() {
    loaded_ = false;
    loadedInParallel_ = false;
    loadedFromPack_ = false;
    poseMolecule_.clear();
    poseMolecule_.shrink_to_fit();
    poseLo_ = 0;
    packNonce_ = 0;
    arena_.clear();
    spans_.clear();
    fps_.clear();
    binaryArena_.clear();
    binarySpans_.clear();
    compactArena_.clear();
    compactSpans_.clear();
    binariesPending_ = false;
    withoutCompact_ = 0;
    slots_.clear();
    parsed_.clear();
    parsedCount_ = 0;
}

bool ScreenIndex::appendRow(sqlite3_stmt* s) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    const int textBytes = sqlite3_column_bytes(s, 0);
    const void* blob = sqlite3_column_blob(s, 1);
    const auto fp = decodeScreen(blob, sqlite3_column_bytes(s, 1));
    if (!text || !fp || static_cast<std::uint64_t>(textBytes) > kMaxLength)
        return false; // not ours: leave that molecule to the SMILES path
    spans_.push_back(static_cast<std::uint64_t>(arena_.size()) << 24 |
                     static_cast<std::uint64_t>(textBytes));
    arena_.insert(arena_.end(), text, text + textBytes); // unique: the table's key
    fps_.push_back(*fp);
    const auto* mol = static_cast<const char*>(sqlite3_column_blob(s, 2));
    const auto molBytes = mol ? static_cast<std::uint64_t>(sqlite3_column_bytes(s, 2)) : 0;
    if (molBytes > kMaxLength) {
        binarySpans_.push_back(0); // the SMILES instead
    } else {
        binarySpans_.push_back(static_cast<std::uint64_t>(binaryArena_.size()) << 24 | molBytes);
        if (mol)
            binaryArena_.insert(binaryArena_.end(), mol, mol + molBytes);
    }
    const auto* cmol = static_cast<const char*>(sqlite3_column_blob(s, 3));
    const auto cmolBytes = cmol ? static_cast<std::uint64_t>(sqlite3_column_bytes(s, 3)) : 0;
    if (cmolBytes > kMaxLength) {
        compactSpans_.push_back(0); // RDKit instead
    } else {
        compactSpans_.push_back(static_cast<std::uint64_t>(compactArena_.size()) << 24 | cmolBytes);
        if (cmol)
            compactArena_.insert(compactArena_.end(), cmol, cmol + cmolBytes);
    }
    return true;
}

std::pair<long long, long long> poseIdRange(sqlite3* db) {
    long long lo = 0, hi = -1;
    sqlite3_stmt* s = nullptr;
    // Two subqueries: SQLite answers a lone min() or max() with one B-tree descent, but
    // "SELECT min(id), max(id)" scans the whole table (~0.1 s at a million poses).
    if (sqlite3_prepare_v2(db, "SELECT (SELECT min(id) FROM poses), (SELECT max(id) FROM poses)",
                           -1, &s, nullptr) ==
            SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL) {
        lo = sqlite3_column_int64(s, 0);
        hi = sqlite3_column_int64(s, 1);
    }
    sqlite3_finalize(s);
    return {lo, hi};
}

namespace {

// Split points for key ranges of pw_screen of about equal size: the SMILES of poses at evenly
// spaced ids (a pose's molecule is a pw_screen key; ids are the table's rowid, so each look-up
// is one B-tree descent). Sorted, distinct, in SQLite's BINARY order (bytes, then length).
std::vector<std::string> splitPoints(sqlite3* db, int ranges, long long parallelAfter) {
    std::vector<std::string> points;
    const auto [lo, hi] = poseIdRange(db);
    if (hi - lo + 1 < parallelAfter || hi < lo)
        return points;
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT smiles FROM poses WHERE id >= ? AND smiles IS NOT NULL "
                               "ORDER BY id LIMIT 1",
                           -1, &s, nullptr) != SQLITE_OK) {
        sqlite3_finalize(s);
        return points;
    }
    const int samples = ranges * 16; // quantiles of a sample: ranges within ~25% of each other
    std::vector<std::string> sample;
    for (int k = 0; k < samples; ++k) {
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, lo + (hi - lo) * k / samples);
        if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) == SQLITE_TEXT)
            sample.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)),
                                static_cast<size_t>(sqlite3_column_bytes(s, 0)));
    }
    sqlite3_finalize(s);
    auto binaryLess = [](const std::string& a, const std::string& b) {
        const int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
        return c != 0 ? c < 0 : a.size() < b.size();
    };
    std::sort(sample.begin(), sample.end(), binaryLess);
    for (int r = 1; r < ranges && !sample.empty(); ++r) {
        const std::string& p = sample[sample.size() * static_cast<size_t>(r) / ranges];
        if (points.empty() || binaryLess(points.back(), p))
            points.push_back(p);
    }
    return points;
}

} // namespace

bool ScreenIndex::readersSeeWhatDbSees(sqlite3* db) {
    const char* file = sqlite3_db_filename(db, "main");
    // Other connections see only what is committed: not with our own writes pending.
    if (!file || !*file || sqlite3_txn_state(db, "main") == SQLITE_TXN_WRITE)
        return false;
    sqlite3_stmt* s = nullptr;
    bool wal = false;
    if (sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &s, nullptr) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
        wal = std::string_view(reinterpret_cast<const char*>(sqlite3_column_text(s, 0))) ==
              "wal"; // a reader's snapshot may be older than a new connection's
    sqlite3_finalize(s);
    return !wal;
}

bool ScreenIndex::loadInParallel(sqlite3* db, const std::string& select, int threads,
                                 long long parallelAfter) {
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const char* file = sqlite3_db_filename(db, "main");
    if (threads < 2 || !readersSeeWhatDbSees(db))
        return false;
    const std::vector<std::string> points = splitPoints(db, threads * 4, parallelAfter);
    if (points.empty())
        return false;
    const std::string path = file;
    const long ranges = static_cast<long>(points.size()) + 1;
    std::vector<ScreenIndex> parts(static_cast<size_t>(ranges));
    std::atomic<bool> failed{false};
    parallelFor(ranges, threads, [&](long r) {
        if (failed)
            return;
        std::string sql = select;
        if (r > 0)
            sql += " WHERE smiles >= ?1";
        if (r + 1 < ranges)
            sql += r > 0 ? " AND smiles < ?2" : " WHERE smiles < ?2";
        ReaderConnection c(path, sql.c_str());
        if (!c.ok()) {
            failed = true;
            return;
        }
        // No busy wait: a writer waiting for our own read lock would wait on us in turn; on a
        // lock the index is read by one reader instead.
        if (r > 0)
            sqlite3_bind_text(c.stmt, 1, points[r - 1].data(), static_cast<int>(points[r - 1].size()),
                              SQLITE_STATIC);
        if (r + 1 < ranges)
            sqlite3_bind_text(c.stmt, 2, points[r].data(), static_cast<int>(points[r].size()),
                              SQLITE_STATIC);
        ScreenIndex& part = parts[static_cast<size_t>(r)];
        int rc;
        while ((rc = sqlite3_step(c.stmt)) == SQLITE_ROW)
            part.appendRow(c.stmt);
        if (rc != SQLITE_DONE)
            failed = true;
    });
    if (failed)
        return false;
    // Joined in range order: the keys' order, as one reader reads them.
    // Where each range's molecules and bytes go; then every range copied in place at once.
    struct At {
        size_t molecule = 0, byte = 0, binaryByte = 0, compactByte = 0;
    };
    std::vector<At> at(parts.size() + 1);
    for (size_t r = 0; r < parts.size(); ++r)
        at[r + 1] = {at[r].molecule + parts[r].spans_.size(), at[r].byte + parts[r].arena_.size(),
                     at[r].binaryByte + parts[r].binaryArena_.size(),
                     at[r].compactByte + parts[r].compactArena_.size()};
    const At total = at.back();
    arena_.resize(total.byte);
    binaryArena_.resize(total.binaryByte);
    spans_.resize(total.molecule);
    binarySpans_.resize(total.molecule);
    compactArena_.resize(total.compactByte);
    compactSpans_.resize(total.molecule);
    fps_.resize(total.molecule);
    parallelFor(static_cast<long>(parts.size()), threads, [&](long r) {
        ScreenIndex& p = parts[static_cast<size_t>(r)];
        const At& to = at[static_cast<size_t>(r)];
        std::copy(p.arena_.begin(), p.arena_.end(), arena_.begin() + static_cast<long>(to.byte));
        std::copy(p.binaryArena_.begin(), p.binaryArena_.end(),
                  binaryArena_.begin() + static_cast<long>(to.binaryByte));
        std::copy(p.compactArena_.begin(), p.compactArena_.end(),
                  compactArena_.begin() + static_cast<long>(to.compactByte));
        std::copy(p.fps_.begin(), p.fps_.end(), fps_.begin() + static_cast<long>(to.molecule));
        const std::uint64_t shift = static_cast<std::uint64_t>(to.byte) << 24,
                            binaryShift = static_cast<std::uint64_t>(to.binaryByte) << 24,
                            compactShift = static_cast<std::uint64_t>(to.compactByte) << 24;
        for (size_t i = 0; i < p.spans_.size(); ++i) {
            spans_[to.molecule + i] = p.spans_[i] + shift;
            const std::uint64_t b = p.binarySpans_[i];
            binarySpans_[to.molecule + i] = (b & kMaxLength) == 0 ? 0 : b + binaryShift;
            const std::uint64_t c = p.compactSpans_[i];
            compactSpans_[to.molecule + i] = (c & kMaxLength) == 0 ? 0 : c + compactShift;
        }
        p.arena_ = {}; // freed here, on this range's thread
        p.binaryArena_ = {};
        p.spans_ = {};
        p.binarySpans_ = {};
        p.compactArena_ = {};
        p.compactSpans_ = {};
        p.fps_ = {};
    });
    return true;
}

void ScreenIndex::load(sqlite3* db, const std::string& storePath, int threads,
                       long long parallelAfter, bool binaries) {
    clear();
    bool hasMol = false;
    const std::string select = screenSelectSql(db, binaries, hasMol);
    const bool pending = hasMol && !binaries;
    if (select.empty()) {
        loaded_ = true; // a store written before the screen: nothing to screen with
        return;
    }
    if (loadPack(db, threads)) {
        finishLoad(threads, hasMol);
        loadedFromPack_ = true;
        if (binaries)
            loadBinaries(db, threads);
        return;
    }
    if (loadInParallel(db, select, threads,
                       parallelAfter < 0 ? parallelLoadAfter_.load() : parallelAfter)) {
        finishLoad(threads, pending);
        loadedInParallel_ = true;
        return;
    }
    clear();
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, select.c_str(), -1, &s, nullptr) != SQLITE_OK) {
        const std::string why = sqlite3_errmsg(db);
        sqlite3_finalize(s);
        throw std::runtime_error(storePath + ": cannot read " + kScreenTable + ": " + why);
    }
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        appendRow(s);
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        throw std::runtime_error(storePath + ": cannot read " + kScreenTable + ": " +
                                 sqlite3_errmsg(db));
    finishLoad(threads, pending);
}

void ScreenIndex::finishLoad(int threads, bool binariesPending) {
    binariesPending_ = binariesPending;
    {
        HitsTrace trace("hash-table");
        buildSlots(threads);
    }
    parsed_.resize(spans_.size());
    withoutCompact_ = static_cast<size_t>(
        std::count_if(compactSpans_.begin(), compactSpans_.end(),
                      [](std::uint64_t span) { return (span & kMaxLength) == 0; }));
    loaded_ = true;
}

void ScreenIndex::loadBinaries(sqlite3* db, int threads) {
    if (!binariesPending_)
        return;
    HitsTrace trace("binaries");
    binariesPending_ = false;
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const size_t n = spans_.size();
    const bool parallel =
        threads > 1 && static_cast<long long>(n) >= parallelLoadAfter_ && readersSeeWhatDbSees(db);
    // Contiguous stretches of the index (which is in the table's key order), each read as the
    // key range from its first SMILES to its last; a row is taken for molecule i only when its
    // SMILES is molecule i's (rows the index left out are passed over; a molecule whose row is
    // gone keeps no binary, and is parsed from its SMILES instead).
    const long parts = parallel ? threads * 4L : 1L;
    struct Part {
        Buffer<char> arena;
        std::vector<std::uint64_t> spans;
    };
    std::vector<Part> got(static_cast<size_t>(parts));
    const std::string path = parallel ? sqlite3_db_filename(db, "main") : "";
    const std::string sql = std::string("SELECT smiles, mol FROM ") + kScreenTable +
                            " WHERE smiles >= ?1 AND smiles <= ?2";
    parallelFor(parts, parallel ? threads : 1, [&](long c) {
        const size_t from = n * static_cast<size_t>(c) / static_cast<size_t>(parts),
                     to = n * static_cast<size_t>(c + 1) / static_cast<size_t>(parts);
        Part& part = got[static_cast<size_t>(c)];
        part.spans.assign(to - from, 0);
        if (from == to)
            return;
        std::optional<ReaderConnection> own;
        sqlite3_stmt* s = nullptr;
        if (parallel) {
            own.emplace(path, sql.c_str());
            if (!own->ok())
                return;
            s = own->stmt;
        } else if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
            sqlite3_finalize(s);
            return;
        }
        const std::string_view first = text(spans_[from]), last = text(spans_[to - 1]);
        sqlite3_bind_text(s, 1, first.data(), static_cast<int>(first.size()), SQLITE_STATIC);
        sqlite3_bind_text(s, 2, last.data(), static_cast<int>(last.size()), SQLITE_STATIC);
        for (size_t i = from; i < to && sqlite3_step(s) == SQLITE_ROW;) {
            const std::string_view smiles(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)),
                                          static_cast<size_t>(sqlite3_column_bytes(s, 0)));
            if (smiles != text(spans_[i]))
                continue;
            const auto* mol = static_cast<const char*>(sqlite3_column_blob(s, 1));
            const auto bytes = static_cast<std::uint64_t>(sqlite3_column_bytes(s, 1));
            if (mol && bytes > 0 && bytes <= kMaxLength) {
                part.spans[i - from] = static_cast<std::uint64_t>(part.arena.size()) << 24 | bytes;
                part.arena.insert(part.arena.end(), mol, mol + bytes);
            }
            ++i;
        }
        if (!parallel)
            sqlite3_finalize(s);
    });
    std::vector<size_t> at(got.size() + 1, 0);
    for (size_t c = 0; c < got.size(); ++c)
        at[c + 1] = at[c] + got[c].arena.size();
    binaryArena_.resize(at.back());
    binarySpans_.resize(n);
    parallelFor(parts, parallel ? threads : 1, [&](long c) {
        Part& part = got[static_cast<size_t>(c)];
        std::copy(part.arena.begin(), part.arena.end(),
                  binaryArena_.begin() + static_cast<long>(at[static_cast<size_t>(c)]));
        const size_t from = n * static_cast<size_t>(c) / static_cast<size_t>(parts);
        const std::uint64_t shift = static_cast<std::uint64_t>(at[static_cast<size_t>(c)]) << 24;
        for (size_t k = 0; k < part.spans.size(); ++k)
            binarySpans_[from + k] = part.spans[k] == 0 ? 0 : part.spans[k] + shift;
        part = {};
    });
}

void ScreenIndex::buildSlots(int threads) {
    size_t capacity = 16;
    while (capacity < 2 * spans_.size())
        capacity *= 2;
    slots_.assign(capacity, Slot{});
    const size_t mask = capacity - 1;
    const long n = static_cast<long>(spans_.size());
    // Each molecule claims the first free slot of its probe sequence (compare-and-swap on the
    // index), so that several threads insert at once; the table is read only after they joined.
    // Which of two colliding molecules sits first may differ from run to run; a look-up finds
    // either, since it probes until an empty slot.
    constexpr long kChunk = 16384;
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    parallelFor((n + kChunk - 1) / kChunk, n >= 4 * kChunk ? threads : 1, [&](long c) {
        for (long i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) {
            const size_t h = hashOf(text(spans_[static_cast<size_t>(i)]));
            for (size_t at = h & mask;; at = (at + 1) & mask) {
                uint32_t empty = 0;
                if (std::atomic_ref<uint32_t>(slots_[at].indexPlusOne)
                        .compare_exchange_strong(empty, static_cast<uint32_t>(i + 1),
                                                 std::memory_order_relaxed)) {
                    slots_[at].tag = static_cast<uint32_t>(static_cast<std::uint64_t>(h) >> 32);
                    slots_[at].span = spans_[static_cast<size_t>(i)];
                    break;
                }
            }
        }
    });
}

std::optional<uint32_t> ScreenIndex::find(std::string_view smiles) const {
    if (slots_.empty())
        return std::nullopt;
    const size_t h = hashOf(smiles), mask = slots_.size() - 1;
    const auto tag = static_cast<uint32_t>(static_cast<std::uint64_t>(h) >> 32);
    for (size_t at = h & mask; slots_[at].indexPlusOne != 0; at = (at + 1) & mask)
        if (slots_[at].tag == tag && text(slots_[at].span) == smiles)
            return slots_[at].indexPlusOne - 1;
    return std::nullopt;
}

std::shared_ptr<const ParsedMolecule> ScreenIndex::parsed(uint32_t i) {
    if (parsed_[i])
        return parsed_[i];
    const std::uint64_t span = binarySpans_[i];
    std::shared_ptr<const ParsedMolecule> mol;
    if ((span & kMaxLength) != 0)
        mol = ParsedMolecule::fromBinary(std::string_view(binaryArena_.data() + (span >> 24),
                                                          static_cast<size_t>(span & kMaxLength)));
    if (!mol)
        mol = ParsedMolecule::fromCleanSmiles(smiles(i));
    if (mol && spans_.size() <= kParsedCapacity && parsedCount_.fetch_add(1) < kParsedCapacity)
        parsed_[i] = mol;
    return mol;
}

PatternAnswers::PatternAnswers(const SubstructureQuery& query) : query_(query) {
    if (compactEnabled_ && query.compactPattern())
        compact_ = CompactMatcher::make(*query.compactPattern());
}

signed char PatternAnswers::compute(const SubstructureQuery& query, ScreenIndex& index,
                                    uint32_t i, ScreenCounts& counts) const {
    if (!passesScreen(query.screen(), index.fingerprint(i))) {
        ++counts.screenedOut;
        return 0;
    }
    ++counts.matched;
    if (compact_) {
        const std::string_view form = index.compact(i);
        if (!form.empty())
            if (const auto m = compact_->matches(form)) {
                ++counts.compact;
                return *m ? 1 : 0;
            }
    }
    try {
        if (auto mol = index.parsed(i))
            return query.matches(*mol) ? 1 : 0;
    } catch (const std::exception&) { // RDKit's own errors: the full path below decides
    }
    // RDKit wrote and re-read this SMILES when the fingerprint was made; if the quick parse
    // still refuses it, the full one decides (and says unknown if it cannot).
    try {
        const auto m = query.matchesSmiles(index.smiles(i));
        return m ? static_cast<signed char>(*m) : -1;
    } catch (const std::exception&) {
        return -1;
    }
}

signed char PatternAnswers::answer(ScreenIndex& index, uint32_t i) {
    if (known_.size() != index.size())
        known_.assign(index.size(), -2);
    if (known_[i] != -2)
        return known_[i];
    if (!allDone_ && ++oneByOne_ > kBulkAfter) {
        answerAll(index);
        return known_[i];
    }
    known_[i] = compute(query_, index, i, counts_);
    return known_[i];
}

void PatternAnswers::answerAll(ScreenIndex& index, int threads) {
    HitsTrace trace("match-all");
    if (known_.size() != index.size())
        known_.assign(index.size(), -2);
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const long n = static_cast<long>(index.size());
    threads = static_cast<int>(std::min<long>(threads, std::max(1L, n / 64)));
    std::mutex countsMutex;
    std::exception_ptr failure; // memory, say: rethrown here, never left in a worker thread
    // Each worker, with its own copy of the RDKit query, takes blocks of consecutive molecules
    // as it finishes the last: each writes answers into cache lines of its own (every
    // threads-th molecule had all threads writing the same lines, which the ~1 us compact
    // match made the larger cost), and the slow molecules are shared out.
    constexpr long kBlock = 4096;
    std::atomic<long> nextBlock{0};
    parallelFor(threads, threads, [&](long) {
        try {
            const SubstructureQuery query = query_.clone();
            ScreenCounts mine;
            for (long from; (from = nextBlock.fetch_add(kBlock)) < n;)
                for (long i = from; i < std::min(n, from + kBlock); ++i)
                    if (known_[i] == -2)
                        known_[i] = compute(query, index, static_cast<uint32_t>(i), mine);
            std::lock_guard lock(countsMutex);
            counts_.screenedOut += mine.screenedOut;
            counts_.matched += mine.matched;
            counts_.compact += mine.compact;
        } catch (...) {
            std::lock_guard lock(countsMutex);
            if (!failure)
                failure = std::current_exception();
        }
    });
    if (failure)
        std::rethrow_exception(failure);
    allDone_ = true;
}

} // namespace pw::hits
