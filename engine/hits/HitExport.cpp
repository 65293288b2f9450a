#include "HitExport.h"

#include "HitFilter.h"
#include "chem/AtomicFile.h"

#include <algorithm>
#include <charconv>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

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
    if (selection.limit >= 0)
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
    while (s.step()) {
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

// One read transaction around an export: its id list and its rows come from one snapshot, and
// SQLite takes its shared lock once instead of once per row (a profile of a 100k-pose export:
// about a quarter of the time in the kernel's file locking and page reads). Nothing when the
// caller already has a transaction open. (Reading through a memory map saved another ~15%, but
// then every page read counts in the process's resident memory: 2.1 GB at 1M poses.)
class ReadSnapshot {
public:
    explicit ReadSnapshot(const HitStore& store) : store_(store) {
        if (!sqlite3_get_autocommit(store.handle()))
            return;
        store.exec("BEGIN");
        open_ = true;
    }
    ~ReadSnapshot() {
        if (open_)
            sqlite3_exec(store_.handle(), "COMMIT", nullptr, nullptr, nullptr);
    }
    ReadSnapshot(const ReadSnapshot&) = delete;
    ReadSnapshot& operator=(const ReadSnapshot&) = delete;

private:
    const HitStore& store_;
    bool open_ = false;
};

std::mutex tuningMutex;
ExportTuning tuning_;

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

// Appends pose `id` as an SD record to `out` (its stored molblock and tags, then every extra
// column that is not NULL as a pw_hit_ tag, `heads` from tagHeads()); false when the pose is not
// there.
bool appendRecord(Statement& fetch, long long id, const std::vector<std::string>& heads,
                  std::string& out) {
    fetch.bind(1, id);
    if (!fetch.step()) { // not there (cannot happen inside one read)
        fetch.reset();
        return false;
    }
    sqlite3_stmt* st = fetch.raw();
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
    fetch.reset();
    return true;
}

// Large exports: the records are read and formatted on several threads, each with a read-only
// connection of its own, in chunks of ids that the caller writes in order (a 1M-pose export took
// 26 s on one core against 8 s for a plain write of as many bytes: formatting and page reads, not
// the disk). Only where every connection sees the caller's snapshot: a rollback-journal store
// whose shared lock the caller holds (no writer can commit meanwhile); false (nothing written)
// where that cannot be, or for a small export.
bool exportInParallel(const HitStore& store, const std::vector<long long>& ids,
                      const std::vector<std::string>& heads, const std::string& fetchSql,
                      AtomicFile& out, long& written) {
    const ExportTuning tuning = exportTuning();
    const size_t kChunk = std::max<size_t>(1, tuning.chunk);
    // The default: at most 4 formatting threads (2 on 2 cores, serial on one). Measured on a
    // 16-core host (1M rows, 4.3 GB, tests/bench/RESULTS.md, lead's eleventh-session section):
    // 4 threads 4.2-5.3 s wall with 10-12 s of system CPU, 8 threads 5.5-6.4 s with 28-32 s,
    // 16 threads 6.1-6.4 s with 77-81 s. A row's read is mostly the kernel copying two 16 KB
    // SQLite pages from the page cache, and that copying contends across threads: past a few
    // threads it only burns system time.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned byCores = cores <= 2 ? cores : std::min(cores - 1, 4u);
    const int threads = tuning.threads > 0 ? tuning.threads : static_cast<int>(byCores);
    if (threads < 2 || ids.size() < tuning.parallelAfter || store.path().empty() ||
        store.path() == ":memory:" || sqlite3_txn_state(store.handle(), "main") != SQLITE_TXN_READ)
        return false;
    {
        Statement mode = store.prepare("PRAGMA journal_mode");
        if (!mode.step() || mode.text(0) == "wal")
            return false;
    }
    const size_t chunks = (ids.size() + kChunk - 1) / kChunk;
    // Chunks formatted ahead of the writer: one in hand per thread and as many done and waiting
    // (~4 MB each at 1024 poses; 4 per thread held ~140 MB at 8 threads, ~260 MB at 15).
    const size_t window = 2 * static_cast<size_t>(threads) + 2;
    std::vector<std::string> done(chunks);
    std::vector<long> counts(chunks, 0);
    std::vector<char> ready(chunks, 0);
    std::mutex m;
    std::condition_variable changed;
    size_t next = 0, writtenChunks = 0;
    bool failed = false;
    std::exception_ptr error;
    auto fail = [&] { // inside a catch: the first error wins, every thread stops
        std::lock_guard lock(m);
        if (!error)
            error = std::current_exception();
        failed = true;
        changed.notify_all();
    };
    auto worker = [&] {
        try {
            ReaderConnection connection(store.path(), nullptr);
            if (!connection.ok())
                throw StoreError(store.path() + ": cannot open it again for reading");
            // One read transaction per connection, as the caller's: without it every row's
            // statement took and dropped SQLite's shared lock, looked for a hot journal (a stat
            // of its path) and re-read the file header (a profile: ~5% of an export in those
            // system calls). The caller's shared lock keeps every connection on its snapshot.
            if (sqlite3_exec(connection.db, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK)
                throw StoreError(store.path() + ": cannot begin a read on it");
            Statement fetch(connection.db, fetchSql, store.path());
            size_t lastSize = 0;
            for (;;) {
                size_t c;
                {
                    std::unique_lock lock(m);
                    changed.wait(lock, [&] { return failed || next < writtenChunks + window; });
                    if (failed || next >= chunks)
                        return;
                    c = next++;
                }
                std::string text;
                text.reserve(lastSize + lastSize / 8); // chunks are alike: no regrowth copies
                long count = 0;
                const size_t end = std::min(ids.size(), (c + 1) * kChunk);
                for (size_t i = c * kChunk; i < end; ++i)
                    count += appendRecord(fetch, ids[i], heads, text) ? 1 : 0;
                lastSize = text.size();
                std::lock_guard lock(m);
                done[c] = std::move(text);
                counts[c] = count;
                ready[c] = 1;
                changed.notify_all();
            }
        } catch (...) {
            fail();
        }
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back(worker);
    try {
        for (size_t c = 0; c < chunks; ++c) {
            std::string text;
            {
                std::unique_lock lock(m);
                changed.wait(lock, [&] { return failed || ready[c]; });
                if (failed)
                    break;
                text = std::move(done[c]);
                written += counts[c];
            }
            out.stream().write(text.data(), static_cast<std::streamsize>(text.size()));
            std::lock_guard lock(m);
            writtenChunks = c + 1;
            changed.notify_all();
        }
    } catch (...) {
        fail();
    }
    for (std::thread& t : pool)
        t.join();
    if (error)
        std::rethrow_exception(error);
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
    ReadSnapshot snapshot(store);
    std::vector<long long> ids;
    run(store, selection, {"id"}, "", [&](const Statement& s) { ids.push_back(s.integer(0)); });
    std::string sql = "SELECT ";
    for (const std::string& name : extraColumns)
        sql += "poses." + quoteIdentifier(name) + ", ";
    const std::string fetchSql =
        sql + store.blockColumns() + " FROM " + store.blocksFrom() + " WHERE poses.id = ?";
    AtomicFile out(path);
    long n = 0;
    const std::vector<std::string> heads = tagHeads(extraColumns);
    if (!exportInParallel(store, ids, heads, fetchSql, out, n)) {
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
