// The exploration journal (`explore --jsonl F`): a header record saying what the file is a journal of
// (kernel content, the options that decide a schedule's result, the cvsim version), then one JSON line per
// schedule. Resuming or merging a journal of anything else is an error, never a silent reuse.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli.h"

namespace cvsim::cli {

// A journal that does not belong to this run, or is not a journal at all (E-JOURNAL, exit 2).
struct JournalError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What every record's result depends on: the kernel file's content hash, the simulation options and the
// cvsim version (not the seed range, shard, jobs or wall-time bound, so a journal can be extended).
nlohmann::json journal_identity(const CommonOptions& c, const ExploreOptions& e, const std::string& kernel);
// {"journal": "cvsim-explore", "format": 1, "kernel": PATH, "identity": {...}}
nlohmann::json journal_header(const CommonOptions& c, const ExploreOptions& e, const std::string& kernel);

struct JournalScan {
    bool header = false;                     // a header of this kernel (with the expected identity) was found
    uint64_t records = 0;                    // records of this kernel passed to the callback
    uint64_t torn_bytes = 0;                 // bytes of a torn last line (no newline, not JSON) that were dropped
    std::vector<std::string> other_kernels;  // kernels of the other headers in the file
};

// Reads journal PATH and calls fn(record) for each record of KERNEL whose strategy is "nominal" or STRATEGY.
// Throws JournalError for a folder, a line that is not JSON (but a torn last line), a header of KERNEL with
// another identity, or records of KERNEL without its header; std::runtime_error if PATH cannot be read.
// With `repair`, a torn last line is cut off the file (a run killed while writing it).
JournalScan scan_journal(const std::string& path, const std::string& kernel, const nlohmann::json& identity,
                         const std::string& strategy, bool repair,
                         const std::function<void(const nlohmann::json&)>& fn);

// Appends whole lines to a journal: each flush is one write(2) of complete lines on an O_APPEND descriptor,
// and a failed write (a full disk) throws std::runtime_error (E-IO).
class JournalWriter {
  public:
    JournalWriter() = default;
    ~JournalWriter();
    JournalWriter(const JournalWriter&) = delete;
    JournalWriter& operator=(const JournalWriter&) = delete;
    void open(const std::string& path);
    bool is_open() const { return m_fd >= 0; }
    void add(const std::string& line) { m_pending += line, m_pending += '\n'; }
    void flush();

  private:
    int m_fd = -1;
    std::string m_path;
    std::string m_pending;
};

}  // namespace cvsim::cli
