// Sqlite: a thin RAII layer over the SQLite C library for the hit store (one connection, prepared
// statements with bound values). Errors become StoreError naming the store file.
#pragma once

#include <sqlite3.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

namespace pw::hits {

// A store that cannot be opened, read or written; the message names the file.
class StoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A bound or read value: NULL, integer, real or text.
using SqlValue = std::variant<std::monostate, long long, double, std::string>;

class Statement {
public:
    Statement() = default;
    Statement(sqlite3* db, std::string_view sql, const std::string& storePath);
    ~Statement();
    Statement(Statement&& o) noexcept;
    Statement& operator=(Statement&& o) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool valid() const { return stmt_ != nullptr; }
    sqlite3_stmt* raw() const { return stmt_; }
    // Binds parameter i (1-based).
    void bind(int i, const SqlValue& v);
    void bindNull(int i);
    void bind(int i, double v);
    void bind(int i, long long v);
    void bind(int i, std::string_view text);
    // Binds text without SQLite's copy: it must stay alive and unchanged until reset() (run()
    // resets). For the import's large texts (a ~4 KB molblock per pose).
    void bindStatic(int i, std::string_view text);
    // A BLOB, also without SQLite's copy (the same lifetime rule as bindStatic).
    void bindBlobStatic(int i, const void* data, int bytes);
    // One step: true while a row is ready, false when done; throws on error.
    bool step();
    // Runs to completion (for statements that return no rows).
    void run();
    void reset(); // for the next use with new bindings

    int columnCount() const;
    bool isNull(int col) const;
    long long integer(int col) const;
    double real(int col) const;
    std::string text(int col) const;
    SqlValue value(int col) const;

private:
    sqlite3_stmt* stmt_ = nullptr;
    sqlite3* db_ = nullptr;
    std::string path_;
};

// A worker thread's read-only connection of its own on a store file and, when sql is given, one
// statement prepared on it; both closed on every path. ok() is false when either could not be
// made (the caller then falls back to its own connection or reports the store).
struct ReaderConnection {
    sqlite3* db = nullptr;
    sqlite3_stmt* stmt = nullptr;
    ReaderConnection(const std::string& path, const char* sql);
    ~ReaderConnection();
    ReaderConnection(const ReaderConnection&) = delete;
    ReaderConnection& operator=(const ReaderConnection&) = delete;
    bool ok() const { return ok_; }

private:
    bool ok_ = false;
};

// One read transaction on a connection for the life of the object: what it reads comes from one
// snapshot (and on a rollback-journal store, its shared lock keeps writers from committing, so
// other connections read the same). Nothing when a transaction is already open.
class ReadSnapshot {
public:
    explicit ReadSnapshot(sqlite3* db);
    ~ReadSnapshot();
    ReadSnapshot(const ReadSnapshot&) = delete;
    ReadSnapshot& operator=(const ReadSnapshot&) = delete;

private:
    sqlite3* db_;
    bool open_ = false;
};

// Quotes an identifier for SQL ("name" with inner quotes doubled); used only on names the store's
// column registry knows, never on user text.
std::string quoteIdentifier(std::string_view name);

} // namespace pw::hits
