// SimilarityHeatDelegate: a linear white-yellow-red ramp, readable without a legend; the value
// is printed when the cell is wide enough.
#include "SimilarityHeatDelegate.h"

#include "SimilarityMatrixModel.h"

#include <QPainter>

#include <algorithm>

namespace pw {

QColor SimilarityHeatDelegate::heatColor(double s) {
    s = std::clamp(s, 0.0, 1.0);
    // 0 -> white, 0.5 -> yellow-orange, 1 -> dark red.
    if (s < 0.5) {
        const double t = s / 0.5;
        return QColor::fromRgbF(1.0, 1.0 - 0.35 * t, 1.0 - t);
    }
    const double t = (s - 0.5) / 0.5;
    return QColor::fromRgbF(1.0 - 0.4 * t, 0.65 * (1.0 - t), 0.0);
}

void SimilarityHeatDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                   const QModelIndex& index) const {
    const bool below = index.data(SimilarityMatrixModel::BelowThresholdRole).toBool();
    const double s = index.data(SimilarityMatrixModel::SimilarityRole).toDouble();
    const QColor fill = below ? belowThresholdColor() : heatColor(s);
    painter->fillRect(option.rect, fill);
    if (option.state & QStyle::State_Selected) {
        painter->setPen(QPen(option.palette.highlight().color(), 2));
        painter->drawRect(option.rect.adjusted(1, 1, -1, -1));
    }
    if (!below && option.rect.width() >= 30) {
        painter->setPen(s > 0.7 ? Qt::white : Qt::black);
        painter->drawText(option.rect, Qt::AlignCenter, QString::number(s, 'f', 2));
    }
}

} // namespace pw
