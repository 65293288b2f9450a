#include "LigandListCommand.h"

namespace pw {

LigandListCommand::State LigandListCommand::stateOf(const Document& document) {
    State s;
    s.ligands = document.ligands();
    s.paths = document.ligandPaths();
    for (int i = 0; i < static_cast<int>(s.ligands.size()); ++i) {
        s.scores.push_back(document.score(i));
        s.trajectories.push_back(document.trajectory(i));
    }
    s.active = document.activeLigand();
    return s;
}

LigandListCommand::LigandListCommand(Document& document, State before, State after,
                                     const QString& text)
    : QUndoCommand(text), document_(document), before_(std::move(before)),
      after_(std::move(after)) {}

void LigandListCommand::undo() {
    apply(before_);
}

void LigandListCommand::redo() {
    apply(after_);
}

void LigandListCommand::apply(const State& s) {
    // setLigands forgets scores and trajectories: they are put back one by one, unchanged ones
    // skipped (an empty trajectory is what setLigands left).
    document_.setLigands(s.ligands, s.paths);
    for (int i = 0; i < static_cast<int>(s.ligands.size()); ++i) {
        const auto k = static_cast<size_t>(i);
        if (k < s.scores.size() && s.scores[k])
            document_.setScore(i, s.scores[k]);
        if (k < s.trajectories.size() &&
            (!s.trajectories[k].points.empty() || !s.trajectories[k].batchDevice.isEmpty()))
            document_.setTrajectory(i, s.trajectories[k]);
    }
    document_.setActiveLigand(s.active);
}

} // namespace pw
