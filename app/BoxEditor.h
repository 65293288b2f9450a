// BoxEditor: the search box's fields, shared by every workflow that searches a box (minimization
// now, docking next): around the ligand plus a margin, around typed residues, read from a Vina
// config, typed by numbers, or dragged in the 3D view (the toggle shows the view's face handles).
#pragma once

#include "score/BoxConfig.h"

#include <QWidget>

#include <array>

class QAction;
class QDoubleSpinBox;
class QLineEdit;
class QToolButton;

namespace pw {

class BoxEditor : public QWidget {
    Q_OBJECT
public:
    explicit BoxEditor(QWidget* parent = nullptr);

    double ligandMargin() const;
    // The box the fields hold (what "Apply typed box" sends).
    SearchBox fieldsBox() const;
    // Shows a box in the fields without emitting boxTyped: the document's box, however it was set.
    void showBox(const SearchBox& box);
    // The checkable action that turns the view's box handles on (the frame's Edit box in the view),
    // shown as a toggle beside the fields.
    void setDragAction(QAction* action);

signals:
    void boxFromLigandRequested(double margin);
    void boxFromFileRequested();
    void boxTyped(const pw::SearchBox& box);
    void boxAroundResidues(const QString& residues, double margin);

private:
    QDoubleSpinBox* margin_ = nullptr;
    QLineEdit* residues_ = nullptr;
    QToolButton* drag_ = nullptr;
    std::array<QDoubleSpinBox*, 3> center_{}, size_{};
};

} // namespace pw
