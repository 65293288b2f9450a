#include "SimilarityPart.h"

#include "Document.h"
#include "SimilarityPanel.h"
#include "parts/PartContext.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QStatusBar>

POSEWRIGHT_REGISTER_PART(similarity, pw::SimilarityPart)

namespace pw {

void SimilarityPart::install(PartContext& context) {
    context_ = &context;
    QWidget* window = context.window();
    panel_ = new SimilarityPanel(window);
    panel_->setObjectName(QStringLiteral("similarityPanel"));
    // The matrix is computed on the Device setting's backend, read when a computation starts.
    panel_->setDeviceSource([this] { return context_->document().device(); });
    dock_ = new QDockWidget(tr("Similarity"), window);
    dock_->setObjectName(QStringLiteral("similarityDock"));
    dock_->setWidget(panel_);
    context.addDock(dock_, Qt::BottomDockWidgetArea, true);

    auto* open = new QAction(tr("Open &hit list (SMILES)..."), window);
    open->setObjectName(QStringLiteral("openHitListAction"));
    open->setStatusTip(tr("LINGO similarity table of the molecules of a SMILES file"));
    connect(open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(context_->window(), tr("Open hit list"),
                                                          context_->lastDirectory(),
                                                          tr("SMILES (*.smi *.smiles);;All (*)"));
        if (!path.isEmpty())
            openHitList(path);
    });
    context.addAction(PartMenu::File, open);
    auto* ligands = new QAction(tr("Similarity of the loaded &ligands"), window);
    ligands->setObjectName(QStringLiteral("ligandSimilarityAction"));
    connect(ligands, &QAction::triggered, this, &SimilarityPart::showLigandSimilarity);
    context.addAction(PartMenu::File, ligands);
    connect(panel_, &SimilarityPanel::finished, this, [this](bool) {
        context_->statusBar()->showMessage(panel_->messages().section('\n', 0, 0), 5000);
    });
}

void SimilarityPart::openHitList(const QString& path) {
    context_->setLastDirectory(QFileInfo(path).absolutePath());
    hitList_ = QFileInfo(path).absoluteFilePath();
    ligands_ = false;
    dock_->show();
    dock_->raise();
    panel_->openSmilesFile(path);
}

void SimilarityPart::showLigandSimilarity() {
    hitList_.clear();
    ligands_ = true;
    dock_->show();
    dock_->raise();
    panel_->setMolecules(context_->document().ligands(), tr("the loaded ligands"));
}

QJsonObject SimilarityPart::saveState() const {
    if (!hitList_.isEmpty())
        return {{"hitList", hitList_}};
    if (ligands_)
        return {{"ligands", true}};
    return {};
}

void SimilarityPart::restoreState(const QJsonObject& state) {
    const QString path = state.value(QStringLiteral("hitList")).toString();
    if (!path.isEmpty())
        openHitList(path);
    else if (state.value(QStringLiteral("ligands")).toBool())
        showLigandSimilarity();
}

} // namespace pw
