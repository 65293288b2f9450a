// LigandListCommand: one undo step that changes the ligand list as a whole (Add to ligands of the
// docking panel): the list before and after, with every ligand's score and recorded minimization,
// its source files and the active ligand, so that undo gives back exactly what was there.
#pragma once

#include "Document.h"

#include <QUndoCommand>

#include <vector>

namespace pw {

class LigandListCommand : public QUndoCommand {
public:
    // What the document's ligand list is at one moment.
    struct State {
        std::vector<Molecule> ligands;
        QStringList paths;
        std::vector<std::optional<VinaScore>> scores;
        std::vector<LigandTrajectory> trajectories;
        int active = -1;
    };
    static State stateOf(const Document& document);

    // The document is in `before` now; the first redo (at push) puts `after` in place.
    LigandListCommand(Document& document, State before, State after, const QString& text);

    void undo() override;
    void redo() override;

private:
    void apply(const State& s);

    Document& document_;
    State before_, after_;
};

} // namespace pw
