// MainWindow's interactive editing: edit-mode drags of the active ligand (turn, slide, turn a
// rotatable bond), each drag one undo step with the score updated at every step, and hover info.
#include "MainWindow.h"

#include "JobRunner.h"
#include "LigandEditCommand.h"
#include "LigandEditing.h"
#include "MoleculeView.h"
#include "TargetBuilder.h"

#include <QAction>
#include <QStatusBar>
#include <QToolTip>
#include <QUndoStack>

namespace pw {

void MainWindow::connectEditing() {
    connect(editModeAction_, &QAction::toggled, view_, &MoleculeView::setEditMode);
    connect(view_, &MoleculeView::ligandDragStarted, this, &MainWindow::onDragStarted);
    connect(view_, &MoleculeView::ligandRotated, this,
            [this](const std::array<double, 3>& axis, double radians) {
                applyLigandEdit(
                    [&](Molecule& m) {
                        rotateLigand(m, Vec3(axis[0], axis[1], axis[2]), radians);
                        return true;
                    },
                    tr("Turn ligand"));
            });
    connect(view_, &MoleculeView::ligandTranslated, this, [this](const std::array<double, 3>& d) {
        applyLigandEdit(
            [&](Molecule& m) {
                translateLigand(m, Vec3(d[0], d[1], d[2]));
                return true;
            },
            tr("Move ligand"));
    });
    connect(view_, &MoleculeView::torsionTurned, this, [this](int atom, double radians) {
        applyLigandEdit([&](Molecule& m) { return turnTorsionOf(m, atom, radians); },
                        tr("Turn bond"));
    });
    connect(view_, &MoleculeView::atomHovered, this, &MainWindow::onAtomHovered);
}

void MainWindow::onDragStarted() {
    ++dragId_; // the steps of this drag merge into one undo command
    // Whether the ligand can be scored as it is (a PDBQT, or minimized before): decided once per
    // drag, since preparing a ligand that needs hydrogens runs RDKit, too slow for every step.
    const int index = document_.activeLigand();
    dragScorable_ =
        index >= 0 && preparedInPlace(document_.ligands()[static_cast<size_t>(index)]).has_value();
}

void MainWindow::applyLigandEdit(const std::function<bool(Molecule&)>& edit, const QString& text) {
    const int index = document_.activeLigand();
    if (index < 0 || jobs_->ligandsLocked())
        return; // no edits while a job moves the same ligand
    const Molecule& current = document_.ligands()[static_cast<size_t>(index)];
    // Edit the prepared form (torsion tree, types) when it has the same atoms.
    std::optional<Molecule> prepared =
        dragScorable_ ? preparedInPlace(current) : std::optional<Molecule>();
    Molecule after = prepared ? *prepared : current;
    if (!edit(after))
        return;
    std::optional<VinaScore> score;
    if (prepared && targetReady())
        score = scorePose(*targets_->current(), after);
    undo_->push(new LigandEditCommand(document_, index, current, document_.score(index),
                                      std::move(after), score, text, dragId_));
}

void MainWindow::onAtomHovered(int kind, int atom, QPoint globalPos) {
    const int index = document_.activeLigand();
    if (kind < 0 || atom < 0 || (kind == 1 && !document_.hasReceptor()) || index < 0) {
        QToolTip::hideText();
        return;
    }
    const Molecule& ligand = document_.ligands()[static_cast<size_t>(index)];
    std::optional<Molecule> prepared =
        targetReady() ? preparedInPlace(ligand) : std::optional<Molecule>();
    const ScoringTarget* target = targets_->current().get();
    double energy = 0;
    const double* known = nullptr;
    // Receptor atoms are picked in the document's order; the prepared copy must have the same.
    const bool sameReceptor = kind == 0 || (prepared && target->receptor.atoms.size() ==
                                                            document_.receptor().atoms.size());
    if (prepared && sameReceptor) {
        energy = kind == 0 ? ligandAtomEnergy(*target, *prepared, atom)
                           : receptorAtomEnergy(*target, *prepared, atom);
        known = &energy;
    }
    const QString text =
        kind == 0 ? describeAtom(prepared ? *prepared : ligand, atom, known)
                  : describeAtom(known ? target->receptor : document_.receptor(), atom, known);
    QToolTip::showText(globalPos, text, view_);
    statusBar()->showMessage(text, 4000);
}

} // namespace pw
