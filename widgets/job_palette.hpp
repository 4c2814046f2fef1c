// The job palette: templates to drag onto nodes, racks and pods.
#pragma once

#include <QListWidget>
#include <vector>

#include "job_template.hpp"

namespace gpuplan::ui {

class JobPalette : public QListWidget {
    Q_OBJECT
public:
    explicit JobPalette(QWidget* parent = nullptr);
    void setTemplates(const std::vector<JobTemplate>& templates);

protected:
    QMimeData* mimeData(const QList<QListWidgetItem*>& items) const override;
    QStringList mimeTypes() const override;
};

}  // namespace gpuplan::ui
