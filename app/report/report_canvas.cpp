#include "report_canvas.hpp"

#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextLayout>
#include <algorithm>
#include <numeric>

namespace gpuplan::report {

namespace {
const QColor kGrey(QStringLiteral("#606060"));
const QColor kRule(QStringLiteral("#b0b0b0"));
const QColor kShade(QStringLiteral("#f2f4f7"));
}  // namespace

ReportCanvas::ReportCanvas(QPdfWriter& writer, QString footer)
    : m_writer(writer), m_footer(std::move(footer)) {
    m_writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                       QMarginsF(0, 0, 0, 0), QPageLayout::Point));
    if (!m_painter.begin(&m_writer)) return;
    // Everything below is in points: 72 per inch, whatever the writer's resolution.
    const double dotsPerPt = m_writer.resolution() / 72.0;
    m_painter.scale(dotsPerPt, dotsPerPt);
    m_painter.setRenderHint(QPainter::Antialiasing);
    m_painter.setRenderHint(QPainter::TextAntialiasing);
}

ReportCanvas::~ReportCanvas() {
    if (m_painter.isActive()) m_painter.end();
}

QFont ReportCanvas::font(double sizePt, bool bold) const {
    // Sizes in pixels of the point-scaled painter: a pixel here is a point on paper.
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(std::max(1, static_cast<int>(sizePt + 0.5)));  // whole points
    f.setHintingPreference(QFont::PreferNoHinting);
    // No ligatures: copied or extracted text reads "fi", not "ﬁ".
    f.setStyleStrategy(QFont::PreferNoShaping);
    f.setBold(bold);
    return f;
}

double ReportCanvas::textHeight(const QString& text, const QFont& f, double widthPt) {
    m_painter.setFont(f);
    return m_painter
        .boundingRect(QRectF(0, 0, widthPt, 1e6), Qt::TextWordWrap | Qt::AlignLeft, text)
        .height();
}

void ReportCanvas::ensureRoom(double heightPt) {
    if (m_yPt + heightPt > bottomPt() && m_yPt > kMarginPt) newPage();
}

void ReportCanvas::newPage() {
    drawFooter();
    m_writer.newPage();
    ++m_page;
    m_yPt = kMarginPt;
}

void ReportCanvas::drawFooter() {
    const double y = kPageHeightPt - kMarginPt - kFooterPt + 12;
    m_painter.setPen(QPen(kRule, 0.5));
    m_painter.drawLine(QPointF(kMarginPt, y), QPointF(kPageWidthPt - kMarginPt, y));
    m_painter.setPen(kGrey);
    m_painter.setFont(font(7.5));
    const QRectF line(kMarginPt, y + 3, contentWidthPt(), 12);
    const QString page = m_pageTotal > 0 ? QObject::tr("page %1 of %2").arg(m_page).arg(m_pageTotal)
                                         : QObject::tr("page %1").arg(m_page);
    const double pageWidth =
        m_painter.boundingRect(line, Qt::AlignRight | Qt::AlignTop, page).width();
    // The left part is elided before it could run into the page number.
    const QString left = m_painter.fontMetrics().elidedText(
        m_footer, Qt::ElideMiddle, static_cast<int>(contentWidthPt() - pageWidth - 12));
    m_painter.drawText(line, Qt::AlignLeft | Qt::AlignTop, left);
    m_painter.drawText(line, Qt::AlignRight | Qt::AlignTop, page);
}

bool ReportCanvas::finish() {
    if (m_finished) return true;
    m_finished = true;
    if (!m_painter.isActive()) return false;
    drawFooter();
    return m_painter.end();
}

void ReportCanvas::title(const QString& text, const QString& subtitle) {
    const QFont big = font(18, true);
    const double h = textHeight(text, big, contentWidthPt());
    m_painter.setPen(Qt::black);
    m_painter.drawText(QRectF(kMarginPt, m_yPt, contentWidthPt(), h), Qt::TextWordWrap, text);
    m_yPt += h + 4;
    paragraph(subtitle, kGrey, 9);
    m_yPt += 6;
}

void ReportCanvas::heading(const QString& text, double keepWithPt) {
    const QFont f = font(12.5, true);
    const double h = textHeight(text, f, contentWidthPt());
    ensureRoom(10 + h + keepWithPt);
    if (m_yPt > kMarginPt) m_yPt += 10;
    m_painter.setFont(f);
    m_painter.setPen(QColor(QStringLiteral("#1f4e79")));
    m_painter.drawText(QRectF(kMarginPt, m_yPt, contentWidthPt(), h), Qt::TextWordWrap, text);
    m_yPt += h + 4;
}

