#include "yaml_reader.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "io/text_rules.hpp"

namespace gpuplan::detail {

const YamlNode* YamlNode::find(std::string_view entryKey) const {
    if (kind != Kind::Map) return nullptr;
    for (const YamlNode& entry : items)
        if (entry.key == entryKey) return &entry;
    return nullptr;
}

namespace {

std::string lineOf(const YAML::Mark& mark) {
    return "line " + std::to_string(mark.line + 1);
}

/// Builds one document's tree from the parser's events, without recursion.
class TreeBuilder : public YAML::EventHandler {
public:
    TreeBuilder(const std::string& file, YamlBudget& budget) : m_file(file), m_budget(budget) {}

    bool hasDocument() const { return m_haveRoot && !m_root.isNull(); }
    const YAML::Mark& start() const { return m_start; }
    YamlNode take() { return std::move(m_root); }

    void OnDocumentStart(const YAML::Mark& mark) override { m_start = mark; }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t) override {
        add(mark, YamlNode::Kind::Null, {});
    }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
        // kubectl never writes aliases; refusing them rules out "billion laughs" expansion.
        fail(mark, "YAML aliases (*name) are not supported: give the value itself");
    }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  const std::string& value) override {
        add(mark, YamlNode::Kind::Scalar, value);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {
        open(mark, YamlNode::Kind::Sequence);
    }
    void OnSequenceEnd() override { m_open.pop_back(); }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {
        open(mark, YamlNode::Kind::Map);
    }
    void OnMapEnd() override { m_open.pop_back(); }

private:
    struct Open {
        YamlNode* node;
        bool expectKey = true;  // in a map: the next node is a key
        std::string key;
        int keyLine = 0;
        std::set<std::string> keys;
    };

    [[noreturn]] void fail(const YAML::Mark& mark, const std::string& message) const {
        throw InputError(m_file, lineOf(mark), message);
    }

    /// Adds a node where the parser is; returns it, or nullptr when it was a map's key.
    YamlNode* add(const YAML::Mark& mark, YamlNode::Kind kind, const std::string& text) {
        if (++m_budget.values > YamlLimits::maxValues)
            fail(mark, "more than " + withThousands(YamlLimits::maxValues) +
                           " YAML values: too large for Kueue manifests");
        YamlNode node;
        node.kind = kind;
        node.line = mark.line + 1;
        node.text = text;
        if (m_open.empty()) {
            m_haveRoot = true;
            m_root = std::move(node);
            return &m_root;
        }
        Open& parent = m_open.back();
        if (parent.node->kind == YamlNode::Kind::Map) {
            if (parent.expectKey) {
                if (kind != YamlNode::Kind::Scalar)
                    fail(mark, "a map key must be text, not a list, a map or null");
                if (!parent.keys.insert(text).second)
                    fail(mark, "duplicate key \"" + escapedForMessage(text) + "\"");
                parent.key = text;
                parent.keyLine = node.line;
                parent.expectKey = false;
                return nullptr;
            }
            node.key = std::move(parent.key);
            node.keyLine = parent.keyLine;
            parent.expectKey = true;
        }
        parent.node->items.push_back(std::move(node));
        return &parent.node->items.back();
    }

    void open(const YAML::Mark& mark, YamlNode::Kind kind) {
        if (static_cast<int>(m_open.size()) >= YamlLimits::maxDepth)
            fail(mark, "nested deeper than " + std::to_string(YamlLimits::maxDepth) + " levels");
        YamlNode* node = add(mark, kind, {});
        if (!node) fail(mark, "a map key must be text, not a list, a map or null");
        // Its parent gets no other child while it is open, so the pointer stays valid.
        m_open.push_back({.node = node, .expectKey = true, .key = {}, .keyLine = 0, .keys = {}});
    }

    const std::string& m_file;
    YamlBudget& m_budget;
    YamlNode m_root;
    bool m_haveRoot = false;
    YAML::Mark m_start;
    std::vector<Open> m_open;
};

}  // namespace

std::vector<YamlNode> readYamlDocuments(std::string_view text, const std::string& file,
                                        YamlBudget& budget) {
    if (text.find('\0') != std::string_view::npos) {
        const std::string_view before = text.substr(0, text.find('\0'));
        const long long line = 1 + std::count(before.begin(), before.end(), '\n');
        throw InputError(file, "line " + std::to_string(line), "a NUL byte: not a YAML file");
    }
    std::istringstream in{std::string(text)};
    std::vector<YamlNode> documents;
    try {
        YAML::Parser parser(in);
        int lastEmptyAt = -1;
        for (;;) {
            TreeBuilder builder(file, budget);
            if (!parser.HandleNextDocument(builder)) break;
            if (builder.hasDocument()) {
                documents.push_back(builder.take());
                continue;
            }
            // yaml-cpp 0.7 answers a stray ',' where a document should start with empty
            // documents at the same place, forever (found by fuzz_kueue): stop at the second.
            const YAML::Mark& at = builder.start();
            if (at.pos == lastEmptyAt) {
                const char c = at.pos >= 0 && static_cast<std::size_t>(at.pos) < text.size()
                                   ? text[at.pos]
                                   : ' ';
                throw InputError(file, lineOf(at),
                                 "invalid YAML: unexpected \"" + escapedForMessage({&c, 1}) +
                                     "\" where a document should start");
            }
            lastEmptyAt = at.pos;
        }
    } catch (const YAML::Exception& e) {
        throw InputError(file, e.mark.is_null() ? "" : lineOf(e.mark), "invalid YAML: " + e.msg);
    }
    return documents;
}

}  // namespace gpuplan::detail
