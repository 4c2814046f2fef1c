#include "kpi_strip.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QRegularExpression>

#include "kpi_format.hpp"

namespace gpuplan::ui {

KpiStrip::KpiStrip(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(18);
    for (const char* name : {"allocation_mean", "occupancy_mean", "mfu_mean", "wait_s_p50",
                             "wait_s_p95", "goodput", "pending_gpus_mean", "jobs_completed",
                             "cost_usd", "idle_cost_usd", "usd_per_useful_gpu_h"}) {
        auto* label = new QLabel(this);
        label->setTextFormat(Qt::RichText);
        layout->addWidget(label);
        m_cells.push_back({name, label});
    }
    layout->addStretch(1);
    refresh();
}

void KpiStrip::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    refresh();
}

void KpiStrip::setBaseline(std::shared_ptr<const Results> baseline) {
    m_baseline = std::move(baseline);
    refresh();
}

QString KpiStrip::text(const std::string& kpi) const {
    for (const auto& [name, label] : m_cells)
        if (name == kpi && !label->isHidden()) {
            QString plain = label->text();
            plain.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
            return plain;
        }
    return {};
}

void KpiStrip::refresh() {
    for (const auto& [name, label] : m_cells) {
        const Kpi* current = m_results ? m_results->findKpi(name) : nullptr;
        // Costs exist only for a priced fleet: an unpriced run shows no cost cells at all.
        label->setVisible(current || !isCostKpi(name));
        if (!current) {
            label->setText(
                QStringLiteral("<span style='color:gray'>%1 –</span>").arg(kpiLabel(name)));
            continue;
        }
        QString html = QStringLiteral("%1 <b>%2</b>").arg(kpiLabel(name), formatKpiValue(*current));
        const Kpi* base = m_baseline ? m_baseline->findKpi(name) : nullptr;
        if (base) {
            const QString delta = formatKpiDelta(*current, *base);
            const double d = current->value - base->value;
            const int good = goodDirection(name);
            const char* color = d == 0 || good == 0     ? "gray"
                                : (d > 0) == (good > 0) ? "#1e8449"
                                                        : "#c0392b";
            if (!delta.isEmpty())
                html += QStringLiteral(" <span style='color:%1'>(%2)</span>").arg(color, delta);
        }
        label->setText(html);
        label->setToolTip(QString::fromStdString(name + ": " + current->description));
    }
}

}  // namespace gpuplan::ui