void ReportCanvas::paragraph(const QString& text, QColor color, double sizePt, bool bold) {
    // Line by line, so a long paragraph goes on over the page break instead of being cut.
    QTextLayout layout(text, font(sizePt, bold), &m_writer);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    double y = 0;
    while (true) {
        QTextLine line = layout.createLine();
        if (!line.isValid()) break;
        line.setLineWidth(contentWidthPt());
        line.setPosition(QPointF(0, y));
        y += line.height();
    }
    layout.endLayout();
    m_painter.setPen(color);
    // A short paragraph is kept whole (no line of it alone at the foot or head of a page).
    if (y <= 5 * sizePt * 1.5) ensureRoom(y);
    for (int i = 0; i < layout.lineCount(); ++i) {
        const QTextLine line = layout.lineAt(i);
        ensureRoom(line.height());
        line.draw(&m_painter, QPointF(kMarginPt, m_yPt - line.y()));
        m_yPt += line.height();
    }
    m_yPt += sizePt * 0.5;
}

double ReportCanvas::tableRowHeight(const std::vector<TableCell>& cells,
                                    const std::vector<double>& widths, double sizePt, bool bold) {
    double h = 0;
    for (std::size_t c = 0; c < cells.size() && c < widths.size(); ++c)
        h = std::max(h, textHeight(cells[c].text, font(sizePt, bold || cells[c].bold),
                                   widths[c] - 2 * kCellPadPt));
    return h + 2 * m_rowPadPt;
}

void ReportCanvas::tableRow(const std::vector<TableCell>& cells, const std::vector<double>& widths,
                            const std::vector<Qt::Alignment>& alignment, double sizePt, bool header,
                            bool shaded) {
    const double h = tableRowHeight(cells, widths, sizePt, header);
    if (shaded || header)
        m_painter.fillRect(QRectF(kMarginPt, m_yPt, contentWidthPt(), h),
                           header ? QColor(QStringLiteral("#dde4ee")) : kShade);
    double x = kMarginPt;
    for (std::size_t c = 0; c < cells.size() && c < widths.size(); ++c) {
        m_painter.setFont(font(sizePt, header || cells[c].bold));
        m_painter.setPen(cells[c].color);
        const Qt::Alignment a = c < alignment.size() ? alignment[c] : Qt::AlignLeft;
        m_painter.drawText(QRectF(x + kCellPadPt, m_yPt + m_rowPadPt, widths[c] - 2 * kCellPadPt,
                                  h - 2 * m_rowPadPt),
                           static_cast<int>(a | Qt::AlignTop) | Qt::TextWordWrap, cells[c].text);
        x += widths[c];
    }
    m_yPt += h;
    if (header) {
        m_painter.setPen(QPen(kRule, 0.6));
        m_painter.drawLine(QPointF(kMarginPt, m_yPt), QPointF(kMarginPt + contentWidthPt(), m_yPt));
    }
}

void ReportCanvas::table(const ReportTable& table, double sizePt) {
    const double total =
        std::accumulate(table.columnWeights.begin(), table.columnWeights.end(), 0.0);
    std::vector<double> widths;
    for (double w : table.columnWeights)
        widths.push_back(contentWidthPt() * w / total);
    std::vector<TableCell> header;
    for (const QString& h : table.header)
        header.push_back({h, Qt::black, true});
    const double headerH = tableRowHeight(header, widths, sizePt, true);
    // The header and the first row stay together; the header repeats on each new page.
    ensureRoom(headerH + (table.rows.empty()
                              ? 0
                              : tableRowHeight(table.rows.front(), widths, sizePt, false)));
    tableRow(header, widths, table.alignment, sizePt, true, false);
    m_rowPadPt = table.rowPadPt;  // the header keeps the usual padding
    const std::size_t group = static_cast<std::size_t>(std::max(1, table.rowsPerGroup));
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        // A group starts on a page that holds all of it (unless it is longer than a page).
        double h = 0;
        for (std::size_t g = r;
             g < (r % group == 0 ? std::min(r + group, table.rows.size()) : r + 1); ++g)
            h += tableRowHeight(table.rows[g], widths, sizePt, false);
        if (m_yPt + h > bottomPt() && h < bottomPt() - kMarginPt - headerH) {
            newPage();
            m_rowPadPt = kCellPadPt;
            tableRow(header, widths, table.alignment, sizePt, true, false);
            m_rowPadPt = table.rowPadPt;
        }
        if (group > 1 && r % group == 0 && r > 0) {
            m_painter.setPen(QPen(kRule, 0.4));
            m_painter.drawLine(QPointF(kMarginPt, m_yPt),
                               QPointF(kMarginPt + contentWidthPt(), m_yPt));
        }
        tableRow(table.rows[r], widths, table.alignment, sizePt, false, (r / group) % 2 == 1);
    }
    m_rowPadPt = kCellPadPt;
    m_yPt += 8;
}

void ReportCanvas::block(double heightPt,
                         const std::function<void(QPainter&, const QRectF&)>& draw) {
    ensureRoom(heightPt);
    const QRectF rect(kMarginPt, m_yPt, contentWidthPt(), heightPt);
    m_painter.save();
    draw(m_painter, rect);
    m_painter.restore();
    m_yPt += heightPt;
}

}  // namespace gpuplan::report
