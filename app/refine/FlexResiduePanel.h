// FlexResiduePanel: the Energy dock's row for flexible receptor side chains: a field taking
// residues by name as `--flex-residues` does (A:THR315,A:LYS271), Apply, and a line saying which
// residues move, how to pick them in the view and what is exported.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;

namespace pw {

class FlexResiduePanel : public QWidget {
    Q_OBJECT
public:
    explicit FlexResiduePanel(QWidget* parent = nullptr);

    QLineEdit* field() const { return field_; }
    QPushButton* applyButton() const { return apply_; }
    QLabel* summary() const { return summary_; }
    // Shows the applied choice: its text in the field, its residues (labels) in the summary.
    void showChoice(const QString& text, const QStringList& labels);

signals:
    // Apply, or Return in the field: the text to check and apply.
    void applyRequested(const QString& text);

private:
    QLineEdit* field_ = nullptr;
    QPushButton* apply_ = nullptr;
    QLabel* summary_ = nullptr;
};

} // namespace pw
