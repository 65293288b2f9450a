// DockPanel: the docking dock's widgets: the search box (shared with minimization), the settings
// (scoring, runs, seed, budget, device), Run/Cancel with the maps' state, the live plot of best
// and mean energy per generation, and the cluster table with Refine, Export and Add to ligands.
// It only shows and asks; DockPart runs the jobs.
#pragma once

#include "DockResults.h"
#include "DockSettings.h"
#include "score/BoxConfig.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QToolButton;

namespace pw {

class BoxEditor;
class EnergyPlot;

class DockPanel : public QWidget {
    Q_OBJECT
public:
    explicit DockPanel(QWidget* parent = nullptr);

    DockSettings settings() const;
    void setSettings(const DockSettings& s);

    // Running: Run is off and Cancel on (and the settings are locked).
    void setRunning(bool running);
    void setMapsText(const QString& text);
    void setProgressText(const QString& text);

    // The outcome's clusters in the table (rank, energy, size, RMSD to the loaded ligand);
    // selects the first row when there is one.
    void showOutcome(const DockOutcome& outcome);
    // The selected cluster's row, -1 when none.
    int selectedRow() const;
    void selectRow(int row);

    // The search box's fields fold to a one-line summary (the box is also in the Settings dock).
    void setBoxExpanded(bool expanded);
    bool boxExpanded() const;
    void setBoxSummary(const std::optional<SearchBox>& box);
    // The flexible side chains the user chose ("A:THR315"; empty: none): the Flexible box's text.
    void setFlexChoice(const QString& choice);

    BoxEditor* boxEditor() const { return box_; }
    EnergyPlot* plot() const { return plot_; }
    QTableWidget* clusterTable() const { return table_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QLabel* mapsLabel() const { return maps_; }

signals:
    void scoringChanged();
    void runRequested();
    void cancelRequested();
    void clusterSelected(int row); // -1: none
    void refineRequested(int row);
    void exportRequested();
    void addToLigandsRequested();

private:
    void updateResultButtons();

    QToolButton* boxToggle_ = nullptr;
    QGroupBox* boxGroup_ = nullptr;
    BoxEditor* box_ = nullptr;
    QComboBox* scoring_ = nullptr;
    QSpinBox* runs_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QComboBox* budget_ = nullptr;
    QComboBox* device_ = nullptr;
    QCheckBox* flexible_ = nullptr;
    QString flexChoice_;
    QLabel* maps_ = nullptr;
    QLabel* progress_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    EnergyPlot* plot_ = nullptr;
    QTableWidget* table_ = nullptr;
    QPushButton* refine_ = nullptr;
    QPushButton* export_ = nullptr;
    QPushButton* add_ = nullptr;
    bool running_ = false;
};

} // namespace pw
