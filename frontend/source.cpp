// Source files and locations.
#include "frontend/source.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cvsim {

SourceFile::SourceFile(std::string path, std::string text) : m_path(std::move(path)), m_text(std::move(text)) {
    m_line_starts.push_back(0);
    for (uint32_t i = 0; i < m_text.size(); ++i) {
        if (m_text[i] == '\n' && i + 1 < m_text.size()) m_line_starts.push_back(i + 1);
    }
}

std::string_view SourceFile::line_text(uint32_t line) const {
    if (line == 0 || line > m_line_starts.size()) return {};
    uint32_t begin = m_line_starts[line - 1];
    uint32_t end = begin;
    while (end < m_text.size() && m_text[end] != '\n') ++end;
    if (end > begin && m_text[end - 1] == '\r') --end;
    return std::string_view(m_text).substr(begin, end - begin);
}

std::shared_ptr<SourceFile> SourceFile::read(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw std::runtime_error("'" + path + "' is a folder, not a kernel file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open '" + path + "'");
    // Bounded read: /dev/zero, a pipe that never ends or a huge file stops at the limit with a diagnostic.
    std::string text;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<size_t>(in.gcount()));
        if (text.size() > kMaxBytes)
            throw std::runtime_error(
                fmt::format("'{}' is larger than {} MiB, the limit of a kernel file", path, kMaxBytes >> 20));
    }
    if (in.bad()) throw std::runtime_error("cannot read '" + path + "'");
    return std::make_shared<SourceFile>(path, std::move(text));
}

std::string SourceLoc::short_str() const {
    if (!file) return "<unknown>";
    std::string p = file->path();
    auto slash = p.find_last_of('/');
    if (slash != std::string::npos) p = p.substr(slash + 1);
    return p + ":" + std::to_string(line);
}

std::string SourceLoc::str() const {
    if (!file) return "<unknown>";
    return file->path() + ":" + std::to_string(line) + ":" + std::to_string(col);
}

}  // namespace cvsim
