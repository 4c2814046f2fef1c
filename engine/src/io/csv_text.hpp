// The CSV text every file the project writes uses (RFC 4180), and its reading back.
#pragma once

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::detail {

/// A CSV field as RFC 4180 writes it: quoted, its quotes doubled, when it holds a comma, a
/// quote, CR or LF (reason texts and hand-built names do). Every text field of every CSV
/// the project writes goes through here.
inline std::string csvField(std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

/// A number, 10 significant digits; empty when not finite.
inline std::string csvNumber(double v) {
    if (!std::isfinite(v)) return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

/// A number that reads back as the same double (17 significant digits); empty when not finite.
inline std::string csvExactNumber(double v) {
    if (!std::isfinite(v)) return "";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

/// One line's fields (no line breaks inside fields); nullopt when its quoting is broken.
inline std::optional<std::vector<std::string>> csvFields(std::string_view line) {
    std::vector<std::string> fields(1);
    std::size_t i = 0;
    while (i <= line.size()) {
        std::string& field = fields.back();
        if (i < line.size() && line[i] == '"') {
            ++i;
            while (true) {
                if (i >= line.size()) return std::nullopt;  // no closing quote
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                field += line[i++];
            }
            if (i < line.size() && line[i] != ',') return std::nullopt;  // text after a quote
        } else {
            while (i < line.size() && line[i] != ',') {
                if (line[i] == '"') return std::nullopt;  // a quote inside an unquoted field
                field += line[i++];
            }
        }
        if (i >= line.size()) break;
        ++i;  // the comma
        fields.emplace_back();
        if (i == line.size()) break;  // a trailing empty field
    }
    return fields;
}

}  // namespace gpuplan::detail
