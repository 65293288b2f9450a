// SimilarityPanel: the LINGO similarity table of a hit list (a .smi file or the loaded ligands):
// heat-map matrix computed on a worker thread, input / clustered / by-hit order, a threshold that
// greys weak cells, the nearest neighbours of the chosen hit and 2D depictions of a chosen pair.
#pragma once

#include "core/Molecule.h"

#include <QFutureWatcher>
#include <QPromise>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>
#include <string>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTableView;

namespace pw {

class SimilarityMatrixModel;
class StructureDepictionView;

// What the worker hands back: hits in input order and their full similarity matrix.
struct SimilarityResult {
    QStringList names;
    std::vector<std::string> smiles; // canonical SMILES, what LINGO and the depictions use
    QStringList skipped;             // "file:line: why" for every input left out
    std::shared_ptr<const std::vector<float>> matrix; // row-major n x n
    std::vector<int> clustered;                       // clusteredOrder of the matrix
    QString error;                                    // set when nothing could be computed
    QString deviceNote; // "device: CPU (16 threads)": which backend computed the matrix
};

class SimilarityPanel : public QWidget {
    Q_OBJECT
public:
    enum Order { InputOrder = 0, ClusteredOrder = 1, ByChosenHit = 2 };

    explicit SimilarityPanel(QWidget* parent = nullptr);
    ~SimilarityPanel() override;

    // Reads SMILES [name] lines; bad lines are skipped and listed in messages().
    void openSmilesFile(const QString& path);
    // Hits given as SMILES already (e.g. the loaded ligands); `source` names them in messages.
    void setHits(const QStringList& names, const QStringList& smiles, const QString& source);
    // Molecules already loaded (the ligands): SMILES from RDKit on the worker thread; molecules
    // RDKit cannot sanitize are skipped and listed.
    void setMolecules(std::vector<Molecule> molecules, const QString& source);
    bool busy() const;
    void cancel();
    // The compute device ("auto", "cpu", "cuda:N"), asked of `source` when a computation starts,
    // which then runs on createBackend(parseDeviceRequest(device)). MainWindow passes the
    // document's setting: setDeviceSource([this] { return document_.device(); }).
    void setDeviceSource(std::function<QString()> source) { deviceSource_ = std::move(source); }
    void setDevice(const QString& request) {
        setDeviceSource([request] { return request; });
    }
    QString device() const { return deviceSource_ ? deviceSource_() : QStringLiteral("auto"); }

    SimilarityMatrixModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QDoubleSpinBox* thresholdBox() const { return threshold_; }
    QComboBox* orderBox() const { return order_; }
    QListWidget* neighbourList() const { return neighbours_; }
    StructureDepictionView* depictionA() const { return depictA_; }
    StructureDepictionView* depictionB() const { return depictB_; }
    QString messages() const { return messages_; } // counts, skipped lines, errors
    const SimilarityResult& result() const { return result_; }

    // Shows hits `a` and `b` (input indices): depictions, neighbours of `a`, current cell.
    void choosePair(int hitA, int hitB);
    int chosenHit() const { return chosenA_; }

signals:
    void finished(bool ok);

private:
    void start(std::function<SimilarityResult(QPromise<SimilarityResult>&)> job,
               const QString& what);
    void onFinished();
    void applyOrder();
    void updateNeighbours();
    void showDepiction(StructureDepictionView* view, int hit);

    SimilarityMatrixModel* model_;
    QTableView* table_;
    QDoubleSpinBox* threshold_;
    QComboBox* order_;
    QListWidget* neighbours_;
    StructureDepictionView* depictA_;
    StructureDepictionView* depictB_;
    QLabel* status_;
    QLabel* pairLabel_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QFutureWatcher<SimilarityResult> watcher_;
    SimilarityResult result_;
    QString messages_;
    std::function<QString()> deviceSource_;
    int chosenA_ = -1, chosenB_ = -1;
};

} // namespace pw
