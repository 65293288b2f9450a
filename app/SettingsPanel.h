// SettingsPanel: the dockable settings of refinement: scoring function, compute device, the
// search box (from the ligand plus a margin, read from a file, or typed) and the live pace.
#pragma once

#include "score/BoxConfig.h"
#include "score/ScoringFunction.h"

#include <QWidget>

#include <array>

class QComboBox;
class QLineEdit;
class QDoubleSpinBox;
class QSpinBox;

namespace pw {

class SettingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit SettingsPanel(QWidget* parent = nullptr);

    ScoringKind scoring() const;
    QString device() const;
    double ligandMargin() const;
    int livePaceMs() const;
    void setLivePaceMs(int ms);
    // Shows a box in the spin boxes (without emitting boxTyped).
    void showBox(const SearchBox& box);
    void setDevice(const QString& device);
    void setScoring(ScoringKind kind);

signals:
    void scoringChanged(pw::ScoringKind kind);
    void deviceChanged(const QString& device);
    void boxFromLigandRequested(double margin);
    void boxFromFileRequested();
    void boxTyped(const pw::SearchBox& box);
    void boxAroundResidues(const QString& residues, double margin);

private:
    QComboBox* scoring_ = nullptr;
    QComboBox* device_ = nullptr;
    QDoubleSpinBox* margin_ = nullptr;
    QLineEdit* residues_ = nullptr;
    QSpinBox* pace_ = nullptr;
    std::array<QDoubleSpinBox*, 3> center_{}, size_{};
};

} // namespace pw
