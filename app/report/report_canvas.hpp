// A4 portrait pages drawn with QPainter on a QPdfWriter, in points: headings, paragraphs and
// tables that flow from page to page (a line or a table row is never cut: it goes on the next
// page, a table repeats its header there), blocks such as charts kept whole, and on every page
// a footer with the report's name, gpuplan's version, the date and the page number.
#pragma once

#include <QColor>
#include <QFont>
#include <QPainter>
#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

class QPdfWriter;

namespace gpuplan::report {

struct TableCell {
    QString text;
    QColor color = Qt::black;
    bool bold = false;
};

struct ReportTable {
    QStringList header;
    std::vector<double> columnWeights;     ///< relative widths, one per column
    std::vector<Qt::Alignment> alignment;  ///< per column; left when missing
    std::vector<std::vector<TableCell>> rows;
    /// Rows shaded alike and kept on one page in groups of this many (a team's baseline,
    /// current and Δ rows), a rule between groups.
    int rowsPerGroup = 1;
    double rowPadPt = 3;  ///< above and below each row's text (rows in groups may sit closer)
};

class ReportCanvas {
public:
    static constexpr double kPageWidthPt = 595.28;  // A4
    static constexpr double kPageHeightPt = 841.89;
    static constexpr double kMarginPt = 48;
    static constexpr double kFooterPt = 28;  ///< room kept at the bottom for the footer
    static constexpr double kBodyPt = 9;     ///< body text size (fonts are whole points)
    static constexpr double kCellPadPt = 3;  ///< around a table cell's text

    /// Starts the first page; `footer` is its left part ("default · gpuplan 0.1.0 · 2026-11-25").
    ReportCanvas(QPdfWriter& writer, QString footer);
    ~ReportCanvas();
    ReportCanvas(const ReportCanvas&) = delete;
    ReportCanvas& operator=(const ReportCanvas&) = delete;

    bool isActive() const { return m_painter.isActive(); }
    double contentWidthPt() const { return kPageWidthPt - 2 * kMarginPt; }
    /// Room left on the current page, in points.
    double roomPt() const { return bottomPt() - m_yPt; }
    int pageCount() const { return m_page; }
    /// The footers then read "page 2 of 5"; 0 (the default): "page 2".
    void setPageTotal(int pages) { m_pageTotal = pages; }

    void title(const QString& text, const QString& subtitle);
    /// A section heading; it moves to the next page with at least `keepWithPt` under it.
    void heading(const QString& text, double keepWithPt = 60);
    void paragraph(const QString& text, QColor color = Qt::black, double sizePt = kBodyPt,
                   bool bold = false);
    void table(const ReportTable& table, double sizePt = 8);
    /// A block `heightPt` high across the page, kept on one page; `draw` paints it in its rect.
    void block(double heightPt, const std::function<void(QPainter&, const QRectF&)>& draw);
    void space(double pt) { m_yPt += pt; }
    /// Goes on to the next page unless `heightPt` is left on this one (what follows stays
    /// together: a topic and the first lines of its text).
    void keepRoom(double heightPt) { ensureRoom(heightPt); }
    void newPage();
    /// Draws the last footer and closes the document; false when it could not be written.
    bool finish();

private:
    double bottomPt() const { return kPageHeightPt - kMarginPt - kFooterPt; }
    void ensureRoom(double heightPt);
    void drawFooter();
    QFont font(double sizePt, bool bold = false) const;
    /// Height of `text` wrapped in `widthPt`.
    double textHeight(const QString& text, const QFont& font, double widthPt);
    double tableRowHeight(const std::vector<TableCell>& cells, const std::vector<double>& widths,
                          double sizePt, bool bold);
    void tableRow(const std::vector<TableCell>& cells, const std::vector<double>& widths,
                  const std::vector<Qt::Alignment>& alignment, double sizePt, bool header,
                  bool shaded);

    QPdfWriter& m_writer;
    QPainter m_painter;
    QString m_footer;
    double m_yPt = kMarginPt;
    int m_page = 1;
    int m_pageTotal = 0;
    double m_rowPadPt = kCellPadPt;  ///< the table being drawn's
    bool m_finished = false;
};

}  // namespace gpuplan::report
