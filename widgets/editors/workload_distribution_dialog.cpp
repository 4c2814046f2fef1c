#include "workload_distribution_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace gpuplan::ui {

namespace {

constexpr DistKind kKinds[] = {DistKind::Fixed, DistKind::Exponential, DistKind::Lognormal,
                               DistKind::Uniform, DistKind::Empirical};

/// A value as a field shows it: with its unit for durations, bare for GPU counts.
QString field(double v, Quantity q) {
    return q == Quantity::DurationS ? formatDurationValue(v) : QString::number(v, 'g', 6);
}

}  // namespace

DistributionDialog::DistributionDialog(const DistributionDef& d, Quantity q, QWidget* parent)
    : QDialog(parent), m_quantity(q) {
    setWindowTitle(q == Quantity::DurationS ? tr("Run time distribution")
                                            : tr("GPUs per job distribution"));
    auto* form = new QFormLayout;
    m_kind = new QComboBox(this);
    for (DistKind k : kKinds)
        m_kind->addItem(QString::fromLatin1(toString(k)));
    m_kind->setCurrentIndex(static_cast<int>(d.kind));
    form->addRow(tr("Kind"), m_kind);
    m_first = new QLineEdit(this);
    m_second = new QLineEdit(this);
    m_firstLabel = new QLabel(this);
    m_secondLabel = new QLabel(this);
    form->addRow(m_firstLabel, m_first);
    form->addRow(m_secondLabel, m_second);
    m_min = new QLineEdit(d.min ? field(*d.min, q) : QString(), this);
    m_max = new QLineEdit(d.max ? field(*d.max, q) : QString(), this);
    m_min->setPlaceholderText(tr("none"));
    m_max->setPlaceholderText(tr("none"));
    form->addRow(tr("At least"), m_min);
    form->addRow(tr("At most"), m_max);

    switch (d.kind) {
        case DistKind::Fixed:
            m_first->setText(field(d.value, q));
            break;
        case DistKind::Exponential:
            m_first->setText(field(d.mean, q));
            break;
        case DistKind::Lognormal:
            m_first->setText(field(d.median, q));
            m_second->setText(QString::number(d.sigma, 'g', 6));
            break;
        case DistKind::Uniform:
            m_first->setText(field(d.low, q));
            m_second->setText(field(d.high, q));
            break;
        case DistKind::Empirical: {
            // "1:3, 8:1": the pairs without the kind word, the bounds or the unit.
            DistributionDef pairs = d;
            pairs.min.reset();
            pairs.max.reset();
            m_first->setText(formatDistribution(pairs, q)
                                 .section(QLatin1Char(' '), 1)
                                 .remove(QStringLiteral(" GPUs")));
            break;
        }
    }

    m_error = new QLabel(this);
    m_error->setStyleSheet(QStringLiteral("color: #b03030;"));
    m_error->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &DistributionDialog::kindChanged);
    kindChanged();
}

void DistributionDialog::kindChanged() {
    const QString unit = m_quantity == Quantity::DurationS ? tr(" (e.g. 2 h, 30 min)") : QString();
    const auto kind = kKinds[m_kind->currentIndex()];
    const char* first = "";
    const char* second = nullptr;
    switch (kind) {
        case DistKind::Fixed:
            first = "Value";
            break;
        case DistKind::Exponential:
            first = "Mean";
            break;
        case DistKind::Lognormal:
            first = "Median";
            second = "σ (of the log)";
            break;
        case DistKind::Uniform:
            first = "Low";
            second = "High";
            break;
        case DistKind::Empirical:
            first = "value:weight, …";
            break;
    }
    m_firstLabel->setText(tr(first) + unit);
    m_secondLabel->setText(second ? tr(second) : QString());
    m_secondLabel->setVisible(second != nullptr);
    m_second->setVisible(second != nullptr);
}

QString DistributionDialog::composed() const {
    const auto kind = kKinds[m_kind->currentIndex()];
    QString t = QString::fromLatin1(toString(kind)) + QLatin1Char(' ') + m_first->text();
    if (kind == DistKind::Lognormal) t += QStringLiteral(" sigma ") + m_second->text();
    if (kind == DistKind::Uniform) t += QStringLiteral(" to ") + m_second->text();
    if (!m_min->text().trimmed().isEmpty()) t += QStringLiteral(" min ") + m_min->text();
    if (!m_max->text().trimmed().isEmpty()) t += QStringLiteral(" max ") + m_max->text();
    return t;
}

QString DistributionDialog::error() const {
    QString error;
    if (!parseDistribution(composed(), m_quantity, &error)) return error;
    return {};
}

QString DistributionDialog::text() const {
    QString error;
    const auto d = parseDistribution(composed(), m_quantity, &error);
    return d ? formatDistribution(*d, m_quantity) : QString();
}

void DistributionDialog::accept() {
    // Only a readable distribution the document takes leaves the dialog.
    QString why = error();
    if (why.isEmpty() && m_commit) why = m_commit(text());
    m_error->setText(why);
    if (why.isEmpty()) QDialog::accept();
}

}  // namespace gpuplan::ui
