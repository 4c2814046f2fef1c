#include "cohort_view.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "format/kpi_format.hpp"
#include "format/ui_palette.hpp"
#include "time_axis.hpp"

namespace gpuplan::ui {

namespace {

constexpr int kLabelWidthPx = 132;  // team name, nominal, the scale's numbers
constexpr int kRightMarginPx = 18;  // room for the last time label
constexpr int kLegendHeightPx = 22;
constexpr int kHeadingHeightPx = 22;
constexpr int kStripGapPx = 6;
constexpr int kAxisHeightPx = 22;
constexpr int kMinStripHeightPx = 44;
constexpr int kMaxStripHeightPx = 120;
/// Demand may be many times what the quota holds (a backlog): above this many times the
/// bands' top it is cut at the strip's top, so the bands keep their room. The tooltip gives
/// the number.
constexpr double kDemandHeadroom = 2;

QString gpusText(double gpus) {
    if (!std::isfinite(gpus)) return QStringLiteral("–");
    return formatFixed(gpus, std::fabs(gpus - std::round(gpus)) < 1e-9 || gpus >= 100 ? 0 : 1);
}

/// The borrowed band: the team's hue, much darker — the same team, plainly another band, on
/// light and dark palettes.
QColor borrowedShade(const QColor& teamColor) {
    return teamColor.darker(175);
}

double valueAt(const Series* s, std::size_t k) {
    if (!s || k >= s->values.size() || !std::isfinite(s->values[k])) return 0;
    return s->values[k];
}

}  // namespace

CohortView::CohortView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setCursor(Qt::CrossCursor);
}

void CohortView::setResults(std::shared_ptr<const Results> results, std::vector<QuotaDef> quotas,
                            std::vector<CohortDef> cohorts) {
    m_results = std::move(results);
    m_strips.clear();
    m_columnsWidth = -1;
    if (m_results) {
        const std::vector<QColor> colors = teamColors(*m_results);
        // Cohorts in the scenario's order, then the teams in no cohort; teams in quota order.
        std::vector<std::string> order;
        for (const CohortDef& c : cohorts)
            order.push_back(c.name);
        order.push_back(std::string());
        for (const std::string& cohort : order) {
            const CohortDef* def = nullptr;
            for (const CohortDef& c : cohorts)
                if (c.name == cohort) def = &c;
            for (const QuotaDef& q : quotas) {
                if (q.cohort != cohort) continue;
                const auto team =
                    std::find(m_results->teams.begin(), m_results->teams.end(), q.team);
                // The run manages the team when it wrote its series; a quota added since is not
                // drawn until its own results arrive.
                const Series* used = m_results->findSeries("quota_used_gpus{" + q.team + "}");
                if (team == m_results->teams.end() || !used) continue;
                Strip s;
                s.team = static_cast<int>(team - m_results->teams.begin());
                s.name = QString::fromStdString(q.team);
                if (cohort.empty())
                    s.cohort = tr("No cohort (neither lends nor borrows)");
                else if (def && !def->parent.empty())
                    s.cohort = tr("Cohort %1 (in %2)")
                                   .arg(QString::fromStdString(cohort),
                                        QString::fromStdString(def->parent));
                else
                    s.cohort = tr("Cohort %1").arg(QString::fromStdString(cohort));
                // The queue's nominal quota, as the ledger counts it: Σ over its flavors.
                for (const FlavorQuotaDef& f : q.flavors)
                    s.nominalGpus += f.nominalGpus;
                s.used = used;
                s.borrowed = m_results->findSeries("quota_borrowed_gpus{" + q.team + "}");
                s.lent = m_results->findSeries("quota_lent_gpus{" + q.team + "}");
                s.pending = m_results->findSeries("quota_pending_gpus{" + q.team + "}");
                s.color = colors[s.team];
                m_strips.push_back(std::move(s));
            }
        }
    }
    // One scale for every strip, so heights compare across teams: the bands' and nominal
    // quotas' top, and demand up to kDemandHeadroom times it.
    double bandsTop = 0, demandTop = 0;
    for (const Strip& s : m_strips) {
        bandsTop = std::max(bandsTop, s.nominalGpus);
        for (std::size_t k = 0; k < m_results->sampleTimesS.size(); ++k) {
            const TeamSample v = sampleOf(s, k);
            bandsTop = std::max(bandsTop, v.usedGpus + v.lentGpus);
            demandTop = std::max(demandTop, v.demandGpus());
        }
    }
    const double top = std::max(bandsTop, std::min(demandTop, kDemandHeadroom * bandsTop));
    m_scaleGpus = top > 0 ? top * 1.05 : 1;
    updateGeometry();
    update();
}

