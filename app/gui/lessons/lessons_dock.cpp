#include "lessons_dock.hpp"

#include <QAbstractItemView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QMainWindow>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QShortcut>
#include <QStandardItemModel>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <memory>

#include "shell/dock_host.hpp"
#include "shell/file_controller.hpp"
#include "shell/scenario_document.hpp"
#include "shell/session.hpp"
#include "shell/simulation_controller.hpp"

namespace gpuplan::app {

namespace {

QString html(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

/// Paragraphs of plain text (blank lines between them) as HTML.
QString paragraphs(const std::string& text) {
    QString out;
    for (const QString& p : html(text).split(QStringLiteral("\n\n"), Qt::SkipEmptyParts))
        out += QStringLiteral("<p>%1</p>").arg(QString(p).replace('\n', QStringLiteral("<br>")));
    return out;
}

}  // namespace

LessonsDock::LessonsDock(Session& session, DockHost& host)
    : QDockWidget(tr("Lessons"), host.dockWindow()),
      m_session(&session),
      m_window(host.dockWindow()),
      m_doc(session.document()) {
    setObjectName(QStringLiteral("lessons"));
    auto* body = new QWidget(this);
    m_body = body;
    // One line to choose a lesson (its list opens on a click), so the text below gets the
    // dock's height: a list beside it left the text some 160 px, six scrolls a lesson.
    m_chooser = new QComboBox(body);
    m_chooser->setObjectName(QStringLiteral("lessonChooser"));
    m_chooser->setPlaceholderText(tr("Choose a lesson…"));
    m_chooser->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_chooser->setMinimumContentsLength(16);
    m_chooser->setMaxVisibleItems(40);  // every lesson at once where the screen has room

    m_text = new QTextBrowser(body);
    m_text->setOpenLinks(false);
    auto* openButton = new QPushButton(tr("Open lesson"), body);
    openButton->setToolTip(
        tr("Make the lesson's scenario the open one (Edit ▸ Undo brings yours back)"));
    m_reset = new QPushButton(tr("Reset"), body);
    m_reset->setToolTip(tr("Back to the lesson's start"));
    m_read = new QPushButton(tr("Read"), body);
    m_read->setObjectName(QStringLiteral("lessonRead"));
    m_read->setCheckable(true);
    m_read->setToolTip(
        tr("Lift the lesson off the window, large enough to read it whole (Esc or Read again "
           "puts it back)"));
    // Docked (narrow): the chooser above the buttons, the steps one under another; reading
    // (wide): each on one line, so the text gets those lines too.
    m_stepButtons = new QBoxLayout(QBoxLayout::TopToBottom);
    auto* row = new QHBoxLayout;
    row->addWidget(openButton);
    row->addWidget(m_reset);
    row->addWidget(m_read);
    m_header = new QBoxLayout(QBoxLayout::TopToBottom);
    m_header->addWidget(m_chooser, 1);
    m_header->addLayout(row);
    auto* layout = new QVBoxLayout(body);
    layout->addLayout(m_header);
    layout->addWidget(m_text, 1);
    layout->addLayout(m_stepButtons);
    setWidget(body);
    // The text view scrolls itself, and the reader sizes the dock from the text's layout.
    setProperty("scrollsItself", true);

    try {
        m_lessons = loadLessons(
            (m_session->files().presetsDir() + QStringLiteral("/lessons")).toStdString());
    } catch (const std::exception& e) {
        m_text->setPlainText(tr("The lessons could not be read: %1").arg(e.what()));
    }
    // The parts as headings (greyed, not choosable), each lesson under its part.
    auto* model = qobject_cast<QStandardItemModel*>(m_chooser->model());
    QString part;
    for (std::size_t i = 0; i < m_lessons.size(); ++i) {
        const Lesson& l = m_lessons[i];
        if (part != QString::fromStdString(l.part)) {
            part = QString::fromStdString(l.part);
            auto* heading = new QStandardItem(part);
            QFont bold = m_chooser->font();
            bold.setBold(true);
            heading->setFont(bold);
            heading->setFlags(Qt::NoItemFlags);
            model->appendRow(heading);
        }
        m_chooser->addItem(QString::fromStdString("   " + l.id + "  " + l.title),
                           static_cast<int>(i));
        m_chooser->setItemData(m_chooser->count() - 1, QString::fromStdString(l.claim),
                               Qt::ToolTipRole);
    }
    // The list as wide as its longest title, however narrow the dock.
    m_chooser->view()->setMinimumWidth(m_chooser->view()->sizeHintForColumn(0) + 24);
    m_chooser->setCurrentIndex(-1);
    connect(m_chooser, &QComboBox::currentIndexChanged, this, [this] { showLesson(); });
    connect(openButton, &QPushButton::clicked, this, [this] {
        if (chosen() >= 0) open(chosen());
    });
    connect(m_reset, &QPushButton::clicked, this, &LessonsDock::reset);
    connect(m_read, &QPushButton::toggled, this, [this](bool on) { setReading(on); });
    m_leaveReading =
        new QShortcut(QKeySequence(Qt::Key_Escape), this, [this] { setReading(false); });
    m_leaveReading->setContext(Qt::WidgetWithChildrenShortcut);
    m_leaveReading->setEnabled(false);  // Esc is the window's own while the dock is docked
    connect(this, &QDockWidget::topLevelChanged, this, [this](bool floating) {
        const QSignalBlocker block(m_read);
        m_read->setChecked(floating);
        m_leaveReading->setEnabled(floating);
        const auto direction = floating ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
        m_header->setDirection(direction);
        m_stepButtons->setDirection(direction);
        // Back among the tabs it left: in front, where it was being read, as wide as it was.
        if (!floating)
            QTimer::singleShot(0, this, [this] {
                raise();
                if (m_dockedWidthPx > 0)
                    m_window->resizeDocks({this}, {m_dockedWidthPx}, Qt::Horizontal);
            });
    });
    connect(m_doc, &ScenarioDocument::changed, this, [this] { m_resultsCurrent = false; });
    connect(m_session, &Session::resultsApplied, this, &LessonsDock::resultsIn);

    host.addLeftTab(this);
    showLesson();
}

void LessonsDock::open(int index) {
    if (index < 0 || index >= static_cast<int>(m_lessons.size())) return;
    const Lesson& l = m_lessons[index];
    QString refusal;
    try {
        const Scenario s = lessonScenario(l, m_doc->catalog(), m_doc->loadOptions());
        refusal = m_doc->replaceUndoably(s, QString(),
                                         tr("Open lesson %1").arg(QString::fromStdString(l.id)));
    } catch (const std::exception& e) {
        refusal = QString::fromUtf8(e.what());
    }
    if (!refusal.isEmpty()) {
        emit message(
            tr("Lesson %1 could not be opened: %2").arg(QString::fromStdString(l.id), refusal));
        return;
    }
    m_open = index;
    m_tried = -1;
    m_waitingStep.reset();
    m_chooser->setCurrentIndex(m_chooser->findData(index));
    show();
    raise();
    // The explanation needs the left column's height more than the job palette above it.
    if (auto* palette = m_window->findChild<QDockWidget*>(QStringLiteral("palette"));
        palette && !isFloating())
        m_window->resizeDocks({palette, this}, {1, 4 * palette->height()}, Qt::Vertical);
    showLesson();
    emit message(tr("Lesson %1 opened: try its step, or change the scenario yourself")
                     .arg(QString::fromStdString(l.id)));
}

void LessonsDock::tryStep(int step) {
    if (m_open < 0 || step < 0 || step >= static_cast<int>(m_lessons[m_open].steps.size())) return;
    if (!m_resultsCurrent || m_session->simulation().isRunning()) {
        m_waitingStep = step;  // the lesson's own run first: it becomes the baseline
        emit message(tr("Waiting for the run on screen to finish, then trying the step…"));
        return;
    }
    applyStep(step);
}

void LessonsDock::applyStep(int step) {
    m_waitingStep.reset();
    const Lesson& l = m_lessons[m_open];
    m_session->pinBaseline();
    QString refusal;
    try {
        const Scenario after =
            lessonStepScenario(l, step, m_doc->scenario(), m_doc->catalog(), m_doc->loadOptions());
        refusal =
            m_doc->edit(after, tr("Try: %1").arg(QString::fromStdString(l.steps[step].title)));
    } catch (const std::exception& e) {
        refusal = QString::fromUtf8(e.what());
    }
    if (!refusal.isEmpty()) {
        emit message(tr("The step could not be applied: %1").arg(refusal));
        return;
    }
    m_tried = step;
    showLesson();
}

void LessonsDock::reset() {
    if (m_open >= 0) open(m_open);
}

void LessonsDock::resultsIn() {
    m_resultsCurrent = !m_session->simulation().isRunning();
    if (!m_resultsCurrent) return;
    if (m_waitingStep) {
        applyStep(*m_waitingStep);
        return;
    }
    if (m_tried >= 0) showLesson();  // the step's run is in: say what it shows
}

QString LessonsDock::shownText() const {
    return m_text->toPlainText();
}

int LessonsDock::chosen() const {
    const QVariant data = m_chooser->currentData();
    return data.isValid() ? data.toInt() : -1;
}

int LessonsDock::textHeightAt(int widthPx) const {
    // Laid out as if a scroll bar took its width: a text that fits so fits without one too
    // (a text that only just fits would otherwise get the bar, wrap narrower and not fit).
    const int frame = 2 * m_text->frameWidth();
    const int scrollBar = m_text->verticalScrollBar()->sizeHint().width();
    const std::unique_ptr<QTextDocument> copy(m_text->document()->clone());
    copy->setTextWidth(std::max(1, widthPx - frame - scrollBar));
    return static_cast<int>(std::ceil(copy->size().height())) + frame + 1;
}

QRect LessonsDock::readerGeometry(const QRect& available, int chrome) const {
    // Everything but the text (title, chooser, buttons, steps, margins: `chrome`) keeps its
    // height; the text gets the rest of the screen's height, and the reader is widened from a
    // comfortable line until the text fits it, or the screen's width is reached.
    const QMargins margins = m_body->layout()->contentsMargins();
    const int besideText = margins.left() + margins.right();
    const int textRoom = available.height() - chrome;
    const int narrowest = std::min(kReadingWidthPx, available.width());
    int low = narrowest, high = available.width();
    if (textHeightAt(low - besideText) > textRoom) {
        // The narrowest width that fits, by bisection (the height falls as the width grows).
        if (textHeightAt(high - besideText) > textRoom) {
            low = high;  // even the screen's width does not hold it all: the widest, scrolled
        } else {
            while (high - low > 8) {
                const int mid = (low + high) / 2;
                (textHeightAt(mid - besideText) > textRoom ? low : high) = mid;
            }
            low = high;
        }
    }
    const int height = std::min(available.height(), chrome + textHeightAt(low - besideText));
    return {available.topLeft(), QSize(low, height)};
}

void LessonsDock::fitReader() {
    // First from the size hints, then again with what is not text as laid out (the floating
    // title bar, the one-line header and steps): the hints only estimate it.
    m_body->layout()->invalidate();  // the step buttons just added count in the height
    const int dockFrame = std::max(0, sizeHint().height() - m_body->sizeHint().height());
    const int estimate =
        m_body->layout()->totalSizeHint().height() - m_text->sizeHint().height() + dockFrame;
    setGeometry(readerGeometry(m_readingWithin, estimate));
    layout()->activate();
    m_body->layout()->activate();
    setGeometry(readerGeometry(m_readingWithin, height() - m_text->height()));
}

void LessonsDock::setReading(bool on, std::optional<QRect> available) {
    if (!on) {
        if (isFloating()) setFloating(false);  // back to its place among the left docks
        return;
    }
    QScreen* screen = m_window->screen();
    m_readingWithin = available ? *available : screen->availableGeometry();
    if (!isFloating()) {
        m_dockedWidthPx = width();
        setFloating(true);
    }
    fitReader();
    show();
    raise();
    activateWindow();
}

void LessonsDock::showLesson() {
    // Step buttons belong to the lesson that is open.
    while (QLayoutItem* item = m_stepButtons->takeAt(0)) {
        // Later: this may run inside one of these buttons' own click.
        if (QWidget* w = item->widget()) {
            w->hide();
            w->deleteLater();
        }
        delete item;
    }
    const int shown = chosen() >= 0 ? chosen() : m_open;
    m_reset->setEnabled(m_open >= 0 && shown == m_open);
    if (shown < 0) {
        if (!m_lessons.empty())
            m_text->setHtml(
                tr("<p>Each lesson is a scenario, a screen of explanation and a step "
                   "to try. Choose one above and press <b>Open lesson</b>; <b>Read</b> shows "
                   "its text large.</p>"));
        return;
    }
    const Lesson& l = m_lessons[shown];
    QString text = QStringLiteral("<h3>%1 %2</h3><p><i>%3</i></p><p><b>%4</b></p>")
                       .arg(html(l.id), html(l.title), html(l.part), html(l.claim));
    text += tr("<p><b>Look at:</b> %1</p>").arg(html(l.lookAt));
    text += paragraphs(l.explanation);
    const auto results = m_session->results();
    const auto baseline = m_session->baseline();
    for (std::size_t i = 0; i < l.steps.size(); ++i) {
        const LessonStep& step = l.steps[i];
        text +=
            tr("<p><b>Try it:</b> %1 <i>(%2)</i></p><ul>").arg(html(step.title), html(step.how));
        for (const LessonEffect& e : step.effects) {
            text += QStringLiteral("<li>%1").arg(html(effectText(e)));
            const bool measured = shown == m_open && static_cast<int>(i) == m_tried &&
                                  m_resultsCurrent && results && baseline;
            if (measured) {
                const auto b = measureEffect(e, *baseline), a = measureEffect(e, *results);
                if (b && a)
                    text += tr(" — <b>the runs show %1 → %2</b>")
                                .arg(html(formatEffectValue(*b, e.unit)),
                                     html(formatEffectValue(*a, e.unit)));
            }
            text += QStringLiteral("</li>");
        }
        text += QStringLiteral("</ul>");
        if (shown == m_open) {
            auto* button =
                new QPushButton(tr("Try it: %1").arg(QString::fromStdString(step.title)), m_body);
            button->setToolTip(
                tr("Pins this run as the baseline, then applies the step (Edit ▸ "
                   "Undo takes it back)"));
            connect(button, &QPushButton::clicked, this,
                    [this, i] { tryStep(static_cast<int>(i)); });
            m_stepButtons->addWidget(button);
            button->show();  // now, not from the event loop: the reader's fit counts it
        }
    }
    if (shown != m_open)
        text += tr("<p><i>Press Open lesson to load its scenario and try it.</i></p>");
    m_text->setHtml(text);
    // Another lesson, or the runs' figures added: the reader refits to the text.
    if (isFloating() && m_readingWithin.isValid()) fitReader();
}

}  // namespace gpuplan::app
