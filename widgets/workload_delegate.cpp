#include "workload_delegate.hpp"

#include <QComboBox>
#include <QLineEdit>

#include "workload_models.hpp"

namespace gpuplan::ui {

QWidget* WorkloadDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                        const QModelIndex& index) const {
    const QStringList choices = index.data(ChoicesRole).toStringList();
    if (choices.isEmpty()) {
        auto* line = new QLineEdit(parent);
        line->setFrame(false);
        line->setToolTip(
            index.model()->headerData(index.column(), Qt::Horizontal, Qt::ToolTipRole).toString());
        return line;
    }
    auto* combo = new QComboBox(parent);
    combo->addItems(choices);
    // A pick is the edit: commit and close at once, as a line edit does on Enter.
    connect(combo, &QComboBox::activated, this, [this, combo] {
        auto* self = const_cast<WorkloadDelegate*>(this);
        emit self->commitData(combo);
        emit self->closeEditor(combo);
    });
    (void)option;
    return combo;
}

void WorkloadDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
    const QString value = index.data(Qt::EditRole).toString();
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        combo->setCurrentText(value);
        return;
    }
    if (auto* line = qobject_cast<QLineEdit*>(editor)) {
        line->setText(value);
        line->selectAll();
    }
}

void WorkloadDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                    const QModelIndex& index) const {
    if (auto* combo = qobject_cast<QComboBox*>(editor))
        model->setData(index, combo->currentText(), Qt::EditRole);
    else if (auto* line = qobject_cast<QLineEdit*>(editor))
        model->setData(index, line->text(), Qt::EditRole);
}

}  // namespace gpuplan::ui
