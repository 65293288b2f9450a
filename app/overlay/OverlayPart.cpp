#include "OverlayPart.h"

#include "OverlayPanel.h"
#include "parts/PartContext.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QStatusBar>

POSEWRIGHT_REGISTER_PART(overlay, pw::OverlayPart)

namespace pw {

void OverlayPart::install(PartContext& context) {
    context_ = &context;
    QWidget* window = context.window();
    panel_ = new OverlayPanel(window);
    panel_->setObjectName(QStringLiteral("overlayPanel"));
    dock_ = new QDockWidget(tr("Shape overlay"), window);
    dock_->setObjectName(QStringLiteral("overlayDock"));
    dock_->setWidget(panel_);
    context.addDock(dock_, Qt::BottomDockWidgetArea, true);

    auto* open = new QAction(tr("Shape o&verlay..."), window);
    open->setObjectName(QStringLiteral("openOverlayAction"));
    open->setStatusTip(tr("Overlay the molecules of a file on its first one (Gaussian shape)"));
    connect(open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            context_->window(), tr("Shape overlay: reference first, then the fits"),
            context_->lastDirectory(),
            tr("Molecules (*.sdf *.sd *.mol *.mol2 *.pdbqt *.pdb);;All files (*)"));
        if (!path.isEmpty())
            openFile(path);
    });
    context.addAction(PartMenu::File, open);
    connect(panel_, &OverlayPanel::finished, this,
            [this](bool) { context_->statusBar()->showMessage(panel_->messages(), 5000); });
    // Poses another part hands over (the Hits panel's selection): the first is the reference.
    context.setPoseTaker(QStringLiteral("overlay"), [this](std::vector<Molecule> poses) {
        if (poses.size() < 2)
            return;
        Molecule reference = std::move(poses.front());
        poses.erase(poses.begin());
        path_.clear(); // nothing to reopen from a file
        dock_->show();
        dock_->raise();
        panel_->setMolecules(std::move(reference), std::move(poses));
    });
}

void OverlayPart::openFile(const QString& path) {
    context_->setLastDirectory(QFileInfo(path).absolutePath());
    path_ = QFileInfo(path).absoluteFilePath();
    dock_->show();
    dock_->raise();
    panel_->openFile(path);
}

QJsonObject OverlayPart::saveState(const QDir& sessionDir) const {
    if (path_.isEmpty())
        return {};
    return {{"file", sessionDir.relativeFilePath(path_)}};
}

void OverlayPart::restoreState(const QJsonObject& state, const QDir& sessionDir) {
    const QString file = state.value(QStringLiteral("file")).toString();
    if (!file.isEmpty())
        openFile(QDir::cleanPath(sessionDir.absoluteFilePath(file)));
}

} // namespace pw
