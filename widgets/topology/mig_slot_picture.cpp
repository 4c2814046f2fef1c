#include "mig_slot_picture.hpp"

#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <array>

namespace gpuplan::ui {

namespace {

constexpr double kMargin = 4;
constexpr double kHeaderPx = 16;  // slot numbers
constexpr double kBlockPx = 56;
constexpr double kPipPx = 7;

int profileIndex(const MigLayout& layout, int profileId) {
    const auto profiles = migProfiles(layout.family());
    for (int i = 0; i < static_cast<int>(profiles.size()); ++i)
        if (profiles[i].id == profileId) return i;
    return 0;
}

}  // namespace

QColor migProfileColor(int profileIndex) {
    // 1g, 1g+me, 1g with 2 slices, 2g, 3g, 4g, 7g: darker as they grow, hues apart.
    static const std::array<QColor, 7> kColors{QColor(0x1b, 0x9e, 0x77), QColor(0x16, 0x7f, 0x60),
                                               QColor(0x3a, 0x7d, 0x44), QColor(0x2c, 0x6f, 0xbb),
                                               QColor(0x75, 0x4f, 0xb0), QColor(0xc0, 0x5a, 0x1a),
                                               QColor(0xa8, 0x32, 0x3e)};
    return kColors[static_cast<std::size_t>(std::clamp(profileIndex, 0, 6))];
}

MigSlotPicture::MigSlotPicture(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void MigSlotPicture::setMigLayout(const std::optional<MigLayout>& layout) {
    m_layout = layout;
    update();
}

QSize MigSlotPicture::sizeHint() const {
    return {320, static_cast<int>(2 * kMargin + kHeaderPx + kBlockPx)};
}

QSize MigSlotPicture::minimumSizeHint() const {
    return {200, sizeHint().height()};
}

QRectF MigSlotPicture::slotRect(int slot) const {
    const double w = (width() - 2 * kMargin) / MigLayout::kMemorySlices;
    return {kMargin + slot * w, kMargin + kHeaderPx, w, kBlockPx};
}

QRectF MigSlotPicture::blockRect(int index) const {
    const MigInstance& i = (*m_layout)[index];
    const MigProfile p = m_layout->profileOf(i);
    return slotRect(i.start).united(slotRect(i.start + p.memorySlices - 1)).adjusted(1, 1, -1, -1);
}

QRectF MigSlotPicture::removeRect(int index) const {
    const QRectF b = blockRect(index);
    return {b.right() - 15, b.top() + 2, 13, 13};
}

int MigSlotPicture::instanceAt(QPointF pos) const {
    if (!m_layout) return -1;
    for (int i = 0; i < m_layout->size(); ++i)
        if (blockRect(i).contains(pos)) return i;
    return -1;
}

int MigSlotPicture::slotAt(QPointF pos) const {
    for (int s = 0; s < MigLayout::kMemorySlices; ++s)
        if (slotRect(s).contains(pos)) return s;
    return -1;
}

std::vector<MigProfile> MigSlotPicture::profilesStartingAt(int slot) const {
    std::vector<MigProfile> out;
    if (!m_layout) return out;
    for (const MigProfile& p : migProfiles(m_layout->family())) {
        MigLayout trial = *m_layout;
        if (trial.placeAt(p, slot).placed()) out.push_back(p);
    }
    return out;
}

void MigSlotPicture::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    QFont small = font();
    small.setPointSizeF(std::max(6.5, font().pointSizeF() * 0.8));
    p.setFont(small);
    // Slot numbers and the free slices (dashed), so the eye finds where an instance may go.
    for (int s = 0; s < MigLayout::kMemorySlices; ++s) {
        const QRectF r = slotRect(s);
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRectF(r.left(), kMargin, r.width(), kHeaderPx), Qt::AlignCenter,
                   QString::number(s));
        p.setPen(QPen(pal.color(QPalette::Mid), 1, Qt::DashLine));
        p.setBrush(pal.color(QPalette::Base));
        p.drawRect(r.adjusted(1, 1, -1, -1));
    }
    if (!m_layout) return;
    for (int i = 0; i < m_layout->size(); ++i) {
        const MigInstance& inst = (*m_layout)[i];
        const MigProfile prof = m_layout->profileOf(inst);
        const QRectF b = blockRect(i);
        p.setPen(QPen(pal.color(QPalette::Shadow), 1));
        p.setBrush(migProfileColor(profileIndex(*m_layout, inst.profileId)));
        p.drawRoundedRect(b, 3, 3);
        p.setPen(Qt::white);
        QFont bold = small;
        bold.setBold(true);
        p.setFont(bold);
        // Names that do not fit one slice's width break at the '.', "1g" over ".10gb".
        const QString name = QString::fromLatin1(prof.name.data(), prof.name.size());
        const QRectF text = b.adjusted(2, 14, -2, -kPipPx - 6);
        const bool fits = p.fontMetrics().horizontalAdvance(name) < text.width();
        p.drawText(text, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
                   fits ? name : QString(name).replace(QLatin1Char('.'), QStringLiteral("\n.")));
        p.setFont(small);
        p.drawText(removeRect(i), Qt::AlignCenter, QStringLiteral("×"));
        // One pip per compute slice the instance has.
        const double pipStep = kPipPx + 3;
        const double pipsWidth = prof.computeSlices * pipStep - 3;
        double x = b.center().x() - pipsWidth / 2;
        for (int c = 0; c < prof.computeSlices; ++c, x += pipStep)
            p.drawRect(QRectF(x, b.bottom() - kPipPx - 4, kPipPx, kPipPx));
    }
}

