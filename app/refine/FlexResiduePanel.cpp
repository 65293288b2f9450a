#include "FlexResiduePanel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace pw {

FlexResiduePanel::FlexResiduePanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("flexResiduePanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Flexible side chains:"), this));
    field_ = new QLineEdit(this);
    field_->setObjectName(QStringLiteral("flexResidueField"));
    field_->setPlaceholderText(tr("none (e.g. A:THR315,A:LYS271)"));
    field_->setToolTip(tr("Receptor residues whose side chains move with the ligand when it is "
                          "minimized, as CHAIN:NAMENUMBER separated by commas (as "
                          "posewright-cli --flex-residues takes them). Double-click a residue in "
                          "the view to add or remove it."));
    row->addWidget(field_, 1);
    apply_ = new QPushButton(tr("Apply"), this);
    apply_->setObjectName(QStringLiteral("flexResidueApply"));
    row->addWidget(apply_);
    layout->addLayout(row);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("flexResidueSummary"));
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    connect(apply_, &QPushButton::clicked, this, [this] { emit applyRequested(field_->text()); });
    connect(field_, &QLineEdit::returnPressed, this,
            [this] { emit applyRequested(field_->text()); });
    showChoice({}, {});
}

void FlexResiduePanel::showChoice(const QString& text, const QStringList& labels) {
    field_->setText(text);
    if (text.isEmpty()) {
        summary_->setText(tr("Rigid receptor. Double-click a residue near the ligand (or type "
                             "its name) to let its side chain move in Minimize pose."));
        return;
    }
    const QString residues = labels.isEmpty() ? text : labels.join(QStringLiteral(", "));
    summary_->setText(tr("Moving with the ligand in Minimize pose and in the Docking panel "
                         "when its Flexible box is ticked (orange, on the CPU; batch "
                         "refinement keeps the receptor rigid): %1. File > Export "
                         "flexible side chains writes them as a PDBQT file in Vina's --flex "
                         "format (usable as --flex again); the SDF export holds the ligand only.")
                          .arg(residues));
}

} // namespace pw
