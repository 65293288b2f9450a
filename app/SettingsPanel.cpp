#include "SettingsPanel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
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
    pace_ = new QSpinBox(this);
    pace_->setRange(0, 200);
    pace_->setValue(15);
    pace_->setSuffix(tr(" ms/step"));
    pace_->setToolTip(tr("Slows a minimization down so its steps can be watched (0: full speed)"));
    form->addRow(tr("Live pace"), pace_);
    layout->addLayout(form);

    auto* boxGroup = new QGroupBox(tr("Search box"), this);
    auto* grid = new QGridLayout(boxGroup);
    grid->addWidget(new QLabel(tr("Center")), 0, 0);
    grid->addWidget(new QLabel(tr("Size")), 1, 0);
    for (int k = 0; k < 3; ++k) {
        center_[k] = new QDoubleSpinBox(boxGroup);
        center_[k]->setRange(-9999, 9999);
        center_[k]->setDecimals(3);
        size_[k] = new QDoubleSpinBox(boxGroup);
        size_[k]->setRange(1, 200);
        size_[k]->setDecimals(2);
        grid->addWidget(center_[k], 0, k + 1);
        grid->addWidget(size_[k], 1, k + 1);
    }
    auto* apply = new QPushButton(tr("Apply typed box"), boxGroup);
    grid->addWidget(apply, 2, 1, 1, 3);
    auto* fromLigand = new QPushButton(tr("Around ligand +"), boxGroup);
    margin_ = new QDoubleSpinBox(boxGroup);
    margin_->setRange(0, 20);
    margin_->setValue(4.0); // smina's --autobox_add default
    margin_->setSuffix(QStringLiteral(" Å"));
    grid->addWidget(fromLigand, 3, 0, 1, 2);
    grid->addWidget(margin_, 3, 2, 1, 2);
    residues_ = new QLineEdit(boxGroup);
    residues_->setObjectName(QStringLiteral("boxResidues"));
    residues_->setPlaceholderText(tr("A:23, A:27, 43"));
    residues_->setToolTip(tr("Residue numbers, with an optional chain: the box encloses their "
                             "atoms plus the margin"));
    auto* fromResidues = new QPushButton(tr("Around residues"), boxGroup);
    grid->addWidget(fromResidues, 4, 0, 1, 2);
    grid->addWidget(residues_, 4, 2, 1, 2);
    auto* fromFile = new QPushButton(tr("Read Vina config..."), boxGroup);
    grid->addWidget(fromFile, 5, 0, 1, 4);
    connect(fromResidues, &QPushButton::clicked, this,
            [this] { emit boxAroundResidues(residues_->text(), margin_->value()); });
    connect(residues_, &QLineEdit::returnPressed, this,
            [this] { emit boxAroundResidues(residues_->text(), margin_->value()); });
    layout->addWidget(boxGroup);
    layout->addStretch(1);

    connect(scoring_, &QComboBox::currentIndexChanged, this,
            [this] { emit scoringChanged(scoring()); });
    connect(device_, &QComboBox::currentIndexChanged, this,
            [this] { emit deviceChanged(device()); });
    connect(apply, &QPushButton::clicked, this, [this] {
        SearchBox b;
        for (int k = 0; k < 3; ++k) {
            b.center[k] = center_[k]->value();
            b.size[k] = size_[k]->value();
        }
        emit boxTyped(b);
    });
    connect(fromLigand, &QPushButton::clicked, this,
            [this] { emit boxFromLigandRequested(margin_->value()); });
    connect(fromFile, &QPushButton::clicked, this, &SettingsPanel::boxFromFileRequested);
}

ScoringKind SettingsPanel::scoring() const {
    return static_cast<ScoringKind>(scoring_->currentData().toInt());
}

QString SettingsPanel::device() const {
    return device_->currentData().toString();
}

double SettingsPanel::ligandMargin() const {
    return margin_->value();
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

void SettingsPanel::showBox(const SearchBox& box) {
    for (int k = 0; k < 3; ++k) {
        const QSignalBlocker a(center_[k]), b(size_[k]);
        center_[k]->setValue(box.center[k]);
        size_[k]->setValue(box.size[k]);
    }
}

} // namespace pw
