// Test helpers: paths, file reading, running the CLI in a child process.
#include "test_support.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#ifndef CVSIM_SHARED_DIR
#define CVSIM_SHARED_DIR "../shared"
#endif
#ifndef CVSIM_SOURCE_DIR
#define CVSIM_SOURCE_DIR "."
#endif
#ifndef CVSIM_BINARY
#define CVSIM_BINARY "cvsim"
#endif

#include <sys/stat.h>

#ifdef CVSIM_TEST_TMPDIR
namespace {
// GoogleTest's TempDir() is TEST_TMPDIR: this build tree's own scratch folder (unless the caller sets one), so
// two build trees' suites running at once do not share file names under /tmp.
const bool kTestTmpdir = [] {
    ::mkdir(CVSIM_TEST_TMPDIR, 0755);
    ::setenv("TEST_TMPDIR", CVSIM_TEST_TMPDIR, 0);
    return true;
}();
}  // namespace
#endif

namespace cvsim::test {

std::string shared_dir() {
    if (const char* e = std::getenv("CVSIM_SHARED")) return e;
    return CVSIM_SHARED_DIR;
}
std::string source_dir() {
    if (const char* e = std::getenv("CVSIM_SOURCE")) return e;
    return CVSIM_SOURCE_DIR;
}
std::string cvsim_binary() {
    if (const char* e = std::getenv("CVSIM_BIN")) return e;
    return CVSIM_BINARY;
}
std::string kernel_path(const std::string& name) {
    return shared_dir() + "/kernels/" + name;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> split_args(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream ss(s);
    std::string a;
    while (ss >> a) out.push_back(a);
    return out;
}

RunResult run_cvsim(const std::vector<std::string>& args, int timeout_seconds, const RunLimits& limits) {
    int out_pipe[2], err_pipe[2];
    if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) throw std::runtime_error("pipe failed");
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        dup2(out_pipe[1], 1);
        dup2(err_pipe[1], 2);
        close(out_pipe[0]);
        close(err_pipe[0]);
        if (limits.address_space_bytes > 0) {
            struct rlimit rl = {static_cast<rlim_t>(limits.address_space_bytes),
                                static_cast<rlim_t>(limits.address_space_bytes)};
            setrlimit(RLIMIT_AS, &rl);
        }
        std::vector<char*> argv;
        std::string bin = cvsim_binary();
        if (!limits.workdir.empty() && chdir(limits.workdir.c_str()) != 0) _exit(126);
        argv.push_back(bin.data());
        std::vector<std::string> copy = args;
        for (auto& a : copy) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(bin.c_str(), argv.data());
        _exit(127);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    RunResult r;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    int open_fds = 2;
    char buf[65536];
    while (open_fds > 0) {
        auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0) {
            kill(pid, SIGKILL);
            r.timed_out = true;
            r.err += "\n[test harness: cvsim timed out]\n";
            break;
        }
        if (poll(fds, 2, static_cast<int>(left)) <= 0) continue;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP))) continue;
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
            } else if ((i == 0 ? r.out : r.err).size() < limits.capture_bytes) {
                (i == 0 ? r.out : r.err).append(buf, static_cast<size_t>(n));
            }
        }
    }
    for (auto& f : fds)
        if (f.fd >= 0) close(f.fd);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status)) r.signal = WTERMSIG(status);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + r.signal;
    return r;
}

}  // namespace cvsim::test

std::string cvsim::test::unwrapped(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        bool cont = text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n' && !out.empty() && out.back() == ' ';
        size_t nl = cont ? i + 1 : i;
        if (text[nl] == '\n' && nl + 1 < text.size() && text[nl + 1] == ' ') {
            size_t j = nl + 1;
            while (j < text.size() && text[j] == ' ') ++j;
            if (j - (nl + 1) >= 4) {  // a continuation is indented at least 4
                if (!cont && (out.empty() || out.back() != ' ')) out += ' ';
                i = j - 1;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}
