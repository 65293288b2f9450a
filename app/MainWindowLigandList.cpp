// MainWindow's ligand (hit) list: one row per document ligand with its affinity, optionally
// ranked by affinity; the selected rows are the ligands shown, the active one in green.
#include "MainWindow.h"

#include "MoleculeDrawings.h"
#include "MoleculeView.h"

#include <algorithm>

#include <QAction>
#include <QListWidget>
#include <QSignalBlocker>

#include <limits>

namespace pw {
namespace {

constexpr int kIndexRole = Qt::UserRole;    // the document ligand of a row
constexpr int kRankRole = Qt::UserRole + 1; // the sort key: affinity, or +inf when unscored

// Rows order by their key, then by document index: ranked, the best affinity comes first and
// the unscored keep their file order after the scored; unranked, every key is equal.
class LigandItem : public QListWidgetItem {
public:
    using QListWidgetItem::QListWidgetItem;
    bool operator<(const QListWidgetItem& other) const override {
        const double a = data(kRankRole).toDouble(), b = other.data(kRankRole).toDouble();
        if (a != b)
            return a < b;
        return data(kIndexRole).toInt() < other.data(kIndexRole).toInt();
    }
};

} // namespace

int MainWindow::ligandOfRow(int row) const {
    const QListWidgetItem* item = ligandList_->item(row);
    return item ? item->data(kIndexRole).toInt() : -1;
}

int MainWindow::rowOfLigand(int index) const {
    for (int row = 0; row < ligandList_->count(); ++row)
        if (ligandList_->item(row)->data(kIndexRole).toInt() == index)
            return row;
    return -1;
}

void MainWindow::onLigandsChanged() {
    {
        const QSignalBlocker blocker(ligandList_);
        ligandList_->clear();
        const auto& ligands = document_.ligands();
        for (size_t i = 0; i < ligands.size(); ++i) {
            const Molecule& m = ligands[i];
            auto* item = new LigandItem;
            item->setData(kIndexRole, static_cast<int>(i));
            item->setToolTip(
                tr("%1 heavy atoms, %2 atoms").arg(m.heavyAtomCount()).arg(m.atoms.size()));
            ligandList_->addItem(item);
            updateLigandRow(static_cast<int>(i));
        }
        sortLigandList();
        const int row = rowOfLigand(document_.activeLigand());
        if (row >= 0)
            ligandList_->item(row)->setSelected(true);
    }
    showSelectedLigands();
    view_->resetCamera();
    updateStatus();
}

void MainWindow::updateLigandItem(int index) {
    const int row = rowOfLigand(index);
    if (row >= 0)
        updateLigandRow(row);
}

void MainWindow::updateLigandRow(int row) {
    QListWidgetItem* item = ligandList_->item(row);
    const int index = ligandOfRow(row);
    if (!item || index < 0 || index >= static_cast<int>(document_.ligands().size()))
        return;
    const Molecule& m = document_.ligands()[static_cast<size_t>(index)];
    QString text = QStringLiteral("%1  %2").arg(index + 1).arg(
        m.name.empty() ? tr("ligand %1").arg(index + 1) : QString::fromStdString(m.name));
    const auto& s = document_.score(index);
    if (s)
        text += QStringLiteral("   %1").arg(s->affinity, 0, 'f', 2);
    item->setText(text);
    item->setData(kRankRole, s && rankAction_->isChecked()
                                 ? s->affinity
                                 : std::numeric_limits<double>::infinity());
}

void MainWindow::sortLigandList() {
    // The selection follows its rows (persistent indexes); with ranking off every key is equal
    // and the file order comes back.
    const QSignalBlocker blocker(ligandList_);
    ligandList_->sortItems(Qt::AscendingOrder);
}

void MainWindow::onLigandChanged(int index) {
    updateLigandItem(index);
    if (rankAction_->isChecked())
        sortLigandList();
    showSelectedLigands();
    updateStatus();
}

void MainWindow::onLigandsUpdated() {
    for (int row = 0; row < ligandList_->count(); ++row)
        updateLigandRow(row);
    sortLigandList();
    showSelectedLigands();
    updateStatus();
}

void MainWindow::showSelectedLigands() {
    const auto& ligands = document_.ligands();
    std::vector<int> selected;
    for (int row = 0; row < ligandList_->count(); ++row) {
        const int index = ligandOfRow(row);
        if (ligandList_->item(row)->isSelected() && index >= 0 &&
            index < static_cast<int>(ligands.size()))
            selected.push_back(index);
    }
    // The active ligand stays active while it is selected (a re-sort must not swap it); else the
    // first selected row takes over.
    const int active = document_.activeLigand();
    if (!selected.empty() && std::find(selected.begin(), selected.end(), active) == selected.end())
        document_.setActiveLigand(selected.front());
    // The active ligand in green, the others in cyan: a reference and its rivals.
    std::vector<MoleculeDrawing> drawings;
    const int shownActive = document_.activeLigand();
    if (std::find(selected.begin(), selected.end(), shownActive) != selected.end())
        drawings.push_back(toDrawing(ligands[static_cast<size_t>(shownActive)], DrawStyle::Ligand));
    for (int index : selected)
        if (index != shownActive)
            drawings.push_back(
                toDrawing(ligands[static_cast<size_t>(index)], DrawStyle::LigandAlternate));
    view_->setLigands(drawings);
    updateReceptorDrawing();
    rescoreActiveLigand();
}

} // namespace pw
