// BatchRefineCommand: one undo step for a batch refinement: every refined ligand's molecule,
// score and recorded trajectory before, and the batch's poses and scores (marked as such) after.
#pragma once

#include "Document.h"

#include <QUndoCommand>

#include <vector>

namespace pw {

class BatchRefineCommand : public QUndoCommand {
public:
    // after: the batch's results (index, prepared ligand at its minimized pose, score); device:
    // the backend that ran it. The state before is read from the document now.
    BatchRefineCommand(Document& document, std::vector<Document::LigandUpdate> after,
                       const QString& device, const QString& text);

    void undo() override;
    void redo() override;

private:
    Document& document_;
    std::vector<Document::LigandUpdate> before_, after_;
    // A batch records no steps: the old trajectories no longer lead to the pose shown, so redo
    // clears them and undo brings them back.
    std::vector<LigandTrajectory> trajectories_;
    QString device_;
};

} // namespace pw