void CohortView::setTime(double timeS) {
    if (timeS == m_timeS) return;
    m_timeS = timeS;
    update();
}

QStringList CohortView::teams() const {
    QStringList names;
    for (const Strip& s : m_strips)
        names << s.name;
    return names;
}

TeamSample CohortView::sampleOf(const Strip& s, std::size_t k) const {
    TeamSample v;
    v.nominalGpus = s.nominalGpus;
    v.usedGpus = valueAt(s.used, k);
    v.borrowedGpus = valueAt(s.borrowed, k);
    v.lentGpus = valueAt(s.lent, k);
    v.pendingGpus = valueAt(s.pending, k);
    return v;
}

TeamSample CohortView::valuesAt(const QString& team, double timeS) const {
    // The same columns the painting reads.
    const int width = plotWidthPx();
    const std::vector<std::vector<Column>>& drawn = columns(width);
    for (std::size_t i = 0; i < m_strips.size(); ++i) {
        if (m_strips[i].name != team) continue;
        const Column& c = drawn[i][xOf(timeS) - kLabelWidthPx];
        return c.shown ? c.bands : TeamSample{.nominalGpus = m_strips[i].nominalGpus};
    }
    return {};
}

QString CohortView::emptyText() const {
    if (!m_results) return tr("No results yet");
    if (m_strips.empty()) return tr("No quotas: add one in the Quotas dock");
    return {};
}

int CohortView::fixedHeightPx() const {
    int headings = 0;
    for (std::size_t i = 0; i < m_strips.size(); ++i)
        if (i == 0 || m_strips[i].cohort != m_strips[i - 1].cohort) ++headings;
    int legendHeight = kLegendHeightPx;
    legendPositions(&legendHeight);
    return legendHeight + std::max(1, headings) * kHeadingHeightPx + kAxisHeightPx;
}

QSize CohortView::minimumSizeHint() const {
    // The strips at their least height: more teams than the dock holds scroll.
    const int strips = std::max<int>(1, static_cast<int>(m_strips.size()));
    return {420, fixedHeightPx() + strips * (kMinStripHeightPx + kStripGapPx)};
}

QSize CohortView::sizeHint() const {
    const int strips = std::max<int>(1, static_cast<int>(m_strips.size()));
    return {900, fixedHeightPx() + strips * (76 + kStripGapPx)};
}

QStringList CohortView::legendLabels() const {
    return {
        tr("used within nominal"), tr("borrowed above nominal"), tr("lent to the cohort"),
        tr("nominal quota"),       tr("demand (used + queued)"),
    };
}

std::vector<QPoint> CohortView::legendPositions(int* heightPx) const {
    // Items left to right, wrapped to the width, so a narrow dock cuts none of them.
    const QFontMetrics fm(font());
    const int lineHeight = std::max(18, fm.height() + 4);
    std::vector<QPoint> at;
    int x = 6, y = 5;
    for (const QString& label : legendLabels()) {
        const int w = 16 + fm.horizontalAdvance(label);
        if (x > 6 && x + w > width() - 4) {
            x = 6;
            y += lineHeight;
        }
        at.emplace_back(x, y);
        x += w + 14;
    }
    if (heightPx) *heightPx = y + lineHeight;
    return at;
}

int CohortView::plotWidthPx() const {
    return std::max(1, width() - kLabelWidthPx - kRightMarginPx);
}

