#include "Document.h"

#include <QFileInfo>

namespace pw {

Document::Document(QObject* parent) : QObject(parent) {}

void Document::setReceptor(Molecule receptor, const QString& path) {
    receptor_ = std::move(receptor);
    receptorPath_ = path;
    ++receptorGeneration_;
    emit receptorChanged();
}

void Document::setLigands(std::vector<Molecule> ligands, const QStringList& paths) {
    ligands_ = std::move(ligands);
    ++ligandsGeneration_;
    scores_.assign(ligands_.size(), std::nullopt);
    trajectories_.assign(ligands_.size(), {});
    ligandPaths_ = paths;
    active_ = ligands_.empty() ? -1 : 0;
    emit ligandsChanged();
    emit activeLigandChanged(active_);
}

void Document::clear() {
    receptor_.reset();
    receptorPath_.clear();
    ++receptorGeneration_;
    ligands_.clear();
    ++ligandsGeneration_;
    scores_.clear();
    trajectories_.clear();
    ligandPaths_.clear();
    active_ = -1;
    box_.reset();
    boxSource_ = BoxSource::None;
    emit receptorChanged();
    emit ligandsChanged();
    emit activeLigandChanged(-1);
    emit boxChanged();
}

void Document::replaceLigand(int index, Molecule ligand, std::optional<VinaScore> score) {
    if (index < 0 || index >= static_cast<int>(ligands_.size()))
        return;
    ligands_[static_cast<size_t>(index)] = std::move(ligand);
    scores_[static_cast<size_t>(index)] = std::move(score);
    emit ligandChanged(index);
}

const std::optional<VinaScore>& Document::score(int index) const {
    static const std::optional<VinaScore> none;
    if (index < 0 || index >= static_cast<int>(scores_.size()))
        return none;
    return scores_[static_cast<size_t>(index)];
}

void Document::setScore(int index, std::optional<VinaScore> score) {
    if (index < 0 || index >= static_cast<int>(scores_.size()))
        return;
    scores_[static_cast<size_t>(index)] = std::move(score);
    emit ligandChanged(index);
}

void Document::replaceLigands(const std::vector<LigandUpdate>& updates) {
    bool changed = false;
    for (const LigandUpdate& u : updates) {
        if (u.index < 0 || u.index >= static_cast<int>(ligands_.size()))
            continue;
        ligands_[static_cast<size_t>(u.index)] = u.ligand;
        scores_[static_cast<size_t>(u.index)] = u.score;
        changed = true;
    }
    if (changed)
        emit ligandsUpdated();
}

void Document::clearScores() {
    scores_.assign(ligands_.size(), std::nullopt);
    emit ligandsUpdated();
}

const LigandTrajectory& Document::trajectory(int index) const {
    static const LigandTrajectory none;
    if (index < 0 || index >= static_cast<int>(trajectories_.size()))
        return none;
    return trajectories_[static_cast<size_t>(index)];
}

void Document::setTrajectory(int index, LigandTrajectory trajectory) {
    if (index < 0 || index >= static_cast<int>(trajectories_.size()))
        return;
    trajectories_[static_cast<size_t>(index)] = std::move(trajectory);
    emit trajectoryChanged(index);
}

int Document::activeLigand() const {
    return active_;
}

void Document::setActiveLigand(int index) {
    if (index < -1 || index >= static_cast<int>(ligands_.size()) || index == active_)
        return;
    active_ = index;
    emit activeLigandChanged(index);
}

void Document::setBox(std::optional<SearchBox> box, BoxSource source) {
    box_ = box;
    boxSource_ = box ? source : BoxSource::None;
    emit boxChanged();
}

void Document::setScoring(ScoringKind kind) {
    if (kind == scoring_)
        return;
    scoring_ = kind;
    emit scoringChanged();
}

void Document::setReceptorPH(double pH) {
    if (pH == receptorPH_)
        return;
    receptorPH_ = pH;
    ++receptorGeneration_; // grids and maps built on the old protonation are stale
    emit receptorPHChanged();
}

void Document::setDevice(const QString& device) {
    if (device == device_)
        return;
    device_ = device;
    emit deviceChanged();
}

QString Document::summary() const {
    QStringList parts;
    if (receptor_) {
        parts << tr("Receptor %1: %2 atoms")
                     .arg(QFileInfo(receptorPath_).fileName())
                     .arg(receptor_->atoms.size());
    } else {
        parts << tr("No receptor");
    }
    const qsizetype n = static_cast<qsizetype>(ligands_.size());
    parts << (n == 1 ? tr("1 ligand") : tr("%1 ligands").arg(n));
    // e.g. "Receptor receptor.pdbqt: 1116 atoms · 1 ligand"
    return parts.join(QStringLiteral(" · "));
}

} // namespace pw
