// The job palette: templates to drag onto nodes, racks and pods — the scenario's own job
// classes first, then the built-in ones — and a team to run the dropped job for (by default
// the template's own) and a priority (by default the template's: a class's own, 0 for the
// built-in ones).
#pragma once

#include <QWidget>
#include <optional>
#include <vector>

#include "job_template.hpp"

class QComboBox;
class QListWidget;
class QSpinBox;

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
    /// The priority chosen for drops, or none for each template's own.
    std::optional<int> priorityOverride() const;
    void setPriorityOverride(std::optional<int> priority);
    QListWidget* list() const { return m_list; }
    QComboBox* teamBox() const { return m_team; }
    QComboBox* priorityModeBox() const { return m_priorityMode; }
    QSpinBox* priorityBox() const { return m_priority; }

signals:
    void teamOverrideChanged(const QString& team);
    void priorityOverrideChanged(std::optional<int> priority);

private:
    QComboBox* m_team;
    QComboBox* m_priorityMode;  ///< the template's, or the number in m_priority
    QSpinBox* m_priority;
    QListWidget* m_list;
};

}  // namespace gpuplan::ui
