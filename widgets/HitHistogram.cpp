#include "HitHistogram.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace pw {

HitHistogram::HitHistogram(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(120);
}

void HitHistogram::setValues(const std::vector<double>& values, const QString& title, int bins) {
    title_ = title;
    counts_.assign(size_t(std::max(bins, 1)), 0);
    total_ = 0;
    min_ = INFINITY;
    max_ = -INFINITY;
    for (double v : values)
        if (std::isfinite(v)) {
            min_ = std::min(min_, v);
            max_ = std::max(max_, v);
            ++total_;
        }
    if (total_ == 0) {
        min_ = max_ = 0.0;
        counts_.clear();
    } else {
        const double width = max_ > min_ ? (max_ - min_) / double(counts_.size()) : 1.0;
        for (double v : values)
            if (std::isfinite(v)) {
                // The maximum falls in the last bin, not one past it.
                size_t bin = std::min(size_t((v - min_) / width), counts_.size() - 1);
                ++counts_[bin];
            }
    }
    update();
}

void HitHistogram::clear() {
    counts_.clear();
    total_ = 0;
    min_ = max_ = 0.0;
    title_.clear();
    update();
}

void HitHistogram::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QFontMetrics fm(font());
    const int text = fm.height();
    p.setPen(palette().text().color());
    if (counts_.empty()) {
        p.drawText(rect(), Qt::AlignCenter, title_.isEmpty() ? tr("No values") : tr("%1: no values").arg(title_));
        return;
    }
    p.drawText(QRect(4, 2, width() - 8, text), Qt::AlignLeft,
               tr("%1 (%2 values)").arg(title_).arg(total_));
    const QRect plot(4, text + 6, width() - 8, height() - 2 * text - 12);
    p.drawText(QRect(4, height() - text - 2, width() - 8, text), Qt::AlignLeft,
               QString::number(min_, 'g', 5));
    p.drawText(QRect(4, height() - text - 2, width() - 8, text), Qt::AlignRight,
               QString::number(max_, 'g', 5));
    const int highest = *std::max_element(counts_.begin(), counts_.end());
    const double barWidth = double(plot.width()) / double(counts_.size());
    p.setPen(Qt::NoPen);
    p.setBrush(palette().highlight());
    for (size_t i = 0; i < counts_.size(); ++i) {
        const double h = double(plot.height()) * counts_[i] / double(highest);
        p.drawRect(QRectF(plot.left() + i * barWidth, plot.bottom() - h, std::max(barWidth - 1.0, 1.0), h));
    }
}

} // namespace pw
