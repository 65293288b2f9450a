#include "HitTableView.h"

#include "HitHistogram.h"
#include "HitTableModel.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleValidator>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace pw {

namespace {

// An empty field is an open side of the range.
double boundFrom(const QLineEdit* field) {
    const QString text = field->text().trimmed();
    bool ok = false;
    double v = QLocale::c().toDouble(text, &ok);
    if (!ok)
        v = QLocale().toDouble(text, &ok); // "1,5" where that is the user's decimal comma
    return ok ? v : NAN;
}

} // namespace

HitTableView::HitTableView(QWidget* parent) : QWidget(parent), model_(new HitTableModel(this)) {
    textFilter_ = new QLineEdit;
    textFilter_->setObjectName("hitTextFilter");
    textFilter_->setPlaceholderText(tr("Name or SMILES contains..."));
    textFilter_->setClearButtonEnabled(true);
    rangeColumn_ = new QComboBox;
    rangeColumn_->setObjectName("hitRangeColumn");
    rangeMin_ = new QLineEdit;
    rangeMin_->setObjectName("hitRangeMin");
    rangeMin_->setPlaceholderText(tr("min"));
    rangeMax_ = new QLineEdit;
    rangeMax_->setObjectName("hitRangeMax");
    rangeMax_->setPlaceholderText(tr("max"));
    for (QLineEdit* e : {rangeMin_, rangeMax_}) {
        e->setValidator(new QDoubleValidator(e));
        e->setMaximumWidth(90);
    }
    auto* apply = new QPushButton(tr("Filter"));
    apply->setObjectName("hitRangeApply");
    auto* clear = new QPushButton(tr("Clear filters"));
    clear->setObjectName("hitClearFilters");
    auto* histogramButton = new QPushButton(tr("Histogram"));
    histogramButton->setObjectName("hitHistogramButton");
    exportButton_ = new QPushButton(tr("Export selection..."));
    exportButton_->setObjectName("hitExport");
    exportButton_->setEnabled(false);

    auto* bar = new QHBoxLayout;
    bar->addWidget(textFilter_, 2);
    bar->addWidget(rangeColumn_, 1);
    bar->addWidget(rangeMin_);
    bar->addWidget(rangeMax_);
    bar->addWidget(apply);
    bar->addWidget(clear);
    bar->addWidget(histogramButton);
    bar->addWidget(exportButton_);
    bar_ = bar;

    // Second bar: what only the store can answer (substructure, contacts with the receptor).
    structurePattern_ = new QLineEdit;
    structurePattern_->setObjectName("hitStructurePattern");
    structurePattern_->setPlaceholderText(tr("Substructure, e.g. c1ccccc1C(=O)[OH]"));
    structurePattern_->setClearButtonEnabled(true);
    structureSyntax_ = new QComboBox;
    structureSyntax_->setObjectName("hitStructureSyntax");
    structureSyntax_->addItem(tr("SMARTS"), true);
    structureSyntax_->addItem(tr("SMILES"), false);
    interactionKind_ = new QComboBox;
    interactionKind_->setObjectName("hitInteractionKind");
    interactionKind_->addItem(tr("any contact with"), QStringLiteral("interacts"));
    interactionKind_->addItem(tr("H-bond with"), QStringLiteral("hbond"));
    interactionKind_->addItem(tr("salt bridge with"), QStringLiteral("saltbridge"));
    interactionKind_->addItem(tr("pi stacking with"), QStringLiteral("pistack"));
    interactionKind_->addItem(tr("halogen bond with"), QStringLiteral("halogen"));
    interactionKind_->addItem(tr("hydrophobic contact with"), QStringLiteral("hydrophobic"));
    interactionResidue_ = new QComboBox;
    interactionResidue_->setObjectName("hitInteractionResidue");
    interactionResidue_->setEditable(true);
    interactionResidue_->setInsertPolicy(QComboBox::NoInsert);
    interactionResidue_->lineEdit()->setPlaceholderText(tr("residue, e.g. ASP86"));
    interactionResidue_->setMinimumContentsLength(8);
    auto* storeApply = new QPushButton(tr("Match"));
    storeApply->setObjectName("hitStoreFilterApply");
    storeApply->setToolTip(tr("Keep the hits that contain the substructure and/or make the contact"));
    auto* storeBar = new QHBoxLayout;
    storeBar->addWidget(structurePattern_, 2);
    storeBar->addWidget(structureSyntax_);
    storeBar->addWidget(interactionKind_);
    storeBar->addWidget(interactionResidue_, 1);
    storeBar->addWidget(storeApply);

    table_ = new QTableView;
    table_->setObjectName("hitTable");
    table_->setModel(model_);
    table_->setSortingEnabled(true);
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // input order at first
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setWordWrap(false);
    // Fixed row heights: the view never measures a million rows.
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);

    histogram_ = new HitHistogram;
    histogram_->setObjectName("hitHistogram");
    histogram_->hide();

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(table_);
    split->addWidget(histogram_);
    split->setStretchFactor(0, 4);

    status_ = new QLabel;
    status_->setObjectName("hitStatus");

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addLayout(storeBar);
    layout->addWidget(split, 1);
    layout->addWidget(status_);

    connect(textFilter_, &QLineEdit::textChanged, this, [this](const QString& t) {
        model_->setTextFilter(t);
    });
    connect(apply, &QPushButton::clicked, this, &HitTableView::applyRangeFromBar);
    for (QLineEdit* e : {rangeMin_, rangeMax_})
        connect(e, &QLineEdit::returnPressed, this, &HitTableView::applyRangeFromBar);
    connect(clear, &QPushButton::clicked, this, [this] {
        textFilter_->clear();
        rangeMin_->clear();
        rangeMax_->clear();
        structurePattern_->clear();
        interactionResidue_->setEditText(QString());
        pendingRequest_ = 0; // an answer still on its way is dropped
        storeFilterNote_.clear();
        model_->clearFilters();
    });
    connect(storeApply, &QPushButton::clicked, this, &HitTableView::applyStoreFilterFromBar);
    connect(structurePattern_, &QLineEdit::returnPressed, this, &HitTableView::applyStoreFilterFromBar);
    connect(interactionResidue_->lineEdit(), &QLineEdit::returnPressed, this,
            &HitTableView::applyStoreFilterFromBar);
    connect(histogramButton, &QPushButton::clicked, this, [this] {
        if (rangeColumn_->currentIndex() >= 0)
            showHistogram(rangeColumn_->currentData().toInt());
    });
    connect(exportButton_, &QPushButton::clicked, this, [this] {
        const QList<qint64> ids = selectedRowIds();
        if (!ids.isEmpty())
            emit exportRequested(ids);
    });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &HitTableView::onSelectionChanged);
    // A filter resets the model (and with it the selection); a sort keeps it.
    connect(model_, &QAbstractItemModel::modelReset, this, [this] {
        updateStatus();
        onSelectionChanged();
    });
    connect(model_, &QAbstractItemModel::layoutChanged, this, &HitTableView::onSelectionChanged);
    updateStatus();
}

