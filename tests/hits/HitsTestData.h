// HitsTestData: small SDF texts and stores for the hit store suites.
#pragma once

#include <QFile>
#include <QString>

#include <string>
#include <vector>

namespace pw::test {

// Ethanol with explicit bond orders and the given SD tags, as one SDF record.
inline std::string ethanolRecord(const std::string& name, const std::string& tags) {
    return name +
           "\n  test\n\n"
           "  3  2  0  0  0  0  0  0  0  0999 V2000\n"
           "    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n"
           "    1.5000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n"
           "    2.0000    1.3000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0\n"
           "  1  2  1  0\n"
           "  2  3  1  0\n"
           "M  END\n" +
           tags + "$$$$\n";
}

inline std::string tag(const std::string& key, const std::string& value) {
    return "> <" + key + ">\n" + value + "\n\n";
}

inline void writeText(const QString& path, const std::string& text) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(text.data(), static_cast<qint64>(text.size()));
}

inline QByteArray readBytes(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

// The first column (the SMILES) of a .smi file's non-empty lines; a missing file stops the suite.
inline std::vector<std::string> readSmilesColumn(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    std::vector<std::string> out;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine().trimmed();
        if (!line.isEmpty())
            out.push_back(line.split('\t').front().split(' ').front().toStdString());
    }
    return out;
}

} // namespace pw::test
