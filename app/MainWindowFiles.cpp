// MainWindow's file side: loading receptors and ligands on workers, box configs, sessions,
// SDF and PNG export, recent files and drag and drop.
#include "MainWindow.h"

#include "JobRunner.h"
#include "MoleculeView.h"
#include "SessionFile.h"
#include "SettingsPanel.h"
#include "StartupFiles.h"
#include "chem/MoleculeWriter.h"
#include "core/InputError.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QListWidget>
#include <QMenu>
#include <QMimeData>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

namespace pw {
namespace {

constexpr int kMaxRecentFiles = 8;
const char* const kRecentKey = "recentFiles";

} // namespace

void MainWindow::openReceptor(const QString& path) {
    startLoad({path}, LoadKind::Receptor);
}

void MainWindow::openLigands(const QStringList& paths) {
    startLoad(paths, LoadKind::Ligands);
}

bool MainWindow::openBoxConfig(const QString& path) {
    try {
        const VinaConfig config = readVinaConfig(path.toStdString());
        // The file's scoring function counts as in Vina. Its weights and other Vina options are
        // not used here (the app scores with the standard weights): say so, never drop them.
        std::vector<std::string> notes = config.warnings;
        for (int t = 0; t < kScoreTermCount; ++t)
            for (const auto* lines : {&config.vinaWeightLines, &config.vinardoWeightLines})
                if ((*lines)[t] > 0)
                    notes.push_back(InputError::format(
                        config.sourceName, (*lines)[t],
                        "warning: the app scores with the standard weights; this weight is "
                        "used by posewright-cli score/minimize --box"));
        for (const std::string& note : notes)
            qWarning("%s", note.c_str());
        if (!notes.empty())
            statusBar()->showMessage(QString::fromStdString(notes.front()), 15000);
        if (config.scoring && *config.scoring != document_.scoring()) {
            document_.setScoring(*config.scoring);
            settings_->setScoring(*config.scoring);
        }
        document_.setBox(config.box, BoxSource::File);
        return true;
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
}

void MainWindow::startLoad(const QStringList& paths, LoadKind kind) {
    const int generation =
        kind == LoadKind::Receptor ? ++receptorGeneration_ : ++ligandsGeneration_;
    ++pending_;
    if (kind == LoadKind::Ligands)
        ++ligandLoadsPending_;
    statusBar()->showMessage(tr("Reading %1...").arg(QFileInfo(paths.value(0)).fileName()));
    auto* watcher = new QFutureWatcher<LoadResult>(this);
    connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher, generation] {
        LoadResult result = watcher->result();
        watcher->deleteLater();
        finishLoad(std::move(result), generation);
    });
    watcher->setFuture(loadMoleculesAsync(paths, kind));
}

void MainWindow::finishLoad(LoadResult result, int generation) {
    --pending_;
    const bool receptor = result.kind == LoadKind::Receptor;
    if (!receptor && --ligandLoadsPending_ == 0 && !result.ok())
        updateReceptorDrawing(); // no ligands coming: show the whole receptor now
    const int current = receptor ? receptorGeneration_ : ligandsGeneration_;
    if (generation != current) {
        emit loadFinished(result.ok()); // superseded by a newer request: drop it
        return;
    }
    if (!result.ok()) {
        statusBar()->clearMessage();
        showError(result.error);
        emit loadFinished(false);
        return;
    }
    const QString first = result.paths.value(0);
    lastDirectory_ = QFileInfo(first).absolutePath();
    for (const QString& p : result.paths)
        addRecentFile(p);
    std::vector<Molecule>& molecules = result.molecules;
    jobs_->cancelLigandJobs(); // their molecules are about to go
    if (receptor) {
        document_.setReceptor(std::move(molecules.front()), first);
        // A Vina config next to the receptor (box.txt, as the examples ship) is its pocket.
        const QString config = QFileInfo(first).absolutePath() + QStringLiteral("/box.txt");
        if (document_.boxSource() != BoxSource::Typed && QFileInfo::exists(config))
            openBoxConfig(config);
    } else {
        undo_->clear(); // the commands refer to the old ligands
        document_.setLigands(std::move(molecules), result.paths);
        if (!document_.box())
            setBoxAroundLigand(settings_->ligandMargin());
    }
    QString message = tr("Read %1").arg(QFileInfo(first).fileName());
    if (!result.warnings.isEmpty())
        message += tr(" (%n record(s) skipped)", nullptr, result.warnings.size());
    statusBar()->showMessage(message, 5000);
    emit loadFinished(true);
}

