// OverlayPanel's replay of an optimization: the chosen fit's path (ShapeOverlay::overlay with a
// path, the best start's accepted BFGS poses) is computed on a worker thread, then stepped
// through with the TrajectoryPlayer: the fit and its isosurface move rigidly from the start pose
// to the optimum, the step's shape Tanimoto under the view.
#include "OverlayPanel.h"

#include "MoleculeDrawings.h"
#include "MoleculeView.h"
#include "TrajectoryPlayer.h"
#include "shape/ShapeModel.h"

#include <QLabel>
#include <QtConcurrent>

#include <vtkActor.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>

namespace pw {

void OverlayPanel::startPath() {
    if (pathWanted_ < 0 || pathWanted_ >= int(result_.fits.size()) || !result_.engine)
        return;
    const int fit = pathWanted_, generation = generation_;
    pathWatcher_.setFuture(QtConcurrent::run(
        [fit, generation, engine = result_.engine, molecule = result_.fits[size_t(fit)]] {
            OverlayPath p;
            p.fit = fit;
            p.generation = generation;
            try {
                engine->overlay(shape::makeShapeModel(molecule, {}), &p.steps);
            } catch (const std::exception&) {
                p.steps.clear(); // the overlay itself succeeded on this fit: cannot happen
            }
            return p;
        }));
}

void OverlayPanel::onPathFinished() {
    OverlayPath p = pathWatcher_.result();
    if (p.generation != generation_ || p.fit != shown_) {
        // Another fit (or another result) was chosen meanwhile: compute that one's.
        if (pathWanted_ == shown_)
            startPath();
        return;
    }
    path_ = std::move(p);
    if (path_.steps.empty()) {
        stepLabel_->setText(tr("No optimization path for this fit"));
        return;
    }
    // The player moves to the last frame: the optimum, which is what is shown already.
    player_->setFrameCount(int(path_.steps.size()));
    emit pathReady(path_.fit);
}

void OverlayPanel::showStep(int step) {
    if (path_.fit != shown_ || step < 0 || step >= int(path_.steps.size()))
        return;
    step_ = step;
    const shape::OverlayPathStep& st = path_.steps[size_t(step)];
    const Molecule& fit = result_.fits[size_t(shown_)];
    shownFitMolecule_ = shape::transformed(fit, st.rotation, st.translation);
    view_->setLigands({toDrawing(result_.reference, DrawStyle::Ligand),
                       toDrawing(shownFitMolecule_, DrawStyle::LigandAlternate)});
    // The fit's isosurface was built at the optimum; the step is a rigid move of it:
    // x_step = R_s R_o^T (x_opt - t_o) + t_s.
    if (vtkActor* surface = fitSurface()) {
        const shape::ShapeScores& opt = result_.scores[size_t(shown_)];
        const Eigen::Matrix3d R = st.rotation * opt.rotation.transpose();
        const Vec3 t = st.translation - R * opt.translation;
        vtkNew<vtkMatrix4x4> m;
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j)
                m->SetElement(i, j, R(i, j));
            m->SetElement(i, 3, t[i]);
        }
        surface->SetUserMatrix(m);
    }
    stepLabel_->setText(stepText());
    view_->update();
}

QString OverlayPanel::stepText() const {
    if (step_ < 0 || step_ >= int(path_.steps.size()))
        return {};
    const shape::OverlayPathStep& st = path_.steps[size_t(step_)];
    const QString what = step_ == 0 ? tr("start")
                         : step_ + 1 == int(path_.steps.size())
                             ? tr("optimum")
                             : tr("BFGS iteration %1").arg(step_);
    return tr("Step %1 / %2 (%3): shape Tanimoto %4")
        .arg(step_ + 1)
        .arg(path_.steps.size())
        .arg(what)
        .arg(QString::number(st.tanimoto, 'f', 3));
}

} // namespace pw
