// Diagnostic rendering.
#include "frontend/diag.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace cvsim {

void raise(const std::string& code, const SourceLoc& loc, const std::string& message, const std::string& hint,
           uint32_t span) {
    Diagnostic d;
    d.code = code;
    d.loc = loc;
    // A message quoting a huge token (a 2 MB name) is cut: a diagnostic is read by a person.
    auto capped = [](const std::string& m) {
        constexpr size_t kMax = 400;
        return m.size() <= kMax ? m : m.substr(0, kMax) + fmt::format("... ({} bytes in all)", m.size());
    };
    d.message = capped(message);
    d.hint = capped(hint);
    d.span = span == 0 ? 1 : span;
    if (loc.file) d.keep = loc.file->weak_from_this().lock();
    throw CompileError(std::move(d));
}

const char* severity_name(Severity s) {
    switch (s) {
        case Severity::Error:
            return "error";
        case Severity::Warning:
            return "warning";
        case Severity::Note:
            return "note";
    }
    return "error";
}

std::string render_text(const Diagnostic& d) {
    std::string out;
    out += d.loc.valid() ? d.loc.str() : std::string(d.loc.file ? d.loc.file->path() : "<input>");
    out += ": ";
    out += severity_name(d.severity);
    out += "[" + d.code + "]: " + d.message + "\n";
    if (d.loc.valid()) {
        std::string_view line = d.loc.file->line_text(d.loc.line);
        uint32_t col = d.loc.col == 0 ? 1 : d.loc.col;
        // A long line is shown as a window of at most kExcerptCols columns around the caret ("..." marks cuts).
        constexpr uint32_t kExcerptCols = 160;
        std::string prefix, suffix;
        if (line.size() > kExcerptCols) {
            uint32_t first = col > kExcerptCols / 2 ? col - kExcerptCols / 2 : 1;
            if (first > 1) prefix = "...";
            if (first - 1 + kExcerptCols < line.size()) suffix = "...";
            line = line.substr(first - 1, kExcerptCols);
            col = col - first + 1 + static_cast<uint32_t>(prefix.size());
        }
        // Render non-printable bytes as '?' so a binary file cannot garble the terminal.
        std::string shown = prefix;
        for (unsigned char ch : line) shown += (ch == '\t' || (ch >= 0x20 && ch < 0x7f)) ? char(ch) : '?';
        shown += suffix;
        out += "    " + shown + "\n";
        out += "    ";
        for (uint32_t i = 1; i < col && i <= shown.size(); ++i) out += shown[i - 1] == '\t' ? '\t' : ' ';
        out += '^';
        uint32_t span = d.span;
        if (col + span - 1 > shown.size() + 1) span = shown.size() >= col ? uint32_t(shown.size() - col + 1) : 1;
        for (uint32_t i = 1; i < span; ++i) out += '~';
        out += "\n";
    }
    if (!d.hint.empty()) out += "hint: " + d.hint + "\n";
    return out;
}

nlohmann::json to_json(const Diagnostic& d) {
    nlohmann::json j;
    j["severity"] = severity_name(d.severity);
    j["code"] = d.code;
    j["file"] = d.loc.file ? d.loc.file->path() : "";
    j["line"] = d.loc.line;
    j["col"] = d.loc.col;
    j["message"] = d.message;
    if (!d.hint.empty()) j["hint"] = d.hint;
    return j;
}

}  // namespace cvsim
