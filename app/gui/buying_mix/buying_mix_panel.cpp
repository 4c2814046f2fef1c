#include "buying_mix_panel.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "buying_mix_controls.hpp"
#include "charts/mix_curve_chart.hpp"
#include "format/kpi_format.hpp"
#include "mix_sweep_runner.hpp"
#include "tables/chargeback_table_model.hpp"
#include "tables/price_table_model.hpp"

namespace gpuplan::app {

namespace {
// Item data of the picker's entries that are not a book of the folder.
constexpr int kOwnPrices = -2;  // the scenario's prices match no book: shown, not choosable

QTableView* readOnlyTable(QAbstractItemModel* model, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setSelectionMode(QAbstractItemView::NoSelection);
    view->verticalHeader()->hide();
    // Columns as wide as their contents: a stretched last column would push the money (right-
    // aligned) far from the names it belongs to.
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->setWordWrap(false);
    return view;
}
}  // namespace

BuyingMixPanel::BuyingMixPanel(ScenarioDocument* doc, const QString& priceBooksDir, QWidget* parent)
    : QWidget(parent),
      m_doc(doc),
      m_books(readPriceBooks(priceBooksDir.toStdString(), doc->catalog())) {
    m_bookBox = new QComboBox(this);
    m_bookBox->setToolTip(tr("The prices the fleet is charged at: a price book's list prices"));
    m_refusal = new QLabel(this);
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_refusal->setVisible(false);
    m_book = new QLabel(this);
    m_book->setWordWrap(true);
    m_utilization = new QLabel(this);
    m_utilization->setWordWrap(true);
    m_utilization->setTextFormat(Qt::RichText);
    m_prices = new ui::PriceTableModel(this);
    m_chargeback = new ui::ChargebackTableModel(this);

    auto* picker = new QFormLayout;
    picker->addRow(tr("Price book"), m_bookBox);
    // Prices and chargeback share a column as tabs: the mix controls and the curve need the
    // width (the tab must fit a 1600 px window beside nothing else).
    auto* chargeback = new QWidget(this);
    auto* chargebackColumn = new QVBoxLayout(chargeback);
    chargebackColumn->setContentsMargins(2, 2, 2, 2);
    chargebackColumn->addWidget(
        new QLabel(tr("What each team's jobs held, at its price (last run)"), chargeback));
    chargebackColumn->addWidget(readOnlyTable(m_chargeback, chargeback), 1);
    auto* tables = new QTabWidget(this);
    tables->setDocumentMode(true);
    tables->addTab(readOnlyTable(m_prices, this), tr("Prices"));
    tables->addTab(chargeback, tr("Chargeback"));
    auto* left = new QVBoxLayout;
    left->addLayout(picker);
    left->addWidget(m_refusal);
    left->addWidget(m_book);
    left->addWidget(tables, 1);
    left->addWidget(m_utilization);
    m_controls = new BuyingMixControls(m_doc, this);
    m_curve = new ui::MixCurveChart(this);
    m_runner = new MixSweepRunner(m_doc->catalog(), m_doc->loadOptions().budget, this);
    auto* row = new QHBoxLayout(this);
    row->addLayout(left, 3);
    row->addWidget(m_controls, 3);
    row->addWidget(m_curve, 4);

    connect(m_controls, &BuyingMixControls::message, this, &BuyingMixPanel::message);
    connect(m_runner, &MixSweepRunner::started, this, [this] { m_curve->setBusy(true); });
    connect(m_runner, &MixSweepRunner::progress, m_curve, &ui::MixCurveChart::setProgress);
    connect(m_runner, &MixSweepRunner::finished, this, [this] {
        m_curve->setBusy(false);
        m_curve->setSweep(*m_runner->sweep());
        showCurrent();
    });
    connect(m_runner, &MixSweepRunner::failed, this, [this](const QString& why) {
        m_curve->setBusy(false);
        m_curve->setMessage(tr("No curve: %1").arg(why));
    });
    connect(m_curve, &ui::MixCurveChart::levelClicked, this, &BuyingMixPanel::pickLevel);

    connect(m_bookBox, &QComboBox::activated, this, [this](int item) {
        const int book = m_bookBox->itemData(item).toInt();
        if (book == kOwnPrices) return;  // what the scenario has: nothing to change
        pickBook(book);
    });
    connect(m_doc, &ScenarioDocument::changed, this, [this] {
        syncFromDocument();
        showReason({});  // a refusal is about the scenario it was refused on
        requestSweep();
        showCurrent();
    });
    syncFromDocument();
    showUtilization();
    requestSweep();
    showCurrent();
}

void BuyingMixPanel::setCurveActive(bool active) {
    m_curveActive = active;
    if (!active) {
        m_sweepStale = m_runner->stop() || m_sweepStale;
        m_curve->setBusy(false);
    } else if (m_sweepStale) {
        requestSweep();
    }
}

void BuyingMixPanel::requestSweep() {
    m_sweepStale = !m_curveActive;
    if (m_sweepStale) return;  // swept when the curve is on again
    const Scenario& s = m_doc->scenario();
    if (!s.pricing || s.nodeList) {
        m_runner->clear();
        m_curve->setBusy(false);
        m_curve->setMessage(
            !s.pricing ? tr("No prices: pick a price book to see what each reserved level costs.")
                       : tr("The buying mix needs a fleet of pods, racks and node groups."));
        return;
    }
    // The curve keeps the mix's spot nodes at every level: moving the reservation moves the
    // current choice along one curve, it does not draw another.
    m_runner->request(s, s.buyingMix ? s.buyingMix->spotNodes : 0);
}

void BuyingMixPanel::showCurrent() {
    const Kpi* cost = m_results ? m_results->findKpi("cost_usd") : nullptr;
    m_curve->setCurrent(m_controls->currentReservedNodes(),
                        cost ? std::optional<double>(cost->value) : std::nullopt);
}

void BuyingMixPanel::pickLevel(int index) {
    const std::optional<MixSweep>& sweep = m_runner->sweep();
    if (!sweep || index < 0 || index >= static_cast<int>(sweep->levels.size())) return;
    const MixLevel& level = sweep->levels[static_cast<std::size_t>(index)];
    // The level as the curve priced it: its mix and its on-demand settings.
    const Scenario after =
        scenarioAtLevel(m_doc->scenario(), sweep->onDemand, level.reservedNodes, level.spotNodes);
    const QString text =
        tr("Reserve %1 nodes, the rest elastic on demand (cost curve)").arg(level.reservedNodes);
    const QString reason = m_doc->edit(after, text);
    showReason(reason);
    if (reason.isEmpty()) emit message(text);
}

void BuyingMixPanel::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    m_prices->setResults(m_results);
    m_chargeback->setResults(m_results);
    m_controls->setResults(m_results);
    showUtilization();
    showCurrent();
}

