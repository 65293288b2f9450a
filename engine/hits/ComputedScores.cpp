#include "ComputedScores.h"

#include <stdexcept>

namespace pw::hits {

std::optional<std::string> metaValue(const HitStore& store, const std::string& key) {
    Statement s = store.prepare("SELECT value FROM pw_meta WHERE key = ?");
    s.bind(1, std::string_view(key));
    if (!s.step())
        return std::nullopt;
    return s.text(0);
}

void setMetaValue(HitStore& store, const std::string& key, const std::string& value) {
    Statement s = store.prepare("INSERT OR REPLACE INTO pw_meta VALUES(?, ?)");
    s.bind(1, std::string_view(key));
    s.bind(2, std::string_view(value));
    s.run();
}

ComputedScoreWriter::ComputedScoreWriter(HitStore& store, const std::string& metaKey,
                                         const std::vector<std::string>& columns,
                                         const std::string& inputs)
    : columnCount_(columns.size()) {
    if (columns.empty())
        throw std::invalid_argument("ComputedScoreWriter: no columns");
    for (const std::string& name : columns)
        store.ensureDerivedColumn(name, ColumnType::Real);
    std::string setNull, anyValue, setValue;
    for (size_t i = 0; i < columns.size(); ++i) {
        const std::string q = quoteIdentifier(columns[i]);
        setNull += (i ? ", " : "") + q + " = NULL";
        anyValue += (i ? " OR " : "") + q + " IS NOT NULL";
        setValue += (i ? ", " : "") + q + " = ?";
    }
    previous_ = metaValue(store, metaKey);
    if (previous_ && *previous_ != inputs) {
        store.exec("UPDATE poses SET " + setNull + " WHERE " + anyValue);
        cleared_ = sqlite3_changes64(store.handle());
    }
    setMetaValue(store, metaKey, inputs);
    update_ = store.prepare("UPDATE poses SET " + setValue + " WHERE id = ?");
}

void ComputedScoreWriter::write(long long poseId,
                                const std::vector<std::optional<double>>& values) {
    if (values.size() != columnCount_)
        throw std::invalid_argument("ComputedScoreWriter::write: wrong number of values");
    int i = 1;
    for (const std::optional<double>& v : values) {
        if (v)
            update_.bind(i, *v);
        else
            update_.bindNull(i);
        ++i;
    }
    update_.bind(i, poseId);
    update_.run();
}

} // namespace pw::hits
