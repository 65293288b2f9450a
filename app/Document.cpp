#include "Document.h"

#include <QFileInfo>

namespace pw {

Document::Document(QObject* parent) : QObject(parent) {}

void Document::setReceptor(Molecule receptor, const QString& path) {
    receptor_ = std::move(receptor);
    receptorPath_ = path;
    emit receptorChanged();
}

void Document::setLigands(std::vector<Molecule> ligands, const QStringList& paths) {
    ligands_ = std::move(ligands);
    ligandPaths_ = paths;
    emit ligandsChanged();
}

void Document::clear() {
    receptor_.reset();
    receptorPath_.clear();
    ligands_.clear();
    ligandPaths_.clear();
    emit receptorChanged();
    emit ligandsChanged();
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
