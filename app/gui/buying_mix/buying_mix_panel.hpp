// The "Buying mix" panel: a price-book picker (the books of
// PRESETS/pricebooks and "No prices"), each choice one undoable edit of the scenario's pricing
// (a book that cannot price some node group is refused with the validator's reason, shown
// under the picker and in the status bar); below it, read-only, the book's name and date, the
// price per GPU-hour of each GPU model and buying class the fleet has, the last run's
// break-even and reserved-commitment utilisation, and what each team's jobs cost (chargeback).
// A node group's buying class is edited in the Fleet tab. Beside them, the mix controls
// (buying_mix_controls.hpp) and the cost-versus-reserved curve, swept in the background
// (mix_sweep_runner.hpp) while the curve is active (in the dock: while its tab is in front);
// clicking a level of the curve reserves that many nodes.
#pragma once

#include <QWidget>
#include <memory>

#include "gpuplan/results/results.hpp"
#include "pricing_edits.hpp"
#include "shell/scenario_document.hpp"

class QComboBox;
class QLabel;

namespace gpuplan::ui {
class ChargebackTableModel;
class MixCurveChart;
class PriceTableModel;
}  // namespace gpuplan::ui

namespace gpuplan::app {

class BuyingMixControls;
class MixSweepRunner;

class BuyingMixPanel : public QWidget {
    Q_OBJECT
public:
    /// `priceBooksDir`: the folder of price books (read once, here: a few small files).
    BuyingMixPanel(ScenarioDocument* doc, const QString& priceBooksDir, QWidget* parent = nullptr);

    void setResults(std::shared_ptr<const Results> results);

    QComboBox* bookBox() const { return m_bookBox; }
    const std::vector<PriceBookFile>& books() const { return m_books; }
    /// Prices the scenario with books()[book], or removes its prices (kNoPrices). Returns the
    /// refusal, or an empty string when applied (or nothing changed).
    QString pickBook(int book);
    static constexpr int kNoPrices = -1;
    /// The refusal shown under the picker (empty when the last choice went through).
    QString refusal() const;
    /// The book line ("Lambda list prices · prices as of 2026-04") and the utilisation line.
    QString bookText() const;
    QString utilizationText() const;
    ui::PriceTableModel* prices() const { return m_prices; }
    ui::ChargebackTableModel* chargeback() const { return m_chargeback; }
    /// Whether the curve follows the scenario (the tab is in front; on by default). Off, a
    /// sweep waiting or running stops and the next one waits until it is on again.
    void setCurveActive(bool active);
    BuyingMixControls* controls() const { return m_controls; }
    ui::MixCurveChart* curve() const { return m_curve; }
    MixSweepRunner* sweepRunner() const { return m_runner; }

signals:
    void message(const QString& text);

private:
    void syncFromDocument();
    void showUtilization();
    void showReason(const QString& reason);
    /// Asks for the curve of the scenario now (or says why there is none).
    void requestSweep();
    void showCurrent();
    /// Reserves the curve's level `index` (scenarioAtLevel: what the curve priced).
    void pickLevel(int index);

    ScenarioDocument* m_doc;
    std::vector<PriceBookFile> m_books;
    std::shared_ptr<const Results> m_results;
    QComboBox* m_bookBox;
    QLabel* m_refusal;
    QLabel* m_book;
    QLabel* m_utilization;
    ui::PriceTableModel* m_prices;
    ui::ChargebackTableModel* m_chargeback;
    BuyingMixControls* m_controls;
    ui::MixCurveChart* m_curve;
    MixSweepRunner* m_runner;
    bool m_curveActive = true;
    bool m_sweepStale = false;  ///< the scenario changed while the curve was off
};

}  // namespace gpuplan::app
