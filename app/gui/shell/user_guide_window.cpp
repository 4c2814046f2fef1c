#include "user_guide_window.hpp"

#include <QFile>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QListWidget>
#include <QScreen>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>

namespace gpuplan::app {

namespace {
constexpr int kBlockRole = Qt::UserRole;  // the heading's block number in the document
}

UserGuideWindow::UserGuideWindow(QWidget* parent)
    : QWidget(parent, Qt::Window),
      m_contents(new QListWidget(this)),
      m_text(new QTextBrowser(this)) {
    setObjectName(QStringLiteral("userGuide"));
    setWindowTitle(tr("gpuplan — User guide"));
    QFile file(QString::fromLatin1(kResourcePath));
    if (file.open(QIODevice::ReadOnly))
        m_text->setMarkdown(QString::fromUtf8(file.readAll()));
    else  // only a broken build lacks it; say so rather than show an empty window
        m_text->setPlainText(tr("The user guide is missing from this build (%1).")
                                 .arg(QString::fromLatin1(kResourcePath)));
    m_text->setOpenExternalLinks(true);
    m_contents->setObjectName(QStringLiteral("userGuideContents"));
    // Long headings end in "…" (whole in the tooltip) rather than scroll the list sideways.
    m_contents->setTextElideMode(Qt::ElideRight);
    m_contents->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    fillContents();
    connect(m_contents, &QListWidget::currentRowChanged, this, &UserGuideWindow::showHeading);

    auto* split = new QSplitter(this);
    split->addWidget(m_contents);
    split->addWidget(m_text);
    split->setStretchFactor(1, 1);
    split->setSizes({220, 680});
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    // Beside the main window, within the screen (a 1280x720 projector included).
    QSize size(900, 700);
    if (const QScreen* screen = parent ? parent->screen() : QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size() * 0.9);
    resize(size);
}

void UserGuideWindow::fillContents() {
    // Headings of the first three levels, indented by level (the markdown reader marks them).
    for (QTextBlock b = m_text->document()->begin(); b.isValid(); b = b.next()) {
        const int level = b.blockFormat().headingLevel();
        if (level < 1 || level > 3 || b.text().trimmed().isEmpty()) continue;
        auto* item =
            new QListWidgetItem(QString(2 * (level - 1), QLatin1Char(' ')) + b.text(), m_contents);
        item->setData(kBlockRole, b.blockNumber());
        item->setToolTip(b.text());
    }
}

void UserGuideWindow::showHeading(int row) {
    const QListWidgetItem* item = m_contents->item(row);
    if (!item) return;
    const QTextBlock block = m_text->document()->findBlockByNumber(item->data(kBlockRole).toInt());
    if (!block.isValid()) return;
    QTextCursor cursor(block);
    m_text->setTextCursor(cursor);
    // The heading at the top of the view, not just somewhere in it.
    m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
    m_text->ensureCursorVisible();
}

}  // namespace gpuplan::app
