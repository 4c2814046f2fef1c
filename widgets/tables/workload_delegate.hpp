// Cell editors of the workload tables: a combo box where the model offers choices
// (ChoicesRole, e.g. the teams), the text plus a "…" dialog for distributions
// (DistributionRole), a line edit with the text as shown everywhere else.
#pragma once

#include <QStyledItemDelegate>
#include <functional>

#include "format/workload_format.hpp"

class QLineEdit;

namespace gpuplan::ui {

class WorkloadDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override;

    /// What the "…" dialog does on OK: sets the cell's text and returns the model's refusal.
    static std::function<QString(const QString&)> commitTo(QAbstractItemModel* model,
                                                           const QModelIndex& index);

private:
    static QLineEdit* lineOf(QWidget* editor);
    QWidget* distributionEditor(QWidget* parent, const QModelIndex& index, Quantity quantity) const;
};

}  // namespace gpuplan::ui
