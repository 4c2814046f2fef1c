// A small dialog to edit a distribution by kind and parameters (the cell's "…" button), for
// those who would rather not type "lognormal median 2 h σ 1". Its result is the same one-line
// text the cell takes, read by the same parser, so both ways follow one rule.
#pragma once

#include <QDialog>
#include <functional>

#include "format/workload_format.hpp"

class QComboBox;
class QLabel;
class QLineEdit;

namespace gpuplan::ui {

class DistributionDialog : public QDialog {
    Q_OBJECT
public:
    DistributionDialog(const DistributionDef& initial, Quantity quantity,
                       QWidget* parent = nullptr);

    /// The distribution as cell text; valid once accepted (or when error() is empty).
    QString text() const;
    /// Why the fields do not make a distribution, or "".
    QString error() const;

    QComboBox* kindBox() const { return m_kind; }
    QLineEdit* firstField() const { return m_first; }
    QLineEdit* secondField() const { return m_second; }
    QLineEdit* minField() const { return m_min; }
    QLineEdit* maxField() const { return m_max; }

    /// Commits the accepted text where it goes; returns the refusal reason or "". A refused
    /// value keeps the dialog open with the reason, so the user can correct it there.
    using Commit = std::function<QString(const QString& text)>;
    void setCommit(Commit commit) { m_commit = std::move(commit); }

    void accept() override;

private:
    void kindChanged();
    QString composed() const;

    Quantity m_quantity;
    QComboBox* m_kind;
    QLabel *m_firstLabel, *m_secondLabel, *m_error;
    QLineEdit *m_first, *m_second, *m_min, *m_max;
    Commit m_commit;
};

}  // namespace gpuplan::ui
