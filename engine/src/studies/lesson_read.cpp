// Lesson files (gpuplan/studies/lesson.hpp), read strictly: a lesson whose claim could not be
// tested (no effect, a tolerance as wide as the effect) is refused like a malformed one.
#include <algorithm>
#include <cmath>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "gpuplan/studies/lesson.hpp"
#include "io/json_reader.hpp"

namespace gpuplan {

using detail::Json;
using detail::JsonNode;
using detail::JsonObject;

namespace {

constexpr std::size_t kMaxSteps = 2;  // "one or two 'try this' steps"
constexpr std::size_t kMaxEffects = 8;
constexpr std::size_t kMaxValuesSet = 32;
constexpr std::size_t kMaxTextChars = 8000;  // a screen of explanation
constexpr std::size_t kMaxLessons = 200;
constexpr double kMaxNumber = 1e12;

const std::vector<std::string> kUnits = {"%", "h", "min", "s", "$", ""};

/// A forecast effect's measure, season, horizon and prices.
void readForecast(JsonObject& o, const JsonNode& forecast, LessonEffect& e) {
    e.forecast = forecast.enumeration<LessonForecastMeasure>(
        {{"reserved_gpus", LessonForecastMeasure::ReservedGpus},
         {"trend_gpus_per_day", LessonForecastMeasure::TrendGpusPerDay}});
    if (auto s = o.optional("season"))
        e.forecastOptions.seasonS = s->enumeration<double>({{"day", 86400.0}, {"week", 604800.0}});
    if (auto h = o.optional("horizonDays")) e.forecastOptions.horizonS = h->number(1, 366) * 86400;
    std::optional<JsonNode> prices = o.optional("usdPerGpuHour");
    if (e.forecast == LessonForecastMeasure::ReservedGpus && !prices)
        o.fail("a reservation needs \"usdPerGpuHour\": {\"reserved\", \"on-demand\"}");
    if (prices) {
        JsonObject p = prices->object();
        e.usdPerGpuHourReserved = p.required("reserved").number(1e-6, 1e4);
        e.usdPerGpuHourOnDemand = p.required("on-demand").number(1e-6, 1e4);
        p.finish();
    }
}

LessonEffect readEffect(const JsonNode& node) {
    JsonObject o = node.object();
    LessonEffect e;
    std::optional<JsonNode> kpi = o.optional("kpi");
    std::optional<JsonNode> job = o.optional("job");
    std::optional<JsonNode> team = o.optional("team");
    std::optional<JsonNode> forecast = o.optional("forecast");
    std::optional<JsonNode> series = o.optional("series");
    if (kpi.has_value() + job.has_value() + team.has_value() + forecast.has_value() +
            series.has_value() !=
        1)
        o.fail(
            "an effect measures a \"kpi\", a \"job\", a \"team\" or a \"series\" (with "
            "\"measure\"), or the \"forecast\": one of them");
    if (kpi) {
        e.kpi = kpi->prose(128);
        if (e.kpi.empty()) kpi->fail("name the KPI");
    } else if (job) {
        e.job = job->name();
        e.measure = o.required("measure").enumeration<LessonJobMeasure>(
            {{"wait", LessonJobMeasure::WaitS},
             {"start", LessonJobMeasure::StartS},
             {"end", LessonJobMeasure::EndS},
             {"mfu", LessonJobMeasure::Mfu}});
    } else if (forecast) {
        readForecast(o, *forecast, e);
    } else if (series) {
        e.series = series->prose(128);
        if (e.series.empty()) series->fail("name the series");
        e.seriesMax = o.required("measure").enumeration<bool>({{"mean", false}, {"max", true}});
    } else {
        e.team = team->name();
        e.teamMeasure = o.required("measure").enumeration<LessonTeamMeasure>(
            {{"wait_p50", LessonTeamMeasure::WaitP50S},
             {"wait_p95", LessonTeamMeasure::WaitP95S},
             {"allocation_share", LessonTeamMeasure::AllocationShare},
             {"gpu_hours", LessonTeamMeasure::GpuHours},
             {"completed", LessonTeamMeasure::Completed},
             {"borrowed_gpus", LessonTeamMeasure::BorrowedGpus},
             {"preemptions", LessonTeamMeasure::Preemptions}});
    }
    if (auto u = o.optional("unit")) {
        e.unit = u->string(8);
        if (std::find(kUnits.begin(), kUnits.end(), e.unit) == kUnits.end())
            u->fail("unit \"" + detail::escapedForMessage(e.unit) +
                    "\" is not one of \"%\", \"h\", \"min\", \"s\", \"$\" or \"\"");
    }
    e.before = o.required("before").number(-kMaxNumber, kMaxNumber);
    e.after = o.required("after").number(-kMaxNumber, kMaxNumber);
    JsonNode tolerance = o.required("tolerance");
    e.tolerance = tolerance.number(0, kMaxNumber);
    // The claim is a direction as well as two numbers: runs within the tolerance of each must
    // still differ the claimed way.
    if (std::abs(e.after - e.before) <= 2 * e.tolerance)
        tolerance.fail("a tolerance of " + detail::shortNumber(e.tolerance) + " does not tell " +
                       detail::shortNumber(e.before) + " from " + detail::shortNumber(e.after) +
                       ": the effect would not be proven");
    JsonNode says = o.required("says");
    e.says = says.prose(512);
    for (const char* token : {"{before}", "{after}"})
        if (e.says.find(token) == std::string::npos)
            says.fail(std::string("the words must show the numbers: ") + token + " is missing");
    o.finish();
    return e;
}

LessonStep readStep(const JsonNode& node) {
    JsonObject o = node.object();
    LessonStep step;
    step.title = o.required("title").prose(200);
    step.how = o.required("how").prose(500);
    JsonNode set = o.required("set");
    JsonObject values = set.object();
    if (set.raw().empty()) set.fail("a step sets at least one value");
    if (set.raw().size() > kMaxValuesSet)
        set.fail("more than " + std::to_string(kMaxValuesSet) + " values");
    for (const auto& [pointer, value] : set.raw().items()) {
        const JsonNode valueNode = values.required(pointer);
        step.set.push_back({detail::scenarioPointerText(valueNode, pointer), value.dump()});
    }
    JsonNode effects = o.required("effects");
    for (const JsonNode& e : effects.array(kMaxEffects))
        step.effects.push_back(readEffect(e));
    if (step.effects.empty()) effects.fail("a step states at least one effect");
    o.finish();
    return step;
}

/// "3.10" after "3.9": chapters compare part by part as numbers.
std::vector<long> chapterKey(const std::string& id) {
    std::vector<long> key;
    std::size_t at = 0;
    while (at <= id.size()) {
        const std::size_t dot = std::min(id.find('.', at), id.size());
        key.push_back(std::strtol(id.substr(at, dot - at).c_str(), nullptr, 10));
        at = dot + 1;
    }
    return key;
}

}  // namespace

Lesson parseLesson(std::string_view text, const std::string& sourceName,
                   const std::filesystem::path& baseDir) {
    const Json doc = detail::parseStrict(text, sourceName);
    JsonObject root = JsonNode(doc, "", sourceName).object();
    JsonNode format = root.required("format");
    if (format.string(64) != "gpuplan-lesson") format.fail("expected \"gpuplan-lesson\"");
    JsonNode version = root.required("formatVersion");
    if (version.integer(0, 1'000'000) != 1) version.fail("this build reads lesson format 1");
    Lesson l;
    l.file = sourceName;
    JsonNode id = root.required("id");
    l.id = id.string(16);
    const bool chapterLike =
        !l.id.empty() &&
        std::all_of(l.id.begin(), l.id.end(),
                    [](char c) { return (c >= '0' && c <= '9') || c == '.'; }) &&
        l.id.front() != '.' && l.id.back() != '.' && l.id.find("..") == std::string::npos;
    if (!chapterLike) id.fail("a chapter number such as \"3.3\" or \"7\"");
    l.part = root.required("part").prose(100);
    l.title = root.required("title").prose(200);
    const std::filesystem::path file = root.required("scenario").filePath("lesson's scenario file");
    l.scenarioFile = file.is_absolute() ? file : baseDir / file;
    l.claim = root.required("claim").prose(1000);
    l.lookAt = root.required("lookAt").prose(1000);
    l.explanation = root.required("explanation").prose(kMaxTextChars);
    JsonNode steps = root.required("steps");
    for (const JsonNode& s : steps.array(kMaxSteps))
        l.steps.push_back(readStep(s));
    if (l.steps.empty()) steps.fail("a lesson has one or two steps");
    root.finish();
    return l;
}

Lesson loadLesson(const std::filesystem::path& file) {
    return parseLesson(readTextFile(file), file.string(), folderOf(file));
}

std::vector<Lesson> loadLessons(const std::filesystem::path& folder) {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec))
        if (entry.is_regular_file() && entry.path().extension() == ".json")
            files.push_back(entry.path());
    if (ec) throw InputError(folder.string(), "", "cannot list the lessons: " + ec.message());
    if (files.size() > kMaxLessons)
        throw InputError(folder.string(), "",
                         "more than " + std::to_string(kMaxLessons) + " lesson files");
    std::vector<Lesson> lessons;
    for (const auto& f : files)
        lessons.push_back(loadLesson(f));
    std::sort(lessons.begin(), lessons.end(),
              [](const Lesson& a, const Lesson& b) { return chapterKey(a.id) < chapterKey(b.id); });
    for (std::size_t i = 1; i < lessons.size(); ++i)
        if (lessons[i].id == lessons[i - 1].id)
            throw InputError(
                lessons[i].file, "/id",
                "chapter " + lessons[i].id + " again (also " + lessons[i - 1].file + ")");
    return lessons;
}

}  // namespace gpuplan
