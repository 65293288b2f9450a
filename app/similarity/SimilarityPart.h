// SimilarityPart: the LINGO similarity workflow: File > Open hit list (SMILES) opens a .smi file
// into the similarity dock (a bottom dock, hidden until first used); so does "Similarity of the
// loaded ligands" for the document's ligands.
#pragma once

#include "parts/WorkflowPart.h"

#include <QString>

class QDockWidget;

namespace pw {

class SimilarityPanel;

class SimilarityPart : public WorkflowPart {
    Q_OBJECT
public:
    QString name() const override { return QStringLiteral("similarity"); }
    void install(PartContext& context) override;
    // What the table showed (a hit list file or the loaded ligands), shown again with the session.
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject& state) override;

    SimilarityPanel* panel() const { return panel_; }
    QDockWidget* dock() const { return dock_; }
    void openHitList(const QString& path);
    void showLigandSimilarity();

private:
    PartContext* context_ = nullptr;
    SimilarityPanel* panel_ = nullptr;
    QDockWidget* dock_ = nullptr;
    QString hitList_;      // the SMILES file shown, empty when none
    bool ligands_ = false; // the loaded ligands are shown
};

} // namespace pw
