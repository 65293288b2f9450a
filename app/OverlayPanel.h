// OverlayPanel: the shape overlay workspace: a reference and its fit molecules overlaid by the
// Gaussian shape engine (worker thread), the fits in a table sorted by shape Tanimoto, and the
// chosen fit shown on the reference with both Gaussian isosurfaces (translucent, depth peeled).
#pragma once

#include "core/Molecule.h"
#include "shape/ShapeScores.h"

#include <QFutureWatcher>
#include <QWidget>

#include <vector>

class QLabel;
class QTableWidget;
class vtkActor;

namespace pw {

class MoleculeView;

struct OverlayResult {
    Molecule reference;
    std::vector<Molecule> fits;             // as read
    std::vector<shape::ShapeScores> scores; // per fit, input order
    std::vector<int> ranking;               // fit indices, best shape Tanimoto first
    QString error;
};

class OverlayPanel : public QWidget {
    Q_OBJECT
public:
    static QColor referenceColour() { return QColor(40, 200, 60); } // green
    static QColor fitColour() { return QColor(230, 60, 200); }      // magenta

    explicit OverlayPanel(QWidget* parent = nullptr);
    ~OverlayPanel() override;

    // Overlays every fit onto the reference on a worker thread; finished(ok) when done.
    void setMolecules(Molecule reference, std::vector<Molecule> fits);
    // Reads an SDF (or any molecule file): record 0 is the reference, the rest are fits.
    void openFile(const QString& path);
    bool busy() const { return watcher_.isRunning(); }

    QTableWidget* table() const { return table_; }
    MoleculeView* view() const { return view_; }
    const OverlayResult& result() const { return result_; }
    QString messages() const { return messages_; }
    // Shows fit `fit` (input index) aligned on the reference, with both isosurfaces.
    void showFit(int fit);
    int shownFit() const { return shown_; }
    void setSurfacesVisible(bool visible);
    int surfaceCount() const { return int(surfaces_.size()); }

signals:
    void finished(bool ok);

private:
    void onFinished();

    MoleculeView* view_;
    QTableWidget* table_;
    QLabel* status_;
    QFutureWatcher<OverlayResult> watcher_;
    OverlayResult result_;
    QString messages_;
    int shown_ = -1;
    bool surfacesVisible_ = true;
    std::vector<vtkActor*> surfaces_; // owned by the renderer
};

} // namespace pw
