// YAML documents (yaml-cpp's event parser) as a small tree that remembers lines, read with
// bounds that keep a hostile file cheap: no aliases, a nesting and a value limit, and
// duplicate or non-text keys refused. Errors are InputError with "line L".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>
#include "gpuplan/io/input_error.hpp"

namespace gpuplan::detail {

struct YamlNode {
    enum class Kind : std::uint8_t { Null, Scalar, Sequence, Map };
    Kind kind = Kind::Null;
    int line = 0;      ///< 1-based line where the node starts
    int keyLine = 0;   ///< for an entry of a map: the line of its key (a block's is above it)
    std::string key;   ///< for an entry of a map: its key
    std::string text;  ///< a scalar's text
    std::vector<YamlNode> items;  ///< a sequence's items, or a map's entries in file order

    /// The entry of a map with this key; nullptr when absent or when this is not a map.
    const YamlNode* find(std::string_view entryKey) const;
    bool isNull() const { return kind == Kind::Null; }
    /// Where a message points: an entry's key, else the node itself.
    int placeLine() const { return keyLine ? keyLine : line; }
};

/// Bounds on one YAML read (all documents of all files read with one YamlBudget).
struct YamlLimits {
    static constexpr int maxDepth = 64;
    static constexpr long long maxValues = 1'000'000;
};

/// Counts the values read so far, across files.
struct YamlBudget {
    long long values = 0;
};

/// Every document of a YAML stream, empty ones left out. Throws InputError(file, "line L",
/// what) for a syntax error, an alias, a key that is not text, a duplicate key, nesting deeper
/// than YamlLimits::maxDepth or more values than YamlLimits::maxValues.
std::vector<YamlNode> readYamlDocuments(std::string_view text, const std::string& file,
                                        YamlBudget& budget);

}  // namespace gpuplan::detail
