#include "LigandEditCommand.h"

namespace pw {

LigandEditCommand::LigandEditCommand(Document& document, int index, Molecule before,
                                     std::optional<VinaScore> beforeScore, Molecule after,
                                     std::optional<VinaScore> afterScore, const QString& text,
                                     int dragId)
    : document_(document), index_(index), before_(std::move(before)), after_(std::move(after)),
      beforeScore_(std::move(beforeScore)), afterScore_(std::move(afterScore)), dragId_(dragId) {
    setText(text);
}

void LigandEditCommand::undo() {
    document_.replaceLigand(index_, before_, beforeScore_);
}

void LigandEditCommand::redo() {
    document_.replaceLigand(index_, after_, afterScore_);
}

bool LigandEditCommand::mergeWith(const QUndoCommand* other) {
    const auto* o = dynamic_cast<const LigandEditCommand*>(other);
    if (!o || o->dragId_ != dragId_ || o->index_ != index_ || dragId_ == 0)
        return false;
    // The merged step goes from this command's start to the other's end.
    after_ = o->after_;
    afterScore_ = o->afterScore_;
    return true;
}

} // namespace pw
