// EnergyPlot: energy against iteration for a running or finished minimization (or against
// whatever the caller names the x axis: docking plots generations), one curve per series (total
// and per-term), drawn with QPainter; curves can be hidden, and a marker shows the frame the
// player is on.
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

namespace pw {

class EnergyPlot : public QWidget {
    Q_OBJECT
public:
    explicit EnergyPlot(QWidget* parent = nullptr);

    // Replaces the series (all empty). The first series is the total: it sets the left axis;
    // the others share it.
    void setSeries(const QStringList& names, const QList<QColor>& colors);
    void clearPoints();
    // One value per series, at iteration x.
    void addPoint(double x, const std::vector<double>& values);
    int pointCount() const { return static_cast<int>(xs_.size()); }
    int seriesCount() const { return static_cast<int>(series_.size()); }
    // The values of one series so far.
    const std::vector<double>& values(int series) const { return series_[series].values; }
    void setSeriesVisible(int series, bool visible);
    bool seriesVisible(int series) const { return series_[series].visible; }
    // Index of the point the marker stands on; -1 hides it.
    void setMarker(int index);
    // What x counts ("iteration" unless set); the title reads "kcal/mol against <label>".
    void setXAxisLabel(const QString& label);
    const QString& xAxisLabel() const { return xLabel_; }
    QString title() const;

    QSize sizeHint() const override { return {360, 220}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Series {
        QString name;
        QColor color;
        std::vector<double> values;
        bool visible = true;
    };
    std::vector<double> xs_;
    std::vector<Series> series_;
    int marker_ = -1;
    QString xLabel_;
};

} // namespace pw
