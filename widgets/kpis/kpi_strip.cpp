#include "kpi_strip.hpp"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QVBoxLayout>
#include <cmath>
#include <limits>

#include "format/kpi_format.hpp"

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
        m_cells.push_back({name, label, {}, {}, 0, 0});
    }
    refresh();
}

QSize KpiStrip::minimumSizeHint() const {
    return {0, QWidget::minimumSizeHint().height()};
}

void KpiStrip::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    flow();
}

void KpiStrip::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    flow();
}

void KpiStrip::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    // The cells' widths are measured in the strip's font.
    if (e->type() == QEvent::FontChange || e->type() == QEvent::StyleChange) refresh();
}

int KpiStrip::layRows(bool compact, int room, std::vector<int>& rowOf) const {
    rowOf.clear();
    int row = 0, used = 0;
    const int spacing = compact ? kCompactSpacingPx : kCellSpacingPx;
    for (const Cell& c : m_cells) {
        const int w = c.label->isHidden() ? 0 : compact ? c.compactWidthPx : c.fullWidthPx;
        if (used > 0 && used + spacing + w > room) {
            ++row;
            used = 0;
        }
        used += (used > 0 ? spacing : 0) + w;
        rowOf.push_back(row);
    }
    return row + 1;
}

void KpiStrip::flow() {
    // Cells fill a row and go on in the next when the window is too narrow: none is ever cut.
    const QMargins margins = m_rows->contentsMargins();
    // Until shown the strip has no width of its own: one row, or the window would be laid out
    // (and sized) for rows it never needs.
    const int room =
        isVisible() ? width() - margins.left() - margins.right() : std::numeric_limits<int>::max();
    std::vector<int> rowOf;
    // Whole cells while two rows hold them; past that (a narrow window, deltas with their
    // intervals) each shortens to value and delta, its tooltip keeping the rest.
    const bool compact = layRows(false, room, rowOf) > kMaxWholeRows;
    if (compact) layRows(true, room, rowOf);
    if (compact != m_compact) {
        m_compact = compact;
        for (const Cell& c : m_cells)
            c.label->setText(compact ? c.compact : c.full);
        m_rowOf.clear();  // the spacing changes too
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
            line->setSpacing(m_compact ? kCompactSpacingPx : kCellSpacingPx);
            m_rows->addLayout(line);
        }
        line->addWidget(m_cells[i].label);
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

namespace {
QString plainText(QString html) {
    html.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    return html;
}
}  // namespace

QString KpiStrip::text(const std::string& kpi) const {
    for (const Cell& c : m_cells)
        if (c.kpi == kpi && !c.label->isHidden()) return plainText(c.full);
    return {};
}

void KpiStrip::refresh() {
    for (Cell& cell : m_cells) {
        const std::string& name = cell.kpi;
        QLabel* label = cell.label;
        const Kpi* current = m_results ? m_results->findKpi(name) : nullptr;
        // Costs exist only for a priced fleet: an unpriced run shows no cost cells at all.
        label->setVisible(current || !isCostKpi(name));
        if (!current) {
            cell.full = cell.compact =
                QStringLiteral("<span style='color:gray'>%1 –</span>").arg(kpiLabel(name));
            label->setToolTip(QString());
        } else {
            // Over replications: the mean, ± the half-width of its 95 % interval.
            const KpiEstimate* estimate = m_replications ? m_replications->findKpi(name) : nullptr;
            Kpi shown = *current;
            if (estimate) shown.value = estimate->interval.mean;
            const QString value =
                QStringLiteral("%1 <b>%2</b>").arg(kpiLabel(name), formatKpiValue(shown));
            QString halfWidth;
            if (estimate && std::isfinite(estimate->interval.low))
                halfWidth = QLatin1Char(' ') + formatKpiHalfWidth(shown, estimate->interval);
            // A total says what it is the total of: "$76.7k over 7.0 d".
            const QString span =
                shown.unit == "usd" ? QLatin1Char(' ') + measuredSpan(*m_results) : QString();
            QString delta, deltaWhole, deltaNote;
            const Kpi* base = m_baseline ? m_baseline->findKpi(name) : nullptr;
            const KpiEstimate* baseEstimate =
                m_baselineReplications ? m_baselineReplications->findKpi(name) : nullptr;
            if (base) {
                Kpi before = *base;
                if (baseEstimate) before.value = baseEstimate->interval.mean;
                // Paired on the same seeds: the difference's interval says whether it is noise.
                const std::optional<MeanInterval> paired =
                    estimate && baseEstimate
                        ? pairedDifference(*m_baselineReplications, *m_replications, name)
                        : std::nullopt;
                const KpiDelta d = compareKpi(shown, before, paired);
                if (!d.text.isEmpty()) {
                    const bool noise = d.significant == false;
                    const QString color = deltaToneColor(d.tone).name();
                    // Short of room, a delta that reads zero is left to the tooltip.
                    if (!d.text.startsWith(QStringLiteral("±")))
                        delta = QStringLiteral(" <span style='color:%1'>(%2)</span>")
                                    .arg(color, d.text);
                    deltaWhole =
                        QStringLiteral(" <span style='color:%1'>(%2%3)</span>")
                            .arg(color, d.text, noise ? tr(", not significant") : QString());
                    deltaNote =
                        tr("Against the baseline (%1): %2").arg(formatKpiValue(before), d.text);
                    if (!d.interval.isEmpty())
                        deltaNote +=
                            tr(", 95 % interval of the paired difference %1 (%2)")
                                .arg(d.interval, noise ? tr("may be noise") : tr("significant"));
                    deltaNote += QLatin1Char('.');
                }
            }
            cell.full = value + halfWidth + span + deltaWhole;
            cell.compact = value + span + delta;
            QString tip = plainText(cell.full) + QStringLiteral(". ") +
                          QString::fromStdString(current->description);
            if (!span.isEmpty())
                tip += QLatin1Char(' ') +
                       tr("Counted %1, the run's measured window.").arg(measuredSpan(*m_results));
            if (!deltaNote.isEmpty()) tip += QLatin1Char(' ') + deltaNote;
            label->setToolTip(wrappedToolTip(tip));
        }
        // Both widths, measured once here; flow() picks the form the room allows.
        label->setText(cell.compact);
        cell.compactWidthPx = label->sizeHint().width();
        label->setText(cell.full);
        cell.fullWidthPx = label->sizeHint().width();
        if (m_compact) label->setText(cell.compact);
    }
    m_rowOf.clear();  // deltas and hidden cells change the widths: lay the rows out again
    flow();
}

}  // namespace gpuplan::ui
