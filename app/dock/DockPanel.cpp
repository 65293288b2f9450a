#include "DockPanel.h"

#include "BoxEditor.h"
#include "EnergyPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace pw {

DockPanel::DockPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    // The box is the document's one box, also in the Settings dock: folded to one line unless
    // asked for, so that the results keep the height (a 900-pixel window shows ten clusters).
    boxToggle_ = new QToolButton(this);
    boxToggle_->setObjectName(QStringLiteral("dockBoxToggle"));
    boxToggle_->setCheckable(true);
    boxToggle_->setAutoRaise(true);
    boxToggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    boxToggle_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    boxToggle_->setToolTip(tr("Show the search box's fields (shared with minimization)"));
    layout->addWidget(boxToggle_);
    boxGroup_ = new QGroupBox(tr("Search box (shared with minimization)"), this);
    auto* boxLayout = new QVBoxLayout(boxGroup_);
    box_ = new BoxEditor(boxGroup_);
    box_->setObjectName(QStringLiteral("dockBoxEditor"));
    boxLayout->addWidget(box_);
    layout->addWidget(boxGroup_);
    connect(boxToggle_, &QToolButton::toggled, this, &DockPanel::setBoxExpanded);

    // Two settings a row: the five take three rows.
    auto* form = new QGridLayout;
    form->setColumnStretch(1, 1);
    form->setColumnStretch(3, 1);
    auto addSetting = [&](int row, int column, const QString& label, QWidget* field, int span) {
        auto* l = new QLabel(label, this);
        l->setBuddy(field);
        form->addWidget(l, row, column);
        form->addWidget(field, row, column + 1, 1, span);
    };
    scoring_ = new QComboBox(this);
    scoring_->setObjectName(QStringLiteral("dockScoringBox"));
    scoring_->addItem(QStringLiteral("Vina"), static_cast<int>(dock::DockScoring::Vina));
    scoring_->addItem(QStringLiteral("Vinardo"), static_cast<int>(dock::DockScoring::Vinardo));
    scoring_->addItem(QStringLiteral("AutoDock 4"), static_cast<int>(dock::DockScoring::Ad4));
    addSetting(0, 0, tr("Scoring"), scoring_, 1);
    runs_ = new QSpinBox(this);
    runs_->setObjectName(QStringLiteral("dockRunsBox"));
    runs_->setRange(1, 1000);
    runs_->setToolTip(tr("Independent LGA runs; their final poses are clustered at 2 Å"));
    addSetting(0, 2, tr("Runs"), runs_, 1);
    device_ = new QComboBox(this);
    device_->setObjectName(QStringLiteral("dockDeviceBox"));
    device_->addItem(tr("CPU (watched live)"), QStringLiteral("cpu"));
    device_->addItem(tr("Automatic"), QStringLiteral("auto"));
    device_->addItem(tr("CUDA GPU"), QStringLiteral("cuda"));
    device_->setToolTip(tr("The CPU reference reports every generation to the live view; a GPU "
                           "docks the whole run at once and shows only its result"));
    addSetting(1, 0, tr("Device"), device_, 1);
    seed_ = new QSpinBox(this);
    seed_->setObjectName(QStringLiteral("dockSeedBox"));
    seed_->setRange(0, std::numeric_limits<int>::max());
    seed_->setToolTip(tr("The same seed and settings dock the same way on the CPU"));
    addSetting(1, 2, tr("Seed"), seed_, 1);
    budget_ = new QComboBox(this);
    budget_->setObjectName(QStringLiteral("dockBudgetBox"));
    budget_->addItem(tr("Quick (30,000 evaluations/run)"), true);
    budget_->addItem(tr("Full (AutoDock-GPU's defaults)"), false);
    budget_->setToolTip(tr("Quick: population 50, 100 local-search steps, 30,000 energy "
                           "evaluations per run. Full: population 150, 300 steps, "
                           "AutoDock-GPU's heuristic budget (millions per run)"));
    addSetting(2, 0, tr("Budget"), budget_, 3);
    flexible_ = new QCheckBox(this);
    flexible_->setObjectName(QStringLiteral("dockFlexibleBox"));
    flexible_->setToolTip(tr("Dock with the side chains chosen in the Energy panel moving (their "
                             "torsions searched with the ligand's), as `posewright-cli dock "
                             "--flex-residues`: on the CPU, Vina or Vinardo scoring"));
    form->addWidget(flexible_, 3, 0, 1, 4);
    layout->addLayout(form);

    maps_ = new QLabel(this);
    maps_->setObjectName(QStringLiteral("dockMapsLabel"));
    maps_->setWordWrap(true);
    layout->addWidget(maps_);
    auto* buttons = new QHBoxLayout;
    run_ = new QPushButton(tr("&Dock"), this);
    run_->setObjectName(QStringLiteral("dockRunButton"));
    run_->setToolTip(tr("Dock the active ligand into the box"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName(QStringLiteral("dockCancelButton"));
    cancel_->setToolTip(tr("Stop the runs; the previous results stay"));
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    layout->addLayout(buttons);
    progress_ = new QLabel(this);
    progress_->setObjectName(QStringLiteral("dockProgressLabel"));
    progress_->setWordWrap(true);
    layout->addWidget(progress_);

    // The live plot above the clusters, a splitter between them: the table takes the larger
    // share and stretches with the window.
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("dockResultsSplitter"));
    split->setChildrenCollapsible(false);
    plot_ = new EnergyPlot(split);
    plot_->setObjectName(QStringLiteral("dockPlot"));
    plot_->setSeries({tr("best"), tr("mean")}, {QColor(250, 250, 250), QColor(90, 170, 255)});
    plot_->setXAxisLabel(tr("generation")); // DockPart plots one point per generation
    plot_->setToolTip(tr("Best and mean searched energy (kcal/mol) of the population per "
                         "generation, over the runs so far"));
    plot_->setMinimumHeight(110);
    auto* resultsPane = new QWidget(split);
    auto* resultsLayout = new QVBoxLayout(resultsPane);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    table_ = new QTableWidget(0, 4, resultsPane);
    table_->setObjectName(QStringLiteral("dockClusterTable"));
    table_->setHorizontalHeaderLabels({tr("Rank"), tr("kcal/mol"), tr("Size"), tr("RMSD (Å)")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setMinimumHeight(4 * table_->verticalHeader()->defaultSectionSize());
    table_->setToolTip(tr("Clusters of the runs' final poses (2 Å), best first; RMSD to the "
                          "loaded ligand when it is the same molecule"));
    resultsLayout->addWidget(table_, 1);
    auto* results = new QHBoxLayout;
    refine_ = new QPushButton(tr("Refine"), resultsPane);
    refine_->setObjectName(QStringLiteral("dockRefineButton"));
    refine_->setToolTip(tr("Make the selected pose the active ligand's and minimize it"));
    export_ = new QPushButton(tr("Export..."), resultsPane);
    export_->setObjectName(QStringLiteral("dockExportButton"));
    export_->setToolTip(tr("Write the ranked poses to an SDF with dock's SD tags"));
    add_ = new QPushButton(tr("Add to ligands..."), resultsPane);
    add_->setObjectName(QStringLiteral("dockAddButton"));
    add_->setToolTip(tr("Save the ranked poses to an SDF and add them to the ligand list "
                        "(one undo step)"));
    results->addWidget(refine_);
    results->addWidget(export_);
    results->addWidget(add_);
    resultsLayout->addLayout(results);
    split->addWidget(plot_);
    split->addWidget(resultsPane);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);

    connect(scoring_, &QComboBox::currentIndexChanged, this, &DockPanel::scoringChanged);
    connect(run_, &QPushButton::clicked, this, &DockPanel::runRequested);
    connect(cancel_, &QPushButton::clicked, this, &DockPanel::cancelRequested);
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
        updateResultButtons();
        emit clusterSelected(selectedRow());
    });
    connect(refine_, &QPushButton::clicked, this, [this] { emit refineRequested(selectedRow()); });
    connect(export_, &QPushButton::clicked, this, &DockPanel::exportRequested);
    connect(add_, &QPushButton::clicked, this, &DockPanel::addToLigandsRequested);
    setSettings(DockSettings{});
    setFlexChoice({});
    setRunning(false);
    setBoxSummary(std::nullopt);
    setBoxExpanded(false);
}

