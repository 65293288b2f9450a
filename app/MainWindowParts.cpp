// MainWindow's side of the workflow parts: the context they see, their installation from the
// registration list, and their pieces of the session file. Nothing here names a part.
#include "MainWindow.h"

#include "BoxEditor.h"
#include "Document.h"
#include "JobRunner.h"
#include "TargetBuilder.h"
#include "parts/PartContext.h"
#include "parts/RegisteredParts.h"
#include "core/Molecule.h"

#include <QAction>
#include <QStringList>
#include <QUndoStack>
#include <QDockWidget>
#include <QListWidget>
#include <QMenu>
#include <QStatusBar>
#include <QToolBar>

#include <map>

namespace pw {

class MainWindow::Context : public PartContext {
public:
    explicit Context(MainWindow& window) : w_(window) {}

    Document& document() override { return w_.document_; }
    MoleculeView* view() override { return w_.view_; }
    QStatusBar* statusBar() override { return w_.statusBar(); }
    SettingsPanel* settings() override { return w_.settings_; }
    QUndoStack* undoStack() override { return w_.undo_; }
    JobRunner& jobs() override { return *w_.jobs_; }
    TargetBuilder& targets() override { return *w_.targets_; }
    QMainWindow* window() override { return &w_; }

    void addDock(QDockWidget* dock, Qt::DockWidgetArea area, bool startHidden) override {
        w_.addDockWidget(area, dock);
        if (startHidden)
            dock->hide();
        w_.viewMenu_->addAction(dock->toggleViewAction());
    }

    void addAction(PartMenu menu, QAction* action, bool onToolBar) override {
        switch (menu) {
        case PartMenu::File:
            w_.fileMenu_->insertAction(w_.fileWorkflowEnd_, action);
            break;
        case PartMenu::Refine:
            w_.refineMenu_->insertAction(w_.cancelAction_, action);
            break;
        case PartMenu::View:
            w_.viewMenu_->addAction(action);
            break;
        case PartMenu::LigandList:
            w_.ligandList_->addAction(action);
            break;
        }
        if (onToolBar)
            w_.toolBar_->insertAction(w_.cancelAction_, action);
    }

    void setPoseTaker(const QString& kind, PoseTaker taker) override {
        takers_[kind] = std::move(taker);
    }
    bool hasPoseTaker(const QString& kind) const override { return takers_.count(kind) != 0; }
    bool handPoses(const QString& kind, std::vector<Molecule> poses) override {
        auto it = takers_.find(kind);
        if (it == takers_.end())
            return false;
        it->second(std::move(poses));
        return true;
    }

    void showError(const QString& message) override { w_.showError(message); }
    QString lastDirectory() const override { return w_.lastDirectory_; }
    void setLastDirectory(const QString& directory) override { w_.lastDirectory_ = directory; }
    QString deviceDescription() const override { return w_.deviceDescription_; }
    void showDocumentLigands() override { w_.showSelectedLigands(); }
    void rankLigandsByAffinity() override { w_.rankAction_->setChecked(true); }

    void connectBoxEditor(BoxEditor* editor) override {
        editor->setDragAction(w_.editBoxAction_);
        QObject::connect(editor, &BoxEditor::boxFromLigandRequested, &w_,
                         &MainWindow::setBoxAroundLigand);
        QObject::connect(editor, &BoxEditor::boxFromFileRequested, &w_,
                         &MainWindow::chooseBoxConfig);
        QObject::connect(editor, &BoxEditor::boxAroundResidues, &w_,
                         &MainWindow::setBoxAroundResidues);
        QObject::connect(editor, &BoxEditor::boxTyped, &w_, [this](const SearchBox& b) {
            w_.document_.setBox(b, BoxSource::Typed);
        });
        auto show = [this, editor] {
            if (w_.document_.box())
                editor->showBox(*w_.document_.box());
        };
        QObject::connect(&w_.document_, &Document::boxChanged, editor, show);
        show();
    }
    bool runStep(const QString& step, const std::function<void(bool ok)>& done) override {
        return w_.runStep(step, done);
    }
    QString flexResidueChoice() const override {
        return flexSource_ ? flexSource_() : QString();
    }
    void setFlexResidueSource(std::function<QString()> source) override {
        flexSource_ = std::move(source);
    }
    void flexResidueChoiceChanged() override {
        for (const auto& listener : flexListeners_)
            listener();
    }
    void onFlexResidueChoiceChanged(std::function<void()> listener) override {
        flexListeners_.push_back(std::move(listener));
    }
    void setSideChainsTaker(SideChainsTaker taker) override { sideChainsTaker_ = std::move(taker); }
    void handSideChains(int ligand, const QString& choice,
                        const std::vector<Vec3>& sideChains) override {
        if (sideChainsTaker_)
            sideChainsTaker_(ligand, choice, sideChains);
    }

private:
    MainWindow& w_;
    std::map<QString, PoseTaker> takers_;
    std::function<QString()> flexSource_;
    std::vector<std::function<void()>> flexListeners_;
    SideChainsTaker sideChainsTaker_;
};

void MainWindow::installParts() {
    partContext_ = std::make_unique<Context>(*this);
    parts_ = createRegisteredParts();
    for (const auto& p : parts_)
        p->install(*partContext_);
}

WorkflowPart* MainWindow::part(const QString& name) const {
    for (const auto& p : parts_)
        if (p->name() == name)
            return p.get();
    return nullptr;
}

bool MainWindow::runStep(const QString& step, const std::function<void(bool ok)>& done) {
    for (const auto& p : parts_)
        if (p->runStep(step, done))
            return true;
    return false;
}

QJsonObject MainWindow::partStates(const QDir& sessionDir) const {
    QJsonObject states;
    for (const auto& p : parts_)
        if (const QJsonObject piece = p->saveState(sessionDir); !piece.isEmpty())
            states[p->name()] = piece;
    return states;
}

void MainWindow::restorePartStates(const QJsonObject& states, const QDir& sessionDir) {
    for (const auto& p : parts_)
        p->restoreState(states.value(p->name()).toObject(), sessionDir);
}

void PartContext::replaceLigandsWith(std::vector<Molecule> poses) {
    QStringList paths;
    for (size_t i = 0; i < poses.size(); ++i)
        paths << QString();
    undoStack()->clear();
    document().setLigands(std::move(poses), paths);
}

} // namespace pw
