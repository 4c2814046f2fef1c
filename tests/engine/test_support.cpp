#include "test_support.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "gpuplan/export/results_io.hpp"

namespace gpuplan::test {

Catalog testCatalog() {
    Catalog c;
    c.asOf = "test";
    GpuModel tg;
    tg.id = "tg";
    tg.name = "test GPU";
    tg.bf16DenseTflops = 1000;
    tg.hbmGb = 80;
    tg.nvlinkGBps = 900;
    tg.migMaxInstances = 7;  // 80 GB: the A100-80 / H100-80 MIG family
    GpuModel big = tg;
    big.id = "tg-big";
    big.bf16DenseTflops = 2000;
    big.hbmGb = 160;
    c.gpuModels = {tg, big};
    auto node = [](const char* id, const char* gpu, int gpus, double fabricGbps) {
        NodeType t;
        t.id = id;
        t.name = id;
        t.gpuModel = gpu;
        t.gpusPerNode = gpus;
        t.fabricGbpsPerNode = fabricGbps;
        return t;
    };
    NodeType tray = node("tray4", "tg", 4, 1600);
    tray.nvlinkDomain = NvlinkDomain::Rack;
    tray.nodesPerNvlinkDomain = 18;
    NodeType host = node("n4c", "tg", 4, 1600);
    host.cpuCores = 16;  // 16,000 milli-CPU
    host.ramGb = 64;     // 65,536 MiB
    c.nodeTypes = {node("n8", "tg", 8, 3200),
                   node("n4", "tg", 4, 1600),
                   node("n1", "tg", 1, 400),
                   node("big8", "tg-big", 8, 3200),
                   tray,
                   host};
    return c;
}

void resolveHardware(Scenario& s, const Catalog& catalog) {
    s.gpuModels.clear();
    s.nodeTypes.clear();
    auto addModel = [&](const std::string& id) {
        if (s.findGpu(id)) return;
        const GpuModel* g = catalog.findGpu(id);
        if (!g) throw std::invalid_argument("test catalog has no GPU " + id);
        s.gpuModels.push_back(*g);
    };
    for (const PodDef& p : s.pods)
        for (const RackDef& r : p.racks)
            for (const NodeGroupDef& g : r.nodes) {
                const NodeType* t = catalog.findNodeType(g.nodeType);
                if (!t) throw std::invalid_argument("test catalog has no node type " + g.nodeType);
                if (!s.findNodeType(t->id)) s.nodeTypes.push_back(*t);
                addModel(t->gpuModel);
            }
    for (const JobClassDef& c : s.jobClasses)
        if (c.traits.gpuModel) addModel(*c.traits.gpuModel);
    for (const JobDef& j : s.jobs)
        if (j.traits.gpuModel) addModel(*j.traits.gpuModel);
}

const Catalog& presetCatalog() {
    static const Catalog c = loadCatalog(presetsDir() / "catalog" / "catalog.json");
    return c;
}

Scenario smallFleet(int racks, int nodesPerRack, const std::string& nodeType) {
    Scenario s;
    s.name = "test";
    s.horizonS = 86400;
    s.sampleIntervalS = 60;
    NodeGroupDef g;
    g.count = nodesPerRack;
    g.nodeType = nodeType;
    RackDef r;
    r.count = racks;
    r.nodes = {g};
    PodDef p;
    p.racks = {r};
    s.pods = {p};
    s.teams = {TeamDef{"t", ""}};
    resolveHardware(s);
    return s;
}

JobClassDef jobClass(const std::string& name, int gpus, double ratePerHour, double durationS) {
    JobClassDef c;
    c.name = name;
    c.traits.team = "t";
    c.arrival.ratePerHour = ratePerHour;
    c.gpus.value = gpus;
    c.durationS.value = durationS;
    return c;
}

JobDef job(const std::string& name, int gpus, double durationS, double submitS, int gpusPerPod) {
    JobDef j;
    j.name = name;
    j.traits.team = "t";
    j.traits.gpusPerPod = gpusPerPod;
    j.gpus = gpus;
    j.durationS = durationS;
    j.submitS = submitS;
    return j;
}

InputError inputErrorOf(const std::function<void()>& read) {
    try {
        read();
    } catch (const InputError& e) {
        return e;
    }
    FAIL("no InputError");
    throw;
}

std::string errorOf(const std::function<void()>& read) {
    try {
        read();
    } catch (const InputError& e) {
        return e.what();
    }
    return "accepted";
}

Results run(const Scenario& s) {
    RunOptions o;
    o.checkInvariants = true;
    return simulate(s, o);
}

std::uint32_t jobIndex(const Results& r, const std::string& name) {
    for (std::uint32_t i = 0; i < r.jobs.size(); ++i)
        if (r.jobs[i].spec.source == JobSource::Explicit && r.jobName(i) == name) return i;
    throw std::invalid_argument("no job named " + name);
}

std::filesystem::path scratchPath(const std::string& name) {
    return std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
}

Rows parseCsv(const std::string& text) {
    Rows rows(1, std::vector<std::string>(1));
    std::size_t i = 0;
    auto endOfRecord = [&] {
        if (text.compare(i, 2, "\r\n") == 0) return i += 2, true;
        if (text[i] == '\n') return ++i, true;
        return false;
    };
    while (i < text.size()) {
        std::string& field = rows.back().back();
        if (text[i] == '"' && field.empty()) {
            for (++i;; ++i) {
                if (i >= text.size()) throw std::runtime_error("quoted field not closed");
                if (text[i] != '"') {
                    field += text[i];
                } else if (i + 1 < text.size() && text[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else {
                    ++i;
                    break;
                }
            }
            if (i < text.size() && text[i] != ',' && text[i] != '\n' &&
                text.compare(i, 2, "\r\n") != 0)
                throw std::runtime_error("text after a closing quote");
            continue;
        }
        if (endOfRecord()) {
            if (i < text.size()) rows.emplace_back(1);
            continue;
        }
        if (text[i] == ',') {
            rows.back().emplace_back();
        } else if (text[i] == '"' || text[i] == '\r' || text[i] == '\n') {
            throw std::runtime_error("a quote or line break in an unquoted field of record " +
                                     std::to_string(rows.size()));
        } else {
            field += text[i];
        }
        ++i;
    }
    return rows;
}

std::map<std::string, std::string> jobsCsvRow(const Results& r, std::uint32_t job) {
    const std::filesystem::path dir = scratchPath("gpuplan-jobs-csv-" + std::to_string(job));
    std::filesystem::remove_all(dir);
    writeResultsCsv(r, dir);
    std::ifstream in(dir / "jobs.csv", std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove_all(dir);
    const Rows rows = parseCsv(text);
    if (rows.size() < job + 2) throw std::runtime_error("jobs.csv has no row for the job");
    std::map<std::string, std::string> fields;
    for (std::size_t c = 0; c < rows[0].size() && c < rows[job + 1].size(); ++c)
        fields[rows[0][c]] = rows[job + 1][c];
    return fields;
}

PricingDef tgPrices() {
    GpuPriceDef tg;
    tg.gpuModel = "tg";
    tg.of(BuyingClass::Reserved) = 2.0;
    tg.of(BuyingClass::OnDemand) = 5.0;
    tg.of(BuyingClass::Spot) = 1.5;
    return PricingDef{"test book", "2026-11-24", {tg}};
}

std::vector<const RunSegment*> segmentsOf(const Results& r, std::uint32_t job) {
    std::vector<const RunSegment*> out;
    for (const RunSegment& seg : r.segments)
        if (seg.job == job) out.push_back(&seg);
    return out;
}

std::vector<NodeStateChange> nodeChangesBy(const Results& r, NodeChangeCause cause) {
    std::vector<NodeStateChange> out;
    for (const NodeStateChange& c : r.nodeChanges)
        if (c.cause == cause) out.push_back(c);
    return out;
}

}  // namespace gpuplan::test
