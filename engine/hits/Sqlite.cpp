#include "Sqlite.h"

#include <utility>

namespace pw::hits {
namespace {

[[noreturn]] void fail(sqlite3* db, const std::string& path, const std::string& what) {
    throw StoreError(path + ": " + what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}

} // namespace

Statement::Statement(sqlite3* db, std::string_view sql, const std::string& storePath)
    : db_(db), path_(storePath) {
    if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
        SQLITE_OK)
        fail(db, path_, "cannot prepare '" + std::string(sql.substr(0, 80)) + "'");
}

Statement::~Statement() {
    sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& o) noexcept
    : stmt_(std::exchange(o.stmt_, nullptr)), db_(o.db_), path_(std::move(o.path_)) {}

Statement& Statement::operator=(Statement&& o) noexcept {
    if (this != &o) {
        sqlite3_finalize(stmt_);
        stmt_ = std::exchange(o.stmt_, nullptr);
        db_ = o.db_;
        path_ = std::move(o.path_);
    }
    return *this;
}

void Statement::bind(int i, const SqlValue& v) {
    if (std::holds_alternative<long long>(v))
        bind(i, std::get<long long>(v));
    else if (std::holds_alternative<double>(v))
        bind(i, std::get<double>(v));
    else if (std::holds_alternative<std::string>(v))
        bind(i, std::string_view(std::get<std::string>(v)));
    else
        bindNull(i);
}

void Statement::bindNull(int i) {
    sqlite3_bind_null(stmt_, i);
}
void Statement::bind(int i, double v) {
    sqlite3_bind_double(stmt_, i, v);
}
void Statement::bind(int i, long long v) {
    sqlite3_bind_int64(stmt_, i, v);
}
void Statement::bind(int i, std::string_view text) {
    sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

void Statement::bindStatic(int i, std::string_view text) {
    sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
}

void Statement::bindBlobStatic(int i, const void* data, int bytes) {
    sqlite3_bind_blob(stmt_, i, data, bytes, SQLITE_STATIC);
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    fail(db_, path_, "query failed");
}

void Statement::run() {
    while (step()) {
    }
    reset();
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

int Statement::columnCount() const {
    return sqlite3_column_count(stmt_);
}
bool Statement::isNull(int col) const {
    return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}
long long Statement::integer(int col) const {
    return sqlite3_column_int64(stmt_, col);
}
double Statement::real(int col) const {
    return sqlite3_column_double(stmt_, col);
}

std::string Statement::text(int col) const {
    const unsigned char* p = sqlite3_column_text(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           static_cast<size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string();
}

SqlValue Statement::value(int col) const {
    switch (sqlite3_column_type(stmt_, col)) {
    case SQLITE_INTEGER:
        return integer(col);
    case SQLITE_FLOAT:
        return real(col);
    case SQLITE_NULL:
        return std::monostate{};
    default:
        return text(col);
    }
}

std::string quoteIdentifier(std::string_view name) {
    std::string out = "\"";
    for (char c : name) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

ReadSnapshot::ReadSnapshot(sqlite3* db) : db_(db) {
    if (!sqlite3_get_autocommit(db))
        return;
    if (sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK)
        throw StoreError(std::string(sqlite3_db_filename(db, "main")) +
                         ": cannot begin a read: " + sqlite3_errmsg(db));
    open_ = true;
}

ReadSnapshot::~ReadSnapshot() {
    if (open_)
        sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
}

ReaderConnection::ReaderConnection(const std::string& path, const char* sql) {
    ok_ = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
                          nullptr) == SQLITE_OK &&
          (!sql || sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK);
}

ReaderConnection::~ReaderConnection() {
    sqlite3_finalize(stmt);
    sqlite3_close(db);
}

} // namespace pw::hits