void MigSlotPicture::mousePressEvent(QMouseEvent* e) {
    if (!m_layout || e->button() != Qt::LeftButton) return;
    const QPointF pos = e->position();
    for (int i = 0; i < m_layout->size(); ++i)
        if (removeRect(i).adjusted(-2, -2, 2, 2).contains(pos)) {
            emit removeRequested(i);
            return;
        }
    if (instanceAt(pos) >= 0) return;
    const int slot = slotAt(pos);
    if (slot < 0) return;
    const std::vector<MigProfile> fitting = profilesStartingAt(slot);
    QMenu menu(this);
    if (fitting.empty()) {
        menu.addAction(tr("No profile can start at slot %1 now").arg(slot))->setEnabled(false);
    } else {
        menu.addSection(tr("Add at slot %1").arg(slot));
        for (const MigProfile& prof : fitting) {
            QAction* a =
                menu.addAction(tr("%1 — memory %2/8, compute %3/7")
                                   .arg(QString::fromLatin1(prof.name.data(), prof.name.size()))
                                   .arg(prof.memorySlices)
                                   .arg(prof.computeSlices));
            connect(a, &QAction::triggered, this,
                    [this, id = prof.id, slot] { emit addRequested(id, slot); });
        }
    }
    menu.exec(e->globalPosition().toPoint());
}

bool MigSlotPicture::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip || !m_layout) return QWidget::event(e);
    const QPointF pos = static_cast<QHelpEvent*>(e)->pos();
    QString tip;
    if (const int i = instanceAt(pos); i >= 0) {
        const MigInstance& inst = (*m_layout)[i];
        const MigProfile prof = m_layout->profileOf(inst);
        tip = tr("%1 at slot %2: memory slices %3–%4, %5 of 7 compute slices. Click × to remove.")
                  .arg(QString::fromLatin1(prof.name.data(), prof.name.size()))
                  .arg(inst.start)
                  .arg(inst.start)
                  .arg(inst.start + prof.memorySlices - 1)
                  .arg(prof.computeSlices);
    } else if (const int slot = slotAt(pos); slot >= 0) {
        QStringList names;
        for (const MigProfile& prof : profilesStartingAt(slot))
            names << QString::fromLatin1(prof.name.data(), prof.name.size());
        tip = names.isEmpty() ? tr("Free memory slice %1: no profile can start here now").arg(slot)
                              : tr("Free memory slice %1: click to add %2")
                                    .arg(slot)
                                    .arg(names.join(QStringLiteral(", ")));
    }
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(static_cast<QHelpEvent*>(e)->globalPos(), tip, this);
    return true;
}

}  // namespace gpuplan::ui
