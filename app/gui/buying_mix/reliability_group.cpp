#include "reliability_group.hpp"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "reliability_edits.hpp"

namespace gpuplan::app {

namespace {
constexpr double kHourS = 3600;
}  // namespace

ReliabilityGroup::ReliabilityGroup(ScenarioDocument* doc, QWidget* parent)
    : QGroupBox(tr("Failures"), parent), m_doc(doc) {
    m_on = new QCheckBox(tr("Random node failures"), this);
    m_on->setToolTip(
        tr("Nodes fail at random from their delivery on and come back after the repair time;\n"
           "a failure evicts every job on the node, which restarts from its last checkpoint"));

    m_mtbfGpuHours = new QDoubleSpinBox(this);
    m_mtbfGpuHours->setDecimals(0);
    m_mtbfGpuHours->setGroupSeparatorShown(true);
    // From 0 and past any sensible MTBF, so that the reader refuses a value out of its range
    // with its own reason (the bounds live in the engine only).
    m_mtbfGpuHours->setRange(0, 1e12);
    m_mtbfGpuHours->setSuffix(tr(" GPU-h"));
    const QString mtbfTip =
        tr("Mean GPU-hours between unexpected interruptions, per GPU: a node of 8 GPUs fails\n"
           "8 times as often. Default: Llama 3 405B's 419 unexpected interruptions on 16,384\n"
           "GPUs in 54 days, 16,384 × 54 × 24 / 419 ≈ %L1 GPU-h.")
            .arg(FailureDef::kLlama3MtbfGpuHours, 0, 'f', 0);
    m_mtbfGpuHours->setToolTip(mtbfTip);
    m_llama3 = new QPushButton(tr("Llama 3"), this);
    m_llama3->setToolTip(mtbfTip);
    auto* mtbfRow = new QHBoxLayout;
    mtbfRow->addWidget(m_mtbfGpuHours, 1);
    mtbfRow->addWidget(m_llama3);

    m_repairHours = new QDoubleSpinBox(this);
    m_repairHours->setDecimals(2);
    m_repairHours->setRange(0, InputLimits::maxHorizonS / kHourS);  // the reader bounds it
    m_repairHours->setSuffix(tr(" h"));
    m_repairHours->setToolTip(
        tr("How long a failed node stays down before it is Ready again. No default is\n"
           "published: the box starts at %1 h; set your fleet's (a GPU swap, a reimage).")
            .arg(kStartRepairS / kHourS));

    m_spares = new QSpinBox(this);
    m_spares->setRange(0, 1'000'000);  // the reader refuses more spares than nodes
    m_spares->setSuffix(tr(" nodes"));
    m_spares->setKeyboardTracking(false);
    m_spares->setToolTip(
        tr("Hot spares: the last nodes in fleet order kept idle (Cordoned, paid) to take a\n"
           "failed node's place at once; a repaired node becomes a spare in turn."));

    m_refusal = new QLabel(this);
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_refusal->setVisible(false);

    auto* form = new QFormLayout(this);
    form->addRow(m_on);
    form->addRow(tr("MTBF per GPU"), mtbfRow);
    form->addRow(tr("Repair time"), m_repairHours);
    form->addRow(tr("Hot spares"), m_spares);
    form->addRow(m_refusal);

    connect(m_on, &QCheckBox::clicked, this, [this](bool on) {
        commit(setRandomFailures(m_doc->scenario(), on, m_mtbfValue, m_repairS));
    });
    connect(m_mtbfGpuHours, &QDoubleSpinBox::editingFinished, this, [this] {
        // Leaving the box unchanged must not round Llama 3's MTBF to what it shows.
        if (m_mtbfGpuHours->value() != m_shownMtbf)
            commit(setMtbfGpuHours(m_doc->scenario(), m_mtbfGpuHours->value()));
    });
    connect(m_llama3, &QPushButton::clicked, this, [this] {
        commit(setMtbfGpuHours(m_doc->scenario(), FailureDef::kLlama3MtbfGpuHours));
    });
    connect(m_repairHours, &QDoubleSpinBox::editingFinished, this, [this] {
        if (m_repairHours->value() != m_shownRepairHours)
            commit(setRepairS(m_doc->scenario(), m_repairHours->value() * kHourS));
    });
    connect(m_spares, &QSpinBox::valueChanged, this, [this](int nodes) {
        const auto& f = m_doc->scenario().failures;
        if (f && f->hotSpareNodes != nodes) commit(setHotSpareNodes(m_doc->scenario(), nodes));
    });
    connect(m_doc, &ScenarioDocument::changed, this, [this] {
        syncFromDocument();
        m_refusal->setVisible(false);  // a refusal is about the scenario it was refused on
    });
    syncFromDocument();
}

QString ReliabilityGroup::refusal() const {
    return m_refusal->isVisible() ? m_refusal->text() : QString();
}

QString ReliabilityGroup::commit(const ReliabilityEdit& edit) {
    const QString reason = m_doc->edit(edit.after, edit.text);
    m_refusal->setText(reason);
    m_refusal->setVisible(!reason.isEmpty());
    if (!reason.isEmpty()) syncFromDocument();  // show what the document still holds
    emit message(reason.isEmpty() ? edit.text : tr("Refused: %1").arg(reason));
    return reason;
}

void ReliabilityGroup::syncFromDocument() {
    const std::optional<FailureDef>& f = m_doc->scenario().failures;
    // Without failures the boxes keep the last values, which turning them on again uses.
    if (f) {
        m_mtbfValue = f->mtbfGpuHours;
        m_repairS = f->repairS;
    }
    const QSignalBlocker b1(m_on), b2(m_mtbfGpuHours), b3(m_repairHours), b4(m_spares);
    m_spares->setValue(f ? f->hotSpareNodes : 0);
    m_on->setChecked(f.has_value());
    m_mtbfGpuHours->setValue(m_mtbfValue);
    m_shownMtbf = m_mtbfGpuHours->value();
    m_repairHours->setValue(m_repairS / kHourS);
    m_shownRepairHours = m_repairHours->value();
    for (QWidget* w : {static_cast<QWidget*>(m_mtbfGpuHours), static_cast<QWidget*>(m_llama3),
                       static_cast<QWidget*>(m_repairHours), static_cast<QWidget*>(m_spares)})
        w->setEnabled(f.has_value());
}

}  // namespace gpuplan::app
