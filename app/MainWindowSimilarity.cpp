// MainWindow's similarity table: File > Open hit list (SMILES) opens a .smi file into the
// similarity dock (a bottom dock, hidden until first used); so does "Similarity of the loaded
// ligands" for the document's ligands.
#include "MainWindow.h"
#include "SimilarityPanel.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QStatusBar>

namespace pw {

void MainWindow::setupSimilarity(QMenu* fileMenu) {
    similarity_ = new SimilarityPanel(this);
    similarity_->setObjectName(QStringLiteral("similarityPanel"));
    // The matrix is computed on the Device setting's backend, read when a computation starts.
    similarity_->setDeviceSource([this] { return document_.device(); });
    similarityDock_ = new QDockWidget(tr("Similarity"), this);
    similarityDock_->setObjectName(QStringLiteral("similarityDock"));
    similarityDock_->setWidget(similarity_);
    addDockWidget(Qt::BottomDockWidgetArea, similarityDock_);
    similarityDock_->hide();

    auto* open = new QAction(tr("Open &hit list (SMILES)..."), this);
    open->setObjectName(QStringLiteral("openHitListAction"));
    open->setStatusTip(tr("LINGO similarity table of the molecules of a SMILES file"));
    connect(open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open hit list"), lastDirectory_,
                                                          tr("SMILES (*.smi *.smiles);;All (*)"));
        if (!path.isEmpty())
            openHitList(path);
    });
    fileMenu->addAction(open);
    auto* ligands = new QAction(tr("Similarity of the loaded &ligands"), this);
    ligands->setObjectName(QStringLiteral("ligandSimilarityAction"));
    connect(ligands, &QAction::triggered, this, &MainWindow::showLigandSimilarity);
    fileMenu->addAction(ligands);
    connect(similarity_, &SimilarityPanel::finished, this, [this](bool) {
        statusBar()->showMessage(similarity_->messages().section('\n', 0, 0), 5000);
    });
}

void MainWindow::openHitList(const QString& path) {
    lastDirectory_ = QFileInfo(path).absolutePath();
    similarityDock_->show();
    similarityDock_->raise();
    similarity_->openSmilesFile(path);
}

void MainWindow::showLigandSimilarity() {
    similarityDock_->show();
    similarityDock_->raise();
    similarity_->setMolecules(document_.ligands(), tr("the loaded ligands"));
}

} // namespace pw
