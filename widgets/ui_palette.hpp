// Colours that mean something: one per team, one per layer of the four-layer model, one per
// buying class. Readable on light and dark palettes.
#pragma once

#include <QApplication>
#include <QColor>
#include <QPalette>
#include <QString>
#include <vector>

#include "gpuplan/results.hpp"

namespace gpuplan::ui {

/// Team colours: the scenario's "#rrggbb" where given, else a 10-colour qualitative set.
std::vector<QColor> teamColors(const Results& results);
QColor layerColor(Layer layer);
QString layerName(Layer layer);  ///< "Reservation", …
QColor buyingClassColor(BuyingClass c);
QColor freeGpuColor(const QPalette& palette);
QColor notReadyColor();
/// Fusion style with a light or dark palette (for demos and checking both).
void applyPalette(QApplication& app, bool dark);
/// "2 d 03:15" style label of a simulated time.
QString formatSimTime(double seconds);
/// "3.2 h", "45 min", "12 s".
QString formatDuration(double seconds);

}  // namespace gpuplan::ui
