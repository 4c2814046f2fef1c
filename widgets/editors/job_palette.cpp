#include "job_palette.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QSpinBox>
#include <QVBoxLayout>

#include "topology/topology_view.hpp"

namespace gpuplan::ui {

namespace {

/// The list of templates; an item's drag carries its template id.
class TemplateList : public QListWidget {
public:
    explicit TemplateList(QWidget* parent) : QListWidget(parent) {
        setDragEnabled(true);
        setDragDropMode(QAbstractItemView::DragOnly);
        setSelectionMode(QAbstractItemView::SingleSelection);
        setWordWrap(true);
        setToolTip(tr("Drag a job onto a node (pinned there), a rack or a pod (affinity)"));
    }

protected:
    QStringList mimeTypes() const override { return {QString::fromLatin1(kTemplateMime)}; }
    QMimeData* mimeData(const QList<QListWidgetItem*>& items) const override {
        if (items.isEmpty() || items.first()->data(Qt::UserRole).toString().isEmpty())
            return nullptr;
        auto* mime = new QMimeData;
        mime->setData(kTemplateMime, items.first()->data(Qt::UserRole).toString().toUtf8());
        mime->setText(items.first()->text());
        return mime;
    }
};

}  // namespace

JobPalette::JobPalette(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->setContentsMargins(4, 4, 4, 0);
    row->addWidget(new QLabel(tr("Run for:"), this));
    m_team = new QComboBox(this);
    m_team->setToolTip(tr("The team a dropped job runs for; by default its template's team"));
    m_team->addItem(tr("the template's team"), QString());
    row->addWidget(m_team, 1);
    layout->addLayout(row);
    auto* priorityRow = new QHBoxLayout;
    priorityRow->setContentsMargins(4, 0, 4, 0);
    priorityRow->addWidget(new QLabel(tr("Priority:"), this));
    m_priorityMode = new QComboBox(this);
    m_priorityMode->addItems({tr("the template's"), tr("this number")});
    m_priorityMode->setToolTip(
        tr("The priority a dropped job runs at (higher runs first); by default its template's: "
           "a class's own, 0 for the built-in ones"));
    m_priority = new QSpinBox(this);
    m_priority->setRange(-1'000'000'000, 1'000'000'000);  // what a scenario file allows
    m_priority->setEnabled(false);
    priorityRow->addWidget(m_priorityMode, 1);
    priorityRow->addWidget(m_priority);
    layout->addLayout(priorityRow);
    m_list = new TemplateList(this);
    layout->addWidget(m_list, 1);
    connect(m_team, &QComboBox::currentIndexChanged, this,
            [this] { emit teamOverrideChanged(teamOverride()); });
    connect(m_priorityMode, &QComboBox::currentIndexChanged, this, [this](int mode) {
        m_priority->setEnabled(mode == 1);
        emit priorityOverrideChanged(priorityOverride());
    });
    connect(m_priority, &QSpinBox::valueChanged, this, [this] {
        if (m_priorityMode->currentIndex() == 1) emit priorityOverrideChanged(priorityOverride());
    });
}

void JobPalette::setTemplates(const std::vector<JobTemplate>& templates) {
    m_list->clear();
    QString group;
    for (const JobTemplate& t : templates) {
        if (t.group != group) {
            group = t.group;
            // A heading: enabled (so it reads as text, not greyed out), not selectable or
            // draggable.
            auto* heading = new QListWidgetItem(group, m_list);
            QFont bold = heading->font();
            bold.setBold(true);
            heading->setFont(bold);
            heading->setFlags(Qt::ItemIsEnabled);
        }
        auto* item = new QListWidgetItem(t.label, m_list);
        item->setData(Qt::UserRole, t.id);
        item->setToolTip(t.description);
    }
}

void JobPalette::setTeams(const QStringList& teams) {
    const QString chosen = teamOverride();
    {
        const QSignalBlocker block(m_team);
        while (m_team->count() > 1)
            m_team->removeItem(1);
        for (const QString& t : teams)
            m_team->addItem(t, t);
        const int again = m_team->findData(chosen);
        m_team->setCurrentIndex(again < 0 ? 0 : again);
    }
    if (teamOverride() != chosen) emit teamOverrideChanged(teamOverride());
}

QString JobPalette::teamOverride() const {
    return m_team->currentData().toString();
}

std::optional<int> JobPalette::priorityOverride() const {
    if (m_priorityMode->currentIndex() != 1) return std::nullopt;
    return m_priority->value();
}

void JobPalette::setPriorityOverride(std::optional<int> priority) {
    if (priority) m_priority->setValue(*priority);
    m_priorityMode->setCurrentIndex(priority ? 1 : 0);
}

void JobPalette::setTeamOverride(const QString& team) {
    const int i = m_team->findData(team);
    m_team->setCurrentIndex(i < 0 ? 0 : i);
}

}  // namespace gpuplan::ui
