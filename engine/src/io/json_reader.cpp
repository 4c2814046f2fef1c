#include "json_reader.hpp"

#include <cmath>
#include <cstdio>

#include "gpuplan/io/input_error.hpp"
#include "text_rules.hpp"

namespace gpuplan {

namespace {
/// The one rule for text in a message: escaped whole (escapedForMessage, no length limit).
std::string messageText(std::string_view text) {
    return detail::escapedForMessage(text, std::string_view::npos);
}
}  // namespace

InputError::InputError(std::string file, std::string place, std::string message)
    : std::runtime_error(messageText(file) + ": " +
                         (place.empty() ? "" : messageText(place) + ": ") + messageText(message)),
      m_file(messageText(file)),
      m_place(messageText(place)),
      m_message(messageText(message)) {}

}  // namespace gpuplan

namespace gpuplan::detail {

std::string childPointer(const std::string& parent, std::string_view key) {
    std::string p = parent + "/";
    for (char c : escapedForMessage(key)) {
        if (c == '~')
            p += "~0";
        else if (c == '/')
            p += "~1";
        else
            p += c;
    }
    return p;
}

std::string childPointer(const std::string& parent, std::size_t index) {
    return parent + "/" + std::to_string(index);
}

namespace {

std::string lineColumn(std::string_view text, std::size_t offset) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

/// Walks the document once before the DOM is built: depth limit, duplicate keys, syntax.
class StrictSax {
public:
    StrictSax(std::string_view text, const std::string& file) : m_text(text), m_file(file) {}

    bool null() { return value(); }
    bool boolean(bool) { return value(); }
    bool number_integer(Json::number_integer_t) { return value(); }
    bool number_unsigned(Json::number_unsigned_t) { return value(); }
    bool number_float(Json::number_float_t, const Json::string_t&) { return value(); }
    bool string(Json::string_t&) { return value(); }
    bool binary(Json::binary_t&) { return value(); }

    bool start_object(std::size_t) {
        open(true);
        return true;
    }
    bool key(Json::string_t& k) {
        Frame& f = m_stack.back();
        f.key = k;  // first, so a duplicate is reported at its own pointer
        if (!f.keys.insert(k).second)
            throw InputError(m_file, pointer(), "duplicate key \"" + escapedForMessage(k) + "\"");
        return true;
    }
    bool end_object() {
        m_stack.pop_back();
        return value();
    }
    bool start_array(std::size_t) {
        open(false);
        return true;
    }
    bool end_array() {
        m_stack.pop_back();
        return value();
    }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex) {
        // nlohmann's message starts with "[json.exception.parse_error.101] parse error at line
        // L, column C: "; keep only the reason and give our own place.
        const std::size_t offset = position > 0 ? position - 1 : 0;
        if (m_documentEnded)
            throw InputError(m_file, lineColumn(m_text, offset),
                             "unexpected text after the JSON document");
        std::string what = ex.what();
        if (auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
        // nlohmann quotes the bytes it last read, raw: they may be anything.
        what = escapedForMessage(what, 400);
        if (offset >= m_text.size()) what = "the file ends too early (truncated?): " + what;
        throw InputError(m_file, lineColumn(m_text, offset), "invalid JSON: " + what);
    }

private:
    struct Frame {
        bool isObject;
        std::set<std::string> keys;
        std::string key;
        std::size_t index = 0;
    };

    void open(bool isObject) {
        if (static_cast<int>(m_stack.size()) >= InputLimits::maxJsonDepth)
            throw InputError(
                m_file, pointer(),
                "nested deeper than " + std::to_string(InputLimits::maxJsonDepth) + " levels");
        m_stack.push_back(Frame{isObject, {}, {}, 0});
    }
    bool value() {
        if (m_stack.empty()) m_documentEnded = true;  // the top-level value is complete
        if (!m_stack.empty() && !m_stack.back().isObject) ++m_stack.back().index;
        return true;
    }
    std::string pointer() const {
        std::string p;
        for (const Frame& f : m_stack) {
            if (f.isObject) {
                if (!f.key.empty()) p = childPointer(p, f.key);
            } else {
                p = childPointer(p, f.index);
            }
        }
        return p.empty() ? "/" : p;
    }

    std::string_view m_text;
    const std::string& m_file;
    std::vector<Frame> m_stack;
    bool m_documentEnded = false;
};

}  // namespace

Json parseStrict(std::string_view text, const std::string& sourceName) {
    // nlohmann's lexer takes a NUL for the end of the input, so `{…}\0garbage` would parse as
    // `{…}`. JSON text never holds one (a string writes it \u0000).
    if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos)
        throw InputError(sourceName, lineColumn(text, nul),
                         "a NUL byte, which JSON text never holds (a binary or cut file?)");
    StrictSax sax(text, sourceName);
    Json::sax_parse(text.begin(), text.end(), &sax);
    try {
        return Json::parse(text.begin(), text.end());
    } catch (const Json::exception& e) {
        throw InputError(sourceName, "", std::string("invalid JSON: ") + e.what());
    }
}

void JsonNode::fail(const std::string& message) const {
    throw InputError(*m_file, m_pointer.empty() ? "/" : m_pointer, message);
}

namespace {
const char* typeName(const Json& v) {
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_object()) return "an object";
    if (v.is_array()) return "an array";
    if (v.is_boolean()) return "true/false";
    if (v.is_null()) return "null";
    return "something else";
}

