#include "workload_delegate.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPointer>
#include <QToolButton>

#include "editors/workload_distribution_dialog.hpp"

#include "workload_models.hpp"

namespace gpuplan::ui {

QWidget* WorkloadDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                        const QModelIndex& index) const {
    const QStringList choices = index.data(ChoicesRole).toStringList();
    if (const QVariant q = index.data(DistributionRole); q.isValid())
        return distributionEditor(parent, index, static_cast<Quantity>(q.toInt()));
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
    if (auto* line = lineOf(editor)) {
        line->setText(value);
        line->selectAll();
    }
}

void WorkloadDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                    const QModelIndex& index) const {
    if (auto* combo = qobject_cast<QComboBox*>(editor))
        model->setData(index, combo->currentText(), Qt::EditRole);
    else if (auto* line = lineOf(editor))
        model->setData(index, line->text(), Qt::EditRole);
}

std::function<QString(const QString&)> WorkloadDelegate::commitTo(QAbstractItemModel* model,
                                                                  const QModelIndex& index) {
    return [model = QPointer<QAbstractItemModel>(model),
            cell = QPersistentModelIndex(index)](const QString& text) -> QString {
        if (!model || !cell.isValid()) return tr("the table changed; edit the cell again");
        if (model->setData(cell, text, Qt::EditRole)) return {};
        const auto* workload = qobject_cast<const WorkloadTableModel*>(model.data());
        return workload ? workload->lastRefusal() : tr("refused");
    };
}

QLineEdit* WorkloadDelegate::lineOf(QWidget* editor) {
    if (auto* line = qobject_cast<QLineEdit*>(editor)) return line;
    return editor->findChild<QLineEdit*>();
}

QWidget* WorkloadDelegate::distributionEditor(QWidget* parent, const QModelIndex& index,
                                              Quantity quantity) const {
    // The text as typed, plus "…" for a dialog by kind and parameters that writes the text.
    auto* box = new QWidget(parent);
    box->setAutoFillBackground(true);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(0);
    auto* line = new QLineEdit(box);
    line->setFrame(false);
    line->setToolTip(
        index.model()->headerData(index.column(), Qt::Horizontal, Qt::ToolTipRole).toString());
    auto* more = new QToolButton(box);
    more->setText(QStringLiteral("…"));
    more->setToolTip(tr("Choose the kind and its parameters"));
    more->setFocusPolicy(Qt::NoFocus);
    row->addWidget(line, 1);
    row->addWidget(more);
    box->setFocusProxy(line);
    auto* model = const_cast<QAbstractItemModel*>(index.model());
    connect(more, &QToolButton::clicked, this,
            [this, box, line, quantity, model, cell = QPersistentModelIndex(index)] {
                QString error;
                const auto current = parseDistribution(line->text(), quantity, &error);
                // The dialog commits itself and stays open on a refusal; the commit resets
                // the model, which may delete the editor, so the editor is not its parent.
                DistributionDialog dialog(current.value_or(DistributionDef{}), quantity,
                                          box->window());
                dialog.setCommit(commitTo(model, cell));
                const QPointer<QWidget> editor(box);
                if (dialog.exec() != QDialog::Accepted || !editor) return;
                line->setText(dialog.text());
                emit const_cast<WorkloadDelegate*>(this)->closeEditor(box);
            });
    return box;
}

}  // namespace gpuplan::ui
