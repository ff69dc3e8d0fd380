// Source files and source locations shared by the lexer, parser, IR, simulator and traces.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cvsim {

// One input file held in memory; line starts are indexed once for caret rendering.
class SourceFile : public std::enable_shared_from_this<SourceFile> {
  public:
    SourceFile(std::string path, std::string text);

    const std::string& path() const { return m_path; }
    const std::string& text() const { return m_text; }
    // The text of 1-based line `line` without its newline; empty if out of range.
    std::string_view line_text(uint32_t line) const;
    uint32_t line_count() const { return static_cast<uint32_t>(m_line_starts.size()); }

    // Throws std::runtime_error for a folder, an unreadable file or one larger than kMaxBytes.
    static std::shared_ptr<SourceFile> read(const std::string& path);
    static constexpr size_t kMaxBytes = size_t{16} << 20;  // kernels are kilobytes; printed programs < 1 MiB

  private:
    std::string m_path;                   // path as given by the user (used in diagnostics)
    std::string m_text;                   // full file contents
    std::vector<uint32_t> m_line_starts;  // byte offset of each line's first character
};

// A position in a source file: 1-based line and column (column counts bytes). line 0 = unknown.
struct SourceLoc {
    const SourceFile* file = nullptr;
    uint32_t line = 0;
    uint32_t col = 0;

    bool valid() const { return file != nullptr && line > 0; }
    // "k.py:28" (no column), used in findings and traces.
    std::string short_str() const;
    // "k.py:28:9", used in diagnostics.
    std::string str() const;
};

// Lexicographic order of (line, col) within one file; used for "source order" comparisons.
inline bool loc_before(const SourceLoc& a, const SourceLoc& b) {
    return a.line != b.line ? a.line < b.line : a.col < b.col;
}

}  // namespace cvsim
