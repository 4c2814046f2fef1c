#include "topology_chrome.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <QPalette>
#include <algorithm>

namespace gpuplan::ui {

namespace {

constexpr double kMargin = 8;        // from the widget's edges
constexpr double kGap = 8;           // between the legend, the header and the fleet
constexpr double kPad = 6;           // inside the legend's box
constexpr double kFlowSpacing = 14;  // between items in a row
constexpr double kMinFleetW = 80, kMinFleetH = 60;

struct Metrics {
    double row, swatch;
};

Metrics metricsOf(const QFontMetricsF& fm) {
    return {fm.height() + 2, fm.height() - 4};
}

double itemWidth(const LegendItem& item, const QFontMetricsF& fm) {
    const Metrics m = metricsOf(fm);
    return (item.swatch == LegendItem::Swatch::None ? 0 : m.swatch + 6) +
           fm.horizontalAdvance(item.label);
}

/// Items in one column from the box's top left; the box's size.
QSizeF stack(const std::vector<LegendItem>& items, const QFontMetricsF& fm,
             std::vector<QRectF>& rects) {
    const double row = metricsOf(fm).row;
    double widest = 0;
    rects.clear();
    for (std::size_t i = 0; i < items.size(); ++i) {
        const double w = itemWidth(items[i], fm);
        rects.emplace_back(kPad, 4 + row * static_cast<double>(i), w, row);
        widest = std::max(widest, w);
    }
    return {widest + 2 * kPad, row * static_cast<double>(items.size()) + 8};
}

/// Items in rows no wider than `width` (the box's); the box's size, or an empty size when an
/// item alone is wider.
QSizeF flow(const std::vector<LegendItem>& items, const QFontMetricsF& fm, double width,
            std::vector<QRectF>& rects) {
    const double row = metricsOf(fm).row;
    const double inner = width - 2 * kPad;
    double x = 0, y = 4, widest = 0;
    rects.clear();
    for (const LegendItem& item : items) {
        const double w = itemWidth(item, fm);
        if (w > inner) return {};
        if (x > 0 && x + w > inner) {
            x = 0;
            y += row;
        }
        rects.emplace_back(kPad + x, y, w, row);
        widest = std::max(widest, x + w);
        x += w + kFlowSpacing;
    }
    return {widest + 2 * kPad, y + row + 4};
}

}  // namespace

ViewChrome placeChrome(ViewChrome::Place place, QSizeF size, QSizeF headerSize,
                       const std::vector<LegendItem>& items, const QFont& font) {
    const QFontMetricsF fm(font);
    ViewChrome c;
    c.place = place;
    c.header = QRectF(QPointF(size.width() - kMargin - headerSize.width(), kMargin), headerSize);
    QSizeF box;
    switch (place) {
        case ViewChrome::Place::Column:
            box = stack(items, fm, c.itemRects);
            c.legend = QRectF(QPointF(kMargin, kMargin), box);
            c.fleetArea = QRectF(QPointF(c.legend.right() + kGap, c.header.bottom() + kGap),
                                 QPointF(size.width() - kMargin, size.height() - kMargin));
            c.valid = c.legend.right() + kGap <= c.header.left() &&
                      c.legend.bottom() <= size.height() - kMargin;
            break;
        case ViewChrome::Place::BesideHeader: {
            box = flow(items, fm, c.header.left() - kGap - kMargin, c.itemRects);
            c.legend = QRectF(QPointF(kMargin, kMargin), box);
            const double band = std::max(c.header.bottom(), c.legend.bottom());
            c.fleetArea = QRectF(QPointF(kMargin, band + kGap),
                                 QPointF(size.width() - kMargin, size.height() - kMargin));
            c.valid = !box.isEmpty();
            break;
        }
        case ViewChrome::Place::Bottom:
            box = flow(items, fm, size.width() - 2 * kMargin, c.itemRects);
            c.legend = QRectF(QPointF(kMargin, size.height() - kMargin - box.height()), box);
            c.fleetArea = QRectF(QPointF(kMargin, c.header.bottom() + kGap),
                                 QPointF(size.width() - kMargin, c.legend.top() - kGap));
            c.valid = !box.isEmpty();
            break;
    }
    for (QRectF& r : c.itemRects)
        r.translate(c.legend.topLeft());
    c.valid = c.valid && c.fleetArea.width() >= kMinFleetW && c.fleetArea.height() >= kMinFleetH;
    return c;
}

void paintLegend(QPainter& p, const ViewChrome& chrome, const std::vector<LegendItem>& items,
                 const QFont& font, const QPalette& palette, const QString& lastLabel) {
    const QFontMetricsF fm(font);
    const Metrics m = metricsOf(fm);
    QColor bg = palette.color(QPalette::Base);
    bg.setAlpha(225);
    p.setPen(palette.color(QPalette::Mid));
    p.setBrush(bg);
    p.drawRoundedRect(chrome.legend, 4, 4);
    p.setFont(font);
    for (std::size_t i = 0; i < items.size() && i < chrome.itemRects.size(); ++i) {
        const LegendItem& item = items[i];
        const QRectF& r = chrome.itemRects[i];
        const QRectF sw(r.left(), r.center().y() - m.swatch / 2, m.swatch, m.swatch);
        switch (item.swatch) {
            case LegendItem::Swatch::Fill:
                p.setPen(Qt::NoPen);
                p.setBrush(item.color);
                p.drawRect(sw);
                break;
            case LegendItem::Swatch::CrossHatch:
                p.setPen(Qt::NoPen);
                p.setBrush(QBrush(item.color, Qt::DiagCrossPattern));
                p.drawRect(sw);
                break;
            case LegendItem::Swatch::Outline:
            case LegendItem::Swatch::DashedOutline:
                p.setPen(QPen(
                    item.color, 1.5,
                    item.swatch == LegendItem::Swatch::Outline ? Qt::SolidLine : Qt::DashLine));
                p.setBrush(Qt::NoBrush);
                p.drawRect(sw.adjusted(1, 1, -1, -1));
                break;
            case LegendItem::Swatch::None:
                break;
        }
        const double textX = item.swatch == LegendItem::Swatch::None ? r.left() : sw.right() + 6;
        p.setPen(palette.color(QPalette::WindowText));
        const bool last = i + 1 == items.size() && !lastLabel.isEmpty();
        p.drawText(QRectF(textX, r.top(), chrome.legend.right() - kPad - textX, r.height()),
                   Qt::AlignVCenter | Qt::AlignLeft, last ? lastLabel : item.label);
    }
}

QRectF headerBox(const ViewChrome& chrome, const QString& text, const QFont& bold) {
    const QFontMetricsF fm(bold);
    const double w = fm.horizontalAdvance(text) + 16;
    return QRectF(chrome.header.right() - w, chrome.header.top(), w,
                  std::max(chrome.header.height(), fm.height() + 8));
}

}  // namespace gpuplan::ui
