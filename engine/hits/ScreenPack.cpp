// The screen index kept whole in pw_screen_pack: written after the commits that change the
// store's molecules, read by a cold filter in a few large BLOBs. pw_screen stays the truth: the
// pack is used only when its header, sizes and checksums hold and its first and last SMILES are
// pw_screen's; triggers on pw_screen empty it on any insert, update or delete.
//
// Layout (little-endian; the pack is neither written nor read on a big-endian host):
//   part 0, the header: u64 magic, u64 nonce (random, new at each write), u64 molecules, u64
//     parts, then per part u64 molecules, smiles bytes, compact bytes, checksum; then u64 length
//     + bytes of the first and the last SMILES of the index; then i64 first pose id, u64 pose
//     ids mapped (0: no map), u64 the map's checksum.
//   part k >= 1: u32 SMILES length per molecule, u32 compact-form length per molecule, the
//     fingerprints (kScreenBytes each), the SMILES back to back, the compact forms back to back.
//   part parts + 1 (when pose ids are mapped): u32 per pose id from the first on, the index + 1
//     of its molecule (0: no pose, no SMILES, or a SMILES not in the index). Triggers on poses
//     (insert, delete, update of id or smiles) empty the pack too.
#include "HitStore.h"
#include "ScreenIndex.h"
#include "HitsTrace.h"

#include "core/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <optional>
#include <random>
#include <utility>
#include <thread>

namespace pw::hits {

namespace {

constexpr std::uint64_t kPackMagic = 0x324B434150535750ull; // "PWSPACK2"
constexpr long long kMaxMappedPoses = 1LL << 26;               // 256 MiB of pose map at most
constexpr size_t kPackMolecules = 16384;                     // molecules per part
constexpr bool kLittleEndian = std::endian::native == std::endian::little;

// A checksum of a part's bytes (four independent lanes of multiply-xor: ~GB/s a core), so that a
// damaged BLOB is refused rather than trusted.
std::uint64_t checksum(const unsigned char* p, size_t n) {
    constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
    std::uint64_t lane[4] = {1, 2, 3, 4};
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; ++k) {
            std::uint64_t w;
            std::memcpy(&w, p + i + 8 * k, 8);
            lane[k] = (lane[k] ^ w) * kMul;
            lane[k] ^= lane[k] >> 29;
        }
    std::uint64_t h = n;
    for (; i < n; ++i)
        h = (h ^ p[i]) * kMul;
    for (std::uint64_t l : lane)
        h = (h ^ l) * kMul ^ (h >> 31);
    return h;
}

// A part's four sections (lengths, fingerprints, SMILES, compact forms), each checksummed where
// it lies: the reader reads them straight into different arrays.
struct Section {
    unsigned char* data;
    size_t bytes;
};
std::uint64_t partChecksum(const Section (&sections)[4]) {
    std::uint64_t h = 0;
    for (const Section& s : sections)
        h = (h ^ checksum(s.data, s.bytes)) * 0x9E3779B97F4A7C15ull + 1;
    return h;
}

void putU64(std::string& out, std::uint64_t v) {
    out.append(reinterpret_cast<const char*>(&v), 8);
}

// Reads the header's fields in order; fails (ok = false) past its end.
struct HeaderReader {
    const unsigned char* p;
    size_t n, at = 0;
    bool ok = true;
    std::uint64_t u64() {
        if (!ok || n - at < 8) {
            ok = false;
            return 0;
        }
        std::uint64_t v;
        std::memcpy(&v, p + at, 8);
        at += 8;
        return v;
    }
    std::string_view text() {
        const std::uint64_t len = u64();
        if (!ok || n - at < len) {
            ok = false;
            return {};
        }
        const std::string_view s(reinterpret_cast<const char*>(p + at), len);
        at += len;
        return s;
    }
};

struct PartInfo {
    std::uint64_t molecules = 0, smilesBytes = 0, compactBytes = 0, checksum = 0;
    // Where the part's molecules and bytes go in the index.
    std::uint64_t atMolecule = 0, atByte = 0, atCompact = 0;
    size_t bytes() const {
        return molecules * (8 + kScreenBytes) + smilesBytes + compactBytes;
    }
};

bool hasTable(sqlite3* db, const char* name) {
    sqlite3_stmt* s = nullptr;
    bool found = false;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", -1,
                           &s, nullptr) == SQLITE_OK) {
        sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
        found = sqlite3_step(s) == SQLITE_ROW;
    }
    sqlite3_finalize(s);
    return found;
}

} // namespace

