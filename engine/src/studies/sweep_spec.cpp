// Sweep files and the scenario at each point (gpuplan/studies/sweep.hpp). JSON at the edge: the
// points' values stay JSON text until they are set into the scenario's own JSON and read back
// with the scenario reader's rules.
#include <string>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/studies/sweep.hpp"
#include "io/json_reader.hpp"

namespace gpuplan {

using detail::Json;
using detail::JsonNode;
using detail::JsonObject;

namespace {

constexpr std::size_t kMaxParameters = 16;
constexpr std::size_t kMaxValues = 10'000;
constexpr std::size_t kMaxRuns = 100'000;

}  // namespace

SweepSpec parseSweepSpec(std::string_view text, const std::string& sourceName,
                         const std::filesystem::path& baseDir) {
    const Json doc = detail::parseStrict(text, sourceName);
    JsonObject root = JsonNode(doc, "", sourceName).object();
    SweepSpec spec;
    spec.sourceName = sourceName;
    JsonNode format = root.required("format");
    if (format.string(64) != "gpuplan-sweep") format.fail("expected \"gpuplan-sweep\"");
    JsonNode version = root.required("formatVersion");
    if (version.integer(0, 1'000'000) != 1) version.fail("this build reads sweep format 1");
    const std::filesystem::path scenario =
        root.required("scenario").filePath("sweep's scenario file");
    spec.scenarioFile = scenario.is_absolute() ? scenario : baseDir / scenario;
    if (auto n = root.optional("replications"))
        spec.replications = static_cast<int>(n->integer(1, 10'000));
    std::optional<JsonNode> parameters = root.optional("parameters");
    std::optional<JsonNode> points = root.optional("points");
    if (parameters.has_value() == points.has_value())
        root.fail("give either \"parameters\" (a grid) or \"points\" (a list), not both or none");
    if (parameters) {
        // A grid: every combination, the last parameter varying fastest.
        std::vector<std::vector<std::string>> values;
        for (const JsonNode& p : parameters->array(kMaxParameters)) {
            JsonObject o = p.object();
            spec.pointers.push_back(detail::scenarioPointerText(o.required("pointer")));
            std::vector<std::string> list;
            JsonNode valuesNode = o.required("values");
            for (const JsonNode& v : valuesNode.array(kMaxValues))
                list.push_back(v.raw().dump());
            if (list.empty()) valuesNode.fail("a parameter needs at least one value");
            values.push_back(std::move(list));
            o.finish();
        }
        if (spec.pointers.empty()) parameters->fail("a sweep needs at least one parameter");
        std::size_t count = 1;
        for (const auto& list : values) {
            count *= list.size();
            if (count * spec.replications > kMaxRuns)
                parameters->fail("the grid makes more than " + std::to_string(kMaxRuns) + " runs");
        }
        for (std::size_t i = 0; i < count; ++i) {
            std::vector<std::string> point(values.size());
            std::size_t rest = i;
            for (std::size_t k = values.size(); k-- > 0;) {
                point[k] = values[k][rest % values[k].size()];
                rest /= values[k].size();
            }
            spec.points.push_back(std::move(point));
        }
    } else {
        // A list: every point sets the same pointers, in the first point's order.
        const std::vector<JsonNode> list = points->array(kMaxRuns);
        if (list.empty()) points->fail("a sweep needs at least one point");
        if (list.size() * spec.replications > kMaxRuns)
            points->fail("the points make more than " + std::to_string(kMaxRuns) + " runs");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Json& o = list[i].raw();
            if (!o.is_object() || o.empty()) list[i].fail("a point is an object {pointer: value}");
            if (i == 0)
                for (const auto& [key, value] : o.items()) {
                    (void)value;
                    spec.pointers.push_back(detail::scenarioPointerText(list[i], key));
                }
            std::vector<std::string> point;
            for (const std::string& pointer : spec.pointers) {
                if (!o.contains(pointer))
                    list[i].fail("sets no \"" + pointer + "\" (every point sets the first one's)");
                point.push_back(o.at(pointer).dump());
            }
            if (o.size() != spec.pointers.size())
                list[i].fail("sets a pointer the first point does not (every point sets the same)");
            spec.points.push_back(std::move(point));
        }
    }
    // Each place set once: a pointer twice, or one inside another, would make rows claim
    // values that never ran.
    for (std::size_t a = 0; a < spec.pointers.size(); ++a)
        for (std::size_t b = 0; b < spec.pointers.size(); ++b) {
            if (a == b) continue;
            const std::string& x = spec.pointers[a];
            const std::string& y = spec.pointers[b];
            if (x == y || y.starts_with(x + "/"))
                root.fail("the parameters " + x + " and " + y +
                          " set the same place (each must set its own)");
        }
    if (auto f = root.optional("find")) {
        JsonObject o = f->object();
        spec.findKpi = o.required("kpi").prose(128);
        spec.findAtMost = o.required("atMost").number(-1e300, 1e300);
        if (spec.pointers.size() != 1)
            f->fail("\"find\" searches one parameter's values; this sweep has " +
                    std::to_string(spec.pointers.size()));
        o.finish();
    }
    root.finish();
    return spec;
}

std::string sweepScenarioText(const SweepSpec& spec) {
    return spec.scenarioJson.empty()
               ? readTextFile(spec.scenarioFile, FileNamedBy{spec.sourceName, "/scenario"})
               : spec.scenarioJson;
}

SweepSpec loadSweepSpec(const std::filesystem::path& file) {
    return parseSweepSpec(readTextFile(file), file.string(), folderOf(file));
}

Scenario scenarioAtPoint(const SweepSpec& spec, std::size_t point, const Catalog& catalog,
                         const LoadOptions& options) {
    return scenarioAtPoint(spec, sweepScenarioText(spec), point, catalog, options);
}

Scenario scenarioAtPoint(const SweepSpec& spec, std::string_view scenarioText, std::size_t point,
                         const Catalog& catalog, const LoadOptions& options) {
    return scenarioWithValues(
        scenarioText, spec.scenarioFile, spec.pointers, spec.points[point], spec.sourceName,
        "sweep " + spec.sourceName + ", point " + std::to_string(point), catalog, options);
}

Scenario scenarioWithValues(std::string_view scenarioText,
                            const std::filesystem::path& scenarioFile,
                            const std::vector<std::string>& pointers,
                            const std::vector<std::string>& valuesJson,
                            const std::string& sourceName, const std::string& context,
                            const Catalog& catalog, const LoadOptions& options) {
    const std::string name = scenarioFile.string();
    Json doc = detail::parseStrict(scenarioText, name);
    std::string where;
    for (std::size_t k = 0; k < pointers.size(); ++k) {
        // Set an existing value, or a new key of an existing object: never build the path
        // (a typo would otherwise add keys the reader then rejects far from the cause). An
        // index past an array, or one too large to be one, is no place either. null removes
        // an object's key (no scenario value may be null, so it cannot mean anything else):
        // what makes a provisioning node Ready, by removing its "readyAtS".
        bool placed = false;
        try {
            const Json::json_pointer pointer(pointers[k]);
            const Json::json_pointer parent = pointer.parent_pointer();
            Json value = Json::parse(valuesJson[k]);
            if (value.is_null()) {
                if (doc.contains(pointer) && doc.at(parent).is_object()) {
                    doc.at(parent).erase(pointer.back());
                    placed = true;
                }
            } else if (doc.contains(parent) &&
                       (doc.at(parent).is_object() ||
                        (doc.at(parent).is_array() && doc.contains(pointer)))) {
                doc[pointer] = std::move(value);
                placed = true;
            }
        } catch (const nlohmann::json::exception&) {
            placed = false;
        }
        if (!placed)
            throw InputError(sourceName, pointers[k],
                             "the scenario " + name +
                                 (valuesJson[k] == "null" ? " has no such key to remove"
                                                          : " has no such place to set"));
        where += (where.empty() ? "" : ", ") + pointers[k] + " = " + valuesJson[k];
    }
    try {
        return parseScenario(doc.dump(), name, catalog, options, folderOf(scenarioFile));
    } catch (const InputError& e) {
        throw InputError(e.file(), e.place(), e.message() + " (" + context + ": " + where + ")");
    }
}

}  // namespace gpuplan