CohortView::Layout CohortView::layout() const {
    Layout l;
    const int n = static_cast<int>(m_strips.size());
    int legendHeight = kLegendHeightPx;
    legendPositions(&legendHeight);
    const int room = height() - fixedHeightPx() - n * kStripGapPx;
    const int stripH = n > 0 ? std::clamp(room / n, kMinStripHeightPx, kMaxStripHeightPx) : 0;
    const int left = kLabelWidthPx, width = plotWidthPx();
    int y = legendHeight;
    for (std::size_t i = 0; i < m_strips.size(); ++i) {
        if (i == 0 || m_strips[i].cohort != m_strips[i - 1].cohort) {
            l.headings.emplace_back(4, y, this->width() - 8, kHeadingHeightPx);
            l.headingText.push_back(m_strips[i].cohort);
            y += kHeadingHeightPx;
        }
        l.strips.emplace_back(left, y, width, stripH);
        y += stripH + kStripGapPx;
    }
    l.plot = QRect(left, legendHeight, width, std::max(0, y - legendHeight - kStripGapPx));
    l.axisY = y;
    return l;
}

QRect CohortView::stripRect(const QString& team) const {
    const Layout l = layout();
    for (std::size_t i = 0; i < m_strips.size(); ++i)
        if (m_strips[i].name == team) return l.strips[i];
    return {};
}

int CohortView::xOf(double timeS) const {
    const int width = plotWidthPx();
    const double horizonS = m_results ? std::max(1.0, m_results->horizonS) : 1;
    const int column = static_cast<int>(std::floor(timeS / horizonS * width));
    return kLabelWidthPx + std::clamp(column, 0, width - 1);
}

double CohortView::timeAtX(int x) const {
    const int width = plotWidthPx();
    const double horizonS = m_results ? m_results->horizonS : 0;
    // The middle of the pixel column: a click reads the time the column shows.
    return std::clamp((x - kLabelWidthPx + 0.5) / width * horizonS, 0.0, horizonS);
}

int CohortView::yOf(const QRect& r, double gpus) const {
    const double f = std::clamp(gpus / m_scaleGpus, 0.0, 1.0);
    return r.bottom() + 1 - static_cast<int>(std::lround(f * r.height()));
}

QColor CohortView::usedColor(const QString& team) const {
    for (const Strip& s : m_strips)
        if (s.name == team) return s.color;
    return {};
}

QColor CohortView::borrowedColor(const QString& team) const {
    // The team's hue, much darker: the same team, plainly another band, on light and dark.
    const QColor c = usedColor(team);
    return c.isValid() ? borrowedShade(c) : c;
}

const std::vector<std::vector<CohortView::Column>>& CohortView::columns(int plotWidth) const {
    // Decimation to the pixel column, computed once per results and width (the cursor moves
    // far more often: Play repaints every frame). Of the samples in force in a column, the
    // bands show the one whose stack (use + lent) is highest, whole, so the three bands are one
    // instant's values and never a mix of maxima from different instants (a borrow peak is a
    // use peak, so it stays visible); demand takes its own maximum over the column, so a short
    // backlog is not lost.
    if (m_columnsWidth == plotWidth) return m_columns;
    m_columnsWidth = plotWidth;
    m_columns.assign(m_strips.size(), std::vector<Column>(std::max(0, plotWidth)));
    if (!m_results || m_results->sampleTimesS.empty()) return m_columns;
    const std::vector<double>& times = m_results->sampleTimesS;
    const double horizonS = std::max(1.0, m_results->horizonS);
    for (int c = 0; c < plotWidth; ++c) {
        const std::optional<std::size_t> first = m_results->sampleAt(c * horizonS / plotWidth);
        if (!first) continue;  // before the first sample
        const double endS = (c + 1) * horizonS / plotWidth;
        for (std::size_t i = 0; i < m_strips.size(); ++i) {
            Column& column = m_columns[i][c];
            column.shown = true;
            double stackTop = -1;
            for (std::size_t k = *first; k < times.size() && (k == *first || times[k] < endS);
                 ++k) {
                const TeamSample v = sampleOf(m_strips[i], k);
                if (v.usedGpus + v.lentGpus > stackTop) {
                    stackTop = v.usedGpus + v.lentGpus;
                    column.bands = v;
                }
                column.demandMaxGpus = std::max(column.demandMaxGpus, v.demandGpus());
            }
        }
    }
    return m_columns;
}

