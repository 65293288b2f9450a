// MainWindow's scoring side: the grid maps as they land (TargetBuilder builds them), the live score
// and interactions of the active ligand's pose, and the search box (from the ligand, residues,
// typed or dragged), which every workflow shares.
#include "MainWindow.h"

#include "InteractionLines.h"
#include "JobRunner.h"
#include "MoleculeView.h"
#include "SettingsPanel.h"
#include "TargetBuilder.h"

#include <QFileInfo>
#include <QLabel>
#include <QStatusBar>

namespace pw {

void MainWindow::onTargetBuilt(bool ok, const QString& error) {
    if (!ok) {
        showError(error);
        emit targetBuilt(false);
        return;
    }
    // A receptor protonated here (a PDB without polar hydrogens) says so, and at which pH, in the
    // status bar when that changes, and in the tooltip of the contents label while it holds.
    const QString note = QString::fromStdString(targets_->current()->preparationNote);
    if (note != receptorPreparationNote_) {
        receptorPreparationNote_ = note;
        contentsLabel_->setToolTip(note);
        if (!note.isEmpty())
            statusBar()->showMessage(note, 15000);
    }
    // Scores of the old target no longer hold (one update for the whole list; the active
    // ligand is rescored as it is shown again).
    document_.clearScores();
    rescoreActiveLigand();
    emit targetBuilt(true);
}

void MainWindow::onBoxChanged() {
    const auto& box = document_.box();
    if (box) {
        view_->setBox(DrawBox{{box->center.x(), box->center.y(), box->center.z()},
                              {box->size.x(), box->size.y(), box->size.z()}});
        settings_->showBox(*box);
    } else {
        view_->setBox(std::nullopt);
    }
    targets_->request();
}

void MainWindow::setBoxAroundLigand(double margin) {
    const int active = document_.activeLigand();
    if (active < 0)
        return;
    document_.setBox(autoboxSmina(document_.ligands()[static_cast<size_t>(active)], margin),
                     BoxSource::Ligand);
}

void MainWindow::setBoxAroundResidues(const QString& residues, double margin) {
    if (!document_.hasReceptor())
        return;
    const Molecule& receptor = document_.receptor();
    Molecule selection;
    QStringList missing;
    for (QString item : residues.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        item = item.trimmed();
        QChar chain;
        if (item.size() > 2 && item[1] == QLatin1Char(':')) {
            chain = item[0];
            item = item.mid(2);
        }
        bool ok = false;
        const int number = item.toInt(&ok);
        int found = 0;
        for (const Atom& a : receptor.atoms) {
            if (!ok || a.residue < 0)
                continue;
            const Residue& r = receptor.residues[static_cast<size_t>(a.residue)];
            if (r.number == number && (chain.isNull() || QChar(r.chain) == chain)) {
                selection.atoms.push_back(a);
                ++found;
            }
        }
        if (found == 0)
            missing << (chain.isNull() ? QString() : QString(chain) + QLatin1Char(':')) + item;
    }
    if (!missing.isEmpty() || selection.atoms.empty()) {
        showError(tr("No residue %1 in %2: residues are given as numbers with an optional "
                     "chain, e.g. \"A:23, A:27, 43\".")
                      .arg(missing.isEmpty() ? residues : missing.join(QStringLiteral(", ")),
                           QFileInfo(document_.receptorPath()).fileName()));
        return;
    }
    document_.setBox(autoboxSmina(selection, margin), BoxSource::Typed);
}

void MainWindow::rescoreActiveLigand() {
    const int active = document_.activeLigand();
    // A running minimization or batch shows its own poses.
    if (active < 0 || jobs_->ligandsLocked() ||
        active >= static_cast<int>(document_.ligands().size()))
        return;
    const Molecule& ligand = document_.ligands()[static_cast<size_t>(active)];
    if (!targetReady()) {
        view_->setInteractionLines({});
        return;
    }
    if (std::optional<Molecule> prepared = preparedInPlace(ligand)) {
        if (!document_.score(active)) {
            // Emits ligandChanged, which calls back here with the score set.
            document_.setScore(active, scorePose(*targets_->current(), *prepared));
            return;
        }
        view_->setInteractionLines(interactionLines(*targets_->current(), *prepared));
    }
}

} // namespace pw
