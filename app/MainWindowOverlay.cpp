// MainWindow's shape overlay workspace: File > Shape overlay reads a molecule file whose first
// record is the reference and the rest fits, into the overlay dock (hidden until first used).
#include "MainWindow.h"
#include "OverlayPanel.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QStatusBar>

namespace pw {

void MainWindow::setupOverlay(QMenu* fileMenu) {
    overlay_ = new OverlayPanel(this);
    overlay_->setObjectName(QStringLiteral("overlayPanel"));
    overlayDock_ = new QDockWidget(tr("Shape overlay"), this);
    overlayDock_->setObjectName(QStringLiteral("overlayDock"));
    overlayDock_->setWidget(overlay_);
    addDockWidget(Qt::BottomDockWidgetArea, overlayDock_);
    overlayDock_->hide();

    auto* open = new QAction(tr("Shape o&verlay..."), this);
    open->setObjectName(QStringLiteral("openOverlayAction"));
    open->setStatusTip(tr("Overlay the molecules of a file on its first one (Gaussian shape)"));
    connect(open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Shape overlay: reference first, then the fits"), lastDirectory_,
            tr("Molecules (*.sdf *.sd *.mol *.mol2 *.pdbqt *.pdb);;All files (*)"));
        if (!path.isEmpty())
            openOverlay(path);
    });
    fileMenu->addAction(open);
    connect(overlay_, &OverlayPanel::finished, this,
            [this](bool) { statusBar()->showMessage(overlay_->messages(), 5000); });
}

void MainWindow::openOverlay(const QString& path) {
    lastDirectory_ = QFileInfo(path).absolutePath();
    overlayDock_->show();
    overlayDock_->raise();
    overlay_->openFile(path);
}

} // namespace pw
