// HitHistogram: a small bar chart of one numeric column's values (NULLs left out), painted with
// QPainter: equal-width bins between the smallest and largest value, the count of each bin as a bar.
#pragma once

#include <QString>
#include <QWidget>

#include <vector>

namespace pw {

class HitHistogram : public QWidget {
    Q_OBJECT
public:
    explicit HitHistogram(QWidget* parent = nullptr);

    // Bins the finite values (NaN is NULL and skipped) into `bins` equal bins over [min, max].
    void setValues(const std::vector<double>& values, const QString& title, int bins = 40);
    void clear();

    const std::vector<int>& counts() const { return counts_; }
    double minimum() const { return min_; }
    double maximum() const { return max_; }
    int valueCount() const { return total_; }
    const QString& title() const { return title_; }

    QSize sizeHint() const override { return {360, 160}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<int> counts_;
    double min_ = 0.0, max_ = 0.0;
    int total_ = 0;
    QString title_;
};

} // namespace pw