void MainWindow::chooseReceptor() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open receptor"), lastDirectory_,
                                     tr("Receptors (*.pdbqt *.pdb *.ent);;All files (*)"));
    if (!path.isEmpty())
        openReceptor(path);
}

void MainWindow::chooseLigands() {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open ligands"), lastDirectory_,
        tr("Molecules (*.sdf *.sd *.mol *.mol2 *.pdbqt *.pdb *.smi *.smiles);;All files (*)"));
    if (!paths.isEmpty())
        openLigands(paths);
}

void MainWindow::chooseBoxConfig() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Vina box config"), lastDirectory_, tr("Config (*.txt *.conf);;All (*)"));
    if (!path.isEmpty())
        openBoxConfig(path);
}

void MainWindow::chooseSession() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), lastDirectory_,
                                                      tr("Sessions (*.pwsession *.json)"));
    if (!path.isEmpty())
        openSession(path);
}

void MainWindow::chooseSaveSession() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save session"), lastDirectory_,
                                                      tr("Sessions (*.pwsession *.json)"));
    if (!path.isEmpty())
        saveSession(path);
}

void MainWindow::chooseExportPoses() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export poses"), lastDirectory_, tr("SDF (*.sdf)"));
    if (!path.isEmpty())
        exportPoses(path);
}

void MainWindow::chooseExportImage() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export view"), lastDirectory_,
                                                      tr("PNG image (*.png)"));
    if (!path.isEmpty())
        exportImage(path);
}

bool MainWindow::saveSession(const QString& path) {
    try {
        Session session = sessionOf(document_);
        session.parts = partStates(QFileInfo(path).absoluteDir());
        writeSession(path, session);
        undo_->setClean();
        statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 5000);
        return true;
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
}

void MainWindow::openSession(const QString& path) {
    cancelJob();
    const int generation = ++sessionGeneration_;
    ++pending_;
    sessionJob_ =
        jobs_->begin(tr("Opening session %1...").arg(QFileInfo(path).fileName()), false,
                     JobRunner::Kind::Background, [this] {
                         // The files are read to their end; the session is not applied.
                         ++sessionGeneration_;
                         jobs_->end(std::exchange(sessionJob_, 0));
                         statusBar()->showMessage(tr("Opening the session cancelled"), 5000);
                     });
    auto* watcher = new QFutureWatcher<RestoredSession>(this);
    connect(watcher, &QFutureWatcher<RestoredSession>::finished, this, [this, watcher, generation] {
        RestoredSession r = watcher->result();
        watcher->deleteLater();
        --pending_;
        if (generation != sessionGeneration_) {
            emit sessionOpened(false); // cancelled or superseded: the document stays as it is
            return;
        }
        jobs_->end(std::exchange(sessionJob_, 0));
        if (!r.error.isEmpty()) {
            showError(r.error);
            emit sessionOpened(false);
            return;
        }
        const Session& s = r.session;
        undo_->clear();
        {
            // One target build for the whole session, not one per changed setting.
            const QSignalBlocker block(&document_);
            const QSignalBlocker blockPanel(settings_);
            document_.setScoring(s.scoring);
            document_.setReceptorPH(s.receptorPH);
            document_.setDevice(s.device);
            settings_->setScoring(s.scoring);
            settings_->setReceptorPH(s.receptorPH);
            settings_->setDevice(s.device);
            document_.setBox(s.box, s.boxSource);
        }
        if (r.receptor)
            document_.setReceptor(std::move(*r.receptor), s.receptorPath);
        document_.setLigands(std::move(r.ligands), s.ligandPaths);
        for (int i = 0; i < static_cast<int>(s.ligands.size()); ++i) {
            document_.setScore(i, s.ligands[static_cast<size_t>(i)].score);
            document_.setTrajectory(i, std::move(r.trajectories[static_cast<size_t>(i)]));
        }
        if (const int row = rowOfLigand(s.active); row >= 0) {
            ligandList_->clearSelection();
            ligandList_->item(row)->setSelected(true);
        }
        onBoxChanged();
        updateDeviceLabel();
        restorePartStates(s.parts, QFileInfo(r.path).absoluteDir());
        emit sessionOpened(true);
    });
    watcher->setFuture(QtConcurrent::run([path] { return restoreSession(path); }));
}

