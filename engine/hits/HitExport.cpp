#include "HitExport.h"

#include "HitFilter.h"
#include "chem/AtomicFile.h"

#include <charconv>

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

} // namespace

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
    Statement fetch = store.prepare(sql + store.blockColumns() + " FROM " + store.blocksFrom() +
                                    " WHERE poses.id = ?");
    AtomicFile out(path);
    std::string record;
    long n = 0;
    const int k = static_cast<int>(extraColumns.size());
    for (long long id : ids) {
        fetch.bind(1, id);
        if (!fetch.step()) { // not there (cannot happen inside one read)
            fetch.reset();
            continue;
        }
        const Statement& s = fetch;
        record = s.text(k);
        record += s.text(k + 1);
        for (int i = 0; i < k; ++i) {
            if (s.isNull(i))
                continue;
            record += "> <";
            record += kExportTagPrefix;
            record += extraColumns[i];
            record += ">\n";
            std::string v = cellText(s, i);
            for (char& c : v)
                if (c == '\n' || c == '\r')
                    c = ' ';
            record += v.empty() ? " " : v;
            record += "\n\n";
        }
        record += "$$$$\n";
        out.stream().write(record.data(), static_cast<std::streamsize>(record.size()));
        fetch.reset();
        ++n;
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