void ensureScreenPackTable(HitStore& store) {
    store.exec(std::string("CREATE TABLE IF NOT EXISTS ") + kScreenPackTable +
               "(part INTEGER PRIMARY KEY, data BLOB NOT NULL)");
    // Any change of pw_screen, by any writer, makes the pack stale: it is emptied at once (one
    // DELETE of an empty table per new molecule after that).
    for (const char* event : {"INSERT", "UPDATE", "DELETE"})
        store.exec(std::string("CREATE TRIGGER IF NOT EXISTS ") + kScreenPackTable + "_stale_" +
                   event + " AFTER " + event + " ON " + kScreenTable + " BEGIN DELETE FROM " +
                   kScreenPackTable + "; END");
    // And any change of which molecule a pose id is (the pose map; ~0.5 us per imported pose).
    for (const auto& [name, event] :
         {std::pair{"insert", "INSERT"}, {"delete", "DELETE"}, {"update", "UPDATE OF id, smiles"}})
        store.exec(std::string("CREATE TRIGGER IF NOT EXISTS ") + kScreenPackTable +
                   "_stale_poses_" + name + " AFTER " + event + " ON poses BEGIN DELETE FROM " +
                   kScreenPackTable + "; END");
}

std::vector<std::string> ScreenIndex::packParts(int threads,
                                                const std::vector<uint32_t>& poseMolecule,
                                                long long poseLo, std::uint64_t nonce) const {
    const size_t n = spans_.size();
    const size_t parts = (n + kPackMolecules - 1) / kPackMolecules;
    std::vector<std::string> out(parts + 1 + (poseMolecule.empty() ? 0 : 1));
    std::vector<PartInfo> info(parts);
    parallelFor(static_cast<long>(parts), threads, [&](long k) {
        const size_t from = static_cast<size_t>(k) * kPackMolecules,
                     to = std::min(n, from + kPackMolecules);
        PartInfo& pi = info[static_cast<size_t>(k)];
        pi.molecules = to - from;
        std::string& b = out[static_cast<size_t>(k) + 1];
        for (size_t i = from; i < to; ++i) {
            const auto len = static_cast<std::uint32_t>(spans_[i] & kMaxLength);
            b.append(reinterpret_cast<const char*>(&len), 4);
            pi.smilesBytes += len;
        }
        for (size_t i = from; i < to; ++i) {
            const auto len = static_cast<std::uint32_t>(compactSpans_[i] & kMaxLength);
            b.append(reinterpret_cast<const char*>(&len), 4);
            pi.compactBytes += len;
        }
        b.append(reinterpret_cast<const char*>(fps_.data() + from), (to - from) * kScreenBytes);
        for (size_t i = from; i < to; ++i)
            b.append(text(spans_[i]));
        for (size_t i = from; i < to; ++i)
            b.append(compact(static_cast<uint32_t>(i)));
        auto* at = reinterpret_cast<unsigned char*>(b.data());
        const size_t m = pi.molecules;
        const Section sections[4] = {{at, 8 * m},
                                     {at + 8 * m, m * kScreenBytes},
                                     {at + m * (8 + kScreenBytes), pi.smilesBytes},
                                     {at + m * (8 + kScreenBytes) + pi.smilesBytes, pi.compactBytes}};
        pi.checksum = partChecksum(sections);
    });
    std::string& h = out[0];
    putU64(h, kPackMagic);
    putU64(h, nonce);
    putU64(h, n);
    putU64(h, parts);
    for (const PartInfo& pi : info) {
        putU64(h, pi.molecules);
        putU64(h, pi.smilesBytes);
        putU64(h, pi.compactBytes);
        putU64(h, pi.checksum);
    }
    for (const std::string_view s : {n ? text(spans_[0]) : std::string_view(),
                                     n ? text(spans_[n - 1]) : std::string_view()}) {
        putU64(h, s.size());
        h.append(s);
    }
    putU64(h, static_cast<std::uint64_t>(poseLo));
    putU64(h, poseMolecule.size());
    std::uint64_t mapChecksum = 0;
    if (!poseMolecule.empty()) {
        std::string& m = out.back();
        m.assign(reinterpret_cast<const char*>(poseMolecule.data()), 4 * poseMolecule.size());
        mapChecksum = checksum(reinterpret_cast<const unsigned char*>(m.data()), m.size());
    }
    putU64(h, mapChecksum);
    return out;
}

