// HitTableView: the Hits panel's widget: the hit table (HitTableModel, sortable by clicking a
// header), a filter bar (text on name/SMILES; a numeric column with min and max), a histogram of any
// numeric column over the visible rows on demand, an optional Structure column of 2D depictions
// (drawn by the app's callback), and signals for the selected rows and for exporting them.
#pragma once

#include "HitDepictionDelegate.h"
#include "HitTableColumns.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace pw {

class HitHistogram;
class HitTableModel;

class HitTableView : public QWidget {
    Q_OBJECT
public:
    explicit HitTableView(QWidget* parent = nullptr);

    void setColumns(HitColumns columns);
    // Turns on the Structure column; depictions are drawn lazily through depictor and cached.
    void setDepictor(HitDepictionDelegate::Depictor depictor);

    HitTableModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    HitHistogram* histogram() const { return histogram_; }
    HitDepictionDelegate* depictionDelegate() const { return delegate_; }

    // The store ids of the selected rows, in table order.
    QList<qint64> selectedRowIds() const;

    // Range filter from the filter bar's fields (empty min or max: open on that side).
    void applyRangeFromBar();
    // Shows the histogram of a numeric data column over the visible rows.
    void showHistogram(int dataColumn);

signals:
    void selectionChanged(const QList<qint64>& rowIds);
    void exportRequested(const QList<qint64>& rowIds);

private:
    void fillColumnChooser();
    void updateStatus();
    void onSelectionChanged();

    HitTableModel* model_;
    QTableView* table_;
    HitHistogram* histogram_;
    HitDepictionDelegate* delegate_ = nullptr;
    QLineEdit* textFilter_;
    QComboBox* rangeColumn_;
    QLineEdit* rangeMin_;
    QLineEdit* rangeMax_;
    QPushButton* exportButton_;
    QLabel* status_;
};

} // namespace pw
