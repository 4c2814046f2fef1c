#include "workload_format.hpp"

#include <QRegularExpression>
#include <QStringList>
#include <cmath>

namespace gpuplan::ui {

namespace {

QString number(double v) {
    return QString::number(v, 'g', 6);
}

/// Splits "lognormal median 2h σ1.0, min 1" into words, numbers and units.
QStringList tokens(QString text) {
    text = text.trimmed().toLower();
    text.replace(QStringLiteral("σ"), QStringLiteral(" sigma "));
    text.replace(QStringLiteral("±"), QStringLiteral(" "));
    for (const QString& sep : {QStringLiteral(","), QStringLiteral(":"), QStringLiteral("("),
                               QStringLiteral(")"), QStringLiteral("×"), QStringLiteral("%")})
        text.replace(sep, QLatin1Char(' ') + sep + QLatin1Char(' '));
    // "2h" → "2 h": a number glued to its unit.
    static const QRegularExpression glued(QStringLiteral("(\\d)([a-df-z]|e(?![-+\\d]))"));
    text.replace(glued, QStringLiteral("\\1 \\2"));
    return text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
}

std::optional<double> unitFactor(const QString& unit, Quantity q) {
    if (q == Quantity::Gpus) {
        if (unit == QLatin1String("gpu") || unit == QLatin1String("gpus")) return 1.0;
        return std::nullopt;
    }
    if (unit == QLatin1String("s") || unit == QLatin1String("sec")) return 1.0;
    if (unit == QLatin1String("min") || unit == QLatin1String("m")) return 60.0;
    if (unit == QLatin1String("h") || unit == QLatin1String("hr")) return 3600.0;
    if (unit == QLatin1String("d") || unit == QLatin1String("day") || unit == QLatin1String("days"))
        return 86400.0;
    return std::nullopt;
}

double defaultFactor(Quantity q) {
    return q == Quantity::DurationS ? 3600.0 : 1.0;
}

/// Reads the numbers of a distribution in order: each may carry a unit; "min"/"max" mark a
/// bound; other words (mean, median, to) are labels and skipped. A number after "sigma" or
/// ":" (a weight) never takes a unit, so "σ 1 min 30 min" reads σ = 1, min = 30 min.
struct NumberList {
    std::vector<double> raw;
    std::vector<double> factor;  ///< the unit written after it, 0 = none
    std::optional<double> min, max;
    double factorOr(std::size_t i, double fallback) const {
        return factor[i] > 0 ? factor[i] : fallback;
    }
};

std::optional<NumberList> readNumbers(const QStringList& words, Quantity q, QString* error) {
    NumberList out;
    std::optional<double>* bound = nullptr;
    bool unitless = false;
    for (int i = 0; i < words.size(); ++i) {
        const QString& w = words[i];
        if (w == QLatin1String("min") || w == QLatin1String("max")) {
            bound = w == QLatin1String("min") ? &out.min : &out.max;
            continue;
        }
        if (w == QLatin1String("sigma") || w == QLatin1String(":")) {
            unitless = true;
            continue;
        }
        bool ok = false;
        const double v = w.toDouble(&ok);
        if (!ok) {
            static const QStringList labels = {
                QStringLiteral("mean"), QStringLiteral("median"), QStringLiteral("to"),
                QStringLiteral("-"),    QStringLiteral("low"),    QStringLiteral("high"),
                QStringLiteral(","),    QStringLiteral("gpu"),    QStringLiteral("gpus")};
            if (labels.contains(w)) continue;
            *error = QObject::tr("did not understand \"%1\"").arg(w);
            return std::nullopt;
        }
        if (!std::isfinite(v)) {
            *error = QObject::tr("\"%1\" is not a finite number").arg(w);
            return std::nullopt;
        }
        double factor = 0;
        if (!unitless && i + 1 < words.size() && q == Quantity::DurationS)
            if (auto f = unitFactor(words[i + 1], q)) {
                factor = *f;
                ++i;
            }
        if (bound) {
            *bound = v * (factor > 0 ? factor : defaultFactor(q));
            bound = nullptr;
        } else {
            out.raw.push_back(v);
            out.factor.push_back(unitless ? 1 : factor);
        }
        unitless = false;
    }
    return out;
}

}  // namespace

QString formatDurationValue(double s) {
    if (s < 60) return number(s) + QStringLiteral(" s");
    if (s < 3600) return number(s / 60) + QStringLiteral(" min");
    return number(s / 3600) + QStringLiteral(" h");
}

QString formatQuantity(double value, Quantity q) {
    if (q == Quantity::DurationS) return formatDurationValue(value);
    return number(value) + (value == 1 ? QStringLiteral(" GPU") : QStringLiteral(" GPUs"));
}

std::optional<double> parseNumber(const QString& text, QString* error) {
    QString t = text.trimmed();
    t.remove(QLatin1Char('%'));
    bool ok = false;
    const double v = t.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        *error = QObject::tr("\"%1\" is not a number").arg(text.trimmed());
        return std::nullopt;
    }
    return v;
}

