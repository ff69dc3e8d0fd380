// Helpers shared by the test binaries: where the shared kernels are, reading files, running the CLI.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cvsim::test {

// Built with AddressSanitizer (gcc or clang): ASan reserves terabytes of address space, so no RLIMIT_AS,
// and it runs slower, so more time.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

std::string shared_dir();                          // ../shared (from CVSIM_SHARED env or the build-time definition)
std::string source_dir();                          // the repository root
std::string cvsim_binary();                        // the built cvsim executable
std::string kernel_path(const std::string& name);  // shared_dir()/kernels/<name>
std::string read_file(const std::string& path);

struct RunResult {
    int exit_code = -1;      // 128 + signal when killed
    int signal = 0;          // the signal that ended it (0: it exited)
    bool timed_out = false;  // killed at the wall-clock limit
    std::string out;         // stdout
    std::string err;         // stderr
};
// The text report with the width wrapping undone (continuation lines, indented, joined to their line with
// one space; a replay's " \\" continuation too), so a test can search a message whole at any width.
std::string unwrapped(const std::string& text);
struct RunLimits {
    uint64_t address_space_bytes = 0;  // RLIMIT_AS in the child, as `ulimit -v` (0: none)
    size_t capture_bytes = SIZE_MAX;   // keep at most this much of stdout / stderr each
    std::string workdir;               // the child's working directory ("": the test's)
};
// Runs `cvsim <args>` (args split on spaces, no shell) with a wall-clock limit; kills it on timeout.
RunResult run_cvsim(const std::vector<std::string>& args, int timeout_seconds = 120, const RunLimits& limits = {});
std::vector<std::string> split_args(const std::string& s);

}  // namespace cvsim::test