bool ScreenIndex::loadPack(sqlite3* db, int threads) {
    HitsTrace trace("pack");
    if (!kLittleEndian || !packEnabled_ || !hasTable(db, kScreenPackTable))
        return false;
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // The header, on db itself.
    std::string header;
    {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(db,
                               (std::string("SELECT data FROM ") + kScreenPackTable +
                                " WHERE part = 0")
                                   .c_str(),
                               -1, &s, nullptr) == SQLITE_OK &&
            sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) == SQLITE_BLOB)
            header.assign(static_cast<const char*>(sqlite3_column_blob(s, 0)),
                          static_cast<size_t>(sqlite3_column_bytes(s, 0)));
        sqlite3_finalize(s);
    }
    HeaderReader r{reinterpret_cast<const unsigned char*>(header.data()), header.size()};
    const std::uint64_t magic = r.u64(), nonce = r.u64(), molecules = r.u64(), parts = r.u64();
    if (!r.ok || magic != kPackMagic || molecules >= (1ull << 31) ||
        parts != (molecules + kPackMolecules - 1) / kPackMolecules)
        return false;
    std::vector<PartInfo> info(parts);
    std::uint64_t atMolecule = 0, atByte = 0, atCompact = 0;
    for (PartInfo& pi : info) {
        pi.molecules = r.u64();
        pi.smilesBytes = r.u64();
        pi.compactBytes = r.u64();
        pi.checksum = r.u64();
        // Every part but the last is full; the offsets must fit a span (40 bits).
        if (!r.ok || pi.molecules == 0 || pi.molecules > kPackMolecules ||
            pi.smilesBytes > (1ull << 36) || pi.compactBytes > (1ull << 36))
            return false;
        pi.atMolecule = atMolecule;
        pi.atByte = atByte;
        pi.atCompact = atCompact;
        atMolecule += pi.molecules;
        atByte += pi.smilesBytes;
        atCompact += pi.compactBytes;
    }
    const std::string_view first = r.text(), last = r.text();
    const auto poseLo = static_cast<long long>(r.u64());
    const std::uint64_t mapped = r.u64(), mapChecksum = r.u64();
    if (!r.ok || r.at != header.size() || mapped > static_cast<std::uint64_t>(kMaxMappedPoses) || atMolecule != molecules || atByte >= (1ull << 40) ||
        atCompact >= (1ull << 40))
        return false;
    for (size_t k = 0; k + 1 < info.size(); ++k)
        if (info[k].molecules != kPackMolecules)
            return false;
    // The pack must begin and end where pw_screen does (two B-tree descents: one subquery
    // each, since min() and max() in one SELECT scan the table): a belt to the triggers'
    // braces, for a writer that dropped them.
    {
        sqlite3_stmt* s = nullptr;
        bool same = false;
        if (sqlite3_prepare_v2(db,
                               (std::string("SELECT (SELECT min(smiles) FROM ") + kScreenTable +
                                "), (SELECT max(smiles) FROM " + kScreenTable + ")")
                                   .c_str(),
                               -1, &s, nullptr) == SQLITE_OK &&
            sqlite3_step(s) == SQLITE_ROW) {
            auto column = [&](int c) {
                return std::string_view(reinterpret_cast<const char*>(sqlite3_column_text(s, c)),
                                        static_cast<size_t>(sqlite3_column_bytes(s, c)));
            };
            same = molecules == 0 ? sqlite3_column_type(s, 0) == SQLITE_NULL
                                  : sqlite3_column_type(s, 0) == SQLITE_TEXT &&
                                        sqlite3_column_type(s, 1) == SQLITE_TEXT &&
                                        column(0) == first && column(1) == last;
        }
        sqlite3_finalize(s);
        if (!same)
            return false;
    }
    // The pose map must cover the store's pose ids exactly.
    if (mapped > 0) {
        const auto [lo, hi] = poseIdRange(db);
        if (lo != poseLo || hi < lo || static_cast<std::uint64_t>(hi - lo + 1) != mapped)
            return false;
    }
    arena_.resize(atByte);
    spans_.resize(molecules);
    fps_.resize(molecules);
    compactArena_.resize(atCompact);
    compactSpans_.resize(molecules);
    binarySpans_.assign(molecules, 0); // read on demand (loadBinaries)
    binaryArena_.clear();
    // Parts on read-only connections of their own where those see what db sees, else on db;
    // each part's sections read straight into the index's arrays (no copy of the BLOB between).
    const bool parallel = threads > 1 && parts > 1 && readersSeeWhatDbSees(db);
    const char* file = sqlite3_db_filename(db, "main");
    const std::string path = file ? file : "";
    std::atomic<bool> failed{false};
    parallelFor(static_cast<long>(parts), parallel ? threads : 1, [&](long k) {
        if (failed)
            return;
        const PartInfo& pi = info[static_cast<size_t>(k)];
        std::optional<ReaderConnection> own;
        sqlite3* reader = db;
        if (parallel) {
            own.emplace(path, nullptr);
            if (!own->ok()) {
                failed = true;
                return;
            }
            reader = own->db;
            // The file mapped: SQLite hands each page of the BLOB from the mapping instead of a
            // pread per page into its cache (a copy less; capped by SQLite's build).
            sqlite3_exec(reader, "PRAGMA mmap_size = 1099511627776", nullptr, nullptr, nullptr);
        }
        sqlite3_blob* blob = nullptr;
        const size_t m = pi.molecules;
        std::vector<unsigned char> lengths(8 * m);
        const Section sections[4] = {
            {lengths.data(), 8 * m},
            {reinterpret_cast<unsigned char*>(fps_.data() + pi.atMolecule), m * kScreenBytes},
            {reinterpret_cast<unsigned char*>(arena_.data() + pi.atByte), pi.smilesBytes},
            {reinterpret_cast<unsigned char*>(compactArena_.data() + pi.atCompact),
             pi.compactBytes}};
        bool good = sqlite3_blob_open(reader, "main", kScreenPackTable, "data", k + 1, 0, &blob) ==
                        SQLITE_OK &&
                    static_cast<size_t>(sqlite3_blob_bytes(blob)) == pi.bytes();
        size_t offset = 0;
        for (const Section& section : sections) {
            good = good && sqlite3_blob_read(blob, section.data, static_cast<int>(section.bytes),
                                             static_cast<int>(offset)) == SQLITE_OK;
            offset += section.bytes;
        }
        sqlite3_blob_close(blob);
        good = good && partChecksum(sections) == pi.checksum;
        std::uint64_t byte = 0, cbyte = 0;
        for (size_t i = 0; i < m && good; ++i) {
            std::uint32_t len, clen;
            std::memcpy(&len, lengths.data() + 4 * i, 4);
            std::memcpy(&clen, lengths.data() + 4 * (m + i), 4);
            byte += len;
            cbyte += clen;
            if (len > kMaxLength || clen > kMaxLength || byte > pi.smilesBytes ||
                cbyte > pi.compactBytes) {
                good = false;
                break;
            }
            spans_[pi.atMolecule + i] = (pi.atByte + byte - len) << 24 | len;
            compactSpans_[pi.atMolecule + i] =
                clen == 0 ? 0 : (pi.atCompact + cbyte - clen) << 24 | clen;
        }
        if (!good || byte != pi.smilesBytes || cbyte != pi.compactBytes)
            failed = true;
    });
    if (!failed && mapped > 0) { // the pose map, on db
        poseMolecule_.resize(mapped);
        sqlite3_blob* blob = nullptr;
        const int bytes = static_cast<int>(4 * mapped);
        bool good = sqlite3_blob_open(db, "main", kScreenPackTable, "data",
                                      static_cast<sqlite3_int64>(parts + 1), 0,
                                      &blob) == SQLITE_OK &&
                    sqlite3_blob_bytes(blob) == bytes &&
                    sqlite3_blob_read(blob, poseMolecule_.data(), bytes, 0) == SQLITE_OK;
        sqlite3_blob_close(blob);
        good = good && checksum(reinterpret_cast<const unsigned char*>(poseMolecule_.data()),
                                static_cast<size_t>(bytes)) == mapChecksum &&
               std::all_of(poseMolecule_.begin(), poseMolecule_.end(),
                           [&](uint32_t m) { return m <= molecules; });
        failed = !good;
        poseLo_ = poseLo;
    }
    if (failed) {
        clear();
        return false;
    }
    packNonce_ = nonce;
    return true;
}

