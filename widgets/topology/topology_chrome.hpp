// The fleet view's header (the status line, top right) and its legend, and the area left for
// the fleet: placed so that neither covers the other nor the fleet fitted into that area.
#pragma once

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QString>
#include <vector>

class QPainter;
class QPalette;

namespace gpuplan::ui {

struct LegendItem {
    enum class Swatch { Fill, CrossHatch, Outline, DashedOutline, None };
    Swatch swatch = Swatch::Fill;
    QColor color;
    QString label;
};

struct ViewChrome {
    /// Where the legend goes: a column on the left under nothing, a band of rows left of the
    /// header, or a band of rows along the bottom.
    enum class Place { Column, BesideHeader, Bottom };
    Place place = Place::Column;
    QRectF header;                  ///< room kept for the status box (top right)
    QRectF legend;                  ///< the legend's box
    std::vector<QRectF> itemRects;  ///< each legend item, swatch and label, in order
    QRectF fleetArea;               ///< what the fleet is fitted into
    bool valid = false;             ///< false: the legend does not fit this way
};

/// The placement `place` in a widget of `size`, with `headerSize` kept for the header and
/// `items` in the legend, in `font`. Invalid when the legend or the fleet would not fit.
ViewChrome placeChrome(ViewChrome::Place place, QSizeF size, QSizeF headerSize,
                       const std::vector<LegendItem>& items, const QFont& font);

/// Draws the legend's box and items; `lastLabel`, when given, replaces the last item's label
/// (a note that changes with the zoom; its box was sized for its longest wording).
void paintLegend(QPainter& p, const ViewChrome& chrome, const std::vector<LegendItem>& items,
                 const QFont& font, const QPalette& palette, const QString& lastLabel = {});

/// The status box for `text` in `bold`, at the top right of the header's room (it grows left
/// when the text is wider than the room kept).
QRectF headerBox(const ViewChrome& chrome, const QString& text, const QFont& bold);

}  // namespace gpuplan::ui
