#include "StartupFiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace pw {
namespace {

bool isPdbLike(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("pdb") || suffix == QLatin1String("pdbqt") ||
           suffix == QLatin1String("ent");
}

} // namespace

int countPdbAtoms(const QString& path, int limit) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return 0; // the loader reports unreadable files properly
    int atoms = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine(256);
        if (line.startsWith("ATOM  ") || line.startsWith("HETATM")) {
            if (++atoms > limit)
                break;
        }
    }
    return atoms;
}

StartupFiles classifyStartupFiles(const QStringList& files) {
    StartupFiles out;
    for (const QString& f : files) {
        if (out.receptor.isEmpty() && isPdbLike(f) &&
            (QFileInfo(f).fileName().startsWith(QLatin1String("receptor"), Qt::CaseInsensitive) ||
             countPdbAtoms(f, kReceptorMinAtoms) > kReceptorMinAtoms)) {
            out.receptor = f;
            continue;
        }
        out.ligands << f;
    }
    return out;
}

QString bundledExampleDir() {
    QStringList candidates;
    if (QCoreApplication::instance())
        candidates << QCoreApplication::applicationDirPath() +
                          QStringLiteral("/../share/posewright/examples/1stp");
#ifdef POSEWRIGHT_SOURCE_EXAMPLES
    candidates << QStringLiteral(POSEWRIGHT_SOURCE_EXAMPLES "/1stp");
#endif
    for (const QString& c : candidates) {
        if (QFileInfo::exists(c + QStringLiteral("/receptor.pdbqt")))
            return QDir(c).canonicalPath();
    }
    return {};
}

StartupFiles bundledExampleFiles() {
    const QString dir = bundledExampleDir();
    if (dir.isEmpty())
        return {};
    return {dir + QStringLiteral("/receptor.pdbqt"), {dir + QStringLiteral("/ligand.pdbqt")}};
}

} // namespace pw
