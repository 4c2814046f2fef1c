#include "buying_mix_panel.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "chargeback_table_model.hpp"
#include "kpi_format.hpp"
#include "price_table_model.hpp"

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
    auto* left = new QVBoxLayout;
    left->addLayout(picker);
    left->addWidget(m_refusal);
    left->addWidget(m_book);
    left->addWidget(readOnlyTable(m_prices, this), 1);
    left->addWidget(m_utilization);
    auto* right = new QVBoxLayout;
    right->addWidget(new QLabel(tr("<b>Chargeback</b> · what each team's jobs held, at its "
                                   "price (last run)"),
                                this));
    right->addWidget(readOnlyTable(m_chargeback, this), 1);
    auto* row = new QHBoxLayout(this);
    row->addLayout(left, 1);
    row->addLayout(right, 1);

    connect(m_bookBox, &QComboBox::activated, this, [this](int item) {
        const int book = m_bookBox->itemData(item).toInt();
        if (book == kOwnPrices) return;  // what the scenario has: nothing to change
        pickBook(book);
    });
    connect(m_doc, &ScenarioDocument::changed, this, [this] {
        syncFromDocument();
        showReason({});  // a refusal is about the scenario it was refused on
    });
    syncFromDocument();
    showUtilization();
}

void BuyingMixPanel::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    m_prices->setResults(m_results);
    m_chargeback->setResults(m_results);
    showUtilization();
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
