#include "kpi_strip.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QVBoxLayout>
#include <cmath>
#include <limits>

#include "kpi_format.hpp"

namespace gpuplan::ui {

KpiStrip::KpiStrip(QWidget* parent) : QWidget(parent) {
    m_rows = new QVBoxLayout(this);
    m_rows->setContentsMargins(8, 4, 8, 4);
    m_rows->setSpacing(2);
    // It flows rather than asks for the width of one row.
    m_rows->setSizeConstraint(QLayout::SetNoConstraint);
    for (const char* name : {"allocation_mean", "occupancy_mean", "mfu_mean", "wait_s_p50",
                             "wait_s_p95", "goodput", "pending_gpus_mean", "jobs_completed",
                             "cost_usd", "idle_cost_usd", "usd_per_useful_gpu_h"}) {
        auto* label = new QLabel(this);
        label->setTextFormat(Qt::RichText);
        m_cells.push_back({name, label});
    }
    refresh();
}

void KpiStrip::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    flow();
}

void KpiStrip::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    flow();
}

void KpiStrip::flow() {
    // Cells fill a row and go on in the next when the window is too narrow: none is ever cut.
    const QMargins margins = m_rows->contentsMargins();
    // Until shown the strip has no width of its own: one row, or the window would be laid out
    // (and sized) for rows it never needs.
    const int room =
        isVisible() ? width() - margins.left() - margins.right() : std::numeric_limits<int>::max();
    std::vector<int> rowOf;
    int row = 0, used = 0;
    for (const auto& [name, label] : m_cells) {
        const int w = label->isHidden() ? 0 : label->sizeHint().width();
        if (used > 0 && used + kCellSpacingPx + w > room) {
            ++row;
            used = 0;
        }
        used += (used > 0 ? kCellSpacingPx : 0) + w;
        rowOf.push_back(row);
    }
    if (rowOf == m_rowOf) return;
    m_rowOf = rowOf;
    while (QLayoutItem* item = m_rows->takeAt(0))
        delete item;  // the row layouts; the labels stay the strip's children
    QHBoxLayout* line = nullptr;
    for (std::size_t i = 0; i < m_cells.size(); ++i) {
        if (!line || (i > 0 && rowOf[i] != rowOf[i - 1])) {
            if (line) line->addStretch(1);
            line = new QHBoxLayout;
            line->setSpacing(kCellSpacingPx);
            m_rows->addLayout(line);
        }
        line->addWidget(m_cells[i].second);
    }
    line->addStretch(1);
}

void KpiStrip::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    refresh();
}

void KpiStrip::setBaseline(std::shared_ptr<const Results> baseline) {
    m_baseline = std::move(baseline);
    refresh();
}

void KpiStrip::setReplications(std::shared_ptr<const Replications> replications,
                               std::shared_ptr<const Replications> baseline) {
    m_replications = std::move(replications);
    m_baselineReplications = std::move(baseline);
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
        // Over replications: the mean, ± the half-width of its 95 % interval.
        const KpiEstimate* estimate = m_replications ? m_replications->findKpi(name) : nullptr;
        Kpi shown = *current;
        if (estimate) shown.value = estimate->interval.mean;
        QString html = QStringLiteral("%1 <b>%2</b>").arg(kpiLabel(name), formatKpiValue(shown));
        if (estimate && std::isfinite(estimate->interval.low))
            html += QLatin1Char(' ') + formatKpiHalfWidth(shown, estimate->interval);
        const Kpi* base = m_baseline ? m_baseline->findKpi(name) : nullptr;
        const KpiEstimate* baseEstimate =
            m_baselineReplications ? m_baselineReplications->findKpi(name) : nullptr;
        // Paired on the same seeds: the difference's interval says whether it is noise.
        const std::optional<MeanInterval> paired =
            base && estimate && baseEstimate
                ? pairedDifference(*m_baselineReplications, *m_replications, name)
                : std::nullopt;
        if (paired) {
            const MeanInterval& d = *paired;
            Kpi before = *base;
            before.value = baseEstimate->interval.mean;
            const QString delta = formatKpiDelta(shown, before);
            const int good = goodDirection(name);
            const char* color = !d.excludesZero() || good == 0 ? "gray"
                                : (d.mean > 0) == (good > 0)   ? "#1e8449"
                                                               : "#c0392b";
            if (!delta.isEmpty())
                html +=
                    QStringLiteral(" <span style='color:%1'>(%2%3)</span>")
                        .arg(color, delta, d.excludesZero() ? QString() : tr(", not significant"));
        } else if (base) {
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
    flow();  // deltas and hidden cells change the widths
}

}  // namespace gpuplan::ui
