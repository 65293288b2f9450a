#include "BatchRefineCommand.h"

namespace pw {

BatchRefineCommand::BatchRefineCommand(Document& document,
                                       std::vector<Document::LigandUpdate> after,
                                       const QString& device, const QString& text)
    : document_(document), after_(std::move(after)), device_(device) {
    setText(text);
    for (const Document::LigandUpdate& u : after_) {
        before_.push_back(
            {u.index, document_.ligands()[static_cast<size_t>(u.index)], document_.score(u.index)});
        trajectories_.push_back(document_.trajectory(u.index));
    }
}

void BatchRefineCommand::undo() {
    document_.replaceLigands(before_);
    for (size_t k = 0; k < before_.size(); ++k)
        document_.setTrajectory(before_[k].index, trajectories_[k]);
}

void BatchRefineCommand::redo() {
    for (const Document::LigandUpdate& u : after_)
        document_.setTrajectory(u.index, LigandTrajectory{{}, {}, device_});
    document_.replaceLigands(after_);
}

} // namespace pw
