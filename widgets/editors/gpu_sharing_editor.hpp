// How the selected GPUs are shared — a node, a rack, a pod or node-group definitions: whole
// GPUs, MPS (clients per GPU), time-slicing (replicas) or MIG (the slot picture, the profiles
// that still fit, and a layout typed or pasted as text, refused with the hardware's reason).
// The editor only asks: each change is emitted as the wanted GpuSharingDef, the application
// turns it into one edit and answers with setTarget (applied) or showRefusal (refused).
#pragma once

#include <QWidget>
#include <optional>

#include "gpuplan/model/catalog.hpp"
#include "gpuplan/model/mig_geometry.hpp"
#include "gpuplan/model/scenario.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QStackedWidget;

namespace gpuplan::ui {

class MigSlotPicture;

class GpuSharingEditor : public QWidget {
    Q_OBJECT
public:
    explicit GpuSharingEditor(QWidget* parent = nullptr);

    /// Edits `sharing` on GPUs of model `gpu`; nullptr when the targets mix GPU models (MIG is
    /// then refused with that reason). `title` names the target. `differs`, when not empty,
    /// says how the targets' sharing differs (`sharing` is the first's): every choice then
    /// applies to all, even the first's own mode.
    void setTarget(const QString& title, const GpuSharingDef& sharing, const GpuModel* gpu,
                   const QString& differs = {});
    /// Nothing to edit: only `hint` shows.
    void clearTarget(const QString& hint);
    bool hasTarget() const { return m_hasTarget; }
    /// A refusal, the editor's own or the document's, in red under the editor.
    void showRefusal(const QString& reason);
    QString refusal() const;
    /// The target's sharing as the document has it.
    const GpuSharingDef& sharing() const { return m_sharing; }
    /// The MIG layout on the picture: the target's, or the one being started.
    const std::optional<MigLayout>& draftLayout() const { return m_draft; }

    QComboBox* modeBox() const { return m_mode; }
    QSpinBox* clientsBox() const { return m_clients; }
    QDoubleSpinBox* computeCapBox() const { return m_computeCap; }
    QDoubleSpinBox* memoryLimitBox() const { return m_memoryLimit; }
    QSpinBox* replicasBox() const { return m_replicas; }
    QLineEdit* layoutEdit() const { return m_layoutText; }
    QCheckBox* migDynamicBox() const { return m_migDynamic; }
    QDoubleSpinBox* migReconfigureBox() const { return m_migReconfigure; }
    MigSlotPicture* picture() const { return m_picture; }
    /// The profile buttons now offered (objectName "profile:<name>"), smallest profile first.
    QList<QPushButton*> profileButtons() const;

public slots:
    void chooseMode(SharingMode mode);
    /// Adds an instance of the profile where the driver would put it.
    void addProfile(int profileId);
    void addProfileAt(int profileId, int start);
    void removeInstance(int index);
    /// Reads a layout ("3g.40gb, 2g.20gb, 1g.10gb" or "4g.40gb@0, 3g.40gb@4"); one the GPU
    /// refuses is shown with the reason and nothing is asked. Returns whether it was asked.
    bool applyLayoutText(const QString& text);

signals:
    void sharingRequested(const gpuplan::GpuSharingDef& sharing);

private:
    void onModeIndex(int index);
    void requestLayout(const MigLayout& layout);
    /// Controls from m_sharing and m_draft.
    void refresh();
    void rebuildProfileButtons();

    bool m_hasTarget = false;
    bool m_differs = false;
    GpuSharingDef m_sharing;
    std::optional<GpuModel> m_gpu;
    std::optional<MigFamily> m_family;
    std::optional<MigLayout> m_draft;

    QLabel* m_title;
    QLabel* m_note;
    QComboBox* m_mode;
    QStackedWidget* m_pages;
    QScrollArea* m_scroll;
    QSpinBox* m_clients;
    QDoubleSpinBox* m_computeCap;
    QDoubleSpinBox* m_memoryLimit;
    QSpinBox* m_replicas;
    MigSlotPicture* m_picture;
    QLabel* m_migUsage;
    QWidget* m_profileRow;
    QLabel* m_notOffered;
    QLineEdit* m_layoutText;
    QCheckBox* m_migDynamic;
    QDoubleSpinBox* m_migReconfigure;
    QLabel* m_refusal;
};

}  // namespace gpuplan::ui
