#include "job_palette.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QVBoxLayout>

#include "topology_view.hpp"

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
    m_list = new TemplateList(this);
    layout->addWidget(m_list, 1);
    connect(m_team, &QComboBox::currentIndexChanged, this,
            [this] { emit teamOverrideChanged(teamOverride()); });
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

void JobPalette::setTeamOverride(const QString& team) {
    const int i = m_team->findData(team);
    m_team->setCurrentIndex(i < 0 ? 0 : i);
}

}  // namespace gpuplan::ui