bool screenPackIsCurrent(sqlite3* db, std::uint64_t nonce) {
    if (!hasTable(db, kScreenPackTable))
        return false;
    sqlite3_blob* blob = nullptr;
    std::uint64_t stored = 0;
    const bool read = sqlite3_blob_open(db, "main", kScreenPackTable, "data", 0, 0, &blob) ==
                          SQLITE_OK &&
                      sqlite3_blob_bytes(blob) >= 16 &&
                      sqlite3_blob_read(blob, &stored, 8, 8) == SQLITE_OK;
    sqlite3_blob_close(blob);
    return read && stored == nonce;
}

long writeScreenPack(HitStore& store, int threads) {
    sqlite3* db = store.handle();
    if (!kLittleEndian || !hasTable(db, kScreenTable))
        return 0;
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    auto dataVersion = [&] {
        Statement v = store.prepare("PRAGMA data_version");
        v.step();
        return v.integer(0);
    };
    const long long version = dataVersion();
    ScreenIndex index;
    index.load(db, store.path(), threads, -1, /*binaries=*/false);
    if (index.loadedFromPack())
        return 0; // current
    // Each pose id's molecule: id ranges on read-only connections of their own in parallel
    // (they see what db sees: it has no transaction open; a commit by another connection
    // meanwhile is caught by the data_version check below), else db alone.
    std::vector<uint32_t> poseMolecule;
    const auto [lo, hi] = poseIdRange(db);
    if (hi >= lo && hi - lo + 1 <= kMaxMappedPoses) {
        poseMolecule.assign(static_cast<size_t>(hi - lo + 1), 0);
        const char* sql = "SELECT id, smiles FROM poses WHERE id >= ? AND id <= ? AND smiles IS NOT NULL";
        auto mapRange = [&](sqlite3_stmt* s, long long from, long long to) {
            sqlite3_bind_int64(s, 1, from);
            sqlite3_bind_int64(s, 2, to);
            int rc;
            while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
                const long long id = sqlite3_column_int64(s, 0);
                const std::string_view smiles(
                    reinterpret_cast<const char*>(sqlite3_column_text(s, 1)),
                    static_cast<size_t>(sqlite3_column_bytes(s, 1)));
                if (id >= from && id <= to)
                    if (const auto i = index.find(smiles))
                        poseMolecule[static_cast<size_t>(id - lo)] = *i + 1;
            }
            return rc == SQLITE_DONE;
        };
        const char* file = sqlite3_db_filename(db, "main");
        bool done = false;
        if (threads > 1 && hi - lo + 1 >= ScreenIndex::parallelLoadAfter() && file && *file &&
            sqlite3_txn_state(db, "main") == SQLITE_TXN_NONE) {
            const std::string path = file;
            const long chunks = threads * 4L;
            const long long step = (hi - lo + chunks) / chunks;
            std::atomic<bool> failed{false};
            parallelFor(chunks, threads, [&](long c) {
                const long long from = lo + c * step, to = std::min(hi, from + step - 1);
                if (failed || from > to)
                    return;
                ReaderConnection r(path, sql);
                if (!r.ok() || !mapRange(r.stmt, from, to))
                    failed = true;
            });
            done = !failed;
        }
        if (!done) {
            std::fill(poseMolecule.begin(), poseMolecule.end(), 0);
            Statement poses = store.prepare(sql);
            if (!mapRange(poses.raw(), lo, hi))
                throw StoreError(store.path() + ": cannot read the poses' molecules: " +
                                 sqlite3_errmsg(db));
        }
    }
    std::random_device entropy;
    const std::uint64_t nonce =
        (static_cast<std::uint64_t>(entropy()) << 32 ^ entropy()) ^
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    const std::vector<std::string> parts = index.packParts(threads, poseMolecule, lo, nonce);
    // Rolled back on any error (a lock another connection holds, a full disk): the store is then
    // as it was, without a pack, and the caller's own work stands.
    HitStore::Transaction tx(store);
    // Another connection's commit since the index was read: the pack would describe the store
    // before it. Left as that commit's triggers left it (empty); the next write packs it.
    if (dataVersion() != version)
        return 0; // rolled back
    ensureScreenPackTable(store);
    store.exec(std::string("DELETE FROM ") + kScreenPackTable);
    Statement insert = store.prepare(std::string("INSERT INTO ") + kScreenPackTable +
                                     "(part, data) VALUES(?, ?)");
    for (size_t k = 0; k < parts.size(); ++k) {
        insert.bind(1, static_cast<long long>(k));
        insert.bindBlobStatic(2, parts[k].data(), static_cast<int>(parts[k].size()));
        insert.run();
    }
    tx.commit();
    return static_cast<long>(index.size());
}

} // namespace pw::hits
