#include "gpu_sharing_editor.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <stdexcept>

#include "format/sharing_format.hpp"
#include "topology/mig_slot_picture.hpp"

namespace gpuplan::ui {

namespace {

constexpr int kProfileColumns = 4;

QString nameOf(const MigProfile& p) {
    return QString::fromLatin1(p.name.data(), static_cast<qsizetype>(p.name.size()));
}

QLabel* grayNote(const QString& text, QWidget* parent) {
    auto* l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    l->setForegroundRole(QPalette::PlaceholderText);
    return l;
}

/// A scroll area as tall as its contents want (QScrollArea caps its size hint at 24 lines), and
/// no taller a minimum than a scroll bar's: the editor's pages never raise the dock's minimum
/// height, so no page can grow the main window; a page taller than the room left scrolls.
class FittingScroll : public QScrollArea {
public:
    using QScrollArea::QScrollArea;
    bool hasHeightForWidth() const override { return widget() != nullptr; }
    int heightForWidth(int width) const override {
        const QWidget* w = widget();
        if (!w) return QScrollArea::heightForWidth(width);
        const int frame = 2 * frameWidth();
        const int h =
            w->hasHeightForWidth() ? w->heightForWidth(width - frame) : w->sizeHint().height();
        return h + frame;
    }
    QSize sizeHint() const override {
        if (!widget()) return QScrollArea::sizeHint();
        const int width = widget()->sizeHint().width() + 2 * frameWidth();
        return {width, heightForWidth(width)};
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        // The contents changed (another page, a label's text): the hints above changed with
        // them, and the layout holding this area keeps the old ones until told.
        if (watched == widget() && event->type() == QEvent::LayoutRequest) updateGeometry();
        return QScrollArea::eventFilter(watched, event);
    }
};

}  // namespace

GpuSharingEditor::GpuSharingEditor(QWidget* parent) : QWidget(parent) {
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_note = grayNote({}, this);

    m_mode = new QComboBox(this);
    m_mode->setObjectName(QStringLiteral("sharingMode"));
    m_mode->addItem(tr("Whole GPUs"), static_cast<int>(SharingMode::Whole));
    m_mode->addItem(tr("MIG"), static_cast<int>(SharingMode::Mig));
    m_mode->addItem(tr("MPS"), static_cast<int>(SharingMode::Mps));
    m_mode->addItem(tr("Time-slicing"), static_cast<int>(SharingMode::TimeSlicing));
    m_mode->setToolTip(tr("How each GPU of the selection is shared between pods"));
    m_mode->setPlaceholderText(tr("no selection"));
    connect(m_mode, &QComboBox::activated, this, &GpuSharingEditor::onModeIndex);

    m_pages = new QStackedWidget(this);
    m_pages->addWidget(grayNote(tr("One pod per GPU. Pods asking a share of a GPU or a MIG "
                                   "instance do not fit here."),
                                m_pages));

    auto* mig = new QWidget(m_pages);
    auto* migColumn = new QVBoxLayout(mig);
    migColumn->setContentsMargins(0, 0, 0, 0);
    m_picture = new MigSlotPicture(mig);
    m_picture->setObjectName(QStringLiteral("migPicture"));
    connect(m_picture, &MigSlotPicture::addRequested, this, &GpuSharingEditor::addProfileAt);
    connect(m_picture, &MigSlotPicture::removeRequested, this, &GpuSharingEditor::removeInstance);
    m_migUsage = grayNote({}, mig);
    m_profileRow = new QWidget(mig);
    auto* profiles = new QGridLayout(m_profileRow);  // rows of 4: a narrow dock stays narrow
    profiles->setContentsMargins(0, 0, 0, 0);
    profiles->setSpacing(3);
    profiles->setAlignment(Qt::AlignTop);
    for (int c = 0; c < kProfileColumns; ++c)
        profiles->setColumnStretch(c, 1);  // a lone button keeps a quarter's width
    // Two rows kept whatever is offered: the controls below stay where they are.
    m_profileRow->setMinimumHeight(2 * QPushButton(QStringLiteral("1g")).sizeHint().height() + 3);
    m_notOffered = grayNote({}, mig);
    m_notOffered->setWordWrap(false);  // one line: elided by the dock's width if need be
    m_notOffered->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_layoutText = new QLineEdit(mig);
    m_layoutText->setObjectName(QStringLiteral("migLayoutText"));
    m_layoutText->setPlaceholderText(tr("e.g. 3g.40gb, 2g.20gb, 1g.10gb or 4g.40gb@0, 3g.40gb@4"));
    m_layoutText->setToolTip(
        tr("Instances in creation order (placed as nvidia-smi would) or with start slots "
           "(name@slot); Enter applies"));
    connect(m_layoutText, &QLineEdit::returnPressed, this,
            [this] { applyLayoutText(m_layoutText->text()); });
    migColumn->addWidget(m_picture);
    migColumn->addWidget(m_migUsage);
    migColumn->addWidget(m_profileRow);
    migColumn->addWidget(m_notOffered);
    migColumn->addWidget(m_layoutText);
    // Dynamic MIG (engine/README.md): the scheduler may re-cut idle GPUs for waiting jobs;
    // each re-cut takes the GPU out of service for the reconfiguration time.
    m_migDynamic = new QCheckBox(tr("Re-cut idle GPUs for waiting jobs (dynamic MIG)"), mig);
    m_migDynamic->setObjectName(QStringLiteral("migDynamic"));
    m_migDynamic->setToolTip(
        tr("The layout above is where the GPUs start; an idle GPU is re-cut when a job asks "
           "a profile no free instance offers (as NVIDIA's MIG manager does)"));
    m_migReconfigure = new QDoubleSpinBox(mig);
    m_migReconfigure->setObjectName(QStringLiteral("migReconfigureS"));
    m_migReconfigure->setRange(0, 86400);
    m_migReconfigure->setDecimals(0);
    m_migReconfigure->setSuffix(QStringLiteral(" s"));
    m_migReconfigure->setKeyboardTracking(false);
    m_migReconfigure->setToolTip(
        tr("How long a re-cut GPU is out of service (no measured figure is published; NVIDIA "
           "says a MIG rollout takes several minutes)"));
    connect(m_migDynamic, &QCheckBox::toggled, this, [this](bool on) {
        if (!m_hasTarget || on == (m_sharing.mode == SharingMode::Mig && m_sharing.migDynamic))
            return;
        // From the MIG page of GPUs not yet in MIG mode: dynamic GPUs may start uncut, so
        // this alone switches them (with the draft's instances, if any).
        GpuSharingDef d = m_sharing;
        if (d.mode != SharingMode::Mig) {
            d.mode = SharingMode::Mig;
            d.migLayout = m_draft ? m_draft->describe() : std::string();
        }
        d.migDynamic = on;
        emit sharingRequested(d);
    });
    connect(m_migReconfigure, &QDoubleSpinBox::valueChanged, this, [this](double seconds) {
        if (!m_hasTarget || m_sharing.mode != SharingMode::Mig ||
            seconds == m_sharing.migReconfigureS)
            return;
        GpuSharingDef d = m_sharing;
        d.migReconfigureS = seconds;
        emit sharingRequested(d);
    });
    auto* recutRow = new QHBoxLayout;
    recutRow->addWidget(new QLabel(tr("Re-cut takes"), mig));
    recutRow->addWidget(m_migReconfigure, 1);
    migColumn->addWidget(m_migDynamic);
    migColumn->addLayout(recutRow);
    m_pages->addWidget(mig);

    auto* mps = new QWidget(m_pages);
    auto* mpsForm = new QFormLayout(mps);
    mpsForm->setContentsMargins(0, 0, 0, 0);
    m_clients = new QSpinBox(mps);
    m_clients->setObjectName(QStringLiteral("mpsClients"));
    m_clients->setRange(1, GpuSharingDef::kMaxMpsClients);
    m_clients->setKeyboardTracking(false);
    m_clients->setToolTip(tr("Pods sharing one GPU at most (48 on Volta and later)"));
    connect(m_clients, &QSpinBox::valueChanged, this, [this](int clients) {
        if (!m_hasTarget || m_sharing.mode != SharingMode::Mps ||
            (clients == m_sharing.mpsClients && !m_differs))
            return;
        GpuSharingDef d = m_sharing;
        d.mpsClients = clients;
        emit sharingRequested(d);
    });
    mpsForm->addRow(tr("Clients per GPU"), m_clients);
    // Per-client caps (engine/README.md, "Resource model"): each a spin box that asks for the
    // MPS sharing with that one value changed, like the clients box.
    auto capBox = [&](const char* name, double low, double high, const QString& suffix,
                      double GpuSharingDef::*field, const QString& tip) {
        auto* box = new QDoubleSpinBox(mps);
        box->setObjectName(QLatin1String(name));
        box->setRange(low, high);
        box->setDecimals(0);
        box->setSuffix(suffix);
        box->setKeyboardTracking(false);
        box->setToolTip(tip);
        connect(box, &QDoubleSpinBox::valueChanged, this, [this, field](double value) {
            if (!m_hasTarget || m_sharing.mode != SharingMode::Mps ||
                (value == m_sharing.*field && !m_differs))
                return;
            GpuSharingDef d = m_sharing;
            d.*field = value;
            emit sharingRequested(d);
        });
        return box;
    };
    m_computeCap =
        capBox("mpsComputeCapPct", 1, 100, QStringLiteral(" %"), &GpuSharingDef::mpsComputeCapPct,
               tr("Each client's share of the SMs at most "
                  "(CUDA_MPS_ACTIVE_THREAD_PERCENTAGE); NVIDIA suggests 100 / (0.5 · "
                  "clients). A limit, not a reservation."));
    m_memoryLimit = capBox("mpsMemoryLimitGb", 0, 100000, QStringLiteral(" GB"),
                           &GpuSharingDef::mpsMemoryLimitGb,
                           tr("Each client's pinned device-memory limit; a client allocating "
                              "more runs out of memory. 0: the GPU's memory × the pod's share."));
    m_memoryLimit->setSpecialValueText(tr("HBM × share"));
    mpsForm->addRow(tr("Compute cap per client"), m_computeCap);
    mpsForm->addRow(tr("Memory limit per client"), m_memoryLimit);
    mpsForm->addRow(grayNote(tr("Shares (milli-GPU) of the pods sum to at most one GPU."), mps));
    m_pages->addWidget(mps);

    auto* slicing = new QWidget(m_pages);
    auto* slicingForm = new QFormLayout(slicing);
    slicingForm->setContentsMargins(0, 0, 0, 0);
    m_replicas = new QSpinBox(slicing);
    m_replicas->setObjectName(QStringLiteral("replicas"));
    m_replicas->setRange(GpuSharingDef::kMinReplicas, GpuSharingDef::kMaxReplicas);
    m_replicas->setKeyboardTracking(false);
    connect(m_replicas, &QSpinBox::valueChanged, this, [this](int replicas) {
        if (!m_hasTarget || m_sharing.mode != SharingMode::TimeSlicing ||
            (replicas == m_sharing.timeSliceReplicas && !m_differs))
            return;
        GpuSharingDef d = m_sharing;
        d.timeSliceReplicas = replicas;
        emit sharingRequested(d);
    });
    slicingForm->addRow(tr("Replicas per GPU"), m_replicas);
    slicingForm->addRow(grayNote(tr("Each pod gets one replica (1 / replicas of the GPU), "
                                    "whatever share it asked."),
                                 slicing));
    m_pages->addWidget(slicing);

    m_refusal = new QLabel(this);
    m_refusal->setObjectName(QStringLiteral("sharingRefusal"));
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_refusal->setVisible(false);

    // The title and the mode always show; the note, the page and a refusal scroll when the
    // dock is shorter than they are (the MIG page is some 300 px), rather than making the
    // main window taller.
    auto* body = new QWidget(this);
    auto* bodyColumn = new QVBoxLayout(body);
    bodyColumn->setContentsMargins(0, 0, 0, 0);
    bodyColumn->addWidget(m_note);
    bodyColumn->addWidget(m_pages);
    bodyColumn->addWidget(m_refusal);
    bodyColumn->addStretch(1);
    m_scroll = new FittingScroll(this);
    m_scroll->setObjectName(QStringLiteral("sharingScroll"));
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setWidgetResizable(true);
    m_scroll->setWidget(body);
    // As wide as the widest page needs, whichever shows: a mode never widens the dock either.
    int widest = 0;
    for (int i = 0; i < m_pages->count(); ++i)
        widest = std::max(widest, m_pages->widget(i)->minimumSizeHint().width());
    m_scroll->setMinimumWidth(widest + m_scroll->verticalScrollBar()->sizeHint().width());

    // The stack is as tall as the page shown, not its tallest page.
    auto fitPage = [this](int current) {
        for (int i = 0; i < m_pages->count(); ++i)
            m_pages->widget(i)->setSizePolicy(QSizePolicy::Preferred, i == current
                                                                          ? QSizePolicy::Preferred
                                                                          : QSizePolicy::Ignored);
        m_pages->updateGeometry();
        m_scroll->updateGeometry();
    };
    connect(m_pages, &QStackedWidget::currentChanged, this, fitPage);
    fitPage(m_pages->currentIndex());

    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(4, 4, 4, 4);
    column->addWidget(m_title);
    auto* modeRow = new QHBoxLayout;
    modeRow->addWidget(new QLabel(tr("GPU sharing"), this));
    modeRow->addWidget(m_mode, 1);
    column->addLayout(modeRow);
    column->addWidget(m_scroll);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    clearTarget(
        tr("Select a node, rack or pod (or node groups in the Fleet panel) to set how "
           "its GPUs are shared."));
}

void GpuSharingEditor::setTarget(const QString& title, const GpuSharingDef& sharing,
                                 const GpuModel* gpu, const QString& differs) {
    m_hasTarget = true;
    m_differs = !differs.isEmpty();
    m_sharing = sharing;
    m_gpu = gpu ? std::optional<GpuModel>(*gpu) : std::nullopt;
    m_family = gpu ? migFamilyFor(*gpu) : std::nullopt;
    m_draft.reset();
    if (m_family && sharing.mode == SharingMode::Mig) {
        try {
            m_draft = parseMigLayout(sharing.migLayout, *m_family, gpu->migMaxInstances);
        } catch (const std::invalid_argument&) {
            // A scenario never holds a refused layout (validation); nothing to draw if it did.
        }
    }
    m_title->setText(title);
    m_note->setText(differs);
    m_note->setVisible(m_differs);
    m_refusal->setVisible(false);
    m_mode->setEnabled(true);
    m_pages->setVisible(true);
    refresh();
}

void GpuSharingEditor::clearTarget(const QString& hint) {
    m_hasTarget = false;
    m_differs = false;
    m_sharing = GpuSharingDef{};
    m_gpu.reset();
    m_family.reset();
    m_draft.reset();
    m_title->setText(hint);
    m_note->setVisible(false);
    m_refusal->setVisible(false);
    // No target, no mode: a greyed "MIG" left from the last target would read as this one's.
    m_mode->setCurrentIndex(-1);
    m_mode->setEnabled(false);
    m_pages->setVisible(false);
}

void GpuSharingEditor::showRefusal(const QString& reason) {
    m_refusal->setText(tr("Refused: %1").arg(reason));
    m_refusal->setVisible(!reason.isEmpty());
    if (!reason.isEmpty()) m_scroll->ensureWidgetVisible(m_refusal);
}

QString GpuSharingEditor::refusal() const {
    return m_refusal->isVisible() ? m_refusal->text() : QString();
}

QList<QPushButton*> GpuSharingEditor::profileButtons() const {
    return m_profileRow->findChildren<QPushButton*>();
}

void GpuSharingEditor::chooseMode(SharingMode mode) {
    const int index = m_mode->findData(static_cast<int>(mode));
    m_mode->setCurrentIndex(index);
    onModeIndex(index);
}

void GpuSharingEditor::onModeIndex(int index) {
    if (!m_hasTarget) return;
    const auto mode = static_cast<SharingMode>(m_mode->itemData(index).toInt());
    m_refusal->setVisible(false);
    if (mode == m_sharing.mode && (!m_differs || mode == SharingMode::Mig)) {
        refresh();
        return;
    }
    if (mode == SharingMode::Mig) {
        // A MIG GPU needs instances: the picture starts empty, and the first instance added
        // asks for the switch (one edit). A GPU without MIG says why here and now.
        if (!m_gpu || !m_family) {
            GpuSharingDef probe;
            probe.mode = SharingMode::Mig;
            showRefusal(m_gpu ? QString::fromStdString(sharingRefusal(probe, *m_gpu))
                              : tr("the selection mixes GPU models; a MIG layout is per model"));
            refresh();  // back to the document's mode
            return;
        }
        m_draft = MigLayout(*m_family, m_gpu->migMaxInstances);
        m_pages->setCurrentIndex(1);
        rebuildProfileButtons();
        m_layoutText->clear();
        m_migUsage->setText(tr("Add an instance: the GPUs switch to MIG with the first one."));
        return;
    }
    GpuSharingDef d = m_sharing;
    d.mode = mode;
    emit sharingRequested(d);
}

void GpuSharingEditor::refresh() {
    const int index = m_mode->findData(static_cast<int>(m_sharing.mode));
    m_mode->setCurrentIndex(index);
    m_pages->setCurrentIndex(index);
    {
        const QSignalBlocker a(m_clients), b(m_replicas), c(m_computeCap), d(m_memoryLimit),
            e(m_migDynamic), f(m_migReconfigure);
        m_migDynamic->setChecked(m_sharing.migDynamic);
        m_migReconfigure->setValue(m_sharing.migReconfigureS);
        m_migDynamic->setEnabled(m_family.has_value());
        m_migReconfigure->setEnabled(m_sharing.mode == SharingMode::Mig && m_sharing.migDynamic);
        m_clients->setValue(m_sharing.mpsClients);
        m_computeCap->setValue(m_sharing.mpsComputeCapPct);
        m_memoryLimit->setValue(m_sharing.mpsMemoryLimitGb);
        m_replicas->setValue(m_sharing.timeSliceReplicas);
    }
    m_layoutText->setText(m_draft ? QString::fromStdString(m_draft->describe()) : QString());
    if (m_draft) {
        m_migUsage->setText(tr("%1 of %2 instances · memory %3/8 · compute %4/7 slices")
                                .arg(m_draft->size())
                                .arg(m_draft->maxInstances())
                                .arg(m_draft->memorySlicesUsed())
                                .arg(m_draft->computeSlicesUsed()));
    }
    rebuildProfileButtons();
}

void GpuSharingEditor::rebuildProfileButtons() {
    m_picture->setMigLayout(m_draft);
    for (QPushButton* b : profileButtons())
        delete b;
    if (!m_draft) {
        m_notOffered->clear();
        return;
    }
    QStringList refused, reasons;
    auto* grid = static_cast<QGridLayout*>(m_profileRow->layout());
    int offered = 0;
    const auto profiles = migProfiles(m_draft->family());
    for (int i = 0; i < static_cast<int>(profiles.size()); ++i) {
        const MigProfile& p = profiles[i];
        MigLayout trial = *m_draft;
        const MigPlaceResult placed = trial.place(p);
        if (!placed.placed()) {
            refused << nameOf(p);
            reasons << nameOf(p) + QStringLiteral(": ") + QString::fromStdString(placed.refusal);
            continue;
        }
        auto* b = new QPushButton(QStringLiteral("+ ") + nameOf(p), m_profileRow);
        b->setObjectName(QStringLiteral("profile:") + nameOf(p));
        b->setToolTip(tr("Add a %1 (%2 memory, %3 compute slices); it would go to slot %4")
                          .arg(nameOf(p))
                          .arg(p.memorySlices)
                          .arg(p.computeSlices)
                          .arg(placed.start));
        const QColor c = migProfileColor(i);
        b->setStyleSheet(QStringLiteral("QPushButton { border-left: 5px solid %1; padding: 2px "
                                        "5px; }")
                             .arg(c.name()));
        connect(b, &QPushButton::clicked, this, [this, id = p.id] { addProfile(id); });
        grid->addWidget(b, offered / kProfileColumns, offered % kProfileColumns);
        ++offered;
    }
    // One line whatever is refused, so the controls below do not move under the pointer.
    m_notOffered->setText(
        refused.isEmpty() ? tr("Every profile fits.")
        : offered == 0    ? tr("Nothing more fits (hover for why).")
                       : tr("Not now (hover for why): %1").arg(refused.join(QStringLiteral(", "))));
    m_notOffered->setToolTip(reasons.join(QLatin1Char('\n')));
}

void GpuSharingEditor::addProfile(int profileId) {
    if (!m_draft) return;
    const std::optional<MigProfile> p = migProfileById(m_draft->family(), profileId);
    if (!p) return;
    MigLayout next = *m_draft;
    const MigPlaceResult r = next.place(*p);
    if (!r.placed()) {
        showRefusal(QString::fromStdString(r.refusal));
        return;
    }
    requestLayout(next);
}

void GpuSharingEditor::addProfileAt(int profileId, int start) {
    if (!m_draft) return;
    const std::optional<MigProfile> p = migProfileById(m_draft->family(), profileId);
    if (!p) return;
    MigLayout next = *m_draft;
    const MigPlaceResult r = next.placeAt(*p, start);
    if (!r.placed()) {
        showRefusal(QString::fromStdString(r.refusal));
        return;
    }
    requestLayout(next);
}

void GpuSharingEditor::removeInstance(int index) {
    if (!m_draft || index < 0 || index >= m_draft->size()) return;
    if (m_draft->size() == 1 && !m_sharing.migDynamic) {  // a dynamic GPU may be uncut
        showRefusal(tr("a MIG GPU keeps at least one instance; choose Whole GPUs to undo MIG"));
        return;
    }
    MigLayout next = *m_draft;
    next.remove(index);
    requestLayout(next);
}

bool GpuSharingEditor::applyLayoutText(const QString& text) {
    if (!m_hasTarget) return false;
    if (!m_gpu) {
        showRefusal(tr("the selection mixes GPU models; a MIG layout is per model"));
        return false;
    }
    GpuSharingDef d = m_sharing;
    d.mode = SharingMode::Mig;
    d.migLayout = text.toStdString();
    if (const std::string why = sharingRefusal(d, *m_gpu); !why.empty()) {
        showRefusal(QString::fromStdString(why));
        return false;
    }
    requestLayout(parseMigLayout(d.migLayout, *m_family, m_gpu->migMaxInstances));
    return true;
}

void GpuSharingEditor::requestLayout(const MigLayout& layout) {
    m_refusal->setVisible(false);
    GpuSharingDef d = m_sharing;
    d.mode = SharingMode::Mig;
    d.migLayout = layout.describe();
    emit sharingRequested(d);
}

}  // namespace gpuplan::ui
