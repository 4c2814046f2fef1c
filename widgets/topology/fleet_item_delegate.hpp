// Editors for the fleet tree: a combo box where the model offers choices (node types, buying
// classes), a spin box for counts (0 allowed, so the refusal can explain it) and hours.
#pragma once

#include <QStyledItemDelegate>

namespace gpuplan::ui {

class FleetItemDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override;
    void updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override;
};

}  // namespace gpuplan::ui
