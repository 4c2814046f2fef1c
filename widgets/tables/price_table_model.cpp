#include "price_table_model.hpp"

#include <QLocale>
#include <algorithm>
#include <tuple>

#include "format/kpi_format.hpp"

namespace gpuplan::ui {

void PriceTableModel::setResults(std::shared_ptr<const Results> results) {
    beginResetModel();
    m_rows.clear();
    if (results && results->fleet.priced) {
        const Fleet& fleet = results->fleet;
        for (const FleetNode& n : fleet.nodes) {
            const QString model = QString::fromStdString(fleet.gpuModels[n.gpuModel].name);
            auto same = [&](const Row& r) {
                return r.gpuModel == model && r.buyingClass == n.buyingClass &&
                       r.usdPerGpuHour == n.usdPerGpuHour;
            };
            auto it = std::find_if(m_rows.begin(), m_rows.end(), same);
            if (it == m_rows.end())
                m_rows.push_back({model, n.buyingClass, n.usdPerGpuHour, n.gpus});
            else
                it->gpus += n.gpus;
        }
        std::sort(m_rows.begin(), m_rows.end(), [](const Row& a, const Row& b) {
            return std::tie(a.gpuModel, a.buyingClass, a.usdPerGpuHour) <
                   std::tie(b.gpuModel, b.buyingClass, b.usdPerGpuHour);
        });
    }
    endResetModel();
}

int PriceTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int PriceTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PriceTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size())) return {};
    const Row& r = m_rows[index.row()];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
            case GpuModelColumn:
                return r.gpuModel;
            case ClassColumn:
                return QString::fromLatin1(toString(r.buyingClass));
            case GpusColumn:
                return QLocale().toString(r.gpus);
            case PriceColumn:
                return formatUsdPerGpuHour(r.usdPerGpuHour);
        }
    }
    if (role == Qt::TextAlignmentRole &&
        (index.column() == GpusColumn || index.column() == PriceColumn))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant PriceTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case GpuModelColumn:
            return tr("GPU model");
        case ClassColumn:
            return tr("Buying class");
        case GpusColumn:
            return tr("GPUs");
        case PriceColumn:
            return tr("Price");
    }
    return {};
}

}  // namespace gpuplan::ui
