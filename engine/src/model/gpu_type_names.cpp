#include "gpuplan/model/gpu_type_names.hpp"

#include <algorithm>

namespace gpuplan {

std::string gpuTypeKey(std::string_view name) {
    std::string out(name);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c == '_' || c == ' ') c = '-';
    }
    return out;
}

std::string gpuModelNamedBy(std::string_view type, std::span<const GpuModel> models,
                            std::span<const std::pair<std::string, std::string>> typeModels) {
    for (const auto& [from, to] : typeModels)
        if (gpuTypeKey(from) == gpuTypeKey(type))
            return std::any_of(models.begin(), models.end(),
                               [&to = to](const GpuModel& g) { return g.id == to; })
                       ? to
                       : std::string();
    const std::string t = gpuTypeKey(type);
    std::string found;
    for (const GpuModel& g : models) {
        bool hit = gpuTypeKey(g.id) == t || gpuTypeKey(g.name) == t;
        for (const std::string& label : g.productLabels) {
            const std::string l = gpuTypeKey(label);
            hit = hit || l == t || (l.rfind("nvidia-", 0) == 0 && l.substr(7) == t);
        }
        if (!hit) continue;
        if (!found.empty() && found != g.id) return {};  // several models: ambiguous
        found = g.id;
    }
    return found;
}

std::vector<std::string> sacctTypeModels(const TraceDef& trace, std::span<const GpuModel> models) {
    std::vector<std::string> out;
    if (!trace.data) return out;
    for (const std::string& type : trace.data->gpuModels)
        out.push_back(gpuModelNamedBy(type, models, trace.gpuTypes));
    return out;
}

}  // namespace gpuplan
