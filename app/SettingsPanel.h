// SettingsPanel: the dockable settings of refinement: scoring function, compute device, the
// search box (from the ligand plus a margin, read from a file, or typed) and the live pace.
#pragma once

#include "score/BoxConfig.h"
#include "score/ScoringFunction.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace pw {

class BoxEditor;

class SettingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit SettingsPanel(QWidget* parent = nullptr);

    ScoringKind scoring() const;
    QString device() const;
    double ligandMargin() const;
    int livePaceMs() const;
    void setLivePaceMs(int ms);
    // Shows a box in the box editor's fields (without emitting boxTyped).
    void showBox(const SearchBox& box);
    // The search box's fields and buttons; their signals are this panel's box signals.
    BoxEditor* boxEditor() const { return box_; }
    void setDevice(const QString& device);
    void setScoring(ScoringKind kind);
    // The pH at which a receptor without polar hydrogens is protonated (Document::receptorPH).
    double receptorPH() const;
    void setReceptorPH(double pH);

signals:
    void scoringChanged(pw::ScoringKind kind);
    void deviceChanged(const QString& device);
    void receptorPHChanged(double pH);
    void boxFromLigandRequested(double margin);
    void boxFromFileRequested();
    void boxTyped(const pw::SearchBox& box);
    void boxAroundResidues(const QString& residues, double margin);

private:
    QComboBox* scoring_ = nullptr;
    QComboBox* device_ = nullptr;
    QSpinBox* pace_ = nullptr;
    QDoubleSpinBox* receptorPH_ = nullptr;
    BoxEditor* box_ = nullptr;
};

} // namespace pw
