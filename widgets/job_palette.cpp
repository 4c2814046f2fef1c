#include "job_palette.hpp"

#include <QMimeData>

#include "topology_view.hpp"

namespace gpuplan::ui {

JobPalette::JobPalette(QWidget* parent) : QListWidget(parent) {
    setDragEnabled(true);
    setDragDropMode(QAbstractItemView::DragOnly);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setWordWrap(true);
    setToolTip(tr("Drag a job onto a node (pinned there), a rack or a pod (affinity)"));
}

void JobPalette::setTemplates(const std::vector<JobTemplate>& templates) {
    clear();
    for (const JobTemplate& t : templates) {
        auto* item = new QListWidgetItem(t.label, this);
        item->setData(Qt::UserRole, t.id);
        item->setToolTip(t.description);
    }
}

QStringList JobPalette::mimeTypes() const {
    return {QString::fromLatin1(kTemplateMime)};
}

QMimeData* JobPalette::mimeData(const QList<QListWidgetItem*>& items) const {
    if (items.isEmpty()) return nullptr;
    auto* mime = new QMimeData;
    mime->setData(kTemplateMime, items.first()->data(Qt::UserRole).toString().toUtf8());
    mime->setText(items.first()->text());
    return mime;
}

}  // namespace gpuplan::ui
