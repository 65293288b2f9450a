#include "SettingsPanel.h"

#include "BoxEditor.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QSpinBox>
#include <QVBoxLayout>

namespace pw {

SettingsPanel::SettingsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    scoring_ = new QComboBox(this);
    scoring_->setObjectName(QStringLiteral("scoringBox"));
    scoring_->addItem(QStringLiteral("Vina"), static_cast<int>(ScoringKind::Vina));
    scoring_->addItem(QStringLiteral("Vinardo"), static_cast<int>(ScoringKind::Vinardo));
    form->addRow(tr("Scoring"), scoring_);
    device_ = new QComboBox(this);
    device_->setObjectName(QStringLiteral("deviceBox"));
    device_->addItem(tr("Automatic"), QStringLiteral("auto"));
    device_->addItem(tr("CPU"), QStringLiteral("cpu"));
    device_->addItem(tr("CUDA GPU"), QStringLiteral("cuda"));
    device_->setToolTip(tr("Batch jobs (Refine all ligands) run here; the watched minimization "
                           "of one pose always uses the CPU reference (a GPU gains nothing on "
                           "one small problem, and it streams no per-step frames)"));
    form->addRow(tr("Device"), device_);
    receptorPH_ = new QDoubleSpinBox(this);
    receptorPH_->setObjectName(QStringLiteral("receptorPhBox"));
    receptorPH_->setRange(0.0, 14.0);
    receptorPH_->setDecimals(1);
    receptorPH_->setSingleStep(0.1);
    receptorPH_->setValue(7.4);
    receptorPH_->setKeyboardTracking(false); // one change per typed value, not per digit
    receptorPH_->setToolTip(tr("A receptor without polar hydrogens (a PDB file as the PDB archive "
                               "gives it) gets them on its standard residues at this pH; a PDBQT "
                               "or a PDB with hydrogens is used as given"));
    form->addRow(tr("Receptor pH"), receptorPH_);
    pace_ = new QSpinBox(this);
    pace_->setRange(0, 200);
    pace_->setValue(15);
    pace_->setSuffix(tr(" ms/step"));
    pace_->setToolTip(tr("Slows a minimization down so its steps can be watched (0: full speed)"));
    form->addRow(tr("Live pace"), pace_);
    layout->addLayout(form);

    auto* boxGroup = new QGroupBox(tr("Search box"), this);
    auto* boxLayout = new QVBoxLayout(boxGroup);
    box_ = new BoxEditor(boxGroup);
    boxLayout->addWidget(box_);
    connect(box_, &BoxEditor::boxFromLigandRequested, this, &SettingsPanel::boxFromLigandRequested);
    connect(box_, &BoxEditor::boxFromFileRequested, this, &SettingsPanel::boxFromFileRequested);
    connect(box_, &BoxEditor::boxTyped, this, &SettingsPanel::boxTyped);
    connect(box_, &BoxEditor::boxAroundResidues, this, &SettingsPanel::boxAroundResidues);
    layout->addWidget(boxGroup);
    layout->addStretch(1);

    connect(scoring_, &QComboBox::currentIndexChanged, this,
            [this] { emit scoringChanged(scoring()); });
    connect(device_, &QComboBox::currentIndexChanged, this,
            [this] { emit deviceChanged(device()); });
    connect(receptorPH_, &QDoubleSpinBox::valueChanged, this,
            [this](double pH) { emit receptorPHChanged(pH); });
}

ScoringKind SettingsPanel::scoring() const {
    return static_cast<ScoringKind>(scoring_->currentData().toInt());
}

QString SettingsPanel::device() const {
    return device_->currentData().toString();
}

double SettingsPanel::ligandMargin() const {
    return box_->ligandMargin();
}

int SettingsPanel::livePaceMs() const {
    return pace_->value();
}

void SettingsPanel::setLivePaceMs(int ms) {
    pace_->setValue(ms);
}

void SettingsPanel::setDevice(const QString& device) {
    const int i = device_->findData(device);
    if (i >= 0)
        device_->setCurrentIndex(i);
}

void SettingsPanel::setScoring(ScoringKind kind) {
    const int i = scoring_->findData(static_cast<int>(kind));
    if (i >= 0)
        scoring_->setCurrentIndex(i);
}

double SettingsPanel::receptorPH() const {
    return receptorPH_->value();
}

void SettingsPanel::setReceptorPH(double pH) {
    receptorPH_->setValue(pH);
}

void SettingsPanel::showBox(const SearchBox& box) {
    box_->showBox(box);
}

} // namespace pw
