// posewright: the desktop application's entry point.
//   posewright [FILES...] [--box CONFIG] [--dock] [--minimize] [--screenshot OUT.png] [--quit]
#include "MainWindow.h"
#include "MoleculeView.h"
#include "SessionAutosave.h"
#include "SettingsPanel.h"
#include "StartupFiles.h"
#include "ViewEnvironment.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDateTime>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPixmap>
#include <QSaveFile>
#include <QTimer>

#include <cstdio>
#include <functional>

namespace {

constexpr int kUnattendedLimitMs = 300000; // 5 minutes: a very large receptor on a slow disk
constexpr int kAutosaveIntervalMs = 60000;

// Writes the window's image to path through a temporary file, so that a failed write never
// leaves a truncated PNG behind.
bool writeScreenshot(QWidget& window, const QString& path) {
    const QPixmap pixmap = window.grab();
    QSaveFile file(path);
    if (pixmap.isNull() || !file.open(QIODevice::WriteOnly) || !pixmap.save(&file, "PNG") ||
        !file.commit()) {
        std::fprintf(stderr, "%s: cannot write the screenshot (%s)\n", qPrintable(path),
                     qPrintable(file.errorString()));
        return false;
    }
    return true;
}

// Asks whether to reopen the session a run that did not exit cleanly autosaved.
bool offerRestore(QWidget& window, const QString& path) {
    const QDateTime when = QFileInfo(path).lastModified();
    return QMessageBox::question(
               &window, QObject::tr("Restore session"),
               QObject::tr("Posewright did not exit cleanly last time. Restore the session it "
                           "saved automatically at %1?")
                   .arg(QLocale().toString(when, QLocale::ShortFormat)),
               QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes) == QMessageBox::Yes;
}

} // namespace