void DockPanel::setBoxExpanded(bool expanded) {
    {
        const QSignalBlocker block(boxToggle_);
        boxToggle_->setChecked(expanded);
    }
    boxToggle_->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    boxGroup_->setVisible(expanded);
}

bool DockPanel::boxExpanded() const {
    return boxToggle_->isChecked();
}

void DockPanel::setBoxSummary(const std::optional<SearchBox>& box) {
    if (!box) {
        boxToggle_->setText(tr("Search box: none yet (open to set one)"));
        return;
    }
    const Vec3& c = box->center;
    const Vec3& z = box->size;
    boxToggle_->setText(tr("Search box: %1 × %2 × %3 Å at (%4, %5, %6)")
                            .arg(z.x(), 0, 'f', 1)
                            .arg(z.y(), 0, 'f', 1)
                            .arg(z.z(), 0, 'f', 1)
                            .arg(c.x(), 0, 'f', 2)
                            .arg(c.y(), 0, 'f', 2)
                            .arg(c.z(), 0, 'f', 2));
}

DockSettings DockPanel::settings() const {
    DockSettings s;
    s.scoring = static_cast<dock::DockScoring>(scoring_->currentData().toInt());
    s.runs = runs_->value();
    s.seed = static_cast<std::uint64_t>(seed_->value());
    s.quick = budget_->currentData().toBool();
    s.device = device_->currentData().toString();
    s.flexible = flexible_->isChecked();
    return s;
}

