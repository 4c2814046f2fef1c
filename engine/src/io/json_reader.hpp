// Strict JSON walking with JSON-pointer error locations. Every object read through
// JsonObject must be finished: keys nobody asked for are errors ("unknown key").
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpuplan/io/input_error.hpp"
#include "text_rules.hpp"

namespace gpuplan::detail {

using Json = nlohmann::json;

/// Parses text into a DOM after a SAX pass that rejects deep nesting and duplicate keys.
/// Throws InputError with "line L, column C" or a JSON pointer.
Json parseStrict(std::string_view text, const std::string& sourceName);

/// "/a/b~1c" style pointer building; keys are escaped for messages (escapedForMessage).
std::string childPointer(const std::string& parent, std::string_view key);
std::string childPointer(const std::string& parent, std::size_t index);

class JsonObject;
class JsonNode;

/// A JSON pointer into a scenario (a sweep's parameter, a lesson step's value), checked:
/// "/a/b/0", each token escaped as RFC 6901 says; not empty; no control characters (a pointer
/// is a CSV column name). `text` is where it was read, for the message.
std::string scenarioPointerText(const JsonNode& node, const std::string& text);
std::string scenarioPointerText(const JsonNode& node);

class JsonNode {
public:
    JsonNode(const Json& value, std::string pointer, const std::string& file)
        : m_value(&value), m_pointer(std::move(pointer)), m_file(&file) {}

    [[noreturn]] void fail(const std::string& message) const;
    const std::string& pointer() const { return m_pointer; }
    const std::string& file() const { return *m_file; }
    const Json& raw() const { return *m_value; }

    double number(double min, double max) const;
    long long integer(long long min, long long max) const;
    std::uint64_t unsignedInteger() const;
    std::string string(std::size_t maxLength = 4096) const;
    /// A name: 1–64 characters of letters, digits, '.', '_' and '-'.
    std::string name() const;
    /// Free text shown as it is (a lesson's words, a scenario's description): string(), by
    /// the prose rule (proseProblem: no NUL or control character but line breaks and tabs).
    std::string prose(std::size_t maxLength = 4096) const;
    /// A file's path (a trace, a node list, a lesson's or a sweep's scenario): not empty, at
    /// most 4096 bytes, no NUL (the system would open the part before it). `what` names the
    /// file in the message ("trace file").
    std::string filePath(const char* what) const;
    bool boolean() const;
    std::vector<JsonNode> array(std::size_t maxItems) const;
    JsonObject object() const;

    template <class E>
    E enumeration(std::initializer_list<std::pair<const char*, E>> choices) const {
        const std::string s = string(64);
        std::string list;
        for (const auto& [text, value] : choices) {
            if (s == text) return value;
            list += (list.empty() ? "" : ", ") + std::string("\"") + text + "\"";
        }
        fail("unknown value \"" + escapedForMessage(s) + "\" (expected one of " + list + ")");
    }

private:
    const Json* m_value;
    std::string m_pointer;
    const std::string* m_file;
};

class JsonObject {
public:
    JsonObject(const JsonNode& node);

    bool has(std::string_view key) const;
    JsonNode required(std::string_view key);
    std::optional<JsonNode> optional(std::string_view key);
    /// Marks a key as understood without reading it (e.g. "format").
    void accept(std::string_view key) { m_used.insert(std::string(key)); }
    /// Fails on the first key that was never asked for.
    void finish() const;
    [[noreturn]] void fail(const std::string& message) const { m_node.fail(message); }
    const std::string& pointer() const { return m_node.pointer(); }
    JsonNode node() const { return m_node; }

private:
    JsonNode m_node;
    std::set<std::string, std::less<>> m_used;
};

}  // namespace gpuplan::detail
