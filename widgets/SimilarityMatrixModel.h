// SimilarityMatrixModel: a read-only N x N table over an already computed similarity matrix,
// shown in a chosen order (the same permutation for rows and columns) with a threshold below
// which cells are marked; it computes nothing itself, so the GUI thread only looks values up.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>

#include <memory>
#include <vector>

namespace pw {

class SimilarityMatrixModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        SimilarityRole = Qt::UserRole + 1, // float similarity of the cell
        BelowThresholdRole,                // bool: similarity < threshold (drawn grey)
        HitRole,                           // int: the hit index of the row (or column header)
    };

    explicit SimilarityMatrixModel(QObject* parent = nullptr);

    // Row-major n x n similarities of hits in their input order; names label the headers.
    void setMatrix(std::shared_ptr<const std::vector<float>> matrix, QStringList names);
    void clear();
    int hitCount() const { return int(names_.size()); }
    float similarity(int hitA, int hitB) const;

    // Display position -> hit index (a permutation of 0..n-1).
    void setOrder(std::vector<int> order);
    const std::vector<int>& order() const { return order_; }
    int hitAt(int position) const { return order_.at(size_t(position)); }
    int positionOf(int hit) const;

    void setThreshold(double threshold);
    double threshold() const { return threshold_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const std::vector<float>> matrix_;
    QStringList names_;
    std::vector<int> order_, position_;
    double threshold_ = 0.0;
};

} // namespace pw