void CohortView::paintStrip(QPainter& p, const Strip& s, const QRect& r,
                            const std::vector<Column>& columns) const {
    const QColor used = s.color, borrowed = borrowedShade(used);
    QColor lentFill = used;
    lentFill.setAlpha(55);
    QColor hatch = used;
    hatch.setAlpha(170);
    const QBrush lentHatch(hatch, Qt::BDiagPattern);
    QPolygonF demand;
    p.setRenderHint(QPainter::Antialiasing, false);
    for (int c = 0; c < static_cast<int>(columns.size()); ++c) {
        if (!columns[c].shown) continue;
        const TeamSample& v = columns[c].bands;
        const int x = r.left() + c;
        const int y0 = r.bottom() + 1, y1 = yOf(r, v.usedWithinNominalGpus()),
                  y2 = yOf(r, v.usedGpus), y3 = yOf(r, v.usedGpus + v.lentGpus);
        if (y1 < y0) p.fillRect(QRect(x, y1, 1, y0 - y1), used);
        if (y2 < y1) p.fillRect(QRect(x, y2, 1, y1 - y2), borrowed);
        if (y3 < y2) {
            p.fillRect(QRect(x, y3, 1, y2 - y3), lentFill);
            p.fillRect(QRect(x, y3, 1, y2 - y3), lentHatch);
        }
        demand << QPointF(x + 0.5, std::max(r.top(), yOf(r, columns[c].demandMaxGpus)));
    }
    // The nominal quota, dashed, and demand above the bands.
    const QColor text = palette().color(QPalette::Text);
    QPen nominalPen(text, 1, Qt::DashLine);
    p.setPen(nominalPen);
    const int yNominal = yOf(r, s.nominalGpus);
    p.drawLine(r.left(), yNominal, r.right(), yNominal);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(text, 1.6));
    p.drawPolyline(demand);
    p.setRenderHint(QPainter::Antialiasing, false);
    // The frame and the label column: the team, its nominal quota, the scale.
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.adjusted(0, 0, -1, -1));
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.fillRect(QRect(6, r.top() + 4, 10, 10), used);
    p.setPen(text);
    const QRect label(20, r.top(), kLabelWidthPx - 56, r.height());
    const QFontMetrics fmBold(bold);
    p.drawText(label.adjusted(0, 1, 0, 0), Qt::AlignLeft | Qt::AlignTop,
               fmBold.elidedText(s.name, Qt::ElideRight, label.width()));
    p.setFont(font());
    if (r.height() >= 2 * fmBold.height())
        p.drawText(label.adjusted(0, fmBold.height() + 1, 0, 0), Qt::AlignLeft | Qt::AlignTop,
                   tr("nominal %1").arg(gpusText(s.nominalGpus)));
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    p.setFont(small);
    p.setPen(palette().color(QPalette::PlaceholderText));
    const QRect scale(kLabelWidthPx - 34, r.top() - 2, 30, r.height() + 4);
    p.drawText(scale, Qt::AlignRight | Qt::AlignTop, gpusText(m_scaleGpus));
    p.drawText(scale, Qt::AlignRight | Qt::AlignBottom, QStringLiteral("0"));
    p.setFont(font());
}

void CohortView::paintTimeAxis(QPainter& p, const Layout& l) const {
    const double horizonS = std::max(1.0, m_results->horizonS);
    const QFontMetrics fm(font());
    const double stepS = timeAxisStepS(horizonS, l.plot.width(), fm);
    QColor grid = palette().color(QPalette::Mid);
    grid.setAlpha(90);
    for (double t = 0; t <= horizonS + 1e-6; t += stepS) {
        const int x = l.plot.left() + static_cast<int>(std::lround(t / horizonS * l.plot.width()));
        p.setPen(grid);
        for (const QRect& r : l.strips)
            p.drawLine(x, r.top(), x, r.bottom());
        p.setPen(palette().color(QPalette::Text));
        const QString label = formatSimTime(t, TimeLabel::Short);
        const int w = fm.horizontalAdvance(label);
        p.drawText(QRect(x - w / 2 - 2, l.axisY, w + 4, kAxisHeightPx), Qt::AlignCenter, label);
    }
}

