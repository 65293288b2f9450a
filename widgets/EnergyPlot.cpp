#include "EnergyPlot.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pw {
namespace {

// "Nice" tick step (1, 2 or 5 times a power of ten) giving about `ticks` intervals over span.
double niceStep(double span, int ticks) {
    if (span <= 0)
        return 1.0;
    const double raw = span / ticks;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / p;
    return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * p;
}

const QColor kBackground(20, 24, 32); // MoleculeView::backgroundColor()
const QColor kFrame(80, 88, 104);
const QColor kText(210, 214, 222);
const QColor kMutedText(130, 136, 150);

} // namespace

EnergyPlot::EnergyPlot(QWidget* parent) : QWidget(parent), xLabel_(tr("iteration")) {
    setMinimumSize(240, 160);
    setAutoFillBackground(false);
}

void EnergyPlot::setSeries(const QStringList& names, const QList<QColor>& colors) {
    series_.clear();
    xs_.clear();
    for (qsizetype i = 0; i < names.size(); ++i)
        series_.push_back({names[i], colors.value(i, Qt::white), {}, true});
    marker_ = -1;
    update();
}

void EnergyPlot::clearPoints() {
    xs_.clear();
    for (Series& s : series_)
        s.values.clear();
    marker_ = -1;
    update();
}

void EnergyPlot::addPoint(double x, const std::vector<double>& values) {
    xs_.push_back(x);
    for (size_t i = 0; i < series_.size(); ++i)
        series_[i].values.push_back(i < values.size() ? values[i] : 0.0);
    update();
}

void EnergyPlot::setSeriesVisible(int series, bool visible) {
    if (series < 0 || series >= seriesCount())
        return;
    series_[static_cast<size_t>(series)].visible = visible;
    update();
}

void EnergyPlot::setMarker(int index) {
    marker_ = index;
    update();
}

void EnergyPlot::setXAxisLabel(const QString& label) {
    xLabel_ = label;
    update();
}

QString EnergyPlot::title() const { return tr("kcal/mol against %1").arg(xLabel_); }

void EnergyPlot::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    // Dark like the 3D view beside it: the curves are light colours.
    p.fillRect(rect(), kBackground);
    const QFontMetrics fm(font());
    const QRectF plot = QRectF(rect()).adjusted(fm.horizontalAdvance(QStringLiteral("-0000.0")) + 8,
                                                fm.height() + 6, -10, -(fm.height() + 10));
    p.setPen(kFrame);
    p.drawRect(plot);
    if (xs_.empty()) {
        p.setPen(kMutedText);
        p.drawText(plot, Qt::AlignCenter, tr("Minimize to see the energy fall"));
        return;
    }
    // Range over the visible series (a hidden huge repulsion must not squash the others).
    double lo = std::numeric_limits<double>::max(), hi = -lo;
    for (const Series& s : series_) {
        if (!s.visible)
            continue;
        for (double v : s.values) {
            if (!std::isfinite(v))
                continue;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    if (lo > hi)
        lo = 0, hi = 1;
    if (hi - lo < 1e-6)
        lo -= 0.5, hi += 0.5;
    const double pad = 0.05 * (hi - lo);
    lo -= pad;
    hi += pad;
    const double x0 = xs_.front(), x1 = std::max(xs_.back(), x0 + 1.0);
    auto map = [&](double x, double y) {
        return QPointF(plot.left() + (x - x0) / (x1 - x0) * plot.width(),
                       plot.bottom() - (y - lo) / (hi - lo) * plot.height());
    };
    // Grid and labels.
    const QColor text = kText;
    const double ystep = niceStep(hi - lo, 4);
    for (double y = std::ceil(lo / ystep) * ystep; y <= hi; y += ystep) {
        const QPointF a = map(x0, y);
        p.setPen(QPen(kFrame, 0, Qt::DotLine));
        p.drawLine(a, QPointF(plot.right(), a.y()));
        p.setPen(text);
        p.drawText(QRectF(0, a.y() - fm.height() / 2.0, plot.left() - 4, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, QString::number(y, 'g', 4));
    }
    const double xstep = std::max(1.0, niceStep(x1 - x0, 5));
    for (double x = std::ceil(x0 / xstep) * xstep; x <= x1; x += xstep) {
        const QPointF a = map(x, lo);
        p.setPen(text);
        p.drawText(QRectF(a.x() - 30, plot.bottom() + 2, 60, fm.height()), Qt::AlignHCenter,
                   QString::number(x));
    }
    p.drawText(QRectF(plot.left(), 0, plot.width(), fm.height() + 4), Qt::AlignLeft,
               title());
    // Curves, the total last so it lies on top.
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < series_.size(); ++i) {
            const Series& s = series_[i];
            if (!s.visible || (pass == 0) == (i == 0))
                continue;
            QPainterPath path;
            for (size_t k = 0; k < s.values.size(); ++k) {
                const QPointF q = map(xs_[k], s.values[k]);
                if (k == 0)
                    path.moveTo(q);
                else
                    path.lineTo(q);
            }
            p.setPen(QPen(s.color, i == 0 ? 2.2 : 1.4));
            p.setBrush(Qt::NoBrush);
            p.drawPath(path);
        }
    }
    // Legend, top right.
    int y = static_cast<int>(plot.top()) + 4;
    for (const Series& s : series_) {
        if (!s.visible)
            continue;
        const int w = fm.horizontalAdvance(s.name);
        const int x = static_cast<int>(plot.right()) - w - 24;
        p.setPen(QPen(s.color, 2));
        p.drawLine(x, y + fm.ascent() / 2, x + 14, y + fm.ascent() / 2);
        p.setPen(text);
        p.drawText(x + 18, y + fm.ascent(), s.name);
        y += fm.height();
    }
    if (marker_ >= 0 && marker_ < pointCount()) {
        const QPointF m = map(xs_[static_cast<size_t>(marker_)], series_.front().values[marker_]);
        p.setPen(QPen(QColor(255, 200, 0), 1, Qt::DashLine));
        p.drawLine(QPointF(m.x(), plot.top()), QPointF(m.x(), plot.bottom()));
        p.setBrush(QColor(255, 200, 0));
        p.drawEllipse(m, 4, 4);
    }
}

} // namespace pw
