#include "HitExport.h"

#include "HitFilter.h"
#include "chem/AtomicFile.h"
#include "chem/PositionalWrite.h"
#include "core/InputError.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <limits>
#include <memory>
#include <mutex>
#include <sys/mman.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace pw::hits {
namespace {

std::string selectSql(const HitStore& store, const Selection& selection,
                      const std::vector<std::string>& columns, const std::string& extra,
                      std::vector<SqlValue>& params) {
    std::string sql = "SELECT ";
    bool first = true;
    for (const std::string& name : columns) {
        const ColumnInfo* c = store.column(name);
        if (!c)
            throw FilterError(1, "unknown column '" + name +
                                     "' (posewright-cli hits columns lists them)");
        sql += (first ? "" : ", ") + std::string("poses.") + quoteIdentifier(c->name);
        first = false;
    }
    sql += extra + " FROM poses";
    if (!selection.where.empty()) {
        SqlFragment w = compileWhere(selection.where, store);
        sql += " WHERE " + w.sql;
        params = std::move(w.params);
    }
    sql += " ORDER BY " + (selection.order.empty()
                               ? std::string("poses.rank ASC NULLS LAST, poses.id")
                               : compileOrder(selection.order, store) + ", poses.id");
    // With a LIMIT, SQLite keeps the best rows in a B-tree (a row inserted, the worst one
    // deleted), which pays for small limits; its sorter (runs sorted on helper threads, then
    // merged) is faster past some 50,000 rows: 1M rows by dock_score in 0.59 s against 2.33 s.
    // A larger limit is applied by run(), which stops stepping there.
    if (selection.limit >= 0 && selection.limit <= exportTuning().sqlLimitUpTo)
        sql += " LIMIT " + std::to_string(selection.limit);
    return sql;
}

std::vector<std::string> allColumns(const HitStore& store) {
    std::vector<std::string> names;
    for (const ColumnInfo& c : store.columns())
        names.push_back(c.name);
    return names;
}

long run(const HitStore& store, const Selection& selection, const std::vector<std::string>& cols,
         const std::string& extra, const std::function<void(const Statement&)>& row) {
    std::vector<SqlValue> params;
    Statement s = store.prepare(selectSql(store, selection, cols, extra, params));
    for (size_t i = 0; i < params.size(); ++i)
        s.bind(static_cast<int>(i) + 1, params[i]);
    long n = 0;
    while ((selection.limit < 0 || n < selection.limit) && s.step()) {
        row(s);
        ++n;
    }
    return n;
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

std::mutex tuningMutex;
ExportTuning tuning_;
std::atomic<SdfExportPath> lastPath_{SdfExportPath::Serial};

// The pw_hit_ tag lines of the columns an SD record carries besides its stored tags, made once
// per export ("> <pw_hit_NAME>\n").
std::vector<std::string> tagHeads(const std::vector<std::string>& extraColumns) {
    std::vector<std::string> heads;
    heads.reserve(extraColumns.size());
    for (const std::string& name : extraColumns)
        heads.push_back("> <" + std::string(kExportTagPrefix) + name + ">\n");
    return heads;
}

// Appends a cell as cellText() shows it, newlines as spaces, " " for an empty text. Straight
// from SQLite's column buffers into `out`: the copies and allocations of a std::string per cell
// and per record were a measurable share of an export's user time.
void appendCell(sqlite3_stmt* st, int column, std::string& out) {
    char buf[32];
    switch (sqlite3_column_type(st, column)) {
    case SQLITE_INTEGER: {
        auto [end, ec] = std::to_chars(buf, buf + sizeof buf, sqlite3_column_int64(st, column));
        out.append(buf, end);
        return;
    }
    case SQLITE_FLOAT: { // shortest round-trip text, as cellText
        auto [end, ec] = std::to_chars(buf, buf + sizeof buf, sqlite3_column_double(st, column));
        out.append(buf, end);
        return;
    }
    default: {
        const char* p = reinterpret_cast<const char*>(sqlite3_column_text(st, column));
        const size_t n = p ? static_cast<size_t>(sqlite3_column_bytes(st, column)) : 0;
        if (n == 0) {
            out += ' ';
            return;
        }
        const size_t at = out.size();
        out.append(p, n);
        for (size_t i = at; i < out.size(); ++i)
            if (out[i] == '\n' || out[i] == '\r')
                out[i] = ' ';
    }
    }
}

void appendText(sqlite3_stmt* st, int column, std::string& out) {
    const char* p = reinterpret_cast<const char*>(sqlite3_column_text(st, column));
    if (p)
        out.append(p, static_cast<size_t>(sqlite3_column_bytes(st, column)));
}

// Appends the statement's current row as an SD record to `out`: its stored molblock and tags
// (columns k and k + 1, k = heads.size()), then every extra column (0 to k - 1) that is not NULL
// as a pw_hit_ tag, `heads` from tagHeads().
void appendRow(sqlite3_stmt* st, const std::vector<std::string>& heads, std::string& out) {
    const int k = static_cast<int>(heads.size());
    appendText(st, k, out);
    appendText(st, k + 1, out);
    for (int i = 0; i < k; ++i) {
        if (sqlite3_column_type(st, i) == SQLITE_NULL)
            continue;
        out += heads[static_cast<size_t>(i)];
        appendCell(st, i, out);
        out += "\n\n";
    }
    out += "$$$$\n";
}

// Appends pose `id` as an SD record to `out` (appendRow); false when the pose is not there.
bool appendRecord(Statement& fetch, long long id, const std::vector<std::string>& heads,
                  std::string& out) {
    fetch.bind(1, id);
    if (!fetch.step()) { // not there (cannot happen inside one read)
        fetch.reset();
        return false;
    }
    appendRow(fetch.raw(), heads, out);
    fetch.reset();
    return true;
}

// Large exports, read in storage order and placed by offset. A selection comes in rank (or the
// user's) order, and fetching its rows in that order put each row on pages of its own: two 16 KB
// SQLite pages copied from the kernel's page cache per ~4.3 KB record, most of an export's time,
// and contending across threads (tests/bench/RESULTS.md, "the CPU per row"). Here the ids are
// read in ascending order instead, so that consecutive rows share pages and each page is read
// once (SQLite's own cache serves the rest), and each record goes straight to its place in the
// output. Its place needs the lengths of all records before it, so the rows are read twice:
// pass 1 formats each record only to learn its length, the prefix sums give every offset and
// the file's size, the file is allocated (a full disk shows here), and pass 2 formats each
// record again into its place, through a shared mapping where reserved blocks are written in
// place (OutputMapping, chem/PositionalWrite.h: threads fault pages in side by side) and by pwrite
// elsewhere. Both passes read one snapshot: the caller's shared lock on a rollback-journal store
// keeps any writer from committing, and each worker connection holds one read transaction
// across both passes. Returns false (nothing written) where that cannot be, or for a small
// export.
bool exportPlaced(const HitStore& store, const std::vector<long long>& ids,
                  const std::vector<std::string>& heads, const std::string& fetchSql,
                  const std::string& scanSql, AtomicFile& out, long& written) {
    const int idColumn = static_cast<int>(heads.size()) + 2; // scanSql's last column
    const ExportTuning tuning = exportTuning();
    const size_t chunk = std::max<size_t>(1, tuning.chunk);
    // Default: every core up to 8 (the calling thread only waits). The old cap of 4 came from
    // rows read in rank order (system time burnt copying pages); measure again on many cores
    // (bench hits --export-threads N).
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const int threads = tuning.threads > 0 ? tuning.threads : static_cast<int>(std::min(cores, 8u));
    if (ids.size() < tuning.parallelAfter || ids.empty() || store.path().empty() ||
        store.path() == ":memory:" || sqlite3_txn_state(store.handle(), "main") != SQLITE_TXN_READ)
        return false;
    {
        Statement mode = store.prepare("PRAGMA journal_mode");
        if (!mode.step() || mode.text(0) == "wal")
            return false;
    }
    const size_t n = ids.size();
    if (n > std::numeric_limits<uint32_t>::max())
        return false;
    // The selection in storage order, each id with its position in the output (16 B a row).
    struct Placed {
        long long id;
        uint32_t position;
    };
    std::vector<Placed> byId(n);
    for (size_t i = 0; i < n; ++i)
        byId[i] = {ids[i], static_cast<uint32_t>(i)};
    std::sort(byId.begin(), byId.end(),
              [](const Placed& a, const Placed& b) { return a.id < b.id; });
    // start[p] is where output position p begins; pass 1 leaves each length in start[p + 1].
    std::vector<uint64_t> start(n + 1, 0);

    // Worker connections, opened on a thread's first chunk and kept (with their read
    // transactions) for pass 2. The statements are declared after the connections: finalized
    // before they are closed.
    struct Reader {
        Statement fetch; // one row by id
        Statement scan;  // the rows of an id range, ascending
    };
    std::vector<std::unique_ptr<ReaderConnection>> connections(static_cast<size_t>(threads));
    std::vector<Reader> readers(static_cast<size_t>(threads));
    std::atomic<size_t> nextChunk{0};
    std::atomic<bool> stop{false};
    std::mutex m;
    std::exception_ptr error;
    auto fail = [&] { // inside a catch: the first error wins, every thread stops
        std::lock_guard lock(m);
        if (!error)
            error = std::current_exception();
        stop = true;
    };
    // Runs work(thread, from, to) for every chunk [from, to) of byId on `threads` threads, the
    // chunks taken in turn (a thread that cannot be started leaves its share to the others).
    auto runPass = [&](const std::function<void(int, size_t, size_t)>& work) {
        nextChunk = 0;
        auto worker = [&](int t) {
            try {
                for (;;) {
                    const size_t from = nextChunk.fetch_add(1) * chunk;
                    if (from >= n || stop.load(std::memory_order_relaxed))
                        return;
                    work(t, from, std::min(n, from + chunk));
                }
            } catch (...) {
                fail();
            }
        };
        {
            std::vector<std::jthread> pool; // joined when the block ends
            for (int t = 1; t < threads; ++t) {
                try {
                    pool.emplace_back(worker, t);
                } catch (const std::system_error&) {
                }
            }
            worker(0);
        }
        if (error)
            std::rethrow_exception(error);
    };

    auto readerFor = [&](int t) -> Reader& {
        Reader& reader = readers[static_cast<size_t>(t)];
        if (reader.fetch.valid())
            return reader;
        auto connection = std::make_unique<ReaderConnection>(store.path(), nullptr);
        if (!connection->ok())
            throw StoreError(store.path() + ": cannot open it again for reading");
        // One read transaction per connection: without it every row's statement took and
        // dropped SQLite's shared lock and re-read the file header.
        if (sqlite3_exec(connection->db, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK)
            throw StoreError(store.path() + ": cannot begin a read on it");
        reader.scan = Statement(connection->db, scanSql, store.path());
        reader.fetch = Statement(connection->db, fetchSql, store.path());
        connections[static_cast<size_t>(t)] = std::move(connection);
        return reader;
    };
    // Formats the records of byId[from, to) in that order, calling placed(k, found, record) for
    // each (an empty record for a pose that is not there). A dense run of ids is read by one
    // range scan: a statement run per id starts from the B-trees' roots each time, a scan steps
    // from row to row (and on to pose_blocks' next row). A sparse run is read id by id.
    auto readRecords = [&](int t, size_t from, size_t to, const auto& placed) {
        Reader& reader = readerFor(t);
        std::string record;
        const long long lo = byId[from].id, hi = byId[to - 1].id;
        const unsigned long long span =
            static_cast<unsigned long long>(hi) - static_cast<unsigned long long>(lo);
        if (span >= 2 * (to - from)) {
            for (size_t k = from; k < to; ++k) {
                record.clear();
                const bool found = appendRecord(reader.fetch, byId[k].id, heads, record);
                placed(k, found, record);
            }
            return;
        }
        Statement& scan = reader.scan;
        scan.bind(1, lo);
        scan.bind(2, hi);
        size_t k = from;
        while (k < to && scan.step()) {
            const long long id = sqlite3_column_int64(scan.raw(), idColumn);
            record.clear();
            for (; k < to && byId[k].id < id; ++k) // not there (cannot happen inside one read)
                placed(k, false, record);
            if (k < to && byId[k].id == id) { // else a row outside the selection
                appendRow(scan.raw(), heads, record);
                placed(k++, true, record);
            }
        }
        scan.reset();
        record.clear();
        for (; k < to; ++k)
            placed(k, false, record);
    };

    std::atomic<long> found{0};
    runPass([&](int t, size_t from, size_t to) {
        long count = 0;
        readRecords(t, from, to, [&](size_t k, bool there, const std::string& record) {
            start[byId[k].position + 1] = record.size();
            count += there ? 1 : 0;
        });
        found += count;
    });
    for (size_t p = 0; p < n; ++p)
        start[p + 1] += start[p];
    const uint64_t total = start[n];
    written = found;
    if (total == 0) { // no record found: an empty file, as the serial path writes
        lastPath_ = SdfExportPath::PlacedPwrite;
        return true;
    }

    const int fd = out.positionalFd();
    bool reserved = false;
    if (const int err = sizeOutput(fd, total, reserved))
        throw writeFailedError(out.target(), err);
    // A mapping reports a page it cannot back as a fault, not a full disk: mapped only where the
    // reserved blocks stay. POSEWRIGHT_COMMIT_PWRITE=1 writes by pwrite always (tests compare).
    const OutputMapping mapping(fd, total, reserved);
    char* const mapped = mapping.data();
    lastPath_ = mapped ? SdfExportPath::PlacedMapped : SdfExportPath::PlacedPwrite;
    if (mapped) {
        // The mapping's pages faulted in up front, each thread a slice, in batches: pass 2
        // places records in id order, all over the file, and faulting its pages one by one
        // there cost more (200k poses on 2 cores: 0.3 s less system time, 0.15 s less wall).
        // A kernel without MADV_POPULATE_WRITE (before 5.14) says EINVAL: faulted in pass 2.
        const uint64_t pages = (total + 4095) / 4096;
        std::vector<std::jthread> pool;
        auto populate = [&](int t) {
            const uint64_t from = pages * t / threads * 4096;
            const uint64_t to = std::min(total, pages * (t + 1) / threads * 4096);
            if (to > from)
                ::madvise(mapped + from, to - from, MADV_POPULATE_WRITE);
        };
        for (int t = 1; t < threads; ++t) {
            try {
                pool.emplace_back(populate, t);
            } catch (const std::system_error&) { // no thread to be had: faulted in pass 2
            }
        }
        populate(0);
    }

    runPass([&](int t, size_t from, size_t to) {
        // By pwrite, records that follow each other in the output are gathered into one call
        // (up to ~1 MiB).
        std::string pending;
        uint64_t pendingAt = 0;
        auto flush = [&] {
            if (const int err = writeAllAt(fd, pending.data(), pending.size(), pendingAt))
                throw writeFailedError(out.target(), err);
            pending.clear();
        };
        readRecords(t, from, to, [&](size_t k, bool, const std::string& record) {
            const uint32_t p = byId[k].position;
            // One snapshot gives the same record twice; anything else would write a wrong file.
            if (record.size() != start[p + 1] - start[p])
                throw StoreError(store.path() + ": pose " + std::to_string(byId[k].id) +
                                 " changed while it was exported; nothing was written");
            if (mapped) {
                std::memcpy(mapped + start[p], record.data(), record.size());
                return;
            }
            if (pendingAt + pending.size() != start[p] || pending.size() >= (size_t(1) << 20)) {
                flush();
                pendingAt = start[p];
            }
            pending += record;
        });
        if (!mapped)
            flush();
    });
    return true;
}

} // namespace

void setExportTuning(const ExportTuning& tuning) {
    std::lock_guard lock(tuningMutex);
    tuning_ = tuning;
}

ExportTuning exportTuning() {
    std::lock_guard lock(tuningMutex);
    return tuning_;
}

SdfExportPath lastSdfExportPath() {
    return lastPath_;
}

std::string cellText(const Statement& s, int column) {
    switch (sqlite3_column_type(s.raw(), column)) {
    case SQLITE_INTEGER:
        return std::to_string(s.integer(column));
    case SQLITE_FLOAT: {
        char buf[32];
        auto [end, ec] = std::to_chars(buf, buf + sizeof buf, s.real(column));
        return std::string(buf, end);
    }
    case SQLITE_NULL:
        return std::string();
    default:
        return s.text(column);
    }
}

long forEachSelected(const HitStore& store, const Selection& selection,
                     const std::vector<std::string>& columns,
                     const std::function<void(const Statement&)>& row) {
    return run(store, selection, columns.empty() ? allColumns(store) : columns, "", row);
}

long exportSdf(const HitStore& store, const Selection& selection, const std::string& path) {
    // Columns read from tags are already in the stored tag block; the others become pw_hit_ tags.
    std::vector<std::string> extraColumns;
    for (const ColumnInfo& c : store.columns())
        if (c.origin != ColumnOrigin::Tag)
            extraColumns.push_back(c.name);
    // The selection's ids first (a sort of narrow rows), then each row by its id: sorting whole
    // rows, molblocks included, made SQLite's sorter spill gigabytes to temporary files at a
    // million poses.
    // One read transaction around the export: its id list and its rows come from one snapshot,
    // and SQLite takes its shared lock once instead of once per row (a profile of a 100k-pose
    // export: about a quarter of the time in the kernel's file locking and page reads).
    // (Reading through a memory map saved another ~15%, but then every page read counts in
    // the process's resident memory: 2.1 GB at 1M poses.)
    ReadSnapshot snapshot(store.handle());
    std::vector<long long> ids;
    run(store, selection, {"id"}, "", [&](const Statement& s) { ids.push_back(s.integer(0)); });
    std::string sql = "SELECT ";
    for (const std::string& name : extraColumns)
        sql += "poses." + quoteIdentifier(name) + ", ";
    const std::string fetchSql =
        sql + store.blockColumns() + " FROM " + store.blocksFrom() + " WHERE poses.id = ?";
    // The same columns and the id of the rows of an id range, in storage order.
    const std::string scanSql = sql + store.blockColumns() + ", poses.id FROM " +
                                store.blocksFrom() +
                                " WHERE poses.id BETWEEN ? AND ? ORDER BY poses.id";
    AtomicFile out(path);
    long n = 0;
    const std::vector<std::string> heads = tagHeads(extraColumns);
    if (!exportPlaced(store, ids, heads, fetchSql, scanSql, out, n)) {
        lastPath_ = SdfExportPath::Serial;
        // Records gathered into ~1 MiB writes: one system call per record cost more than
        // formatting it.
        Statement fetch = store.prepare(fetchSql);
        std::string text;
        text.reserve((1u << 20) + (64u << 10));
        for (long long id : ids) {
            n += appendRecord(fetch, id, heads, text) ? 1 : 0;
            if (text.size() >= (1u << 20)) {
                out.stream().write(text.data(), static_cast<std::streamsize>(text.size()));
                text.clear();
            }
        }
        out.stream().write(text.data(), static_cast<std::streamsize>(text.size()));
    }
    out.commit();
    return n;
}

long exportCsv(const HitStore& store, const Selection& selection, const std::string& path,
               const std::vector<std::string>& columns) {
    const std::vector<std::string> cols = columns.empty() ? allColumns(store) : columns;
    AtomicFile out(path);
    std::string line;
    for (size_t i = 0; i < cols.size(); ++i)
        line.append(i ? "," : "").append(csvField(cols[i]));
    out.stream() << line << '\n';
    const long n = run(store, selection, cols, "", [&](const Statement& s) {
        line.clear();
        for (size_t i = 0; i < cols.size(); ++i) {
            if (i)
                line += ',';
            line += csvField(cellText(s, static_cast<int>(i)));
        }
        line += '\n';
        out.stream().write(line.data(), static_cast<std::streamsize>(line.size()));
    });
    out.commit();
    return n;
}

} // namespace pw::hits
