// MainWindow: the application's main window: menus, tool bar, the 3D view of the document, the
// ligand list, and a status bar with the compute device and what is loaded.
#pragma once

#include "Document.h"
#include "MoleculeLoader.h"

#include <QMainWindow>

class QAction;
class QLabel;
class QListWidget;
class QMenu;

namespace pw {

class MoleculeView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Document& document() { return document_; }
    MoleculeView* moleculeView() const { return view_; }
    QListWidget* ligandList() const { return ligandList_; }

    // Start loading a file on a worker thread; the document changes only when it has been read
    // completely. A newer request of the same kind supersedes an older one still running.
    void openReceptor(const QString& path);
    void openLigands(const QStringList& paths);
    void openLigands(const QString& path) { openLigands(QStringList{path}); }
    // Loads still running.
    int pendingLoads() const { return pending_; }

    // The last load error shown to the user (file:line: what was expected); empty when none.
    const QString& lastError() const { return lastError_; }
    // Errors are shown in a (non-blocking, window-modal) message box unless this is turned off,
    // e.g. for unattended --screenshot runs; they are always recorded and signalled.
    void setErrorDialogsEnabled(bool enabled) { errorDialogs_ = enabled; }

signals:
    // After every load, successful or not.
    void loadFinished(bool ok);
    void errorOccurred(const QString& message);

private:
    void createActions();
    void createDock();
    void createStatusBar();
    void startLoad(const QStringList& paths, LoadKind kind);
    void finishLoad(LoadResult result, int generation);
    void showError(const QString& message);
    void onReceptorChanged();
    void onLigandsChanged();
    void showSelectedLigands();
    void updateStatus();
    void chooseReceptor();
    void chooseLigands();
    void about();

    Document document_;
    MoleculeView* view_ = nullptr;
    QListWidget* ligandList_ = nullptr;
    QLabel* deviceLabel_ = nullptr;
    QLabel* contentsLabel_ = nullptr;
    QAction* resetViewAction_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QString lastError_;
    QString lastDirectory_;
    bool errorDialogs_ = true;
    bool framed_ = false; // the camera has been framed on loaded data once
    int pending_ = 0;
    int receptorGeneration_ = 0;
    int ligandsGeneration_ = 0;
};

} // namespace pw
