// HitTableColumns: the hit table as the widgets see it: typed columns (one vector of numbers or of
// strings per column, NaN or empty for NULL), filled by the app from the hit store. Widgets know
// nothing of the store; this value type is all they are handed.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace pw {

struct HitColumn {
    std::string name;
    bool numeric = true;
    std::vector<double> numbers;    // numeric columns: one per row, NaN for NULL
    std::vector<std::string> texts; // text columns: one per row, empty for NULL

    size_t size() const { return numeric ? numbers.size() : texts.size(); }
    bool isNull(size_t row) const {
        return numeric ? std::isnan(numbers[row]) : texts[row].empty();
    }
};

struct HitColumns {
    std::vector<std::int64_t> rowIds; // the store's pose id of each row (selection, export)
    std::vector<HitColumn> columns;
    int nameColumn = -1;   // the text column searched by the text filter (-1: none)
    int smilesColumn = -1; // the SMILES column: text filter and 2D depictions (-1: none)

    size_t rowCount() const { return rowIds.size(); }
    static constexpr double null() { return std::numeric_limits<double>::quiet_NaN(); }

    // The index of the column called name, -1 when there is none.
    int indexOf(const std::string& name) const {
        for (size_t c = 0; c < columns.size(); ++c)
            if (columns[c].name == name)
                return int(c);
        return -1;
    }
    // Every column holds one value per row id.
    bool consistent() const {
        for (const HitColumn& c : columns)
            if (c.size() != rowIds.size())
                return false;
        return (nameColumn < 0 || !columns.at(size_t(nameColumn)).numeric) &&
               (smilesColumn < 0 || !columns.at(size_t(smilesColumn)).numeric);
    }
};

} // namespace pw
