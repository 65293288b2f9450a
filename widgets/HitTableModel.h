// HitTableModel: a read-only table over typed hit columns (HitTableColumns.h), with no item per
// cell and no proxy model: the model keeps the permutation of all rows in sort order and the
// visible rows (those passing the filters) in that order, so a million rows sort and filter with
// one pass over a contiguous vector instead of a million QModelIndex look-ups.
//
// Sorting is stable relative to the current order (click a secondary column, then the primary:
// ties keep the secondary order); NULLs go last in both directions. Filters: a closed range per
// numeric column (NULL never passes an active range) and a substring of the name (any case) or of
// the SMILES (as typed: c and C are different atoms). Optionally column 0 is a "Structure" column for 2D depictions (SmilesRole); the
// data columns then start at 1.
#pragma once

#include "HitTableColumns.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace pw {

class HitTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        ValueRole = Qt::UserRole + 1, // double for numeric cells (NaN for NULL), QString for text
        RowIdRole,                    // qint64: the store's pose id of the row
        SourceRowRole,                // int: the row's index in the HitColumns
        SmilesRole,                   // QString: the row's SMILES (empty when there is none)
    };

    explicit HitTableModel(QObject* parent = nullptr);

    // Replaces the table (throws std::invalid_argument when a column's length differs from the
    // number of row ids); clears the sort and the filters.
    void setColumns(HitColumns columns);
    const HitColumns& columns() const { return data_; }

    // A leading "Structure" column (its cells carry SmilesRole; a delegate draws them).
    void setDepictionColumn(bool on);
    bool hasDepictionColumn() const { return depiction_; }
    // View column <-> index into columns().columns (-1 for the Structure column).
    int dataColumn(int viewColumn) const { return depiction_ ? viewColumn - 1 : viewColumn; }
    int viewColumn(int dataColumn) const { return depiction_ ? dataColumn + 1 : dataColumn; }

    // Sorting by view column (the Structure column sorts nothing).
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    void sortByData(int dataColumn, Qt::SortOrder order);

    // A closed range [min, max] on a numeric data column; NaN leaves that side open. Both NaN
    // removes the filter. Throws std::invalid_argument for a text or unknown column.
    void setRangeFilter(int dataColumn, double min, double max);
    void clearRangeFilter(int dataColumn);
    void setTextFilter(const QString& text);
    // Keeps only the rows whose store id is in ids (ids the table does not have are ignored):
    // the answer of a filter the store evaluates, such as a SMARTS or an interaction.
    void setIdFilter(const std::vector<std::int64_t>& ids);
    void clearIdFilter();
    bool hasIdFilter() const { return !keptById_.empty(); }
    void clearFilters(); // every filter, the id filter too
    bool hasRange(int dataColumn) const { return ranges_.count(dataColumn) != 0; }
    // The range filters in force: data column, min, max (NaN: open on that side).
    std::vector<std::tuple<int, double, double>> rangeFilters() const {
        std::vector<std::tuple<int, double, double>> out;
        for (const auto& [column, range] : ranges_)
            out.emplace_back(column, range.min, range.max);
        return out;
    }

    // Visible row -> index into the HitColumns; the visible rows in order.
    int sourceRow(int visibleRow) const { return visible_.at(size_t(visibleRow)); }
    const std::vector<int>& visibleRows() const { return visible_; }
    std::int64_t rowId(int visibleRow) const { return data_.rowIds.at(size_t(sourceRow(visibleRow))); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Range {
        double min, max;
    };
    bool passes(int row) const;
    void refilter(); // visible_ from order_ and the filters (model reset)

    HitColumns data_;
    std::vector<int> order_;   // every row, in sort order
    std::vector<int> visible_; // the rows of order_ that pass the filters
    std::map<int, Range> ranges_;
    std::string text_;      // as typed (trimmed); empty: no text filter
    std::string textLower_; // the same in lower case, for names
    std::vector<char> keptById_; // per source row, 1 when the id filter keeps it; empty: none
    bool depiction_ = false;
};

} // namespace pw
