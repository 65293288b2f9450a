// SimilarityHeatDelegate: paints a similarity cell as a heat-map colour (white -> dark red as
// similarity goes 0 -> 1) and cells below the model's threshold as flat grey.
#pragma once

#include <QStyledItemDelegate>

namespace pw {

class SimilarityHeatDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    static QColor heatColor(double similarity);
    static QColor belowThresholdColor() { return QColor(200, 200, 200); }
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
};

} // namespace pw