std::string numberText(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.12g", v);
    return buf;
}
}  // namespace

double JsonNode::number(double min, double max) const {
    if (!m_value->is_number()) fail(std::string("expected a number, got ") + typeName(*m_value));
    const double v = m_value->get<double>();
    if (!std::isfinite(v)) fail("expected a finite number");
    if (v < min || v > max)
        fail("must be between " + numberText(min) + " and " + numberText(max) + ", got " +
             numberText(v));
    return v;
}

long long JsonNode::integer(long long min, long long max) const {
    if (!m_value->is_number()) fail(std::string("expected an integer, got ") + typeName(*m_value));
    long long v = 0;
    if (m_value->is_number_integer()) {
        if (m_value->is_number_unsigned() &&
            m_value->get<std::uint64_t>() > static_cast<std::uint64_t>(max))
            fail("must be between " + std::to_string(min) + " and " + std::to_string(max));
        v = m_value->get<long long>();
    } else {
        const double d = m_value->get<double>();
        if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9e15)
            fail("expected an integer, got " + numberText(d));
        v = static_cast<long long>(d);
    }
    if (v < min || v > max)
        fail("must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
             std::to_string(v));
    return v;
}

std::uint64_t JsonNode::unsignedInteger() const {
    if (!m_value->is_number_integer() ||
        (!m_value->is_number_unsigned() && m_value->get<long long>() < 0))
        fail("expected a non-negative integer");
    return m_value->get<std::uint64_t>();
}

std::string JsonNode::string(std::size_t maxLength) const {
    if (!m_value->is_string()) fail(std::string("expected a string, got ") + typeName(*m_value));
    const std::string& s = m_value->get_ref<const std::string&>();
    if (s.size() > maxLength) fail("text longer than " + std::to_string(maxLength) + " characters");
    return s;
}

std::string JsonNode::name() const {
    const std::string s = string(64);
    if (const auto problem = nameProblem(s)) fail("name " + *problem);
    return s;
}

std::string JsonNode::prose(std::size_t maxLength) const {
    const std::string s = string(maxLength);
    if (const auto problem = proseProblem(s)) fail("the text " + *problem);
    return s;
}

std::string JsonNode::filePath(const char* what) const {
    const std::string s = string(4096);
    if (s.empty()) fail(std::string("name the ") + what);
    if (s.find('\0') != std::string::npos)
        fail(std::string("the ") + what + " \"" + escapedForMessage(s, 400) +
             "\" holds a NUL byte, which no file name can");
    return s;
}

bool JsonNode::boolean() const {
    if (!m_value->is_boolean())
        fail(std::string("expected true or false, got ") + typeName(*m_value));
    return m_value->get<bool>();
}

std::vector<JsonNode> JsonNode::array(std::size_t maxItems) const {
    if (!m_value->is_array()) fail(std::string("expected an array, got ") + typeName(*m_value));
    if (m_value->size() > maxItems)
        fail("more than " + std::to_string(maxItems) + " items (" +
             std::to_string(m_value->size()) + ")");
    std::vector<JsonNode> items;
    items.reserve(m_value->size());
    for (std::size_t i = 0; i < m_value->size(); ++i)
        items.emplace_back((*m_value)[i], childPointer(m_pointer, i), *m_file);
    return items;
}

JsonObject JsonNode::object() const {
    return JsonObject(*this);
}

JsonObject::JsonObject(const JsonNode& node) : m_node(node) {
    if (!node.raw().is_object())
        node.fail(std::string("expected an object, got ") + typeName(node.raw()));
}

bool JsonObject::has(std::string_view key) const {
    return m_node.raw().contains(key);
}

JsonNode JsonObject::required(std::string_view key) {
    m_used.insert(std::string(key));
    auto it = m_node.raw().find(key);
    if (it == m_node.raw().end()) m_node.fail("missing required key \"" + std::string(key) + "\"");
    return JsonNode(*it, childPointer(m_node.pointer(), key), m_node.file());
}

std::optional<JsonNode> JsonObject::optional(std::string_view key) {
    m_used.insert(std::string(key));
    auto it = m_node.raw().find(key);
    if (it == m_node.raw().end()) return std::nullopt;
    return required(key);
}

void JsonObject::finish() const {
    for (const auto& [key, value] : m_node.raw().items()) {
        if (m_used.count(key)) continue;
        std::string known;
        for (const std::string& k : m_used)
            known += (known.empty() ? "" : ", ") + k;
        JsonNode(value, childPointer(m_node.pointer(), key), m_node.file())
            .fail("unknown key \"" + escapedForMessage(key) + "\" (known here: " + known + ")");
    }
}

std::string scenarioPointerText(const JsonNode& node, const std::string& text) {
    if (text.size() > 512) node.fail("a pointer longer than 512 characters");
    for (unsigned char c : text)
        if (c < 0x20 || c == 0x7f) node.fail("a pointer with a control character");
    try {
        (void)Json::json_pointer(text);
    } catch (const nlohmann::json::exception& e) {
        node.fail("not a JSON pointer (\"/topology/pods/0/count\"): " + std::string(e.what()));
    }
    if (text.empty()) node.fail("the empty pointer would replace the whole scenario");
    return text;
}

std::string scenarioPointerText(const JsonNode& node) {
    return scenarioPointerText(node, node.string(512));
}

}  // namespace gpuplan::detail
