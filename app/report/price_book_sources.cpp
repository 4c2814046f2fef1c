#include "price_book_sources.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <set>
#include <tuple>

#include "format/kpi_format.hpp"

namespace gpuplan::report {

namespace {

struct PaidPrice {
    QString gpuModel;     ///< GpuModel::id, as books name it
    QString buyingClass;  ///< "reserved", "on-demand", … as books name it
    double usd = 0;
    bool operator<(const PaidPrice& o) const {
        return std::tie(gpuModel, buyingClass, usd) < std::tie(o.gpuModel, o.buyingClass, o.usd);
    }
};

std::set<PaidPrice> paidPrices(const Results& results) {
    std::set<PaidPrice> paid;
    for (const FleetNode& n : results.fleet.nodes)
        paid.insert({QString::fromStdString(results.fleet.gpuModels[n.gpuModel].id),
                     QString::fromLatin1(toString(n.buyingClass)), n.usdPerGpuHour});
    return paid;
}

/// "title — url" of each key of the book's "sources" in `keys` (every one when empty).
QStringList sourceLines(const QJsonObject& book, const std::set<QString>& keys) {
    QStringList lines;
    const QJsonObject sources = book.value(QStringLiteral("sources")).toObject();
    for (auto it = sources.begin(); it != sources.end(); ++it) {
        if (!keys.empty() && !keys.contains(it.key())) continue;
        const QJsonObject s = it.value().toObject();
        lines << QStringLiteral("%1 — %2").arg(s.value(QStringLiteral("title")).toString(),
                                               s.value(QStringLiteral("url")).toString());
    }
    return lines;
}

}  // namespace

std::vector<PriceBookSources> priceBookSources(const std::filesystem::path& presetsDir,
                                               const QString& bookName, const Results& results) {
    const std::set<PaidPrice> paid = paidPrices(results);
    std::vector<PriceBookSources> named, partial;
    const QDir dir(QString::fromStdString((presetsDir / "pricebooks").string()));
    for (const QString& fileName :
         dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile file(dir.filePath(fileName));
        if (!file.open(QIODevice::ReadOnly)) continue;
        const QJsonObject book = QJsonDocument::fromJson(file.readAll()).object();
        PriceBookSources found{QStringLiteral("pricebooks/") + fileName,
                               book.value(QStringLiteral("name")).toString(),
                               book.value(QStringLiteral("asOf")).toString(),
                               {},
                               {},
                               {}};
        if (found.name == bookName) {
            found.description = book.value(QStringLiteral("description")).toString();
            found.sources = sourceLines(book, {});
            named.push_back(std::move(found));
            continue;
        }
        // Which of the paid prices this book lists, and the sources it gives for them.
        std::set<QString> keys;
        for (const QJsonValue entry : book.value(QStringLiteral("gpuModels")).toArray()) {
            const QJsonObject e = entry.toObject();
            const QString model = e.value(QStringLiteral("gpuModel")).toString();
            const QJsonObject prices = e.value(QStringLiteral("usdPerGpuHour")).toObject();
            bool supplies = false;
            for (const PaidPrice& p : paid)
                if (p.gpuModel == model && prices.contains(p.buyingClass) &&
                    std::fabs(prices.value(p.buyingClass).toDouble() - p.usd) < 1e-9) {
                    found.supplies
                        << QStringLiteral("%1 %2 %3")
                               .arg(model, p.buyingClass, ui::formatUsdPerGpuHour(p.usd));
                    supplies = true;
                }
            if (supplies)
                for (const QJsonValue key : e.value(QStringLiteral("sources")).toArray())
                    keys.insert(key.toString());
        }
        if (found.supplies.isEmpty()) continue;
        found.sources = sourceLines(book, keys);
        partial.push_back(std::move(found));
    }
    return named.empty() ? partial : named;
}

}  // namespace gpuplan::report
