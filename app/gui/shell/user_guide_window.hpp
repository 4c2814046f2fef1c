#pragma once
// Help ▸ User guide: the manual (resources/user-guide.md, compiled into the application) in a
// window of its own beside the main one, with its headings as a table of contents.
#include <QWidget>

class QListWidget;
class QTextBrowser;

namespace gpuplan::app {

class UserGuideWindow : public QWidget {
    Q_OBJECT
public:
    /// Where the guide is compiled in (resources/gpuplan.qrc).
    static constexpr const char* kResourcePath = ":/gpuplan/user-guide.md";

    explicit UserGuideWindow(QWidget* parent = nullptr);

    QTextBrowser* text() const { return m_text; }
    QListWidget* contents() const { return m_contents; }
    /// Scrolls the text to the heading listed at `row` of the contents.
    void showHeading(int row);

private:
    void fillContents();

    QListWidget* m_contents;
    QTextBrowser* m_text;
};

}  // namespace gpuplan::app
