// SimilarityMatrixModel: lookups into the shared matrix through the display permutation.
#include "SimilarityMatrixModel.h"

#include <numeric>
#include <stdexcept>

namespace pw {

SimilarityMatrixModel::SimilarityMatrixModel(QObject* parent) : QAbstractTableModel(parent) {}

void SimilarityMatrixModel::setMatrix(std::shared_ptr<const std::vector<float>> matrix,
                                      QStringList names) {
    const size_t n = size_t(names.size());
    if (!matrix || matrix->size() != n * n)
        throw std::invalid_argument("similarity matrix size does not match the names");
    beginResetModel();
    matrix_ = std::move(matrix);
    names_ = std::move(names);
    order_.resize(n);
    std::iota(order_.begin(), order_.end(), 0);
    position_ = order_;
    endResetModel();
}

void SimilarityMatrixModel::clear() {
    beginResetModel();
    matrix_.reset();
    names_.clear();
    order_.clear();
    position_.clear();
    endResetModel();
}

float SimilarityMatrixModel::similarity(int hitA, int hitB) const {
    const size_t n = size_t(names_.size());
    return (*matrix_)[size_t(hitA) * n + size_t(hitB)];
}

void SimilarityMatrixModel::setOrder(std::vector<int> order) {
    const int n = hitCount();
    if (int(order.size()) != n)
        throw std::invalid_argument("order is not a permutation of the hits");
    std::vector<int> position(size_t(n), -1);
    for (int p = 0; p < n; ++p) {
        const int h = order[size_t(p)];
        if (h < 0 || h >= n || position[size_t(h)] != -1)
            throw std::invalid_argument("order is not a permutation of the hits");
        position[size_t(h)] = p;
    }
    beginResetModel();
    order_ = std::move(order);
    position_ = std::move(position);
    endResetModel();
}

int SimilarityMatrixModel::positionOf(int hit) const {
    return position_.at(size_t(hit));
}

void SimilarityMatrixModel::setThreshold(double threshold) {
    if (threshold == threshold_)
        return;
    threshold_ = threshold;
    if (hitCount() > 0)
        emit dataChanged(index(0, 0), index(hitCount() - 1, hitCount() - 1),
                         {BelowThresholdRole, Qt::DisplayRole});
}

int SimilarityMatrixModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : hitCount();
}
int SimilarityMatrixModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : hitCount();
}

QVariant SimilarityMatrixModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !matrix_)
        return {};
    const int a = order_[size_t(index.row())], b = order_[size_t(index.column())];
    const float s = similarity(a, b);
    switch (role) {
    case Qt::DisplayRole:
        return s < threshold_ ? QString() : QString::number(double(s), 'f', 2);
    case Qt::ToolTipRole:
        return QStringLiteral("%1 / %2: %3").arg(names_[a], names_[b]).arg(double(s), 0, 'f', 3);
    case SimilarityRole:
        return double(s);
    case BelowThresholdRole:
        return s < threshold_;
    case HitRole:
        return a;
    default:
        return {};
    }
}

QVariant SimilarityMatrixModel::headerData(int section, Qt::Orientation, int role) const {
    if (section < 0 || section >= hitCount())
        return {};
    const int hit = order_[size_t(section)];
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return names_[hit];
    if (role == HitRole)
        return hit;
    return {};
}

} // namespace pw
