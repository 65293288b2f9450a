// LigandEditCommand: one undo step that changes one ligand (a minimization, a drag, a torsion
// turn): the molecule and its score before and after. Successive steps of one drag merge.
#pragma once

#include "Document.h"

#include <QUndoCommand>

namespace pw {

class LigandEditCommand : public QUndoCommand {
public:
    // dragId: non-zero for the steps of one mouse drag; commands with the same id merge into one
    // undo step (Avogadro's rwmolecule merges interactive moves the same way).
    LigandEditCommand(Document& document, int index, Molecule before,
                      std::optional<VinaScore> beforeScore, Molecule after,
                      std::optional<VinaScore> afterScore, const QString& text, int dragId = 0);

    void undo() override;
    void redo() override;
    int id() const override { return dragId_ != 0 ? kDragCommandId : -1; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    static constexpr int kDragCommandId = 0x5057; // "PW"
    Document& document_;
    int index_;
    Molecule before_, after_;
    std::optional<VinaScore> beforeScore_, afterScore_;
    int dragId_;
};

} // namespace pw
