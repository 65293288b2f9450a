// JobRunner: the status bar's view of the jobs that run on workers (grid maps, a session being
// opened, a minimization, a batch): one message, one progress bar and one Cancel for all of them.
#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <map>

class QAction;
class QProgressBar;
class QStatusBar;
class QToolButton;

namespace pw {

// Threads the app gives a computation on the CPU: all cores but one, which stays with the GUI.
int workerCpuThreads();

class JobRunner : public QObject {
    Q_OBJECT
public:
    // The widgets belong to the window; cancelAction triggers cancelAll().
    JobRunner(QStatusBar* statusBar, QProgressBar* progress, QToolButton* cancelButton,
              QAction* cancelAction, QObject* parent = nullptr);

    // What a job is to the others: a job that moves the ligands (a minimization, a batch) runs
    // alone and locks the ligands against edits; a background job (grid maps, reading a session)
    // only shows that the window is busy.
    enum class Kind { Background, MovesLigands };

    // Shows the job (its message, an indeterminate or a done/total progress bar, Cancel) and
    // returns its id. cancel is called once by cancelAll() or cancelLigandJobs(); the job still
    // calls end() itself, when its worker has stopped.
    int begin(const QString& message, bool determinate, Kind kind, std::function<void()> cancel);
    // done of total, shown as "done/total" in the progress bar.
    void setProgress(int id, long done, long total);
    void end(int id);

    bool busy() const { return !jobs_.empty(); }
    // A job that moves the ligands runs: no other may start, no edit may land.
    bool ligandsLocked() const;

    // Cancel job (Esc): every job, the newest first.
    void cancelAll();
    // A new ligand list or receptor: the jobs whose molecules are about to go.
    void cancelLigandJobs();

signals:
    void ligandsLockedChanged(bool locked);

private:
    struct Job {
        Kind kind = Kind::Background;
        std::function<void()> cancel;
    };
    void cancel(bool onlyLigandJobs);
    void showIdle();

    QStatusBar* statusBar_;
    QProgressBar* progress_;
    QToolButton* cancelButton_;
    QAction* cancelAction_;
    std::map<int, Job> jobs_;
    int nextId_ = 1;
};

} // namespace pw
