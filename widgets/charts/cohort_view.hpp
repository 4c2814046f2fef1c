// The cohort view: small multiples of quota use over time, a heading per cohort and
// one strip per team with a quota, all on one time axis. Each strip stacks the GPU-equivalents
// the team uses within its nominal quota, what it borrows above it, and what it lends (its
// unused nominal quota others use, hatched, above its own use); the nominal quota is a dashed
// line and the team's demand (used + queued) a line above, so a starved team (demand far above
// use while others borrow) and a borrowing one show at a glance. The scrubber's time is a
// cursor; hovering shows a team's values at that time; a click asks to move the scrubber.
//
// The numbers are the engine's series quota_{used,borrowed,lent,pending}_gpus{team}
// (engine/src/sim/quota_series.cpp); the nominal quota and the cohorts come from the scenario's
// quotas, which the caller passes with the results they produced.
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "gpuplan/model/quota.hpp"
#include "gpuplan/results/results.hpp"

namespace gpuplan::ui {

/// One team's quota at one sample, GPU-equivalents over all its GPU models.
struct TeamSample {
    double nominalGpus = 0;
    double usedGpus = 0;
    double borrowedGpus = 0;  ///< used above nominal
    double lentGpus = 0;      ///< its unused nominal quota others use
    double pendingGpus = 0;   ///< asked by its queued jobs
    double usedWithinNominalGpus() const { return usedGpus - borrowedGpus; }
    double demandGpus() const { return usedGpus + pendingGpus; }
};

class CohortView : public QWidget {
    Q_OBJECT
public:
    explicit CohortView(QWidget* parent = nullptr);

    /// The results and the quotas and cohorts of the scenario they came from.
    void setResults(std::shared_ptr<const Results> results, std::vector<QuotaDef> quotas,
                    std::vector<CohortDef> cohorts);
    void setTime(double timeS);
    double time() const { return m_timeS; }

    /// The teams drawn, in order ("" when the empty state shows).
    QStringList teams() const;
    /// The values drawn for a team at time t: its bands in the pixel column of t at the
    /// current width (the sample in force at t, Results::sampleAt, while a column holds at
    /// most one sample; else the column's decimation pick). The demand line shows the
    /// column's highest demand, this sample's when the column holds one. All zero for a team
    /// not drawn; the nominal quota only before the first sample.
    TeamSample valuesAt(const QString& team, double timeS) const;
    /// Where a team's strip is (its plot area, axis excluded); empty for a team not drawn.
    QRect stripRect(const QString& team) const;
    /// The x of the pixel column that shows time t.
    int xOf(double timeS) const;
    /// The colours a team's bands are filled with.
    QColor usedColor(const QString& team) const;
    QColor borrowedColor(const QString& team) const;
    /// The sentence shown instead of strips, or empty while strips show.
    QString emptyText() const;
    /// What hovering at a widget position shows (empty outside the strips).
    QString tooltipAt(QPoint pos) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// The user clicked a strip at this simulated time.
    void timeClicked(double timeS);

protected:
    void paintEvent(QPaintEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;

private:
    struct Strip {
        int team = -1;  ///< index in Results::teams
        QString name;
        QString cohort;  ///< its heading
        double nominalGpus = 0;
        const Series* used = nullptr;
        const Series* borrowed = nullptr;
        const Series* lent = nullptr;
        const Series* pending = nullptr;
        QColor color;
    };
    struct Layout {
        QRect plot;                   ///< the time span, all strips
        std::vector<QRect> strips;    ///< per m_strips
        std::vector<QRect> headings;  ///< one per cohort change, before its first strip
        std::vector<QString> headingText;
        int axisY = 0;  ///< the time labels' baseline
    };
    /// The one reading of the series: strip s at sample k.
    TeamSample sampleOf(const Strip& s, std::size_t k) const;
    /// What one pixel column of a strip shows (see the decimation rule in the .cpp).
    struct Column {
        TeamSample bands;
        double demandMaxGpus = 0;
        bool shown = false;  ///< false before the first sample
    };
    /// Per strip, per pixel column of a plot that wide; kept until the results or the width
    /// change.
    const std::vector<std::vector<Column>>& columns(int plotWidth) const;
    Layout layout() const;
    int plotWidthPx() const;  ///< the time span's width, one pixel column per step
    /// The legend's, headings' and time axis's height together.
    int fixedHeightPx() const;
    QStringList legendLabels() const;
    /// Where each legend item's swatch is; its height in `heightPx` when given.
    std::vector<QPoint> legendPositions(int* heightPx) const;
    double timeAtX(int x) const;
    int stripAt(QPoint pos) const;
    void paintStrip(QPainter& p, const Strip& s, const QRect& r,
                    const std::vector<Column>& columns) const;
    void paintTimeAxis(QPainter& p, const Layout& l) const;
    int yOf(const QRect& r, double gpus) const;

    std::shared_ptr<const Results> m_results;
    std::vector<Strip> m_strips;
    double m_scaleGpus = 1;  ///< the top of every strip (one scale: strips compare)
    double m_timeS = 0;
    mutable std::vector<std::vector<Column>> m_columns;
    mutable int m_columnsWidth = -1;
};

}  // namespace gpuplan::ui