void HitTableView::setColumns(HitColumns columns) {
    pendingRequest_ = 0; // an answer about the old table is dropped
    storeFilterNote_.clear();
    model_->setColumns(std::move(columns));
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    rangeMin_->clear();
    rangeMax_->clear();
    textFilter_->blockSignals(true);
    textFilter_->clear();
    textFilter_->blockSignals(false);
    fillColumnChooser();
    histogram_->hide();
    updateStatus();
}

HitTableState HitTableView::tableState() const {
    HitTableState state;
    const HitColumns& data = model_->columns();
    const QHeaderView* header = table_->horizontalHeader();
    const int sorted = model_->dataColumn(header->sortIndicatorSection());
    if (header->sortIndicatorSection() >= 0 && sorted >= 0 && sorted < int(data.columns.size())) {
        state.sortColumn = data.columns[size_t(sorted)].name;
        state.sortOrder = header->sortIndicatorOrder();
    }
    for (const auto& [column, min, max] : model_->rangeFilters())
        state.ranges.emplace_back(data.columns[size_t(column)].name, min, max);
    state.text = textFilter_->text();
    state.rangeColumn = rangeColumn_->currentText();
    state.rangeMin = rangeMin_->text();
    state.rangeMax = rangeMax_->text();
    return state;
}

void HitTableView::restoreTableState(const HitTableState& state) {
    const HitColumns& data = model_->columns();
    if (const int sorted = data.indexOf(state.sortColumn); !state.sortColumn.empty() && sorted >= 0)
        table_->horizontalHeader()->setSortIndicator(model_->viewColumn(sorted), state.sortOrder);
    for (const auto& [name, min, max] : state.ranges)
        if (const int column = data.indexOf(name); column >= 0 && data.columns[size_t(column)].numeric)
            model_->setRangeFilter(column, min, max);
    if (const int item = rangeColumn_->findText(state.rangeColumn); item >= 0) {
        rangeColumn_->setCurrentIndex(item);
        rangeMin_->setText(state.rangeMin);
        rangeMax_->setText(state.rangeMax);
    }
    textFilter_->setText(state.text); // filters through its textChanged
    updateStatus();
}

void HitTableView::setDepictor(HitDepictionDelegate::Depictor depictor) {
    if (delegate_) {
        table_->setItemDelegateForColumn(0, nullptr);
        delete delegate_;
        delegate_ = nullptr;
    }
    model_->setDepictionColumn(bool(depictor));
    if (depictor) {
        delegate_ = new HitDepictionDelegate(std::move(depictor), this);
        table_->setItemDelegateForColumn(0, delegate_);
        table_->verticalHeader()->setDefaultSectionSize(HitDepictionDelegate::kSize.height());
        table_->setColumnWidth(0, HitDepictionDelegate::kSize.width());
    } else {
        table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    }
}

