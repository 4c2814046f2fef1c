#include "lessons_dock.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "file_controller.hpp"
#include "main_window.hpp"
#include "scenario_document.hpp"

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

LessonsDock::LessonsDock(MainWindow* window)
    : QDockWidget(tr("Lessons"), window), m_window(window), m_doc(window->document()) {
    setObjectName(QStringLiteral("lessons"));
    auto* body = new QWidget(this);
    m_tree = new QTreeWidget(body);
    m_tree->setHeaderHidden(true);

    m_text = new QTextBrowser(body);
    m_text->setOpenLinks(false);
    auto* openButton = new QPushButton(tr("Open lesson"), body);
    openButton->setToolTip(
        tr("Make the lesson's scenario the open one (Edit ▸ Undo brings yours back)"));
    m_reset = new QPushButton(tr("Reset"), body);
    m_reset->setToolTip(tr("Back to the lesson's start"));
    m_stepButtons = new QVBoxLayout;
    auto* row = new QHBoxLayout;
    row->addWidget(openButton);
    row->addWidget(m_reset);
    // The list above, the lesson's text below: the text gets most of the height, the list
    // about eight of its 35 rows (four made a learner scroll for every chapter; the splitter
    // gives the rest).
    auto* split = new QSplitter(Qt::Vertical, body);
    split->addWidget(m_tree);
    split->addWidget(m_text);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setSizes({160, 320});
    auto* layout = new QVBoxLayout(body);
    layout->addLayout(row);
    layout->addWidget(split, 1);
    layout->addLayout(m_stepButtons);
    setWidget(body);

    try {
        m_lessons = loadLessons(
            (m_window->files().presetsDir() + QStringLiteral("/lessons")).toStdString());
    } catch (const std::exception& e) {
        m_text->setPlainText(tr("The lessons could not be read: %1").arg(e.what()));
    }
    QTreeWidgetItem* part = nullptr;
    for (std::size_t i = 0; i < m_lessons.size(); ++i) {
        const Lesson& l = m_lessons[i];
        if (!part || part->text(0) != QString::fromStdString(l.part)) {
            part = new QTreeWidgetItem(m_tree, {QString::fromStdString(l.part)});
            part->setFlags(Qt::ItemIsEnabled);
            part->setExpanded(true);
        }
        auto* item = new QTreeWidgetItem(part, {QString::fromStdString(l.id + "  " + l.title)});
        item->setData(0, Qt::UserRole, static_cast<int>(i));
    }
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this] { showLesson(); });
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        if (item->data(0, Qt::UserRole).isValid()) open(item->data(0, Qt::UserRole).toInt());
    });
    connect(openButton, &QPushButton::clicked, this, [this] {
        if (QTreeWidgetItem* item = m_tree->currentItem();
            item && item->data(0, Qt::UserRole).isValid())
            open(item->data(0, Qt::UserRole).toInt());
    });
    connect(m_reset, &QPushButton::clicked, this, &LessonsDock::reset);
    connect(m_doc, &ScenarioDocument::changed, this, [this] { m_resultsCurrent = false; });
    connect(m_window, &MainWindow::resultsApplied, this, &LessonsDock::resultsIn);

    window->addDockWidget(Qt::LeftDockWidgetArea, this);
    if (auto* inspector = window->findChild<QDockWidget*>(QStringLiteral("inspector"))) {
        window->tabifyDockWidget(inspector, this);
        inspector->raise();
    }
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
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it)
        if ((*it)->data(0, Qt::UserRole) == index) m_tree->setCurrentItem(*it);
    show();
    raise();
    // The explanation needs the left column's height more than the job palette above it.
    if (auto* palette = m_window->findChild<QDockWidget*>(QStringLiteral("palette")))
        m_window->resizeDocks({palette, this}, {1, 4 * palette->height()}, Qt::Vertical);
    showLesson();
    emit message(tr("Lesson %1 opened: try its step, or change the scenario yourself")
                     .arg(QString::fromStdString(l.id)));
}

void LessonsDock::tryStep(int step) {
    if (m_open < 0 || step < 0 || step >= static_cast<int>(m_lessons[m_open].steps.size())) return;
    if (!m_resultsCurrent || m_window->simulation().isRunning()) {
        m_waitingStep = step;  // the lesson's own run first: it becomes the baseline
        emit message(tr("Waiting for the run on screen to finish, then trying the step…"));
        return;
    }
    applyStep(step);
}

void LessonsDock::applyStep(int step) {
    m_waitingStep.reset();
    const Lesson& l = m_lessons[m_open];
    m_window->pinBaseline();
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
    m_resultsCurrent = !m_window->simulation().isRunning();
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
    const QTreeWidgetItem* current = m_tree->currentItem();
    const int shown = current && current->data(0, Qt::UserRole).isValid()
                          ? current->data(0, Qt::UserRole).toInt()
                          : m_open;
    m_reset->setEnabled(m_open >= 0 && shown == m_open);
    if (shown < 0) {
        if (!m_lessons.empty())
            m_text->setHtml(
                tr("<p>Each lesson is a scenario, a screen of explanation and a step "
                   "to try. Pick one above and press <b>Open lesson</b>.</p>"));
        return;
    }
    const Lesson& l = m_lessons[shown];
    QString text = QStringLiteral("<h3>%1 %2</h3><p><i>%3</i></p><p><b>%4</b></p>")
                       .arg(html(l.id), html(l.title), html(l.part), html(l.claim));
    text += tr("<p><b>Look at:</b> %1</p>").arg(html(l.lookAt));
    text += paragraphs(l.explanation);
    const auto results = m_window->results();
    const auto baseline = m_window->baseline();
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
                new QPushButton(tr("Try it: %1").arg(QString::fromStdString(step.title)), widget());
            button->setToolTip(
                tr("Pins this run as the baseline, then applies the step (Edit ▸ "
                   "Undo takes it back)"));
            connect(button, &QPushButton::clicked, this,
                    [this, i] { tryStep(static_cast<int>(i)); });
            m_stepButtons->addWidget(button);
        }
    }
    if (shown != m_open)
        text += tr("<p><i>Press Open lesson to load its scenario and try it.</i></p>");
    m_text->setHtml(text);
}

}  // namespace gpuplan::app
