// Colours that mean something: one per team, one per layer of the four-layer model, one per
// buying class. Readable on light and dark palettes.
#pragma once

#include <QApplication>
#include <QColor>
#include <QPalette>
#include <QString>
#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::ui {

/// Automatic team colours are pairwise at least kMinTeamColorDistance apart (CIELAB ΔE*76;
/// ~2.3 is just noticeable, 20 is plainly another colour) for up to this many teams.
inline constexpr std::size_t kDistinctTeamColors = 64;
inline constexpr double kMinTeamColorDistance = 20;
/// Team colours: the scenario's "#rrggbb" where given, else the automatic sequence (Tableau
/// 10, then each next colour as far as possible from all before it).
std::vector<QColor> teamColors(const Results& results);
/// CIELAB ΔE*76 between two colours.
double colorDistance(const QColor& a, const QColor& b);
/// Series drawn in one chart are pairwise at least this far apart (CIELAB ΔE*76) as drawn,
/// in the light and the dark palette.
inline constexpr double kMinSeriesColorDistance = 20;
/// A chart line's colour as drawn. On a dark background a dark colour (HSL lightness < 110)
/// becomes a pale tint of its hue (lightness 200), so it neither vanishes on the background
/// nor lands on a mid colour of the same hue; elsewhere the colour is drawn as it is.
QColor shownLineColor(const QColor& color, bool darkBackground);
QColor layerColor(Layer layer);
QString layerName(Layer layer);  ///< "Reservation", …
QColor buyingClassColor(BuyingClass c);
QColor freeGpuColor(const QPalette& palette);
QColor notReadyColor();
/// Fusion style with a light or dark palette (for demos and checking both).
void applyPalette(QApplication& app, bool dark);
enum class TimeLabel {
    Full,   ///< "d0 00:00", "d2 04:30"
    Short,  ///< "d2" at midnight, else as Full (chart ticks)
};
/// THE label of a simulated instant, everywhere (header, scrubber, charts, tooltips,
/// inspector): "d<day> hh:mm" with days counted from 0, so t = 0 reads "d0 00:00" and the
/// chart axis's "d2" is the same moment as the header's "d2 00:00".
QString formatSimTime(double seconds, TimeLabel style = TimeLabel::Full);
/// "3.2 h", "45 min", "12 s".
QString formatDuration(double seconds);

}  // namespace gpuplan::ui
