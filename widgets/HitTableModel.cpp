#include "HitTableModel.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string_view>
#include <stdexcept>
#include <utility>

namespace pw {

namespace {

// ASCII lower case by table: std::tolower goes through the C locale per character, which made
// a name filter over a million rows several times slower.
struct LowerTable {
    char map[256];
    LowerTable() {
        for (int c = 0; c < 256; ++c)
            map[c] = char(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    }
};
const LowerTable kLower;

std::string lowered(std::string s) {
    for (char& c : s)
        c = kLower.map[static_cast<unsigned char>(c)];
    return s;
}

bool containsIgnoringCase(const std::string& haystack, const std::string& loweredNeedle) {
    auto it = std::search(haystack.begin(), haystack.end(), loweredNeedle.begin(),
                          loweredNeedle.end(), [](char a, char b) {
                              return kLower.map[static_cast<unsigned char>(a)] == b;
                          });
    return it != haystack.end();
}

// Stable sort of order by key; NULL keys last whatever the direction. Sorting (key, row) pairs
// that sit together in memory is several times faster than a comparator that looks the key up.
// Text keys are sorted as string_views of the column's strings, never copies.
template <class Key, class SortKey = Key, class IsNull>
void stableSortBy(std::vector<int>& order, const std::vector<Key>& keys, bool descending,
                  IsNull isNull) {
    std::vector<std::pair<SortKey, int>> present;
    std::vector<int> nulls;
    present.reserve(order.size());
    for (int row : order) {
        if (isNull(keys[size_t(row)]))
            nulls.push_back(row);
        else
            present.emplace_back(SortKey(keys[size_t(row)]), row);
    }
    if (descending)
        std::stable_sort(present.begin(), present.end(),
                         [](const auto& a, const auto& b) { return b.first < a.first; });
    else
        std::stable_sort(present.begin(), present.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
    size_t i = 0;
    for (const auto& p : present)
        order[i++] = p.second;
    for (int row : nulls)
        order[i++] = row;
}

} // namespace

HitTableModel::HitTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void HitTableModel::setColumns(HitColumns columns) {
    if (!columns.consistent())
        throw std::invalid_argument(
            "hit table: every column needs one value per row, and the name and SMILES columns "
            "must be text columns");
    beginResetModel();
    data_ = std::move(columns);
    order_.resize(data_.rowCount());
    std::iota(order_.begin(), order_.end(), 0);
    visible_ = order_;
    ranges_.clear();
    text_.clear();
    textLower_.clear();
    keptById_.clear();
    endResetModel();
}

void HitTableModel::setDepictionColumn(bool on) {
    if (on == depiction_)
        return;
    beginResetModel();
    depiction_ = on;
    endResetModel();
}

void HitTableModel::sort(int column, Qt::SortOrder order) {
    int c = dataColumn(column);
    if (c >= 0 && c < int(data_.columns.size()))
        sortByData(c, order);
}

void HitTableModel::sortByData(int dataColumn, Qt::SortOrder order) {
    const HitColumn& col = data_.columns.at(size_t(dataColumn));
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    // Remember which source rows the persistent indexes (the selection, the current cell) are on.
    const QModelIndexList persistent = persistentIndexList();
    std::vector<int> persistentSource;
    persistentSource.reserve(size_t(persistent.size()));
    for (const QModelIndex& i : persistent)
        persistentSource.push_back(i.isValid() ? visible_[size_t(i.row())] : -1);

    const bool descending = order == Qt::DescendingOrder;
    if (col.numeric)
        stableSortBy(order_, col.numbers, descending, [](double v) { return std::isnan(v); });
    else
        stableSortBy<std::string, std::string_view>(order_, col.texts, descending,
                                                     [](const std::string& s) { return s.empty(); });
    // The visible rows are the same set, now in the new order.
    std::vector<char> shown(data_.rowCount(), 0);
    for (int row : visible_)
        shown[size_t(row)] = 1;
    visible_.clear();
    for (int row : order_)
        if (shown[size_t(row)])
            visible_.push_back(row);

    if (!persistent.isEmpty()) {
        std::vector<int> position(data_.rowCount(), -1);
        for (size_t i = 0; i < visible_.size(); ++i)
            position[size_t(visible_[i])] = int(i);
        QModelIndexList moved;
        moved.reserve(persistent.size());
        for (qsizetype i = 0; i < persistent.size(); ++i) {
            int src = persistentSource[size_t(i)];
            moved.push_back(src < 0 ? QModelIndex()
                                    : index(position[size_t(src)], persistent[i].column()));
        }
        changePersistentIndexList(persistent, moved);
    }
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void HitTableModel::setRangeFilter(int dataColumn, double min, double max) {
    if (dataColumn < 0 || dataColumn >= int(data_.columns.size()) ||
        !data_.columns[size_t(dataColumn)].numeric)
        throw std::invalid_argument("hit table: a range filter needs a numeric column");
    if (std::isnan(min) && std::isnan(max))
        ranges_.erase(dataColumn);
    else
        ranges_[dataColumn] = Range{min, max};
    refilter();
}

void HitTableModel::clearRangeFilter(int dataColumn) {
    if (ranges_.erase(dataColumn))
        refilter();
}

void HitTableModel::setTextFilter(const QString& text) {
    std::string t = text.trimmed().toStdString();
    if (t == text_)
        return;
    text_ = std::move(t);
    textLower_ = lowered(text_);
    refilter();
}

void HitTableModel::setIdFilter(const std::vector<std::int64_t>& ids) {
    std::vector<std::int64_t> wanted(ids);
    std::sort(wanted.begin(), wanted.end());
    keptById_.assign(data_.rowCount(), 0);
    for (size_t row = 0; row < data_.rowIds.size(); ++row)
        keptById_[row] =
            std::binary_search(wanted.begin(), wanted.end(), std::int64_t(data_.rowIds[row]));
    refilter();
}

void HitTableModel::clearIdFilter() {
    if (keptById_.empty())
        return;
    keptById_.clear();
    refilter();
}

void HitTableModel::clearFilters() {
    ranges_.clear();
    text_.clear();
    textLower_.clear();
    keptById_.clear();
    refilter();
}

bool HitTableModel::passes(int row) const {
    if (!keptById_.empty() && !keptById_[size_t(row)])
        return false;
    for (const auto& [column, range] : ranges_) {
        double v = data_.columns[size_t(column)].numbers[size_t(row)];
        // NaN compares false: a NULL never passes an active range.
        if (!(std::isnan(range.min) || v >= range.min) || !(std::isnan(range.max) || v <= range.max) ||
            std::isnan(v))
            return false;
    }
    if (!text_.empty()) {
        // Names match in any case; SMILES as written (c and C are different atoms).
        bool name = data_.nameColumn >= 0 &&
                    containsIgnoringCase(data_.columns[size_t(data_.nameColumn)].texts[size_t(row)], textLower_);
        bool smiles = false;
        if (!name && data_.smilesColumn >= 0) {
            const std::string& s = data_.columns[size_t(data_.smilesColumn)].texts[size_t(row)];
            smiles = s.find(text_) != std::string::npos;
        }
        if (!name && !smiles)
            return false;
    }
    return true;
}

void HitTableModel::refilter() {
    beginResetModel();
    visible_.clear();
    if (ranges_.empty() && text_.empty() && keptById_.empty())
        visible_ = order_;
    else
        for (int row : order_)
            if (passes(row))
                visible_.push_back(row);
    endResetModel();
}

int HitTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(visible_.size());
}

int HitTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(data_.columns.size()) + (depiction_ ? 1 : 0);
}

QVariant HitTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(visible_.size()))
        return {};
    const int row = visible_[size_t(index.row())];
    switch (role) {
    case RowIdRole:
        return QVariant::fromValue<qint64>(data_.rowIds[size_t(row)]);
    case SourceRowRole:
        return row;
    case SmilesRole:
        return data_.smilesColumn < 0
                   ? QString()
                   : QString::fromStdString(data_.columns[size_t(data_.smilesColumn)].texts[size_t(row)]);
    default:
        break;
    }
    const int c = dataColumn(index.column());
    if (c < 0 || c >= int(data_.columns.size()))
        return {};
    const HitColumn& col = data_.columns[size_t(c)];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        if (col.numeric) {
            double v = col.numbers[size_t(row)];
            return std::isnan(v) ? QString() : QString::number(v, 'g', 6);
        }
        return QString::fromStdString(col.texts[size_t(row)]);
    case ValueRole:
        if (col.numeric)
            return col.numbers[size_t(row)];
        return QString::fromStdString(col.texts[size_t(row)]);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(col.numeric ? Qt::AlignRight | Qt::AlignVCenter
                                               : Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant HitTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    const int c = dataColumn(section);
    if (c < 0)
        return tr("Structure");
    if (c >= int(data_.columns.size()))
        return {};
    return QString::fromStdString(data_.columns[size_t(c)].name);
}

} // namespace pw