void CohortView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QString empty = emptyText();
    if (!empty.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, empty);
        return;
    }
    const Layout l = layout();
    // The legend, in a neutral grey: each strip uses its team's colour the same way.
    {
        const QColor grey(0x80, 0x80, 0x80);
        QColor lent = grey;
        lent.setAlpha(55);
        const QColor text = palette().color(QPalette::Text);
        const QStringList labels = legendLabels();
        const std::vector<QPoint> at = legendPositions(nullptr);
        for (int i = 0; i < labels.size(); ++i) {
            const QRect r(at[i], QSize(12, 12));
            switch (i) {
                case 0:
                    p.fillRect(r, grey);
                    break;
                case 1:
                    p.fillRect(r, borrowedShade(grey));
                    break;
                case 2:
                    p.fillRect(r, lent);
                    p.fillRect(r, QBrush(grey, Qt::BDiagPattern));
                    break;
                default:  // the nominal quota dashed, demand solid
                    p.setPen(QPen(text, i == 3 ? 1 : 1.6, i == 3 ? Qt::DashLine : Qt::SolidLine));
                    p.drawLine(r.left(), r.center().y(), r.right(), r.center().y());
            }
            p.setPen(text);
            p.drawText(at[i] + QPoint(16, 11), labels[i]);
        }
    }
    QFont bold = font();
    bold.setBold(true);
    for (std::size_t h = 0; h < l.headings.size(); ++h) {
        p.setFont(bold);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(l.headings[h], Qt::AlignLeft | Qt::AlignVCenter, l.headingText[h]);
    }
    p.setFont(font());
    paintTimeAxis(p, l);
    const std::vector<std::vector<Column>>& columns = this->columns(plotWidthPx());
    for (std::size_t i = 0; i < m_strips.size(); ++i)
        paintStrip(p, m_strips[i], l.strips[i], columns[i]);
    // The scrubber's time, across every strip.
    p.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
    const int x = xOf(m_timeS);
    p.drawLine(x, l.plot.top(), x, l.plot.bottom());
}

int CohortView::stripAt(QPoint pos) const {
    const Layout l = layout();
    for (std::size_t i = 0; i < l.strips.size(); ++i)
        if (l.strips[i].adjusted(0, -kStripGapPx / 2, 0, kStripGapPx / 2).contains(pos))
            return static_cast<int>(i);
    return -1;
}

QString CohortView::tooltipAt(QPoint pos) const {
    const int i = stripAt(pos);
    if (i < 0 || !m_results) return {};
    const Strip& s = m_strips[i];
    const double t = timeAtX(pos.x());
    const TeamSample v = valuesAt(s.name, t);
    QStringList lines{
        QStringLiteral("<b>%1</b> · %2").arg(s.name.toHtmlEscaped(), formatSimTime(t))};
    lines << tr("used %1 GPUs: %2 within its nominal %3 + %4 borrowed")
                 .arg(gpusText(v.usedGpus), gpusText(v.usedWithinNominalGpus()),
                      gpusText(v.nominalGpus), gpusText(v.borrowedGpus));
    lines << tr("lent to its cohort: %1").arg(gpusText(v.lentGpus));
    lines << tr("demand %1 (%2 queued)").arg(gpusText(v.demandGpus()), gpusText(v.pendingGpus));
    // One line per value, never wrapped: rich tooltips wrap long lines at a narrow width.
    return QStringLiteral("<nobr>%1</nobr>").arg(lines.join(QStringLiteral("<br>")));
}

void CohortView::mouseMoveEvent(QMouseEvent* e) {
    const QString text = tooltipAt(e->position().toPoint());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(e->globalPosition().toPoint(), text, this);
}

void CohortView::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton && stripAt(e->position().toPoint()) >= 0) {
        emit timeClicked(timeAtX(e->position().toPoint().x()));
        return;
    }
    QWidget::mousePressEvent(e);
}

}  // namespace gpuplan::ui
