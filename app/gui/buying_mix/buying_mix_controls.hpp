// The buying-mix controls of the Buying mix tab: the mix by node order on or off,
// the reserved and spot node counts (a slider and a spin box each), elastic on demand
// (provisioning delay, idle timeout) and spot reclaims (monthly interruption share, notice,
// capacity back). Each change is one ScenarioDocument::edit (buying_mix_edits.hpp), checked by
// the reader's rules; a refused value keeps the scenario and shows its reason here and, through
// message(), in the status bar. A slider drag updates its label live and edits once, on
// release; keyboard steps and spin-box arrows merge into one undo step.
#pragma once

#include <QWidget>
#include <memory>

#include "buying_mix_edits.hpp"
#include "gpuplan/results/results.hpp"
#include "shell/scenario_document.hpp"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace gpuplan::app {

class BuyingMixControls : public QWidget {
    Q_OBJECT
public:
    /// Where the spot return box starts while the scenario has no spot settings: SpotDef has
    /// no default (none is published), so the box offers one to change.
    static constexpr double kStartSpotReturnS = 600;

    explicit BuyingMixControls(ScenarioDocument* doc, QWidget* parent = nullptr);
    /// The last run: its break-even utilisation is shown beside the reserved count.
    void setResults(std::shared_ptr<const Results> results);

    QCheckBox* mixBox() const { return m_mixOn; }
    QSlider* reservedSlider() const { return m_reservedSlider; }
    QSpinBox* reservedBox() const { return m_reservedBox; }
    QSlider* spotSlider() const { return m_spotSlider; }
    QSpinBox* spotBox() const { return m_spotBox; }
    QCheckBox* elasticBox() const { return m_elastic; }
    QDoubleSpinBox* delayBox() const { return m_delayS; }  ///< seconds
    QDoubleSpinBox* idleBox() const { return m_idleMin; }  ///< minutes
    QSlider* ceilingSlider() const { return m_ceilingSlider; }
    QSpinBox* ceilingBox() const { return m_ceilingBox; }
    QCheckBox* spotReclaimsBox() const { return m_spotOn; }
    QDoubleSpinBox* shareBox() const { return m_sharePct; }    ///< % a month
    QDoubleSpinBox* noticeBox() const { return m_noticeS; }    ///< seconds
    QDoubleSpinBox* returnBox() const { return m_returnMin; }  ///< minutes
    /// "12 reserved · 4 spot · 16 on demand of 32 nodes", live while a slider is dragged.
    QString mixText() const;
    QString breakevenText() const;
    /// The refusal shown (empty when the last change went through).
    QString refusal() const;
    /// The reserved nodes now: the mix's, or the groups' own reserved nodes without a mix.
    int currentReservedNodes() const;

signals:
    void message(const QString& text);

private:
    QString commit(const MixEdit& edit, int mergeKey = ScenarioDocument::kNoMerge);
    void commitReserved(int reservedNodes);
    void commitSpot(int spotNodes);
    /// The ceiling at the slider's top is every on-demand node (no maxNodes).
    void commitCeiling(int maxNodes);
    void syncFromDocument();
    void showMixText();

    ScenarioDocument* m_doc;
    std::shared_ptr<const Results> m_results;
    FleetClassCounts m_fleet;
    QCheckBox* m_mixOn;
    QSlider* m_reservedSlider;
    QSpinBox* m_reservedBox;
    QSlider* m_spotSlider;
    QSpinBox* m_spotBox;
    QLabel* m_mixText;
    QLabel* m_breakeven;
    QCheckBox* m_elastic;
    QDoubleSpinBox* m_delayS;
    QDoubleSpinBox* m_idleMin;
    QSlider* m_ceilingSlider;
    QSpinBox* m_ceilingBox;
    QCheckBox* m_spotOn;
    QDoubleSpinBox* m_sharePct;
    QDoubleSpinBox* m_noticeS;
    QDoubleSpinBox* m_returnMin;
    QLabel* m_refusal;
    // What turning a setting on uses: the scenario's last values, exact.
    OnDemandDef m_onDemand;
    SpotDef m_spot;
};

}  // namespace gpuplan::app
