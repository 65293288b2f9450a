// GuiTestSetup: what every GUI suite needs before QTEST_MAIN creates the QApplication (the surface
// format and platform VTK needs, QSettings in test mode), and the coordinate helper they share.
#pragma once

#include "ViewEnvironment.h"
#include "core/Molecule.h"

#include <QStandardPaths>

#include <vector>

// Runs before main(): the surface format and platform must be set before the QApplication exists.
static void prepareGraphics() {
    pw::prepareQtForVtk();
    // Recent files and settings go to QSettings: keep the user's own out of the tests.
    QStandardPaths::setTestModeEnabled(true);
}
Q_CONSTRUCTOR_FUNCTION(prepareGraphics)

inline std::vector<pw::Vec3> coordinatesOf(const pw::Molecule& m) {
    std::vector<pw::Vec3> out;
    for (const pw::Atom& a : m.atoms)
        out.push_back(a.position);
    return out;
}