int main(int argc, char** argv) {
    pw::prepareQtForVtk();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Posewright"));
    QApplication::setApplicationVersion(QStringLiteral(POSEWRIGHT_VERSION));
    QApplication::setOrganizationName(QStringLiteral("Posewright"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/posewright.png")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Pose refinement, docking, shape overlay, similarity and hit tables for hit triage.\n"
        "The receptor is the first .pdb/.pdbqt file named receptor* or holding more than 300 "
        "atoms; every other file is read as ligands. Without files, the bundled example "
        "(streptavidin with biotin, PDB 1STP) opens."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"),
                                 QStringLiteral("Receptor and ligand files."),
                                 QStringLiteral("[FILES...]"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Write a PNG of the main window once the files are shown."),
        QStringLiteral("OUT.png"));
    const QCommandLineOption quitOption(
        QStringLiteral("quit"),
        QStringLiteral("Exit once the files are loaded (and the screenshot written); the exit "
                       "status is 1 when a file could not be read."));
    const QCommandLineOption boxOption(
        QStringLiteral("box"),
        QStringLiteral("Vina config with the search box (center_x ... size_z); default: box.txt "
                       "next to the receptor, else around the ligand plus 4 Å."),
        QStringLiteral("CONFIG"));
    const QCommandLineOption minimizeOption(
        QStringLiteral("minimize"),
        QStringLiteral("Minimize the first ligand in the receptor once the files are loaded."));
    const QCommandLineOption dockOption(
        QStringLiteral("dock"),
        QStringLiteral("Dock the first ligand into the box once the files are loaded, with the "
                       "Docking panel's settings (quick budget, 10 runs, seed 0), and draw the "
                       "best pose (before --minimize, which then refines it)."));
    parser.addOption(boxOption);
    parser.addOption(dockOption);
    parser.addOption(minimizeOption);
    parser.addOption(screenshotOption);
    parser.addOption(quitOption);
    parser.process(app);

    const QStringList positional = parser.positionalArguments();
    const pw::StartupFiles files =
        positional.isEmpty() ? pw::bundledExampleFiles() : pw::classifyStartupFiles(positional);
    if (positional.isEmpty() && files.receptor.isEmpty())
        std::fprintf(stderr, "posewright: the bundled example was not found; starting empty\n");

    const QString screenshot = parser.value(screenshotOption);
    const bool quit = parser.isSet(quitOption);
    const bool minimize = parser.isSet(minimizeOption);
    const bool dock = parser.isSet(dockOption);
    const QString box = parser.value(boxOption);

    pw::MainWindow window;
    // Unattended runs report errors on stderr and in the exit status, not in a dialog.
    window.setErrorDialogsEnabled(!quit);
    if (quit)
        window.settingsPanel()->setLivePaceMs(0); // nobody watches: full speed
    bool failed = false;
    QObject::connect(&window, &pw::MainWindow::errorOccurred, [&failed](const QString& message) {
        std::fprintf(stderr, "%s\n", qPrintable(message));
        failed = true;
    });
    window.show();

    // Autosave every minute; a run that ended without finish() (crash, kill) left its file,
    // and an interactive start without files offers it back (a start with files, or an
    // unattended one, leaves it for the next interactive start).
    pw::SessionAutosave autosave(window.document(), pw::SessionAutosave::defaultDirectory(),
                                 kAutosaveIntervalMs);
    const QString crashed = quit || !positional.isEmpty() ? QString() : autosave.recoverable();
    if (!crashed.isEmpty() && offerRestore(window, crashed)) {
        QObject::connect(
            &window, &pw::MainWindow::sessionOpened, &autosave,
            [&autosave] { autosave.discardRecoverable(); }, Qt::SingleShotConnection);
        window.openSession(crashed);
        const int status = QApplication::exec();
        autosave.finish();
        return status;
    }
    if (!crashed.isEmpty())
        autosave.discardRecoverable(); // offered and declined

    int loads = 0;
    if (!files.receptor.isEmpty()) {
        window.openReceptor(files.receptor);
        ++loads;
    }
    if (!files.ligands.isEmpty()) {
        window.openLigands(files.ligands);
        ++loads;
    }

    if (quit) {
        // An unattended run must end even if the window is never painted (e.g. no display
        // compositing it): give up after kUnattendedLimitMs.
        QTimer::singleShot(kUnattendedLimitMs, &window, [] {
            std::fprintf(stderr, "posewright: gave up waiting for the files to load and show\n");
            QApplication::exit(2);
        });
    }
    // Function scope: the connections below refer to these lambdas until exec() returns.
    // When everything asked for has landed, let the view paint once, then shoot and/or quit.
    auto shoot = [&] {
        pw::MoleculeView* view = window.moleculeView();
        auto finish = [&] {
            bool ok = !failed;
            if (!screenshot.isEmpty() && !writeScreenshot(window, screenshot))
                ok = false;
            if (quit)
                QApplication::exit(ok ? 0 : 1);
        };
        // Queued: grabbing the window from inside the view's paint would recurse.
        QObject::connect(view, &pw::MoleculeView::frameRendered, &window, finish,
                         Qt::ConnectionType(Qt::QueuedConnection | Qt::SingleShotConnection));
        view->update();
    };
    // After the loads: the box, then (optionally) a docking and a minimization, then the picture.
    // Each is a workflow part's step: a build without that part says so.
    auto runScriptedStep = [&](const char* option, const QString& step, const char* what,
                               std::function<void()> next) {
        const bool started = window.runStep(step, [&failed, next](bool ok) {
            failed = failed || !ok;
            next();
        });
        if (!started) {
            std::fprintf(stderr, "posewright: %s: this build has no %s\n", option, what);
            QApplication::exit(2);
        }
    };
    auto minimizeThenShoot = [&] {
        if (!minimize || failed) {
            shoot();
            return;
        }
        runScriptedStep("--minimize", QStringLiteral("minimize"), "minimization", shoot);
    };
    auto done = [&] {
        if (!box.isEmpty() && !window.openBoxConfig(box)) {
            if (quit)
                QApplication::exit(1);
            return;
        }
        if (!dock || failed) {
            minimizeThenShoot();
            return;
        }
        runScriptedStep("--dock", QStringLiteral("dock"), "docking", minimizeThenShoot);
    };
    if (!screenshot.isEmpty() || quit || minimize || dock || !box.isEmpty()) {
        if (loads == 0) {
            QTimer::singleShot(0, &window, done);
        } else {
            QObject::connect(&window, &pw::MainWindow::loadFinished, &window, [&](bool) {
                if (window.pendingLoads() == 0)
                    done();
            });
        }
    }
    const int status = QApplication::exec();
    autosave.finish(); // a clean exit: nothing to restore next time
    return status;
}