bool MainWindow::exportPoses(const QString& path) {
    std::vector<Molecule> out = document_.ligands();
    for (int i = 0; i < static_cast<int>(out.size()); ++i) {
        Molecule& m = out[static_cast<size_t>(i)];
        if (const auto& s = document_.score(i)) {
            // smina's tag for the minimized affinity, plus the split Vina prints.
            m.setProperty("minimizedAffinity", QString::number(s->affinity, 'f', 5).toStdString());
            m.setProperty("vina_inter", QString::number(s->inter, 'f', 5).toStdString());
            m.setProperty("vina_intra", QString::number(s->intra, 'f', 5).toStdString());
            m.setProperty("vina_torsional", QString::number(s->torsional, 'f', 5).toStdString());
            for (int t = 0; t < kScoreTermCount; ++t)
                m.setProperty("vina_" + std::string(scoreTermName(t)),
                              QString::number(s->terms.interWeighted[t], 'f', 5).toStdString());
        }
        m.setProperty("scoring", std::string(scoringKindName(document_.scoring())));
    }
    try {
        writeMolecules(path.toStdString(), out);
        statusBar()->showMessage(tr("Wrote %n pose(s)", nullptr, static_cast<int>(out.size())),
                                 5000);
        return true;
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
}

bool MainWindow::exportImage(const QString& path) {
    const QImage image = view_->grabImage();
    QSaveFile file(path);
    if (image.isNull() || !file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") ||
        !file.commit()) {
        showError(QString::fromStdString(InputError::format(
            path.toStdString(), 0, "cannot write the PNG: " + file.errorString().toStdString())));
        return false;
    }
    return true;
}

void MainWindow::addRecentFile(const QString& path) {
    QSettings settings;
    QStringList files = settings.value(QString::fromLatin1(kRecentKey)).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(QString::fromLatin1(kRecentKey), files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const QStringList files = QSettings().value(QString::fromLatin1(kRecentKey)).toStringList();
    for (const QString& f : files) {
        QAction* a = recentMenu_->addAction(QFileInfo(f).fileName());
        a->setToolTip(f);
        connect(a, &QAction::triggered, this, [this, f] { openAny({f}); });
    }
    recentMenu_->setEnabled(!files.isEmpty());
}

void MainWindow::openAny(const QStringList& paths) {
    QStringList molecules;
    for (const QString& p : paths) {
        const QString suffix = QFileInfo(p).suffix().toLower();
        if (suffix == QLatin1String("pwsession") || suffix == QLatin1String("json"))
            openSession(p);
        else
            molecules << p;
    }
    if (molecules.isEmpty())
        return;
    // Same rule as the command line: a receptor* or large PDB/PDBQT is the receptor.
    const StartupFiles files = classifyStartupFiles(molecules);
    if (!files.receptor.isEmpty())
        openReceptor(files.receptor);
    if (!files.ligands.isEmpty())
        openLigands(files.ligands);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    openAny(paths);
    event->acceptProposedAction();
}

} // namespace pw
