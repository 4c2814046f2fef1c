#include "fleet_description.hpp"

#include <QObject>
#include <QRegularExpression>
#include <QStringList>
#include <algorithm>
#include <vector>

#include "format/kpi_format.hpp"
#include "format/sharing_format.hpp"
#include "format/ui_palette.hpp"
#include "scenario_summary.hpp"

namespace gpuplan::report {

namespace {

QString withoutVendor(QString name) {
    if (name.startsWith(QLatin1String("NVIDIA "))) name.remove(0, 7);
    return name.trimmed();
}

}  // namespace

QString countOf(long long n, const QString& one, const QString& many) {
    return QStringLiteral("%1 %2").arg(ui::formatGrouped(static_cast<double>(n), 0),
                                       n == 1 ? one : many);
}

QString buyingClassWords(BuyingClass c) {
    return QString::fromLatin1(toString(c)).replace(QLatin1Char('-'), QLatin1Char(' '));
}

QString shortNodeTypeName(const NodeType& type) {
    QString name = QString::fromStdString(type.name);
    for (const QString& cut : {QStringLiteral(" / "), QStringLiteral(" (")})
        if (const qsizetype at = name.indexOf(cut); at > 0) name.truncate(at);
    name = withoutVendor(name);
    name.remove(QRegularExpression(QStringLiteral("\\s+\\d+-GPU server$")));
    return name.isEmpty() ? QString::fromStdString(type.id) : name;
}

void NodeTypeNames::add(const Fleet& fleet) {
    for (const NodeType& t : fleet.nodeTypes)
        m_types.emplace(t.id, t);
}

QString NodeTypeNames::operator()(const std::string& id) const {
    const auto it = m_types.find(id);
    if (it == m_types.end()) return QString::fromStdString(id);
    const QString brief = shortNodeTypeName(it->second);
    for (const auto& [otherId, other] : m_types)
        if (otherId != id && shortNodeTypeName(other) == brief) {
            const QString full = withoutVendor(QString::fromStdString(it->second.name));
            return full.isEmpty() ? QString::fromStdString(id) : full;
        }
    return brief;
}

namespace {

/// Counts by key, the most first (ties in key order).
template <typename Key>
std::vector<std::pair<Key, long long>> mostFirst(const std::map<Key, long long>& counts) {
    std::vector<std::pair<Key, long long>> sorted(counts.begin(), counts.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    return sorted;
}

}  // namespace

QString fleetHeadline(const Fleet& fleet, const NodeTypeNames& names) {
    std::map<std::string, long long> nodesByType;
    for (const FleetNode& n : fleet.nodes)
        ++nodesByType[fleet.nodeTypes[n.nodeType].id];
    QString nodes;
    // A few node types by name; a node list's dozen by their count (the GPU models follow in
    // fleetDetails).
    if (nodesByType.size() <= kNamedNodeTypes) {
        QStringList parts;
        for (const auto& [id, n] : mostFirst(nodesByType))
            parts << QStringLiteral("%1 × %2").arg(ui::formatGrouped(static_cast<double>(n), 0),
                                                   names(id));
        nodes = joinList(parts);
    } else {
        nodes = QObject::tr("%1 of %2 types")
                    .arg(countOf(static_cast<long long>(fleet.nodes.size()), QObject::tr("node"),
                                 QObject::tr("nodes")))
                    .arg(nodesByType.size());
    }
    return QObject::tr("%1: %2 in %3 (%4)")
        .arg(countOf(fleet.totalGpus, QObject::tr("GPU"), QObject::tr("GPUs")), nodes,
             countOf(static_cast<long long>(fleet.pods.size()), QObject::tr("pod"),
                     QObject::tr("pods")),
             countOf(static_cast<long long>(fleet.racks.size()), QObject::tr("rack"),
                     QObject::tr("racks")));
}

namespace {

/// "256 GPUs reserved, 64 on demand (provisioned when jobs queue)"; empty when all reserved.
QString boughtAs(const Fleet& fleet) {
    std::map<int, long long> gpusByClass;
    long long elastic = 0;
    for (const FleetNode& n : fleet.nodes) {
        gpusByClass[static_cast<int>(n.buyingClass)] += n.gpus;
        elastic += n.elastic ? n.gpus : 0;
    }
    if (gpusByClass.size() == 1 && gpusByClass.begin()->first == 0) return {};
    QStringList parts;
    bool first = true;
    for (const auto& [c, gpus] : gpusByClass) {
        const QString words = buyingClassWords(static_cast<BuyingClass>(c));
        parts << (first ? QObject::tr("%1 %2").arg(
                              countOf(gpus, QObject::tr("GPU"), QObject::tr("GPUs")), words)
                        : QObject::tr("%1 %2").arg(ui::formatGrouped(gpus, 0), words));
        first = false;
    }
    QString text = parts.join(QStringLiteral(", "));
    if (elastic > 0)
        text += QObject::tr(" (%1 of them provisioned only while jobs queue for them)")
                    .arg(ui::formatGrouped(elastic, 0));
    return text + QLatin1Char('.');
}

/// "32 GPUs (pod-b-rack3) arrive at d2 00:00": nodes that start Provisioning, by delivery time,
/// named by their racks where whole racks wait.
QString lateDeliveries(const Fleet& fleet) {
    std::map<double, std::vector<int>> nodesByReadyS;
    for (int i = 0; i < static_cast<int>(fleet.nodes.size()); ++i) {
        const FleetNode& n = fleet.nodes[i];
        if (n.initialState == NodeState::Provisioning && !n.elastic)
            nodesByReadyS[n.readyAtS].push_back(i);
    }
    QStringList sentences;
    for (const auto& [readyS, nodes] : nodesByReadyS) {
        long long gpus = 0;
        std::map<int, int> perRack;
        for (int i : nodes) {
            gpus += fleet.nodes[i].gpus;
            ++perRack[fleet.nodes[i].rack];
        }
        QStringList where;
        int loose = 0;
        for (const auto& [rack, count] : perRack) {
            if (count == fleet.racks[rack].nodeCount)
                where << QString::fromStdString(fleet.racks[rack].name);
            else
                loose += count;
        }
        if (loose > 0) where << countOf(loose, QObject::tr("node"), QObject::tr("nodes"));
        const QString what = QObject::tr("%1 (%2)").arg(
            countOf(gpus, QObject::tr("GPU"), QObject::tr("GPUs")), joinList(where, 4));
        sentences << (readyS > 0
                          ? QObject::tr("%1 arrive at %2.").arg(what, ui::formatSimTime(readyS))
                          : QObject::tr("%1 are never delivered by themselves.").arg(what));
    }
    return sentences.join(QLatin1Char(' '));
}

/// "MIG 3g.40gb+… on 4 nodes": nodes whose GPUs are shared, by how.
QString sharedGpus(const Fleet& fleet) {
    std::map<std::string, long long> nodesBySharing;
    for (const FleetNode& n : fleet.nodes)
        if (n.sharing.mode != SharingMode::Whole)
            ++nodesBySharing[ui::sharingSummary(n.sharing, &fleet.gpuModels[n.gpuModel])];
    QStringList parts;
    for (const auto& [how, nodes] : nodesBySharing)
        parts << QObject::tr("%1 on %2")
                     .arg(QString::fromStdString(how),
                          countOf(nodes, QObject::tr("node"), QObject::tr("nodes")));
    return parts.isEmpty() ? QString() : QObject::tr("Shared GPUs: %1.").arg(joinList(parts, 4));
}

}  // namespace

QString fleetDetails(const Fleet& fleet) {
    QStringList sentences;
    std::map<std::string, long long> typesSeen, gpusByModel;
    for (const FleetNode& n : fleet.nodes) {
        ++typesSeen[fleet.nodeTypes[n.nodeType].id];
        gpusByModel[withoutVendor(QString::fromStdString(fleet.gpuModels[n.gpuModel].name))
                        .toStdString()] += n.gpus;
    }
    if (typesSeen.size() > kNamedNodeTypes) {  // the headline gave no names
        QStringList models;
        for (const auto& [model, gpus] : mostFirst(gpusByModel))
            models << QStringLiteral("%1 × %2").arg(ui::formatGrouped(gpus, 0),
                                                    QString::fromStdString(model));
        sentences << QObject::tr("GPUs by model: %1.").arg(joinList(models, 4));
    }
    for (const QString& s : {boughtAs(fleet), lateDeliveries(fleet), sharedGpus(fleet)})
        if (!s.isEmpty()) sentences << s;
    long long spares = 0;
    for (const FleetNode& n : fleet.nodes)
        spares += n.spare;
    if (spares > 0)
        sentences << QObject::tr("%1 kept idle as hot spares.")
                         .arg(countOf(spares, QObject::tr("node"), QObject::tr("nodes")));
    return sentences.join(QLatin1Char(' '));
}

}  // namespace gpuplan::report
