// One MIG GPU drawn as NVIDIA's placement diagrams draw it: its 8 memory slices side by side,
// each GPU instance a coloured block over the slices it takes, from its start slot, with its
// profile name and a pip per compute slice (of 7). A click on a free slice offers the profiles
// that can start there; the × on a block removes that instance. The picture only asks (signals);
// the geometry (what fits where, in which order) is the engine's MigLayout.
#pragma once

#include <QWidget>
#include <optional>

#include "gpuplan/model/mig_geometry.hpp"

namespace gpuplan::ui {

class MigSlotPicture : public QWidget {
    Q_OBJECT
public:
    explicit MigSlotPicture(QWidget* parent = nullptr);

    /// The layout to draw; nothing draws an empty frame with a hint.
    void setMigLayout(const std::optional<MigLayout>& layout);
    const std::optional<MigLayout>& migLayout() const { return m_layout; }

    /// Where memory slice `slot` is drawn, and the × of instance `index` (widget coordinates).
    QRectF slotRect(int slot) const;
    QRectF removeRect(int index) const;
    /// Profiles that could start at `slot` now (the layout's own rules), smallest first.
    std::vector<MigProfile> profilesStartingAt(int slot) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void addRequested(int profileId, int start);
    void removeRequested(int index);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    bool event(QEvent* e) override;  // tooltips

private:
    QRectF blockRect(int index) const;
    int instanceAt(QPointF pos) const;
    int slotAt(QPointF pos) const;

    std::optional<MigLayout> m_layout;
};

/// A colour per profile size (index in migProfiles(), smallest first), readable with white text.
QColor migProfileColor(int profileIndex);

}  // namespace gpuplan::ui
