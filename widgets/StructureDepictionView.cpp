// StructureDepictionView: fits the 2D coordinates into the widget (y up, as in chemistry), draws
// bonds first and then white-backed labels over hetero atoms so bonds stop short of them.
#include "StructureDepictionView.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace pw {

StructureDepictionView::StructureDepictionView(QWidget* parent) : QWidget(parent) {
    setMinimumSize(120, 120);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, Qt::white);
    setPalette(p);
}

void StructureDepictionView::setDrawing(const StructureDrawing& drawing) {
    drawing_ = drawing;
    update();
}

static QColor labelColor(const QString& symbol) {
    if (symbol == "N")
        return QColor(40, 60, 220);
    if (symbol == "O")
        return QColor(220, 30, 30);
    if (symbol == "S")
        return QColor(190, 160, 0);
    if (symbol == "F" || symbol == "Cl")
        return QColor(20, 160, 20);
    if (symbol == "Br")
        return QColor(150, 40, 40);
    return QColor(60, 60, 60);
}

void StructureDepictionView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF area = QRectF(rect()).adjusted(12, 12, -12, -28);
    p.setPen(Qt::black);
    p.drawText(QRectF(0, height() - 24, width(), 22), Qt::AlignCenter, drawing_.title);
    if (drawing_.atoms.isEmpty() || area.width() <= 0 || area.height() <= 0)
        return;
    double x0 = 1e30, x1 = -1e30, y0 = 1e30, y1 = -1e30;
    for (const auto& a : drawing_.atoms) {
        x0 = std::min(x0, a.x), x1 = std::max(x1, a.x);
        y0 = std::min(y0, a.y), y1 = std::max(y1, a.y);
    }
    // One bond is about 1.5 units in RDKit depictions: never blow a small molecule up past
    // 40 pixels per unit.
    const double scale = std::min(
        {area.width() / std::max(x1 - x0, 1e-6), area.height() / std::max(y1 - y0, 1e-6), 40.0});
    const QPointF c = area.center();
    auto at = [&](int i) {
        const auto& a = drawing_.atoms[i];
        return QPointF(c.x() + (a.x - (x0 + x1) / 2) * scale,
                       c.y() - (a.y - (y0 + y1) / 2) * scale);
    };
    const double offset = std::clamp(scale * 0.12, 1.5, 4.0);
    p.setPen(QPen(QColor(30, 30, 30), std::clamp(scale * 0.05, 1.0, 2.0)));
    for (const auto& b : drawing_.bonds) {
        if (b.a < 0 || b.b < 0 || b.a >= drawing_.atoms.size() || b.b >= drawing_.atoms.size())
            continue;
        const QPointF pa = at(b.a), pb = at(b.b);
        const QPointF d = pb - pa;
        const double len = std::hypot(d.x(), d.y());
        if (len < 1e-9)
            continue;
        const QPointF n(-d.y() / len * offset, d.x() / len * offset);
        if (b.order == 2) {
            p.drawLine(pa + n, pb + n);
            p.drawLine(pa - n, pb - n);
        } else if (b.order == 3) {
            p.drawLine(pa, pb);
            p.drawLine(pa + 2 * n, pb + 2 * n);
            p.drawLine(pa - 2 * n, pb - 2 * n);
        } else {
            p.drawLine(pa, pb);
        }
    }
    QFont f = font();
    f.setPixelSize(int(std::clamp(scale * 0.5, 9.0, 16.0)));
    p.setFont(f);
    const QFontMetricsF fm(f);
    for (int i = 0; i < drawing_.atoms.size(); ++i) {
        const auto& a = drawing_.atoms[i];
        const bool isolated = std::none_of(drawing_.bonds.begin(), drawing_.bonds.end(),
                                           [i](const auto& b) { return b.a == i || b.b == i; });
        if (a.symbol == "C" && a.charge == 0 && !isolated)
            continue;
        QString label = a.symbol;
        if (a.hydrogens > 0 && a.symbol != "C")
            label += a.hydrogens == 1 ? "H" : QString("H%1").arg(a.hydrogens);
        if (a.charge != 0)
            label += (std::abs(a.charge) > 1 ? QString::number(std::abs(a.charge)) : QString()) +
                     (a.charge > 0 ? "+" : "-");
        QRectF box = fm.boundingRect(label);
        box.moveCenter(at(i));
        p.fillRect(box.adjusted(-1, 0, 1, 0), Qt::white);
        p.setPen(labelColor(a.symbol));
        p.drawText(box, Qt::AlignCenter, label);
    }
}

} // namespace pw
