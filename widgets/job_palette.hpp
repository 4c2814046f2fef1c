// The job palette: templates to drag onto nodes, racks and pods — the scenario's own job
// classes first, then the built-in ones — and a team to run the dropped job for (by default
// the template's own).
#pragma once

#include <QWidget>
#include <vector>

#include "job_template.hpp"

class QComboBox;
class QListWidget;

namespace gpuplan::ui {

class JobPalette : public QWidget {
    Q_OBJECT
public:
    explicit JobPalette(QWidget* parent = nullptr);
    void setTemplates(const std::vector<JobTemplate>& templates);
    /// The scenario's teams; a team no longer there falls back to the template's own.
    void setTeams(const QStringList& teams);
    /// The team chosen for drops, or empty for each template's own team.
    QString teamOverride() const;
    void setTeamOverride(const QString& team);
    QListWidget* list() const { return m_list; }
    QComboBox* teamBox() const { return m_team; }

signals:
    void teamOverrideChanged(const QString& team);

private:
    QComboBox* m_team;
    QListWidget* m_list;
};

}  // namespace gpuplan::ui
