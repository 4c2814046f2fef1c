#include "report_assumptions.hpp"

#include <QLocale>
#include <QObject>
#include <cmath>
#include <map>
#include <tuple>

#include "format/kpi_format.hpp"
#include "format/ui_palette.hpp"
#include "price_book_sources.hpp"
#include "scenario_summary.hpp"

namespace gpuplan::report {

namespace {

const QString kLlama3Source = QStringLiteral(
    "Llama Team, AI @ Meta, \"The Llama 3 Herd of Models\" (2024), §3.3.4: 419 unexpected "
    "interruptions on 16,384 H100 GPUs in 54 days — https://arxiv.org/abs/2407.21783");

Assumption prices(const Scenario& scenario, const Results& results,
                  const std::filesystem::path& presetsDir) {
    const PricingDef& pricing = *scenario.pricing;
    // The prices the run paid, by GPU model and buying class (a group's own rate included).
    std::map<std::tuple<std::string, int, double>, int> nodes;
    for (const FleetNode& n : results.fleet.nodes)
        ++nodes[{results.fleet.gpuModels[n.gpuModel].name, static_cast<int>(n.buyingClass),
                 n.usdPerGpuHour}];
    QStringList paid;
    for (const auto& [key, count] : nodes) {
        const auto& [model, buyingClass, usd] = key;
        paid << QObject::tr("%1 %2 at %3 (%4)")
                    .arg(QString::fromStdString(model),
                         QString::fromLatin1(toString(static_cast<BuyingClass>(buyingClass))),
                         ui::formatUsdPerGpuHour(usd),
                         count == 1 ? QObject::tr("1 node") : QObject::tr("%1 nodes").arg(count));
    }
    const QString book = QString::fromStdString(pricing.book);
    Assumption a{QObject::tr("Prices"),
                 QObject::tr("Price book \"%1\" as of %2: %3.")
                     .arg(book.isEmpty() ? QObject::tr("(unnamed)") : book,
                          QString::fromStdString(pricing.asOf.empty() ? "?" : pricing.asOf),
                          joinList(paid, 20)),
                 {}};
    const std::vector<PriceBookSources> books = priceBookSources(presetsDir, book, results);
    for (const PriceBookSources& b : books) {
        if (!b.description.isEmpty()) a.text += ' ' + b.description;
        a.sources << (b.supplies.isEmpty()
                          ? QObject::tr("Book file: %1").arg(b.file)
                          : QObject::tr("%1 (%2, as of %3) lists %4")
                                .arg(b.name, b.file, b.asOf, joinList(b.supplies, 20)));
        a.sources << b.sources;
    }
    if (books.empty())
        a.sources << QObject::tr("No book in %1 lists these prices: their sources are not listed.")
                         .arg(QString::fromStdString((presetsDir / "pricebooks").string()));
    return a;
}

Assumption failures(const FailureDef& f) {
    const bool llama = std::fabs(f.mtbfGpuHours - FailureDef::kLlama3MtbfGpuHours) < 1e-6;
    QString text =
        QObject::tr(
            "Random node failures: an MTBF of %1 GPU-hours per GPU (a node of "
            "8 GPUs fails every %2 of up time on average), %3 to repair")
            .arg(QLocale().toString(f.mtbfGpuHours, 'f', 0),
                 ui::formatDuration(f.mtbfGpuHours / 8 * 3600), ui::formatDuration(f.repairS));
    if (f.hotSpareNodes > 0)
        text += (f.hotSpareNodes == 1 ? QObject::tr(", 1 hot spare node")
                                      : QObject::tr(", %1 hot spare nodes").arg(f.hotSpareNodes));
    text += QStringLiteral(". ");
    text += llama ? QObject::tr("The MTBF is Llama 3's: 16,384 × 54 × 24 / 419 ≈ 50,677 GPU-hours.")
                  : QObject::tr("The MTBF is the scenario's own (Llama 3's would be 50,677).");
    text += ' ' + QObject::tr("The repair time is the scenario's: no default is published.");
    return {QObject::tr("Node failures"), text, {kLlama3Source}};
}

Assumption spot(const SpotDef& s) {
    return {QObject::tr("Spot reclaims"),
            QObject::tr("Spot nodes are reclaimed at %1 % of instances a month (a mean of %2 up "
                        "between reclaims), after a notice of %3; a new instance is Ready %4 "
                        "later. Jobs whose checkpoint fits in the notice save their work.")
                .arg(ui::formatFixed(100 * s.monthlyInterruptionFraction, 1),
                     ui::formatDuration(s.meanTimeToReclaimS()), ui::formatDuration(s.noticeS),
                     ui::formatDuration(s.returnS)),
            {QObject::tr("AWS Spot Advisor's monthly interruption buckets: <5 %, 5–10 %, "
                         "10–15 %, 15–20 %, >20 % (no GPU-specific figure is published) — "
                         "https://aws.amazon.com/ec2/spot/instance-advisor/"),
             QObject::tr("Notice: AWS 2 minutes, GCP and Azure 30 s (the providers' "
                         "documentation); the return time is the scenario's.")}};
}

Assumption onDemand(const OnDemandDef& d) {
    return {QObject::tr("On-demand scaling"),
            QObject::tr("On-demand nodes are requested for queued jobs, Ready %1 later, and "
                        "given back after %2 idle%3.")
                .arg(ui::formatDuration(d.provisioningDelayS), ui::formatDuration(d.idleTimeoutS),
                     d.maxNodes ? QObject::tr(" (at most %1 nodes)").arg(*d.maxNodes) : QString()),
            {QObject::tr("Idle timeout default: cluster-autoscaler's --scale-down-unneeded-time "
                         "(10 min); the provisioning delay is the scenario's (clouds publish "
                         "none).")}};
}

/// What the engine assumes about each sharing mode the fleet uses (engine/README.md).
std::vector<Assumption> sharing(const Results& results) {
    bool mig = false, dynamicMig = false, mps = false, timeSlicing = false;
    double recutS = 0;
    for (const FleetNode& n : results.fleet.nodes) {
        mig |= n.sharing.mode == SharingMode::Mig;
        if (n.sharing.mode == SharingMode::Mig && n.sharing.migDynamic) {
            dynamicMig = true;
            recutS = n.sharing.migReconfigureS;
        }
        mps |= n.sharing.mode == SharingMode::Mps;
        timeSlicing |= n.sharing.mode == SharingMode::TimeSlicing;
    }
    std::vector<Assumption> out;
    if (mig) {
        QString text = QObject::tr(
            "MIG instances follow NVIDIA's placement rules (8 memory and 7 compute slices, valid "
            "start slots per profile); instances do not slow each other (PCIe and power, which "
            "they still share, are not modelled).");
        if (dynamicMig)
            text += ' ' + QObject::tr(
                              "Dynamic MIG: a re-cut takes a GPU out of service for %1 "
                              "(assumed: NVIDIA's GPU Operator documentation says a MIG "
                              "rollout takes \"several minutes\").")
                              .arg(ui::formatDuration(recutS));
        out.push_back({QObject::tr("MIG"),
                       text,
                       {QObject::tr("NVIDIA Multi-Instance GPU User Guide — "
                                    "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/")}});
    }
    if (mps || timeSlicing)
        out.push_back(
            {QObject::tr("MPS and time-slicing"),
             QObject::tr("Pods sharing a GPU slow each other when their demand sums past the "
                         "GPU (each served at 1/D): under MPS the SMs they keep busy, under "
                         "time-slicing the share of time their kernels run (engine activity; "
                         "unset = their SM demand); no other overhead is assumed (no published "
                         "figure; Gandiva's two co-located jobs slowed 19 %). Time-sliced pods "
                         "whose memory sum passes the GPU's are OOM-killed; an MPS client past "
                         "its memory limit too, and a crash on an MPS GPU evicts its "
                         "neighbours (MPS has no fault isolation)."),
             {QObject::tr("NVIDIA MPS documentation — https://docs.nvidia.com/deploy/mps/"),
              QObject::tr("NVIDIA GPU Operator, time-slicing — https://docs.nvidia.com/"
                          "datacenter/cloud-native/gpu-operator/latest/gpu-sharing.html")}});
    return out;
}

}  // namespace

std::vector<Assumption> assumptionsOf(const Scenario& scenario, const Results& results,
                                      const std::filesystem::path& presetsDir) {
    std::vector<Assumption> out;
    if (scenario.pricing) out.push_back(prices(scenario, results, presetsDir));
    if (scenario.failures) out.push_back(failures(*scenario.failures));
    if (scenario.spot) out.push_back(spot(*scenario.spot));
    if (scenario.onDemand) out.push_back(onDemand(*scenario.onDemand));
    for (Assumption& a : sharing(results))
        out.push_back(std::move(a));
    const FabricDef& f = scenario.fabric;
    if (f.rackUplinkOversubscription != 1 || f.podUplinkOversubscription != 1)
        out.push_back({QObject::tr("Fabric"),
                       QObject::tr("Uplinks oversubscribed %1:1 from racks and %2:1 from pods: "
                                   "a gang spanning more tiers than it needs runs slower.")
                           .arg(f.rackUplinkOversubscription)
                           .arg(f.podUplinkOversubscription),
                       {QObject::tr("The scenario's figures; for comparison, Llama 3's pods are "
                                    "joined at 1:7 (the Llama 3 paper, §3.3.1).")}});
    return out;
}

}  // namespace gpuplan::report
