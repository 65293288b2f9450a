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

// Pose `id` as an SD record into `record` (its stored molblock and tags, then every column in
// `extraColumns` that is not NULL as a pw_hit_ tag); false when the pose is not there.
bool formatRecord(Statement& fetch, long long id, const std::vector<std::string>& extraColumns,
                  std::string& record) {
    fetch.bind(1, id);
    if (!fetch.step()) { // not there (cannot happen inside one read)
        fetch.reset();
        return false;
    }
    const int k = static_cast<int>(extraColumns.size());
    record = fetch.text(k);
    record += fetch.text(k + 1);
    for (int i = 0; i < k; ++i) {
        if (fetch.isNull(i))
            continue;
        record += "> <";
        record += kExportTagPrefix;
        record += extraColumns[i];
        record += ">\n";
        std::string v = cellText(fetch, i);
        for (char& c : v)
            if (c == '\n' || c == '\r')
                c = ' ';
        record += v.empty() ? " " : v;
        record += "\n\n";
    }
    record += "$$$$\n";
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
                      const std::vector<std::string>& extraColumns, const std::string& fetchSql,
                      AtomicFile& out, long& written) {
    const ExportTuning tuning = exportTuning();
    const size_t kChunk = std::max<size_t>(1, tuning.chunk);
    const int threads =
        tuning.threads > 0
            ? tuning.threads
            : static_cast<int>(std::min(8u, std::max(1u, std::thread::hardware_concurrency())));
    if (threads < 2 || ids.size() < tuning.parallelAfter || store.path().empty() ||
        store.path() == ":memory:" || sqlite3_txn_state(store.handle(), "main") != SQLITE_TXN_READ)
        return false;
    {
        Statement mode = store.prepare("PRAGMA journal_mode");
        if (!mode.step() || mode.text(0) == "wal")
            return false;
    }
    const size_t chunks = (ids.size() + kChunk - 1) / kChunk;
    const size_t window = 4 * static_cast<size_t>(threads); // chunks formatted ahead of the writer
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
            Statement fetch(connection.db, fetchSql, store.path());
            std::string record;
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
                long count = 0;
                const size_t end = std::min(ids.size(), (c + 1) * kChunk);
                for (size_t i = c * kChunk; i < end; ++i)
                    if (formatRecord(fetch, ids[i], extraColumns, record)) {
                        text += record;
                        ++count;
                    }
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
    if (!exportInParallel(store, ids, extraColumns, fetchSql, out, n)) {
        Statement fetch = store.prepare(fetchSql);
        std::string record;
        for (long long id : ids)
            if (formatRecord(fetch, id, extraColumns, record)) {
                out.stream().write(record.data(), static_cast<std::streamsize>(record.size()));
                ++n;
            }
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
