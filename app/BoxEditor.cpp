#include "BoxEditor.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QToolButton>

namespace pw {

BoxEditor::BoxEditor(QWidget* parent) : QWidget(parent) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(new QLabel(tr("Center")), 0, 0);
    grid->addWidget(new QLabel(tr("Size")), 1, 0);
    const char* axes = "XYZ";
    for (int k = 0; k < 3; ++k) {
        center_[k] = new QDoubleSpinBox(this);
        center_[k]->setObjectName(QStringLiteral("boxCenter") + QLatin1Char(axes[k]));
        center_[k]->setRange(-9999, 9999);
        center_[k]->setDecimals(3);
        size_[k] = new QDoubleSpinBox(this);
        size_[k]->setObjectName(QStringLiteral("boxSize") + QLatin1Char(axes[k]));
        size_[k]->setRange(1, 200);
        size_[k]->setDecimals(2);
        grid->addWidget(center_[k], 0, k + 1);
        grid->addWidget(size_[k], 1, k + 1);
    }
    auto* apply = new QPushButton(tr("Apply typed box"), this);
    apply->setObjectName(QStringLiteral("applyTypedBox"));
    grid->addWidget(apply, 2, 1, 1, 2);
    drag_ = new QToolButton(this);
    drag_->setObjectName(QStringLiteral("dragBoxButton"));
    drag_->setVisible(false);
    grid->addWidget(drag_, 2, 3);
    auto* fromLigand = new QPushButton(tr("Around ligand +"), this);
    margin_ = new QDoubleSpinBox(this);
    margin_->setRange(0, 20);
    margin_->setValue(4.0); // smina's --autobox_add default
    margin_->setSuffix(QStringLiteral(" Å"));
    grid->addWidget(fromLigand, 3, 0, 1, 2);
    grid->addWidget(margin_, 3, 2, 1, 2);
    residues_ = new QLineEdit(this);
    residues_->setObjectName(QStringLiteral("boxResidues"));
    residues_->setPlaceholderText(tr("A:23, A:27, 43"));
    residues_->setToolTip(tr("Residue numbers, with an optional chain: the box encloses their "
                             "atoms plus the margin"));
    auto* fromResidues = new QPushButton(tr("Around residues"), this);
    grid->addWidget(fromResidues, 4, 0, 1, 2);
    grid->addWidget(residues_, 4, 2, 1, 2);
    auto* fromFile = new QPushButton(tr("Read Vina config..."), this);
    grid->addWidget(fromFile, 5, 0, 1, 4);

    connect(fromResidues, &QPushButton::clicked, this,
            [this] { emit boxAroundResidues(residues_->text(), margin_->value()); });
    connect(residues_, &QLineEdit::returnPressed, this,
            [this] { emit boxAroundResidues(residues_->text(), margin_->value()); });
    connect(apply, &QPushButton::clicked, this, [this] { emit boxTyped(fieldsBox()); });
    connect(fromLigand, &QPushButton::clicked, this,
            [this] { emit boxFromLigandRequested(margin_->value()); });
    connect(fromFile, &QPushButton::clicked, this, &BoxEditor::boxFromFileRequested);
}

double BoxEditor::ligandMargin() const {
    return margin_->value();
}

SearchBox BoxEditor::fieldsBox() const {
    SearchBox b;
    for (int k = 0; k < 3; ++k) {
        b.center[k] = center_[k]->value();
        b.size[k] = size_[k]->value();
    }
    return b;
}

void BoxEditor::showBox(const SearchBox& box) {
    for (int k = 0; k < 3; ++k) {
        const QSignalBlocker a(center_[k]), b(size_[k]);
        center_[k]->setValue(box.center[k]);
        size_[k]->setValue(box.size[k]);
    }
}

void BoxEditor::setDragAction(QAction* action) {
    drag_->setDefaultAction(action);
    drag_->setVisible(action != nullptr);
}

} // namespace pw
