// TestInputs: the real test inputs read without RDKit (backend tests link only posewright_core):
// atoms of a V2000 SDF for shape models, and the SMILES column of a .smi file for LINGO.
#pragma once

#include "core/Element.h"
#include "core/Molecule.h"

#include <QFile>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace pw::test {

// Name, elements and coordinates of every V2000 record (bonds are not needed for shape).
inline std::vector<Molecule> readSdfAtoms(const QString& path) {
    std::vector<Molecule> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
    for (qsizetype i = 0; i + 3 < lines.size();) {
        Molecule m;
        m.name = lines[i].trimmed().toStdString();
        m.sourceFile = path.toStdString();
        m.sourceRecord = long(out.size()) + 1;
        const int atoms = lines[i + 3].left(3).trimmed().toInt();
        for (int a = 0; a < atoms && i + 4 + a < lines.size(); ++a) {
            const QString& l = lines[i + 4 + a];
            Atom at;
            at.position =
                Vec3(l.mid(0, 10).toDouble(), l.mid(10, 10).toDouble(), l.mid(20, 10).toDouble());
            at.element = elementFromSymbol(l.mid(31, 3).trimmed().toStdString());
            m.atoms.push_back(at);
        }
        out.push_back(std::move(m));
        while (i < lines.size() && !lines[i].startsWith("$$$$"))
            ++i;
        ++i;
    }
    return out;
}

// The first whitespace-separated field of every non-empty line.
inline std::vector<std::string> readSmilesColumn(const QString& path) {
    std::vector<std::string> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QString& line : QString::fromUtf8(f.readAll()).split('\n')) {
        const QStringList fields = line.split(QRegularExpression("\\s+"), Qt::SkipEmptyParts);
        if (!fields.isEmpty())
            out.push_back(fields.front().toStdString());
    }
    return out;
}

} // namespace pw::test