std::optional<double> parseQuantity(const QString& text, Quantity q, QString* error) {
    const QStringList words = tokens(text);
    if (words.isEmpty() || words.size() > 2) {
        *error = QObject::tr("expected a number with an optional unit, got \"%1\"").arg(text);
        return std::nullopt;
    }
    bool ok = false;
    const double v = words[0].toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        *error = QObject::tr("\"%1\" is not a number").arg(words[0]);
        return std::nullopt;
    }
    if (words.size() == 1) return v * defaultFactor(q);
    const auto f = unitFactor(words[1], q);
    if (!f) {
        *error = q == Quantity::DurationS
                     ? QObject::tr("unknown unit \"%1\" (use s, min, h or d)").arg(words[1])
                     : QObject::tr("unknown unit \"%1\" (a GPU count takes none)").arg(words[1]);
        return std::nullopt;
    }
    return v * *f;
}

QString formatDistribution(const DistributionDef& d, Quantity q) {
    auto qty = [q](double v) { return formatQuantity(v, q); };
    QString text;
    switch (d.kind) {
        case DistKind::Fixed:
            text = QStringLiteral("fixed ") + qty(d.value);
            break;
        case DistKind::Exponential:
            text = QStringLiteral("exponential mean ") + qty(d.mean);
            break;
        case DistKind::Lognormal:
            text = QStringLiteral("lognormal median %1 σ %2").arg(qty(d.median), number(d.sigma));
            break;
        case DistKind::Uniform:
            text = QStringLiteral("uniform %1 to %2")
                       .arg(q == Quantity::DurationS ? formatDurationValue(d.low) : number(d.low),
                            qty(d.high));
            break;
        case DistKind::Empirical: {
            QStringList parts;
            for (std::size_t i = 0; i < d.values.size(); ++i)
                parts << (q == Quantity::DurationS ? formatDurationValue(d.values[i])
                                                   : number(d.values[i])) +
                             QLatin1Char(':') + number(d.weights[i]);
            text = QStringLiteral("empirical ") + parts.join(QStringLiteral(", "));
            if (q == Quantity::Gpus) text += QStringLiteral(" GPUs");
            break;
        }
    }
    if (d.min) text += QStringLiteral(" min ") + qty(*d.min);
    if (d.max) text += QStringLiteral(" max ") + qty(*d.max);
    return text;
}

std::optional<DistributionDef> parseDistribution(const QString& text, Quantity q, QString* error) {
    QStringList words = tokens(text);
    if (words.isEmpty()) {
        *error = QObject::tr("empty; expected e.g. \"lognormal median 2 h σ 1\"");
        return std::nullopt;
    }
    DistributionDef d;
    static const std::pair<const char*, DistKind> kinds[] = {
        {"fixed", DistKind::Fixed},     {"exponential", DistKind::Exponential},
        {"exp", DistKind::Exponential}, {"lognormal", DistKind::Lognormal},
        {"uniform", DistKind::Uniform}, {"empirical", DistKind::Empirical}};
    bool named = false;
    for (const auto& [name, kind] : kinds)
        if (words[0] == QLatin1String(name)) {
            d.kind = kind;
            named = true;
        }
    bool isNumber = false;
    words[0].toDouble(&isNumber);
    if (named) {
        words.removeFirst();
    } else if (!isNumber) {
        *error = QObject::tr(
                     "unknown distribution \"%1\" (fixed, exponential, lognormal, uniform or "
                     "empirical)")
                     .arg(words[0]);
        return std::nullopt;
    }
    const auto numbers = readNumbers(words, q, error);
    if (!numbers) return std::nullopt;
    const std::vector<double>& v = numbers->raw;
    const double fallback = defaultFactor(q);
    // A number without a unit is in the column's default unit (hours for durations).
    auto scaled = [&](std::size_t i) { return v[i] * numbers->factorOr(i, fallback); };
    auto need = [&](std::size_t n, const char* shape) {
        if (v.size() == n) return true;
        *error = QObject::tr("%1 takes %2")
                     .arg(QString::fromLatin1(toString(d.kind)), QString::fromUtf8(shape));
        return false;
    };
    switch (d.kind) {
        case DistKind::Fixed:
            if (!need(1, "one value")) return std::nullopt;
            d.value = scaled(0);
            break;
        case DistKind::Exponential:
            if (!need(1, "a mean")) return std::nullopt;
            d.mean = scaled(0);
            break;
        case DistKind::Lognormal:
            if (!need(2, "a median and σ")) return std::nullopt;
            d.median = scaled(0);
            d.sigma = v[1];
            break;
        case DistKind::Uniform:
            if (!need(2, "a low and a high value")) return std::nullopt;
            // "uniform 30 to 90 min": a unit written once at the end applies to both.
            d.low = v[0] * numbers->factorOr(0, numbers->factorOr(1, fallback));
            d.high = scaled(1);
            break;
        case DistKind::Empirical:
            if (v.empty() || v.size() % 2 != 0) {
                *error = QObject::tr("empirical takes value:weight pairs, e.g. \"1:3, 8:1\"");
                return std::nullopt;
            }
            for (std::size_t i = 0; i < v.size(); i += 2) {
                d.values.push_back(scaled(i));
                d.weights.push_back(v[i + 1]);
            }
            break;
    }
    d.min = numbers->min;
    d.max = numbers->max;
    return d;
}