void DockPanel::setSettings(const DockSettings& s) {
    scoring_->setCurrentIndex(std::max(0, scoring_->findData(static_cast<int>(s.scoring))));
    runs_->setValue(s.runs);
    seed_->setValue(static_cast<int>(std::min<std::uint64_t>(s.seed, seed_->maximum())));
    budget_->setCurrentIndex(s.quick ? 0 : 1);
    int device = device_->findData(s.device);
    if (device < 0) { // cuda:N and the like
        device_->addItem(s.device, s.device);
        device = device_->count() - 1;
    }
    device_->setCurrentIndex(device);
    flexible_->setChecked(s.flexible);
}

void DockPanel::setFlexChoice(const QString& choice) {
    flexChoice_ = choice;
    flexible_->setText(choice.isEmpty() ? tr("Flexible side chains: none chosen (Energy panel)")
                                        : tr("Flexible side chains (on the CPU): %1").arg(choice));
    flexible_->setEnabled(!running_ && !choice.isEmpty());
}

void DockPanel::setRunning(bool running) {
    running_ = running;
    run_->setEnabled(!running);
    cancel_->setEnabled(running);
    for (QWidget* w : std::initializer_list<QWidget*>{scoring_, runs_, seed_, budget_, device_})
        w->setEnabled(!running);
    flexible_->setEnabled(!running && !flexChoice_.isEmpty());
    updateResultButtons();
}

void DockPanel::setMapsText(const QString& text) {
    maps_->setText(text);
}

void DockPanel::setProgressText(const QString& text) {
    progress_->setText(text);
}

void DockPanel::showOutcome(const DockOutcome& outcome) {
    {
        const QSignalBlocker block(table_);
        table_->setRowCount(0);
        for (const DockedPose& p : outcome.poses) {
            const int row = table_->rowCount();
            table_->insertRow(row);
            auto number = [](double v, int decimals) {
                auto* item = new QTableWidgetItem(QString::number(v, 'f', decimals));
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                return item;
            };
            table_->setItem(row, 0, number(p.rank, 0));
            table_->setItem(row, 1, number(p.score, 3));
            table_->setItem(row, 2, number(p.clusterSize, 0));
            table_->setItem(row, 3,
                            p.rmsdToLoaded ? number(*p.rmsdToLoaded, 2)
                                           : new QTableWidgetItem(QStringLiteral("–")));
        }
    }
    // RMSD only means something against a loaded ligand of the same molecule: without one for
    // any cluster, the column goes.
    const bool anyRmsd =
        std::any_of(outcome.poses.begin(), outcome.poses.end(),
                    [](const DockedPose& p) { return p.rmsdToLoaded.has_value(); });
    table_->setColumnHidden(3, !anyRmsd);
    // Outside the blocker: the selection's signal draws the best pose.
    if (table_->rowCount() > 0)
        table_->selectRow(0);
    else
        emit clusterSelected(-1);
    updateResultButtons();
}

int DockPanel::selectedRow() const {
    const QList<QTableWidgetSelectionRange> ranges = table_->selectedRanges();
    return ranges.isEmpty() ? -1 : ranges.front().topRow();
}

void DockPanel::selectRow(int row) {
    if (row >= 0 && row < table_->rowCount())
        table_->selectRow(row);
    else
        table_->clearSelection();
}

void DockPanel::updateResultButtons() {
    const bool any = table_->rowCount() > 0;
    refine_->setEnabled(!running_ && selectedRow() >= 0);
    export_->setEnabled(any);
    add_->setEnabled(!running_ && any);
}

} // namespace pw
