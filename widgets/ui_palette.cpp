#include "ui_palette.hpp"

#include <QPalette>
#include <QStyle>
#include <cmath>

namespace gpuplan::ui {

std::vector<QColor> teamColors(const Results& r) {
    // Tableau 10: distinguishable, and calm enough for a meeting-room screen.
    static const char* kAuto[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#e15759",
                                  "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac"};
    std::vector<QColor> colors;
    for (std::size_t i = 0; i < r.teams.size(); ++i) {
        const std::string given = i < r.teamColors.size() ? r.teamColors[i] : std::string();
        colors.emplace_back(given.empty() ? QColor(kAuto[i % 10])
                                          : QColor(QString::fromStdString(given)));
    }
    return colors;
}

QColor layerColor(Layer layer) {
    switch (layer) {
        case Layer::Reservation:
            return QColor("#8e44ad");
        case Layer::Provisioning:
            return QColor("#e67e22");
        case Layer::Scheduling:
            return QColor("#2e86c1");
        case Layer::Workload:
            return QColor("#c0392b");
    }
    return Qt::gray;
}

QString layerName(Layer layer) {
    switch (layer) {
        case Layer::Reservation:
            return QStringLiteral("Reservation");
        case Layer::Provisioning:
            return QStringLiteral("Provisioning");
        case Layer::Scheduling:
            return QStringLiteral("Scheduling");
        case Layer::Workload:
            return QStringLiteral("Workload");
    }
    return {};
}

QColor buyingClassColor(BuyingClass c) {
    switch (c) {
        case BuyingClass::Reserved:
            return QColor("#7f8c8d");
        case BuyingClass::OnDemand:
            return QColor("#2980b9");
        case BuyingClass::Spot:
            return QColor("#e67e22");
        case BuyingClass::CapacityBlock:
            return QColor("#27ae60");
    }
    return Qt::gray;
}

QColor freeGpuColor(const QPalette& palette) {
    const QColor base = palette.color(QPalette::Base);
    return base.lightness() > 128 ? QColor("#e4e7eb") : QColor("#3a3f44");
}

QColor notReadyColor() {
    return QColor(120, 120, 120, 170);
}

void applyPalette(QApplication& app, bool dark) {
    app.setStyle(QStringLiteral("Fusion"));
    if (!dark) {
        app.setPalette(app.style()->standardPalette());
        return;
    }
    QPalette p;
    p.setColor(QPalette::Window, QColor(37, 40, 45));
    p.setColor(QPalette::WindowText, QColor(225, 228, 232));
    p.setColor(QPalette::Base, QColor(28, 30, 34));
    p.setColor(QPalette::AlternateBase, QColor(44, 48, 54));
    p.setColor(QPalette::Text, QColor(225, 228, 232));
    p.setColor(QPalette::Button, QColor(48, 52, 58));
    p.setColor(QPalette::ButtonText, QColor(225, 228, 232));
    p.setColor(QPalette::ToolTipBase, QColor(50, 54, 60));
    p.setColor(QPalette::ToolTipText, QColor(235, 235, 235));
    p.setColor(QPalette::Highlight, QColor(64, 156, 255));
    p.setColor(QPalette::HighlightedText, Qt::black);
    p.setColor(QPalette::Mid, QColor(95, 100, 108));
    p.setColor(QPalette::PlaceholderText, QColor(140, 145, 150));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(120, 120, 120));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(120, 120, 120));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(120, 120, 120));
    app.setPalette(p);
}

QString formatSimTime(double seconds) {
    const long long s = static_cast<long long>(std::floor(seconds));
    const long long days = s / 86400;
    const int h = static_cast<int>((s % 86400) / 3600), m = static_cast<int>((s % 3600) / 60);
    return QStringLiteral("day %1, %2:%3")
        .arg(days + 1)
        .arg(h, 2, 10, QLatin1Char('0'))
        .arg(m, 2, 10, QLatin1Char('0'));
}

QString formatDuration(double seconds) {
    if (!std::isfinite(seconds)) return QStringLiteral("–");
    if (seconds < 120) return QStringLiteral("%1 s").arg(seconds, 0, 'f', 0);
    if (seconds < 2 * 3600) return QStringLiteral("%1 min").arg(seconds / 60, 0, 'f', 0);
    if (seconds < 2 * 86400) return QStringLiteral("%1 h").arg(seconds / 3600, 0, 'f', 1);
    return QStringLiteral("%1 d").arg(seconds / 86400, 0, 'f', 1);
}

}  // namespace gpuplan::ui
