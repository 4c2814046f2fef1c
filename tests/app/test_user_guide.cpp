// Help ▸ User guide: the manual compiled into the application opens from the Help menu (F1),
// whole, with every heading of its first three levels in the contents, and a click on a
// heading brings it into view.
#include <QAction>
#include <QFile>
#include <QListWidget>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "shell/user_guide_window.hpp"

using namespace gpuplan;
using namespace gpuplan::app;

namespace {
/// The guide's headings of levels 1–3 read from its Markdown source, outside code fences:
/// what the contents must list, derived from the file and not from the window.
QStringList headingsOfSource(const QString& markdown) {
    QStringList out;
    bool inFence = false;
    static const QRegularExpression heading(QStringLiteral("^(#{1,3}) +(.*?) *#* *$"));
    for (const QString& line : markdown.split(QLatin1Char('\n'))) {
        if (line.startsWith(QStringLiteral("```"))) inFence = !inFence;
        if (inFence) continue;
        const QRegularExpressionMatch m = heading.match(line);
        if (m.hasMatch()) out << m.captured(2);
    }
    return out;
}
/// A heading's text as the markdown reader shows it: no backticks or emphasis marks.
QString shown(QString text) {
    return text.remove(QLatin1Char('`')).remove(QLatin1Char('*')).trimmed();
}
}  // namespace

class UserGuideTest : public QObject {
    Q_OBJECT
private slots:
    void helpOpensTheWholeGuideWithItsContents() {
        test::Fixture f;
        QAction* action = f.window->findChild<QAction*>(QStringLiteral("userGuideAction"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(QKeySequence::HelpContents));
        action->trigger();
        auto* guide = f.window->findChild<UserGuideWindow*>();
        QVERIFY(guide && guide->isVisible());

        QFile file(QString::fromLatin1(UserGuideWindow::kResourcePath));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString source = QString::fromUtf8(file.readAll());
        const QStringList headings = headingsOfSource(source);
        QVERIFY2(headings.size() >= 10, "a guide has chapters");
        QCOMPARE(guide->contents()->count(), headings.size());
        for (int i = 0; i < headings.size(); ++i)
            QCOMPARE(guide->contents()->item(i)->text().trimmed(), shown(headings[i]));
        // The last heading's words are in the text: the whole guide was read, not a part.
        QVERIFY(guide->text()->toPlainText().contains(shown(headings.last())));

        // Triggered again: the same window, not a second one.
        action->trigger();
        QCOMPARE(f.window->findChildren<UserGuideWindow*>().size(), 1);
    }

    void aHeadingClickedComesIntoView() {
        UserGuideWindow guide;
        guide.resize(900, 500);
        guide.show();
        QVERIFY(QTest::qWaitForWindowExposed(&guide));
        const int last = guide.contents()->count() - 1;
        QVERIFY(last > 0);
        guide.contents()->setCurrentRow(last);
        QTextBrowser* text = guide.text();
        QCOMPARE(text->textCursor().block().text().trimmed(),
                 guide.contents()->item(last)->text().trimmed());
        // The heading's line is inside the visible part of the text.
        const QRect caret = text->cursorRect();
        QVERIFY2(text->viewport()->rect().contains(caret.center()),
                 qPrintable(QStringLiteral("caret at y %1 of %2")
                                .arg(caret.center().y())
                                .arg(text->viewport()->height())));
        QVERIFY(text->verticalScrollBar()->value() > 0);
    }
};

GPUPLAN_APP_TEST("test_user_guide", UserGuideTest);
#include "test_user_guide.moc"