QString BuyingMixPanel::pickBook(int book) {
    const Scenario& s = m_doc->scenario();
    const PricingEdit edit = book == kNoPrices
                                 ? removePricing(s)
                                 : priceWithBook(s, m_books.at(book).book, m_doc->catalog());
    const QString reason = m_doc->edit(edit.after, edit.text);
    showReason(reason);
    if (!reason.isEmpty())
        syncFromDocument();  // the picker shows what the document holds
    else
        emit message(edit.text);
    return reason;
}

QString BuyingMixPanel::refusal() const {
    return m_refusal->isVisible() ? m_refusal->toolTip() : QString();
}

QString BuyingMixPanel::bookText() const {
    return m_book->text();
}

QString BuyingMixPanel::utilizationText() const {
    return m_utilization->text().remove(QRegularExpression(QStringLiteral("<[^>]*>")));
}

void BuyingMixPanel::showReason(const QString& reason) {
    m_refusal->setText(reason.isEmpty() ? QString() : tr("Refused: %1").arg(reason));
    m_refusal->setToolTip(reason);
    m_refusal->setVisible(!reason.isEmpty());
    if (!reason.isEmpty()) emit message(tr("Refused: %1").arg(reason));
}

void BuyingMixPanel::syncFromDocument() {
    const Scenario& s = m_doc->scenario();
    const QSignalBlocker block(m_bookBox);
    m_bookBox->clear();
    m_bookBox->addItem(tr("No prices"), kNoPrices);
    auto* items = qobject_cast<QStandardItemModel*>(m_bookBox->model());
    for (std::size_t i = 0; i < m_books.size(); ++i) {
        const PriceBookFile& b = m_books[i];
        const QString file = QString::fromStdString(b.file.filename().string());
        if (!b.error.isEmpty()) {
            // Listed so that a broken file is noticed, with why; not choosable.
            m_bookBox->addItem(tr("%1 (unreadable)").arg(file), static_cast<int>(i));
            m_bookBox->setItemData(m_bookBox->count() - 1, b.error, Qt::ToolTipRole);
            items->item(m_bookBox->count() - 1)->setEnabled(false);
            continue;
        }
        m_bookBox->addItem(QStringLiteral("%1 (%2)").arg(QString::fromStdString(b.book.name),
                                                         QString::fromStdString(b.book.asOf)),
                           static_cast<int>(i));
        m_bookBox->setItemData(m_bookBox->count() - 1, QString::fromStdString(b.book.description),
                               Qt::ToolTipRole);
    }
    const int book = priceBookOf(s, m_books);
    if (!s.pricing) {
        m_bookBox->setCurrentIndex(0);
        m_book->setText(
            tr("No prices: runs report no costs. Pick a price book to see what the "
               "fleet costs."));
        return;
    }
    if (book >= 0) {
        m_bookBox->setCurrentIndex(m_bookBox->findData(book));
    } else {
        m_bookBox->addItem(
            tr("%1 (the scenario's own prices)").arg(QString::fromStdString(s.pricing->book)),
            kOwnPrices);
        m_bookBox->setCurrentIndex(m_bookBox->count() - 1);
    }
    m_book->setText(
        tr("%1 · prices as of %2")
            .arg(QString::fromStdString(s.pricing->book), QString::fromStdString(s.pricing->asOf)));
}

void BuyingMixPanel::showUtilization() {
    const Kpi* breakeven = m_results ? m_results->findKpi("breakeven_utilization") : nullptr;
    const Kpi* commitment =
        m_results ? m_results->findKpi("reserved_commitment_utilization") : nullptr;
    if (!breakeven || !commitment) {
        m_utilization->setText(QString());
        return;
    }
    // NaN when the fleet has no reserved node (or its GPUs have no on-demand price).
    m_utilization->setText(
        tr("Break-even utilisation <b>%1</b>: a reservation used more than this costs less than "
           "the same GPU-hours on demand.<br>Reserved commitment utilisation <b>%2</b> (last "
           "run): GPU-hours jobs held on reserved nodes ÷ those paid for.")
            .arg(ui::formatKpiValue(*breakeven), ui::formatKpiValue(*commitment)));
    m_utilization->setToolTip(
        QString::fromStdString(breakeven->description + "\n" + commitment->description));
}

}  // namespace gpuplan::app