QString formatArrival(const ArrivalDef& a) {
    switch (a.process) {
        case ArrivalProcess::Poisson:
            return QStringLiteral("poisson");
        case ArrivalProcess::Diurnal:
            return QStringLiteral("diurnal ±%1 % peak %2 h")
                .arg(number(100 * a.amplitude), number(a.peakHourOfDay));
        case ArrivalProcess::List:
            return QStringLiteral("list (%1 times)").arg(a.timesS.size());
        case ArrivalProcess::Tide:
            return QStringLiteral("tide %1–%2 replicas peak %3 h")
                .arg(a.minReplicas)
                .arg(a.maxReplicas)
                .arg(number(a.peakHourOfDay));
    }
    return {};
}

std::optional<ArrivalDef> parseArrival(const QString& text, const ArrivalDef& current,
                                       QString* error) {
    QStringList words = tokens(text);
    words.removeAll(QStringLiteral("%"));
    words.removeAll(QStringLiteral("peak"));
    words.removeAll(QStringLiteral("h"));
    ArrivalDef a = current;
    if (words.isEmpty()) {
        *error = QObject::tr("expected poisson, diurnal <amplitude %> <peak hour> or list");
        return std::nullopt;
    }
    if (words[0] == QLatin1String("poisson") && words.size() == 1) {
        a.process = ArrivalProcess::Poisson;
    } else if (words[0] == QLatin1String("diurnal") && words.size() <= 3) {
        a.process = ArrivalProcess::Diurnal;
        bool ok = true;
        if (words.size() >= 2) a.amplitude = words[1].toDouble(&ok) / 100;
        if (ok && words.size() == 3) a.peakHourOfDay = words[2].toDouble(&ok);
        if (!ok) {
            *error = QObject::tr(
                "diurnal takes an amplitude in % and a peak hour, e.g. "
                "\"diurnal 50 % 14\"");
            return std::nullopt;
        }
    } else if (words[0] == QLatin1String("list")) {
        a.process = ArrivalProcess::List;
    } else {
        *error = QObject::tr(
                     "expected poisson, diurnal <amplitude %> <peak hour> or list, got "
                     "\"%1\"")
                     .arg(text.trimmed());
        return std::nullopt;
    }
    return a;
}

QString formatPin(const PinDef& pin) {
    if (pin.level == PinLevel::None) return QStringLiteral("none");
    return QString::fromLatin1(toString(pin.level)) + QLatin1Char(' ') +
           QString::fromStdString(pin.target);
}

std::optional<PinDef> parsePin(const QString& text, QString* error) {
    const QStringList words = text.trimmed().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    PinDef pin;
    if (words.isEmpty() || (words.size() == 1 && words[0].toLower() == QLatin1String("none")))
        return pin;
    static const std::pair<const char*, PinLevel> levels[] = {
        {"node", PinLevel::Node}, {"rack", PinLevel::Rack}, {"pod", PinLevel::Pod}};
    if (words.size() == 2)
        for (const auto& [name, level] : levels)
            if (words[0].toLower() == QLatin1String(name)) {
                pin.level = level;
                pin.target = words[1].toStdString();
                return pin;
            }
    *error = QObject::tr(
        "expected \"none\" or node|rack|pod and a name, e.g. \"node "
        "pod-a-rack0-node1\"");
    return std::nullopt;
}

}  // namespace gpuplan::ui
