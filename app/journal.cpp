// The exploration journal: header identity, reading with torn-line repair, whole-line appends.
#include "app/journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cvsim_version.h"
#include "frontend/source.h"

#ifndef CVSIM_VERSION
#define CVSIM_VERSION "unknown"
#endif

namespace cvsim::cli {

namespace {

// FNV-1a, 64 bits: tells one file's content from another's (not a defence against a forger).
std::string content_hash(const std::string& text) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char ch : text) h = (h ^ ch) * 0x100000001b3ull;
    return fmt::format("fnv1a64:{:016x}", h);
}

// A kernel file is read as the session reads it (size-capped); a config or .npy input is hashed streaming.
std::string file_hash(const std::string& path, bool kernel) {
    if (kernel) return content_hash(SourceFile::read(path)->text());
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read '" + path + "'");
    uint64_t h = 0xcbf29ce484222325ull;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0)
        for (std::streamsize i = 0; i < in.gcount(); ++i)
            h = (h ^ static_cast<unsigned char>(buf[i])) * 0x100000001b3ull;
    return fmt::format("fnv1a64:{:016x}", h);
}

}  // namespace

nlohmann::json journal_identity(const CommonOptions& c, const ExploreOptions& e, const std::string& kernel) {
    nlohmann::json id;
    id["cvsim"] = std::string(CVSIM_VERSION) + "+" + CVSIM_GIT_COMMIT;
    id["kernel_hash"] = file_hash(kernel, true);
    id["target"] = c.target;
    id["v2c"] = c.v2c;
    if (c.c2v != "upstream") id["c2v"] = c.c2v;  // absent: upstream (journals of earlier versions stay valid)
    id["blocks"] = c.blocks;
    id["entry"] = c.entry;
    id["visibility_delay"] = c.visibility_delay ? nlohmann::json(*c.visibility_delay)
                                                : nlohmann::json(nullptr);  // unset: the parameter (configs are hashed)
    id["max_visibility_delay"] = e.max_visibility;
    id["rtol"] = c.rtol;
    id["atol"] = c.atol;
    id["max_cycles"] = c.max_cycles;
    id["sets"] = c.sets;
    id["dims"] = c.dims;
    nlohmann::json configs = nlohmann::json::array();
    for (const auto& f : c.configs) configs.push_back(file_hash(f, false));
    id["configs"] = configs;
    nlohmann::json inputs = nlohmann::json::array();
    for (const auto& in : c.inputs) {
        auto eq = in.find('=');
        std::string value = eq == std::string::npos ? in : in.substr(eq + 1);
        bool npy = value.size() > 4 && value.substr(value.size() - 4) == ".npy";
        // A tensor input by its content (the path may differ between machines), a scalar by its text.
        inputs.push_back(npy ? in.substr(0, eq + 1) + file_hash(value, false) : in);
    }
    id["inputs"] = inputs;
    return id;
}

nlohmann::json journal_header(const CommonOptions& c, const ExploreOptions& e, const std::string& kernel) {
    return {
        {"journal", "cvsim-explore"}, {"format", 1}, {"kernel", kernel}, {"identity", journal_identity(c, e, kernel)}};
}

namespace {

std::string identity_diff(const nlohmann::json& have, const nlohmann::json& want) {
    std::string out;
    for (auto it = want.begin(); it != want.end(); ++it) {
        auto h = have.find(it.key());
        std::string hv = h == have.end() ? "(absent)" : h->dump();
        if (h != have.end() && *h == it.value()) continue;
        out += fmt::format("{}{} {} in the journal, {} now", out.empty() ? "" : "; ", it.key(), hv, it.value().dump());
    }
    return out.empty() ? "format differs" : out;
}

}  // namespace

JournalScan scan_journal(const std::string& path, const std::string& kernel, const nlohmann::json& identity,
                         const std::string& strategy, bool repair,
                         const std::function<void(const nlohmann::json&)>& fn) {
    std::error_code ec;
    auto st = std::filesystem::status(path, ec);
    if (std::filesystem::is_directory(st)) throw JournalError(fmt::format("'{}' is a folder, not a journal", path));
    // A device (/dev/null, /dev/zero, /dev/full) is not a journal, and reading one may never end.
    if (std::filesystem::is_character_file(st) || std::filesystem::is_block_file(st))
        throw JournalError(fmt::format("'{}' is a device, not a journal", path));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read '" + path + "'");
    JournalScan scan;
    std::string line;
    uint64_t offset = 0, lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        bool complete = !in.eof();  // getline stopped at a newline
        uint64_t start = offset;
        offset += line.size() + (complete ? 1 : 0);
        if (line.empty()) continue;
        nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object()) {
            if (!complete) {
                // The last line of a run killed while writing it: dropped (and cut off the file when resuming).
                scan.torn_bytes = line.size();
                if (repair) std::filesystem::resize_file(path, start);
                break;
            }
            throw JournalError(
                fmt::format("line {} of '{}' is not a JSON record: not a cvsim journal, or damaged", lineno, path));
        }
        if (!complete && repair) {
            // Whole JSON, newline lost: give it back its newline so the next append starts a line.
            std::ofstream fix(path, std::ios::app | std::ios::binary);
            fix << "\n";
        }
        if (j.contains("journal")) {
            if (j.value("journal", std::string()) != "cvsim-explore")
                throw JournalError(
                    fmt::format("line {} of '{}' is not a cvsim exploration journal header", lineno, path));
            std::string k = j.value("kernel", std::string());
            if (k != kernel) {
                scan.other_kernels.push_back(k);
                continue;
            }
            if (j.value("format", 0) != 1 || !j.contains("identity") || j["identity"] != identity)
                throw JournalError(
                    fmt::format("'{}' is the journal of another exploration of {} ({}); "
                                "its records cannot be reused: use another --jsonl file or remove this one",
                                path, kernel, identity_diff(j.value("identity", nlohmann::json::object()), identity)));
            scan.header = true;
            continue;
        }
        if (!j.contains("seed") || !j.contains("kernel") || !j.contains("strategy"))
            throw JournalError(
                fmt::format("line {} of '{}' is not a schedule record: not a cvsim journal", lineno, path));
        if (j.value("kernel", std::string()) != kernel) continue;
        std::string st = j.value("strategy", std::string());
        if (st != "nominal" && st != strategy) continue;
        ++scan.records;
        fn(j);
    }
    if (scan.records > 0 && !scan.header)
        throw JournalError(
            fmt::format("'{}' holds schedules of {} but no journal header saying what they are a journal of "
                        "(written by an older cvsim?); they cannot be reused: use another --jsonl file",
                        path, kernel));
    return scan;
}

JournalWriter::~JournalWriter() {
    if (m_fd >= 0) ::close(m_fd);
}

void JournalWriter::open(const std::string& path) {
    m_path = path;
    m_fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (m_fd < 0) throw std::runtime_error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
}

void JournalWriter::flush() {
    size_t off = 0;
    while (off < m_pending.size()) {
        ssize_t n = ::write(m_fd, m_pending.data() + off, m_pending.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            throw std::runtime_error(
                fmt::format("writing '{}' failed: {}", m_path, std::strerror(n < 0 ? errno : ENOSPC)));
        off += static_cast<size_t>(n);
    }
    m_pending.clear();
}

}  // namespace cvsim::cli