void HitTableView::fillColumnChooser() {
    rangeColumn_->clear();
    const HitColumns& data = model_->columns();
    for (size_t c = 0; c < data.columns.size(); ++c)
        if (data.columns[c].numeric)
            rangeColumn_->addItem(QString::fromStdString(data.columns[c].name), int(c));
}

void HitTableView::applyRangeFromBar() {
    if (rangeColumn_->currentIndex() < 0)
        return;
    model_->setRangeFilter(rangeColumn_->currentData().toInt(), boundFrom(rangeMin_), boundFrom(rangeMax_));
}

void HitTableView::showHistogram(int dataColumn) {
    const HitColumns& data = model_->columns();
    if (dataColumn < 0 || dataColumn >= int(data.columns.size()) || !data.columns[size_t(dataColumn)].numeric)
        return;
    const std::vector<double>& all = data.columns[size_t(dataColumn)].numbers;
    std::vector<double> shown;
    shown.reserve(model_->visibleRows().size());
    for (int row : model_->visibleRows())
        shown.push_back(all[size_t(row)]);
    histogram_->setValues(shown, QString::fromStdString(data.columns[size_t(dataColumn)].name));
    histogram_->show();
}

QList<qint64> HitTableView::selectedRowIds() const {
    // Walk the selection's ranges, not one QModelIndex per selected cell.
    std::vector<int> rows;
    for (const QItemSelectionRange& r : table_->selectionModel()->selection())
        for (int row = r.top(); row <= r.bottom(); ++row)
            rows.push_back(row);
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    QList<qint64> ids;
    ids.reserve(qsizetype(rows.size()));
    for (int row : rows)
        if (row < model_->rowCount())
            ids.push_back(model_->rowId(row));
    return ids;
}

void HitTableView::addSelectionAction(QAction* action) {
    auto* button = new QToolButton;
    button->setDefaultAction(action);
    bar_->addWidget(button);
    table_->setContextMenuPolicy(Qt::ActionsContextMenu);
    table_->addAction(action);
}

HitStoreFilter HitTableView::storeFilterFromBar() const {
    HitStoreFilter f;
    f.pattern = structurePattern_->text().trimmed();
    f.smarts = structureSyntax_->currentData().toBool();
    f.residue = interactionResidue_->currentText().trimmed();
    f.kind = interactionKind_->currentData().toString();
    return f;
}

void HitTableView::applyStoreFilterFromBar() {
    const HitStoreFilter f = storeFilterFromBar();
    if (f.isEmpty()) {
        pendingRequest_ = 0;
        storeFilterNote_.clear();
        model_->clearIdFilter();
        updateStatus();
        return;
    }
    pendingRequest_ = ++lastRequest_;
    storeFilterNote_ = tr("matching in the store...");
    updateStatus();
    emit storeFilterRequested(pendingRequest_, f);
}

void HitTableView::setResidues(const QStringList& residues) {
    const QString typed = interactionResidue_->currentText();
    interactionResidue_->clear();
    interactionResidue_->addItem(QString());
    interactionResidue_->addItems(residues);
    interactionResidue_->setEditText(typed);
}

void HitTableView::setStoreFilterResult(int request, const std::vector<std::int64_t>& ids) {
    if (request != pendingRequest_)
        return;
    pendingRequest_ = 0;
    const HitStoreFilter f = storeFilterFromBar();
    QStringList what;
    if (!f.pattern.isEmpty())
        what << (f.smarts ? tr("SMARTS %1") : tr("SMILES %1")).arg(f.pattern);
    if (!f.residue.isEmpty())
        what << interactionKind_->currentText() + QLatin1Char(' ') + f.residue;
    storeFilterNote_ = what.join(tr(" and "));
    model_->setIdFilter(ids);
    updateStatus();
}

void HitTableView::setStoreFilterError(int request, const QString& message) {
    if (request != pendingRequest_)
        return;
    pendingRequest_ = 0;
    storeFilterNote_ = tr("not applied: %1").arg(message);
    updateStatus();
}

void HitTableView::updateStatus() {
    QString text = tr("%1 of %2 hits").arg(model_->rowCount()).arg(model_->columns().rowCount());
    if (!storeFilterNote_.isEmpty())
        text += QStringLiteral(" (") + storeFilterNote_ + QLatin1Char(')');
    status_->setText(text);
}

void HitTableView::onSelectionChanged() {
    const QList<qint64> ids = selectedRowIds();
    exportButton_->setEnabled(!ids.isEmpty());
    emit selectionChanged(ids);
}

} // namespace pw
