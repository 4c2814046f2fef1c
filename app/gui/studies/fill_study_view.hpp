// "Fill study": the FGD paper's fill experiment for a chosen openb pod list, every chosen
// policy × seed run in the background (FillStudyRunner), plotted as allocation % against
// arrived % (mean over the seeds, one line per policy) with a table of the allocation at 100 %
// arrived. The pod lists of the openb folder found through the data folders are offered; any
// other file can be chosen.
#pragma once

#include <QDialog>
#include <QElapsedTimer>
#include <filesystem>
#include <vector>

#include "fill_study_runner.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QStandardItemModel;
class QTableView;

namespace gpuplan::ui {
class FillCurveChart;
}

namespace gpuplan::app {

class FillStudyView : public QDialog {
    Q_OBJECT
public:
    /// `dataDirs`: where the openb folder (openb/openb_node_list_gpu_node.csv, pod lists) is
    /// looked for, as for trace files.
    explicit FillStudyView(std::vector<std::filesystem::path> dataDirs, QWidget* parent = nullptr);

    void setNodesFile(const std::filesystem::path& file);
    void setPodsFile(const std::filesystem::path& file);
    void setSeeds(std::uint64_t first, int count);
    void setPolicies(const std::vector<FillPolicy>& policies);
    /// Starts the study with what the form says; a refusal (bad file) shows in the status line.
    void run();

    FillStudyRequest request() const;
    FillStudyRunner& runner() const { return *m_runner; }
    ui::FillCurveChart* chart() const { return m_chart; }
    QStandardItemModel* table() const { return m_table; }
    QString status() const;

private:
    void showResults();
    void setRunning(bool running);
    void browseNodes();
    void browsePods();

    std::vector<std::filesystem::path> m_dataDirs;
    FillStudyRunner* m_runner;
    QLineEdit* m_nodes;
    QComboBox* m_pods;
    QSpinBox* m_firstSeed;
    QSpinBox* m_seedCount;
    QDoubleSpinBox* m_tune;
    std::vector<QCheckBox*> m_policies;  ///< kFillPolicies order
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    ui::FillCurveChart* m_chart;
    QTableView* m_tableView;
    QStandardItemModel* m_table;
    QElapsedTimer m_elapsed;
};

}  // namespace gpuplan::app
