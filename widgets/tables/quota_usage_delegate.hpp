// The usage column of the quota table: a bar of what the team's quota has admitted at the
// scrubber's time — used within the nominal quota, the borrowed part beyond it in another
// colour, the nominal quota as a tick — and the numbers beside it ("72 / 64 (+8 borrowed)").
// It paints QuotaTableModel::UsageRole; cells without it are drawn as plain text.
#pragma once

#include <QColor>
#include <QStyledItemDelegate>

namespace gpuplan::ui {

class QuotaUsageDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    static QColor withinNominalColor();
    static QColor borrowedColor();

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

}  // namespace gpuplan::ui
