// OverlayPanel: the shape overlay workspace: a reference and its fit molecules overlaid by the
// Gaussian shape engine (worker thread, progress, cancel), the fits in a table sorted by shape
// Tanimoto, the chosen fit shown on the reference with both Gaussian isosurfaces (translucent,
// depth peeled), and the replay of that fit's optimization path.
#pragma once

#include "core/Progress.h"
#include "core/Molecule.h"
#include "shape/ShapeOverlay.h"
#include "shape/ShapeScores.h"

#include <QFutureWatcher>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class vtkActor;

namespace pw {

class MoleculeView;
class TrajectoryPlayer;

struct OverlayResult {
    Molecule reference;
    std::vector<Molecule> fits;             // as read
    std::vector<shape::ShapeScores> scores; // per fit, input order
    std::vector<int> ranking;               // fit indices, best shape Tanimoto first
    // The engine that scored them (reference model and options): the replay re-runs one fit.
    std::shared_ptr<const shape::ShapeOverlay> engine;
    QString error;
    QStringList readerNotes; // from the file's reader: records skipped, structures repaired
    bool cancelled = false;  // stopped by cancel(): nothing else is filled
};

// The optimization path of one fit (ShapeOverlay::overlay with a path), for the replay.
struct OverlayPath {
    int fit = -1;
    int generation = -1; // which overlay result it belongs to (the panel counts them)
    std::vector<shape::OverlayPathStep> steps;
};

class OverlayPanel : public QWidget {
    Q_OBJECT
public:
    static QColor referenceColour() { return QColor(40, 200, 60); } // green
    static QColor fitColour() { return QColor(230, 60, 200); }      // magenta

    explicit OverlayPanel(QWidget* parent = nullptr);
    ~OverlayPanel() override;

    // Overlays every fit onto the reference on a worker thread; finished(ok) when done. A run
    // already going is cancelled first (without waiting on the GUI thread).
    void setMolecules(Molecule reference, std::vector<Molecule> fits);
    // Reads an SDF (or any molecule file): record 0 is the reference, the rest are fits.
    void openFile(const QString& path);
    bool busy() const { return watcher_.isRunning(); }
    // Stops the running overlay; the result shown before stays, and finished(false) says so.
    void cancel();

    QTableWidget* table() const { return table_; }
    MoleculeView* view() const { return view_; }
    QProgressBar* progressBar() const { return progress_; }
    QPushButton* cancelButton() const { return cancelButton_; }
    TrajectoryPlayer* player() const { return player_; }
    const OverlayResult& result() const { return result_; }
    QString messages() const { return messages_; }
    // Shows fit `fit` (input index) aligned on the reference, with both isosurfaces, and starts
    // computing its optimization path (pathReady when it can be replayed).
    void showFit(int fit);
    int shownFit() const { return shown_; }
    void setSurfacesVisible(bool visible);
    int surfaceCount() const { return int(surfaces_.size()); }

    // Replay: the path of the shown fit (empty until pathReady), the step on screen, the fit as
    // drawn now, and the text under the view (step and its Tanimoto).
    const OverlayPath& path() const { return path_; }
    int shownStep() const { return step_; }
    const Molecule& shownFitMolecule() const { return shownFitMolecule_; }
    QString stepText() const;
    vtkActor* fitSurface() const { return surfaces_.size() == 2 ? surfaces_[1] : nullptr; }

signals:
    void finished(bool ok);
    void progressChanged(long done, long total);
    void pathReady(int fit);

private:
    using Job = std::function<OverlayResult(Progress&)>;
    void start(Job job);
    void onFinished();
    void showResult();
    void startPath();
    void onPathFinished();
    void showStep(int step);

    MoleculeView* view_;
    QTableWidget* table_;
    QLabel* status_;
    QProgressBar* progress_;
    QPushButton* cancelButton_;
    TrajectoryPlayer* player_;
    QLabel* stepLabel_;

    QFutureWatcher<OverlayResult> watcher_;
    std::shared_ptr<Progress> running_; // the running job's progress and cancel flag
    Job pending_;                       // asked for while another ran: starts when that stops
    bool userCancelled_ = false;
    OverlayResult result_;
    QString messages_;
    int shown_ = -1;
    bool surfacesVisible_ = true;
    std::vector<vtkActor*> surfaces_; // owned by the renderer

    QFutureWatcher<OverlayPath> pathWatcher_;
    int pathWanted_ = -1; // the fit whose path is being computed or waits to be
    int generation_ = 0;  // counts the results shown, to drop paths of an older one
    OverlayPath path_;
    int step_ = -1;
    Molecule shownFitMolecule_;
};

} // namespace pw
