// The lines of a text, one at a time, for the line-oriented readers (the Philly trace, the
// openb lists): LF or CRLF ends a line, and the number of the line last read is kept for
// error messages ("line N").
#pragma once

#include <cstddef>
#include <string_view>

namespace gpuplan::detail {

class TextLines {
public:
    explicit TextLines(std::string_view text) : m_text(text) {}

    /// The next line without its end; false past the last one.
    bool next(std::string_view& line) {
        if (m_pos >= m_text.size()) return false;
        std::size_t end = m_text.find('\n', m_pos);
        if (end == std::string_view::npos) end = m_text.size();
        line = m_text.substr(m_pos, end - m_pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        m_pos = end + 1;
        ++m_line;
        return true;
    }
    /// 1-based number of the line last read (0 before the first).
    std::size_t lineNumber() const { return m_line; }
    /// Point messages at a line that was not read (an empty file's missing header: 1).
    void setLineNumber(std::size_t line) { m_line = line; }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    std::size_t m_line = 0;
};

}  // namespace gpuplan::detail
