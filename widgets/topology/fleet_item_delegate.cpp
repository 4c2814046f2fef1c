#include "fleet_item_delegate.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <algorithm>

#include "fleet_tree_model.hpp"

namespace gpuplan::ui {

QWidget* FleetItemDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                         const QModelIndex& index) const {
    const QStringList choices = index.data(FleetTreeModel::ChoicesRole).toStringList();
    if (!choices.isEmpty()) {
        auto* combo = new QComboBox(parent);
        const QStringList labels = index.data(FleetTreeModel::ChoiceLabelsRole).toStringList();
        for (qsizetype i = 0; i < choices.size(); ++i)
            combo->addItem(i < labels.size() ? labels[i] : choices[i], choices[i]);
        // A choice is the whole edit: commit it when picked, not when focus happens to leave.
        auto* self = const_cast<FleetItemDelegate*>(this);
        connect(combo, &QComboBox::activated, self, [self, combo] {
            emit self->commitData(combo);
            emit self->closeEditor(combo);
        });
        return combo;
    }
    if (index.column() == FleetTreeModel::CountColumn) {
        // Any whole number can be typed, "-1" and "0" included: the edit refuses what is not
        // a count and says why. A narrower range would quietly turn "-1" into "1".
        auto* spin = new QSpinBox(parent);
        spin->setRange(-1'000'000'000, 1'000'000'000);
        return spin;
    }
    if (index.column() == FleetTreeModel::ReadyAtColumn) {
        auto* hours = new QDoubleSpinBox(parent);
        hours->setRange(0, 24 * 366 * 3);
        hours->setDecimals(1);
        hours->setSuffix(tr(" h"));
        hours->setSpecialValueText(tr("from the start"));
        return hours;
    }
    return QStyledItemDelegate::createEditor(parent, option, index);
}

void FleetItemDelegate::updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option,
                                             const QModelIndex&) const {
    // Narrow columns would cut a node type's id; the editor may overlap its neighbours.
    QRect rect = option.rect;
    rect.setWidth(std::max(rect.width(), 190));
    editor->setGeometry(rect);
}

void FleetItemDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        combo->setCurrentIndex(combo->findData(index.data(Qt::EditRole)));
        return;
    }
    QStyledItemDelegate::setEditorData(editor, index);
}

void FleetItemDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                     const QModelIndex& index) const {
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        // Nothing chosen (the value shown is none of the choices): no edit.
        if (combo->currentIndex() >= 0) model->setData(index, combo->currentData(), Qt::EditRole);
        return;
    }
    QStyledItemDelegate::setModelData(editor, model, index);
}

}  // namespace gpuplan::ui
