// PoseScan: the id range split into parts taken in turn by worker threads; the caller's
// connection holds a read transaction meanwhile, so on a rollback-journal store no writer can
// commit and every worker connection reads the same rows.
#include "PoseScan.h"

#include "HitFilter.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

namespace pw::hits {
namespace {

std::string scanSql(const HitStore& store, const std::vector<std::string>& columns,
                    const std::string& where) {
    std::string sql = "SELECT ";
    for (size_t i = 0; i < columns.size(); ++i) {
        const ColumnInfo* c = store.column(columns[i]);
        if (!c)
            throw FilterError(1, "unknown column '" + columns[i] +
                                     "' (posewright-cli hits columns lists them)");
        sql += (i ? ", poses." : "poses.") + quoteIdentifier(c->name);
    }
    return sql + " FROM poses" + where + " ORDER BY poses.id";
}

bool walMode(const HitStore& store) {
    Statement mode = store.prepare("PRAGMA journal_mode");
    return !mode.step() || mode.text(0) == "wal";
}

} // namespace

long scanPoses(const HitStore& store, const PoseScan& scan,
               const std::function<void(int parts)>& begin,
               const std::function<void(int part, const Statement& row)>& row) {
    const std::string serialSql = scanSql(store, scan.columns, "");
    ReadSnapshot snapshot(store.handle());
    Statement range = store.prepare(
        "SELECT (SELECT min(id) FROM poses), (SELECT max(id) FROM poses), (SELECT count(*) FROM "
        "poses)"); // two subqueries: a lone min() or max() is one B-tree descent
    range.step();
    const long long lo = range.integer(0), hi = range.integer(1), count = range.integer(2);
    range = Statement();
    int threads = scan.threads > 0 ? scan.threads
                                   : static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
    const bool parallel = threads > 1 && count >= scan.parallelAfter && !store.path().empty() &&
                          store.path() != ":memory:" &&
                          sqlite3_txn_state(store.handle(), "main") == SQLITE_TXN_READ &&
                          !walMode(store);
    if (!parallel) {
        begin(1);
        Statement s = store.prepare(serialSql);
        long n = 0;
        while (s.step()) {
            row(0, s);
            ++n;
        }
        return n;
    }

    // Four parts a thread, so that a thread slowed down leaves its later parts to the others.
    const int parts = threads * 4;
    const unsigned long long span = static_cast<unsigned long long>(hi) - static_cast<unsigned long long>(lo) + 1;
    auto partStart = [&](int p) {
        return lo + static_cast<long long>(static_cast<unsigned __int128>(span) *
                                           static_cast<unsigned>(p) / static_cast<unsigned>(parts));
    };
    const std::string partSql = scanSql(store, scan.columns, " WHERE poses.id BETWEEN ? AND ?");
    begin(parts);
    std::atomic<int> nextPart{0};
    std::atomic<long> rows{0};
    std::atomic<bool> stop{false};
    std::mutex m;
    std::exception_ptr error;
    auto worker = [&] {
        try {
            std::unique_ptr<ReaderConnection> connection;
            Statement s;
            for (;;) {
                const int p = nextPart.fetch_add(1);
                if (p >= parts || stop.load(std::memory_order_relaxed))
                    return;
                if (!connection) {
                    connection = std::make_unique<ReaderConnection>(store.path(), nullptr);
                    if (!connection->ok() ||
                        sqlite3_exec(connection->db, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK)
                        throw StoreError(store.path() + ": cannot open it again for reading");
                    s = Statement(connection->db, partSql, store.path());
                }
                s.reset();
                s.bind(1, partStart(p));
                s.bind(2, partStart(p + 1) - 1);
                long n = 0;
                while (s.step()) {
                    row(p, s);
                    ++n;
                }
                rows += n;
            }
        } catch (...) {
            std::lock_guard lock(m);
            if (!error)
                error = std::current_exception();
            stop = true;
        }
    };
    {
        std::vector<std::jthread> pool; // joined when the block ends
        for (int t = 1; t < threads; ++t) {
            try {
                pool.emplace_back(worker);
            } catch (const std::system_error&) { // no thread to be had: the others read its parts
            }
        }
        worker();
    }
    if (error)
        std::rethrow_exception(error);
    return rows;
}

} // namespace pw::hits
