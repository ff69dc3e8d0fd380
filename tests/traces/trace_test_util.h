// Helpers of the trace tests: a scratch directory, running a program with a time limit, reading a Chrome
// trace, and synthetic events for the writers (no simulation needed).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "sim/event.h"
#include "test_support.h"

namespace cvsim::test {

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it at the end of the test.
class ScratchDir {
  public:
    ScratchDir() {
        const char* base = std::getenv("TMPDIR");
        std::string tmpl = std::string(base && *base ? base : "/tmp") + "/cvsim-traces-XXXXXX";
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        m_path = tmpl;
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    std::string file(const std::string& name) const { return m_path + "/" + name; }
    const std::string& path() const { return m_path; }

  private:
    std::string m_path;  // the directory
};

struct ProcessResult {
    int exit_code = -1;      // 128 + signal when killed
    bool timed_out = false;  // killed at the time limit
};

// Runs `argv` in its own process group with stdout and stderr sent to files; kills the whole group at
// the time limit (a browser leaves helper processes behind that would keep a pipe open).
inline ProcessResult run_process(const std::vector<std::string>& argv, const std::string& out_file,
                                 const std::string& err_file, int timeout_seconds) {
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        setpgid(0, 0);
        int out = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0) _exit(126);
        dup2(out, 1);
        dup2(err, 2);
        std::vector<std::string> copy = argv;
        std::vector<char*> args;
        for (auto& a : copy) args.push_back(a.data());
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    setpgid(pid, pid);
    ProcessResult r;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
    int status = 0;
    while (true) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (std::chrono::steady_clock::now() > deadline) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            r.timed_out = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    kill(-pid, SIGKILL);  // helpers the program left behind
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return r;
}

// Small text matchers (std::regex costs minutes of compile time under the sanitizers on 2 cores).
// The number (digits and dots) that ends right before the first occurrence of `suffix`; "" if none.
inline std::string number_before(const std::string& s, const std::string& suffix) {
    auto pos = s.find(suffix);
    if (pos == std::string::npos) return "";
    size_t b = pos;
    while (b > 0 && (std::isdigit(static_cast<unsigned char>(s[b - 1])) || s[b - 1] == '.')) --b;
    return s.substr(b, pos - b);
}

// True when `s` is exactly `prefix`, one or more digits, then `suffix`.
inline bool is_prefix_digits_suffix(const std::string& s, const std::string& prefix, const std::string& suffix) {
    if (s.size() <= prefix.size() + suffix.size() || s.compare(0, prefix.size(), prefix) != 0 ||
        s.compare(s.size() - suffix.size(), suffix.size(), suffix) != 0)
        return false;
    for (size_t i = prefix.size(); i < s.size() - suffix.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    return true;
}

// The text between the first `open` and the next `close`; nullopt if either is missing.
inline std::optional<std::string> between(const std::string& s, const std::string& open, const std::string& close) {
    auto a = s.find(open);
    if (a == std::string::npos) return std::nullopt;
    a += open.size();
    auto b = s.find(close, a);
    if (b == std::string::npos) return std::nullopt;
    return s.substr(a, b - a);
}

inline nlohmann::json read_json(const std::string& path) {
    return nlohmann::json::parse(read_file(path));
}

// The trace events of one kind ("X", "s", "f", "i", "C", "M").
inline std::vector<nlohmann::json> events_of(const nlohmann::json& trace, const std::string& ph) {
    std::vector<nlohmann::json> out;
    for (const auto& e : trace.at("traceEvents"))
        if (e.at("ph") == ph) out.push_back(e);
    return out;
}

// Thread names of a process: tid -> name.
inline std::map<int, std::string> thread_names(const nlohmann::json& trace, int pid) {
    std::map<int, std::string> out;
    for (const auto& e : trace.at("traceEvents"))
        if (e.at("ph") == "M" && e.at("name") == "thread_name" && e.at("pid") == pid)
            out[e.at("tid").get<int>()] = e.at("args").at("name");
    return out;
}

// The complete (X) event on (pid, tid) that a flow point at `ts` binds to: the slice starting there (the
// writers put flow points at slice starts), else one whose [ts, ts + dur] contains it. nullptr when none.
inline const nlohmann::json* slice_at(const std::vector<nlohmann::json>& slices, int pid, int tid, uint64_t ts) {
    const nlohmann::json* containing = nullptr;
    for (const auto& x : slices) {
        if (x.at("pid") != pid || x.at("tid") != tid) continue;
        uint64_t t = x.at("ts"), d = x.at("dur");
        if (t == ts) return &x;
        if (!containing && t <= ts && ts <= t + d) containing = &x;
    }
    return containing;
}

// A synthetic instruction for feeding a writer directly.
inline sim::Event make_event(sim::CoreId core, ir::Pipe pipe, std::string_view op, uint64_t start, uint64_t end) {
    sim::Event e;
    e.core = core;
    e.pipe = pipe;
    e.op = op;
    e.start = start;
    e.end = end;
    return e;
}

}  // namespace cvsim::test
