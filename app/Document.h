// Document: what the user has open (one receptor, a list of ligands, where they came from).
// Views listen to its signals; loading happens elsewhere (MoleculeLoader) and lands here whole.
#pragma once

#include "core/Molecule.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace pw {

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);

    bool hasReceptor() const { return receptor_.has_value(); }
    // Only valid when hasReceptor().
    const Molecule& receptor() const { return *receptor_; }
    const QString& receptorPath() const { return receptorPath_; }
    const std::vector<Molecule>& ligands() const { return ligands_; }
    const QStringList& ligandPaths() const { return ligandPaths_; }

    // Replace the receptor / the ligand list in one step: the document is never half-loaded.
    void setReceptor(Molecule receptor, const QString& path);
    void setLigands(std::vector<Molecule> ligands, const QStringList& paths);
    void clear();

    // One line for the status bar: "Receptor receptor.pdbqt: 1116 atoms · 1 ligand".
    QString summary() const;

signals:
    void receptorChanged();
    void ligandsChanged();

private:
    std::optional<Molecule> receptor_;
    QString receptorPath_;
    std::vector<Molecule> ligands_;
    QStringList ligandPaths_;
};

} // namespace pw
