// HitTableView: the Hits panel's widget: the hit table (HitTableModel, sortable by clicking a
// header), a filter bar (text on name/SMILES; a numeric column with min and max), a histogram of any
// numeric column over the visible rows on demand, an optional Structure column of 2D depictions
// (drawn by the app's callback), and signals for the selected rows and for exporting them.
#pragma once

#include "HitDepictionDelegate.h"
#include "HitTableColumns.h"

#include <QList>
#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

class QAction;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace pw {

// A filter only the store can answer (the table holds no molecules or contacts): a substructure
// pattern, and/or a contact with a receptor residue. Empty pattern and residue: no such filter.
struct HitStoreFilter {
    QString pattern;     // SMARTS, or SMILES when !smarts
    bool smarts = true;
    QString residue;     // "ASP86" or "A:ASP86"
    QString kind;        // hbond, saltbridge, pistack, halogen, hydrophobic; "interacts": any
    bool isEmpty() const { return pattern.trimmed().isEmpty() && residue.trimmed().isEmpty(); }
};

// What the user set on the table, by column name, so that it outlives the table being filled
// again from the same store (File > Reload hit store).
struct HitTableState {
    std::string sortColumn; // empty: the store's order
    Qt::SortOrder sortOrder = Qt::AscendingOrder;
    std::vector<std::tuple<std::string, double, double>> ranges; // name, min, max (NaN: open)
    QString text;                                                // the text filter
    QString rangeColumn, rangeMin, rangeMax;                     // the filter bar's fields
};

class HitHistogram;
class HitTableModel;

class HitTableView : public QWidget {
    Q_OBJECT
public:
    explicit HitTableView(QWidget* parent = nullptr);

    void setColumns(HitColumns columns);
    // The sort, the range and text filters and the range fields, by column name; restoring
    // applies what still fits the columns (a column no longer there is skipped). The store's
    // structure/interaction filter is not part of it (the store answers it, asynchronously).
    HitTableState tableState() const;
    void restoreTableState(const HitTableState& state);
    // Turns on the Structure column; depictions are drawn lazily through depictor and cached.
    void setDepictor(HitDepictionDelegate::Depictor depictor);

    HitTableModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    HitHistogram* histogram() const { return histogram_; }
    HitDepictionDelegate* depictionDelegate() const { return delegate_; }

    // An action on the selected rows (Refine, Overlay, ...): a button in the filter bar and an
    // entry of the table's context menu. Its owner keeps it enabled or not.
    void addSelectionAction(QAction* action);

    // The store ids of the selected rows, in table order.
    QList<qint64> selectedRowIds() const;

    // Range filter from the filter bar's fields (empty min or max: open on that side).
    void applyRangeFromBar();
    // Shows the histogram of a numeric data column over the visible rows.
    void showHistogram(int dataColumn);

    // The structure and interaction fields; applying them emits storeFilterRequested (or clears
    // the store filter when they are empty). The answer comes back through setStoreFilterResult.
    HitStoreFilter storeFilterFromBar() const;
    void applyStoreFilterFromBar();
    // The residues the interaction field offers (those the store has contacts with).
    void setResidues(const QStringList& residues);
    // The store's answer to request: the ids that pass; a stale request (a newer one was made, or
    // the filters were cleared) is ignored.
    void setStoreFilterResult(int request, const std::vector<std::int64_t>& ids);
    void setStoreFilterError(int request, const QString& message);
    bool storeFilterPending() const { return pendingRequest_ != 0; }

signals:
    void selectionChanged(const QList<qint64>& rowIds);
    void exportRequested(const QList<qint64>& rowIds);
    void storeFilterRequested(int request, const pw::HitStoreFilter& filter);

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
    QHBoxLayout* bar_ = nullptr;
    QLabel* status_;
    QLineEdit* structurePattern_;
    QComboBox* structureSyntax_;
    QComboBox* interactionResidue_;
    QComboBox* interactionKind_;
    int lastRequest_ = 0;
    int pendingRequest_ = 0; // 0: none in flight
    QString storeFilterNote_; // shown in the status line: what the store filter is, or its error
};

} // namespace pw
