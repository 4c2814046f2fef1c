// What text read from a file may hold, and how any such text is printed in a message.
// Keys, values and trace fields come from other people's files: a NUL, an escape sequence or
// a stray byte must neither cut a message short nor reach a terminal or a CSV row raw.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::detail {

/// `text` as it may appear in a message or a JSON pointer, never cut by what it holds:
/// control characters (U+0000–U+001F, U+007F–U+009F) as \u00XX, as JSON writes them; bytes
/// that are not UTF-8 as \xXX. Everything else is kept as it is, so the text can be searched
/// for in the file. Beyond `maxChars` characters the text is dropped and "…" appended: a
/// 60 MB key gives a short message.
std::string escapedForMessage(std::string_view text, std::size_t maxChars = 200);

/// The rule for every name in gpuplan (teams, nodes, classes, trace cluster ids): 1–64
/// ASCII letters, digits, '.', '_' and '-', so a name prints, sorts and sits in a CSV field
/// or a file name as it is. Returns what is wrong, after the name quoted and escaped
/// ("must not be empty", "\"a\u001bb\" holds a control character (\u001b)", …), or nothing.
std::optional<std::string> nameProblem(std::string_view text);

/// The rule for free text shown as it is (a lesson's words, a scenario's name and
/// description): UTF-8 without control characters but line breaks and tabs, so it neither
/// ends early where C strings are printed (a NUL) nor drives a terminal (an escape sequence).
/// Returns what is wrong ("holds a control character (\u001b)"), or nothing.
std::optional<std::string> proseProblem(std::string_view text);

/// True when `a` and `b` differ at most in the case of ASCII letters ("NVIDIA-H100-PCIe" and
/// "nvidia-h100-pcie"): product names, which people write in either case.
bool equalIgnoringCase(std::string_view a, std::string_view b);

/// 25000000 → "25,000,000": counts in messages.
std::string withThousands(long long n);

/// 86400 → "86400", 0.25 → "0.25": a number in a message, without trailing zeros.
std::string shortNumber(double value);
/// A whole non-negative integer of at most 18 digits (no sign, no spaces), or nothing.
std::optional<long long> wholeNumber(std::string_view text);
/// The first `shown` names, comma-separated, then "and N more": a summary line's list.
std::string listedNames(const std::vector<std::string>& names, std::size_t shown = 5);

}  // namespace gpuplan::detail
