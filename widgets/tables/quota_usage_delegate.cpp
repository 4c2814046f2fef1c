#include "quota_usage_delegate.hpp"

#include <QApplication>
#include <QPainter>
#include <algorithm>

#include "quota_table_model.hpp"

namespace gpuplan::ui {

namespace {
constexpr int kBarWidthPx = 120;
constexpr int kGapPx = 8;
}  // namespace

QColor QuotaUsageDelegate::withinNominalColor() {
    return QColor(0x4c, 0x8b, 0xc9);  // steel blue
}

QColor QuotaUsageDelegate::borrowedColor() {
    return QColor(0xe8, 0x8a, 0x2e);  // amber: clearly another colour on light and dark
}

void QuotaUsageDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const {
    const QVariant v = index.data(QuotaTableModel::UsageRole);
    if (!v.canConvert<QuotaUsage>()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const QuotaUsage u = v.value<QuotaUsage>();
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();  // the background and selection only; text and bar are ours
    QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

    const QRect cell = option.rect.adjusted(4, 3, -4, -3);
    const QRect bar(cell.left(), cell.top(), std::min(kBarWidthPx, cell.width() / 2),
                    cell.height());
    const double scale = u.scaleGpus();
    auto x = [&](double gpus) {
        return bar.left() + (scale > 0 ? static_cast<int>(bar.width() * gpus / scale + 0.5) : 0);
    };
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    const QPalette& pal = option.palette;
    painter->fillRect(bar, pal.color(QPalette::AlternateBase).darker(108));
    const double within = std::max(0.0, u.usedGpus - u.borrowedGpus);
    painter->fillRect(QRect(QPoint(bar.left(), bar.top()), QPoint(x(within) - 1, bar.bottom())),
                      withinNominalColor());
    if (u.borrowedGpus > 0)
        painter->fillRect(
            QRect(QPoint(x(within), bar.top()), QPoint(x(u.usedGpus) - 1, bar.bottom())),
            borrowedColor());
    painter->setPen(pal.color(QPalette::Mid));
    painter->drawRect(bar.adjusted(0, 0, -1, -1));
    // The nominal quota: a tick across the bar, a little taller than it.
    const int tick = std::min(x(u.nominalGpus), bar.right());
    painter->setPen(QPen(pal.color(QPalette::Text), 2));
    painter->drawLine(tick, bar.top() - 2, tick, bar.bottom() + 2);

    const QRect textRect(bar.right() + kGapPx, cell.top(), cell.right() - bar.right() - kGapPx,
                         cell.height());
    painter->setPen(pal.color(option.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                    : QPalette::Text));
    painter->drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter,
                      option.fontMetrics.elidedText(u.text(), Qt::ElideRight, textRect.width()));
    painter->restore();
}

QSize QuotaUsageDelegate::sizeHint(const QStyleOptionViewItem& option,
                                   const QModelIndex& index) const {
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    const int text =
        option.fontMetrics.horizontalAdvance(QStringLiteral("888 / 888 (+888 borrowed)"));
    s.setWidth(std::max(s.width(), kBarWidthPx + kGapPx + text + 8));
    return s;
}

}  // namespace gpuplan::ui
