#include "text_rules.hpp"

#include <charconv>
#include <cstdio>

namespace gpuplan::detail {

namespace {

/// One UTF-8 sequence at `text[at]`: its length in bytes (1–4) and code point, or length 0
/// when the bytes there are not UTF-8 (stray continuation byte, truncated or overlong
/// sequence, a surrogate, or above U+10FFFF).
struct Utf8Char {
    std::size_t bytes = 0;
    char32_t codePoint = 0;
};

Utf8Char decodeUtf8(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    if (lead < 0x80) return {1, lead};
    std::size_t length = 0;
    char32_t cp = 0, smallest = 0;
    if ((lead & 0xE0) == 0xC0) {
        length = 2, cp = lead & 0x1F, smallest = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3, cp = lead & 0x0F, smallest = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4, cp = lead & 0x07, smallest = 0x10000;
    } else {
        return {};
    }
    if (at + length > text.size()) return {};
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(at + i) & 0xC0) != 0x80) return {};
        cp = (cp << 6) | (byte(at + i) & 0x3F);
    }
    if (cp < smallest || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {};
    return {length, cp};
}

bool isControl(char32_t cp) {
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

std::string hexEscape(const char* prefix, unsigned value) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%s%02x", prefix, value);
    return buf;
}

}  // namespace

std::string escapedForMessage(std::string_view text, std::size_t maxChars) {
    // Printable ASCII, the usual case (every key of every pointer the readers build), as is.
    bool printableAscii = text.size() <= maxChars;
    for (std::size_t i = 0; i < text.size() && printableAscii; ++i)
        printableAscii = text[i] >= 0x20 && text[i] < 0x7F;
    if (printableAscii) return std::string(text);
    std::string out;
    out.reserve(text.size() < maxChars ? text.size() : maxChars);
    std::size_t chars = 0;
    for (std::size_t at = 0; at < text.size(); ++chars) {
        if (chars == maxChars) return out + "…";
        const Utf8Char c = decodeUtf8(text, at);
        if (c.bytes == 0) {
            out += hexEscape("\\x", static_cast<unsigned char>(text[at]));
            ++at;
            continue;
        }
        if (isControl(c.codePoint))
            out += hexEscape("\\u00", static_cast<unsigned>(c.codePoint));
        else
            out.append(text.substr(at, c.bytes));
        at += c.bytes;
    }
    return out;
}

std::optional<std::string> nameProblem(std::string_view text) {
    if (text.empty()) return "must not be empty";
    const auto quoted = [&] { return "\"" + escapedForMessage(text) + "\" "; };
    if (text.size() > 64) return quoted() + "is longer than 64 characters";
    // The specific reasons first: they say what to look for in the file.
    for (std::size_t at = 0; at < text.size();) {
        const Utf8Char c = decodeUtf8(text, at);
        if (c.bytes == 0)
            return quoted() + "is not UTF-8 text (byte " +
                   hexEscape("\\x", static_cast<unsigned char>(text[at])) + ")";
        if (c.codePoint == 0) return quoted() + "holds a NUL byte";
        if (isControl(c.codePoint))
            return quoted() + "holds a control character (" +
                   hexEscape("\\u00", static_cast<unsigned>(c.codePoint)) + ")";
        if (c.codePoint == '"') return quoted() + "holds a quote (\")";
        at += c.bytes;
    }
    for (char c : text) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
        if (!ok) return quoted() + "may only use letters, digits, '.', '_' and '-'";
    }
    return std::nullopt;
}

std::optional<std::string> proseProblem(std::string_view text) {
    for (std::size_t at = 0; at < text.size();) {
        const Utf8Char c = decodeUtf8(text, at);
        if (c.bytes == 0)
            return "is not UTF-8 text (byte " +
                   hexEscape("\\x", static_cast<unsigned char>(text[at])) + ")";
        if (c.codePoint == 0) return std::string("holds a NUL byte");
        if (isControl(c.codePoint) && c.codePoint != '\n' && c.codePoint != '\t')
            return "holds a control character (" +
                   hexEscape("\\u00", static_cast<unsigned>(c.codePoint)) + ")";
        at += c.bytes;
    }
    return std::nullopt;
}

bool equalIgnoringCase(std::string_view a, std::string_view b) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

std::string shortNumber(double value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", value);
    return buf;
}

std::optional<long long> wholeNumber(std::string_view s) {
    if (s.empty() || s.size() > 18) return std::nullopt;
    long long value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size() || value < 0) return std::nullopt;
    return value;
}

std::string listedNames(const std::vector<std::string>& names, std::size_t shown) {
    std::string text;
    for (std::size_t i = 0; i < names.size() && i < shown; ++i)
        text += (i ? ", " : "") + names[i];
    if (names.size() > shown) text += " and " + withThousands(names.size() - shown) + " more";
    return text;
}

std::string withThousands(long long n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && digits[i - 1] != '-' && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace gpuplan::detail
