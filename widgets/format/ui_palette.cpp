#include "ui_palette.hpp"

#include <QPalette>
#include <QStyle>
#include <algorithm>
#include <cmath>

#include "gpuplan/core/time_format.hpp"

namespace gpuplan::ui {

namespace {

/// CIELAB (D65) of an sRGB colour: distances there follow what the eye tells apart.
struct Lab {
    double l, a, b;
};

Lab toLab(const QColor& c) {
    auto linear = [](double v) {
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    const double r = linear(c.redF()), g = linear(c.greenF()), b = linear(c.blueF());
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
    return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

double labDistance(const Lab& p, const Lab& q) {
    return std::hypot(p.l - q.l, p.a - q.a, p.b - q.b);
}

/// The automatic team colours, in order: Tableau 10 first (calm, for the usual few teams),
/// then each next colour the one farthest (in CIELAB) from every colour before it and from
/// the free-GPU greys of both palettes, so any prefix of N colours stays distinguishable.
const std::vector<QColor>& autoTeamColors() {
    static const std::vector<QColor> colors = [] {
        std::vector<QColor> out;
        for (const char* hex : {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#e15759", "#76b7b2",
                                "#edc948", "#ff9da7", "#9c755f", "#bab0ac"})
            out.emplace_back(QString::fromLatin1(hex));
        std::vector<QColor> candidates;
        for (int hue = 0; hue < 360; hue += 4)
            for (double s : {0.35, 0.55, 0.75, 0.95})
                for (double v : {0.5, 0.65, 0.8, 0.95})
                    candidates.push_back(QColor::fromHsvF(hue / 360.0, s, v));
        std::vector<Lab> candidateLab;
        for (const QColor& c : candidates)
            candidateLab.push_back(toLab(c));
        // Distance from each candidate to the nearest colour taken so far.
        std::vector<double> nearest(candidates.size(), 1e9);
        auto take = [&](const QColor& c) {
            const Lab lab = toLab(c);
            for (std::size_t i = 0; i < candidates.size(); ++i)
                nearest[i] = std::min(nearest[i], labDistance(candidateLab[i], lab));
        };
        take(QColor("#e4e7eb"));  // free GPU, light palette
        take(QColor("#3a3f44"));  // free GPU, dark palette
        for (const QColor& c : out)
            take(c);
        while (out.size() < kDistinctTeamColors) {
            const auto best = std::max_element(nearest.begin(), nearest.end()) - nearest.begin();
            out.push_back(candidates[best]);
            take(candidates[best]);
        }
        return out;
    }();
    return colors;
}

}  // namespace

double colorDistance(const QColor& a, const QColor& b) {
    return labDistance(toLab(a), toLab(b));
}

std::vector<QColor> teamColors(const Results& r) {
    // The scenario's colours where given; the others from the automatic sequence, skipping
    // colours that would be confused with a given one.
    std::vector<QColor> given(r.teams.size());
    for (std::size_t i = 0; i < r.teams.size() && i < r.teamColors.size(); ++i)
        if (!r.teamColors[i].empty()) given[i] = QColor(QString::fromStdString(r.teamColors[i]));
    const std::vector<QColor>& sequence = autoTeamColors();
    std::vector<QColor> colors;
    std::size_t next = 0;
    for (std::size_t i = 0; i < r.teams.size(); ++i) {
        if (given[i].isValid()) {
            colors.push_back(given[i]);
            continue;
        }
        QColor pick;
        while (!pick.isValid() && next < sequence.size()) {
            const QColor& c = sequence[next++];
            const bool clashes = std::any_of(given.begin(), given.end(), [&](const QColor& g) {
                return g.isValid() && colorDistance(g, c) < kMinTeamColorDistance;
            });
            if (!clashes) pick = c;
        }
        // Past the sequence (hundreds of teams): repeat it, a shade darker each round.
        if (!pick.isValid()) pick = sequence[i % sequence.size()].darker(115);
        colors.push_back(pick);
    }
    return colors;
}

QColor shownLineColor(const QColor& color, bool darkBackground) {
    // Lightening by a factor (lighter(180)) brought allocation's #1f4e79 to #388cda, ΔE 12
    // from occupancy's #2e86c1: the same blue on a dark chart. A fixed pale lightness keeps
    // the hue and puts the dark colours well above the mid ones.
    if (!darkBackground || color.lightness() >= 110) return color;
    return QColor::fromHsl(color.hslHue(), color.hslSaturation(), 200, color.alpha());
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
        case BuyingClass::OnPrem:
            return QColor("#8e44ad");
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

QString formatSimTime(double seconds, TimeLabel style) {
    // The rule lives in the engine so Qt-free code (fleet edits' undo labels) shares it.
    return QString::fromStdString(gpuplan::formatSimTime(seconds, style == TimeLabel::Short));
}

QString formatDuration(double seconds) {
    // One rounding rule with the engine's reason texts ("… in 3 min"): the engine's.
    return QString::fromStdString(gpuplan::formatDuration(seconds));
}

}  // namespace gpuplan::ui
