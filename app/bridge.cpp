// The PyPTO bridge (sim/bridge.h): detect a PyPTO kernel source, run scripts/pypto_bridge.py on it.
#include "app/bridge.h"

#include <algorithm>
#include "frontend/codes.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <vector>

namespace cvsim::sim {

namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string self_dir() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.parent_path().string();
}

// Runs argv (no shell) with stdout and stderr appended to `log`; returns the exit status (-1: not run).
int run_child(const std::vector<std::string>& argv, const std::string& log) {
    std::vector<char*> av;
    for (const auto& a : argv) av.push_back(const_cast<char*>(a.c_str()));
    av.push_back(nullptr);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execvp(av[0], av.data());
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

const char* kNeeds =
    "reading a PyPTO kernel source needs PyPTO: set PYPTO_WORK to a PyPTO build folder (PYPTO_WORK/pypto/python holds "
    "the built module) or make `pypto` importable by python3 ($CVSIM_PYTHON picks the interpreter); or give cvsim the "
    "program PyPTO prints before ExpandMixedKernel";

}  // namespace

std::optional<std::string> pypto_source_reason(const std::string& text, uint32_t* at) {
    std::istringstream in(text);
    std::string line;
    static const std::regex jit(R"(^\s*@(pl\.|pypto\.language\.|pypto\.)?jit\b)");
    static const std::regex scope(R"(^\s*with\s+pl\.(at|cluster|spmd|incore|auto_incore)\s*\()");
    // Forms of PyPTO's own parser that neither the printer writes nor cvsim's DSL reads (a user's @pl.program
    // file, e.g. PyPTO's examples/utils/phase_fence_dep_compression.py): a manual scope written as such, a
    // launch unpacked into its result and task id, an element assignment (a task-id array filled in a loop),
    // a second @pl.program class in one file.
    static const std::regex manual(R"(^\s*with\s+pl\.manual_scope\s*\()");
    static const std::regex unpack(R"(^\s*[A-Za-z_]\w*\s*,\s*[A-Za-z_]\w*\s*=\s*pl\.(submit|spmd_submit)\s*\()");
    static const std::regex element(R"(^\s*[A-Za-z_]\w*\s*\[[^\]]+\]\s*=[^=])");
    static const std::regex program(R"(^\s*@(pl\.|pypto\.language\.)?program\b)");
    bool first = true;
    uint32_t programs = 0;
    for (uint32_t n = 1; std::getline(in, line); ++n) {
        if (at) *at = n;
        if (first && !trim(line).empty()) {
            first = false;
            // What ir.python_print writes first: the printed program cvsim reads as it is.
            if (trim(line).rfind("# pypto.program", 0) == 0) return std::nullopt;
        }
        if (std::regex_search(line, jit)) return fmt::format("a @pl.jit function at line {}", n);
        std::smatch m;
        if (std::regex_search(line, m, scope))
            return fmt::format("tensor-level code (with pl.{}(...)) at line {}", m[1].str(), n);
        if (std::regex_search(line, manual))
            return fmt::format("a manual scope (with pl.manual_scope()) at line {}", n);
        if (std::regex_search(line, m, unpack))
            return fmt::format("pl.{}(...) unpacked into its result and task id at line {}", m[1].str(), n);
        if (std::regex_search(line, element)) return fmt::format("an element assignment at line {}", n);
        if (std::regex_search(line, program) && ++programs == 2)
            return fmt::format("a second @pl.program class at line {}", n);
    }
    if (at) *at = 0;
    return std::nullopt;
}

std::string bridge_script() {
    if (const char* e = std::getenv("CVSIM_PYPTO_BRIDGE"); e && *e) return e;
    std::string dir = self_dir();
    if (dir.empty()) return "";
    for (const fs::path& p :
         {fs::path(dir) / "pypto_bridge.py", fs::path(dir) / ".." / "share" / "cvsim" / "pypto_bridge.py"}) {
        std::error_code ec;
        if (fs::is_regular_file(p, ec)) return p.string();
    }
    return "";
}

std::string resolve_kernel(const std::string& path, const BridgeOptions& opt) {
    return resolve_kernels(path, opt, false).front();
}

std::vector<std::string> resolve_kernels(const std::string& path, const BridgeOptions& opt, bool all) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return {path};  // SourceFile::read reports it
    uint32_t at = 0;                                    // the line that makes it a kernel source (0: --pypto)
    std::optional<std::string> why =
        opt.force ? std::optional<std::string>("--pypto") : pypto_source_reason(slurp(path), &at);
    if (!why) return {path};
    std::string script = bridge_script();
    if (script.empty())
        throw BridgeError(codes::kPypto,
                          fmt::format("{} is a PyPTO kernel source ({}), but cvsim's bridge pypto_bridge.py is not "
                                      "installed beside the cvsim binary (or named by $CVSIM_PYPTO_BRIDGE)",
                                      path, *why),
                          path, at);
    const char* py = std::getenv("CVSIM_PYTHON");
    std::string python = py && *py ? py : "python3";
    std::string tmpl = (fs::temp_directory_path(ec) / "cvsim-pypto-XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data()))
        throw BridgeError(codes::kIo,
                          fmt::format("cannot create a temporary folder for the bridge: {}", std::strerror(errno)));
    fs::path dir(buf.data());
    std::string out = (dir / (fs::path(path).stem().string() + ".before_ExpandMixedKernel.py")).string();
    std::string log = (dir / "bridge.log").string();
    // check/explore: every kernel of the file (unless --pypto-kernel names one), one printed program each.
    const bool every = all && opt.kernel_name.empty();
    std::vector<std::string> argv = {python, script, path, "--platform", opt.target};
    if (every)
        argv.insert(argv.end(), {"--out-dir", dir.string()});
    else
        argv.insert(argv.end(), {"--out", out});
    if (!opt.kernel_name.empty()) argv.insert(argv.end(), {"--kernel", opt.kernel_name});
    int rc = run_child(argv, log);
    std::string msg = trim(slurp(log));
    if (rc == 0 && every) {
        std::vector<std::string> outs;
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.path().filename().string().find(".before_ExpandMixedKernel.py") != std::string::npos)
                outs.push_back(e.path().string());
        std::sort(outs.begin(), outs.end());
        if (!outs.empty()) {
            for (const auto& o : outs)
                std::cerr << fmt::format(
                    "note: {} is a PyPTO kernel source ({}); compiled by PyPTO ({}) up to ExpandMixedKernel: {}\n",
                    path, *why, opt.target, o);
            // Kernels PyPTO could not compile (the others are checked): said, not hidden.
            if (!msg.empty())
                std::cerr << fmt::format("note: {}: PyPTO did not compile every kernel of it:\n{}\n", path, msg);
            return outs;
        }
    }
    if (rc == 0 && !every && fs::is_regular_file(out, ec)) {
        std::cerr << fmt::format(
            "note: {} is a PyPTO kernel source ({}); compiled by PyPTO ({}) up to ExpandMixedKernel: {}\n", path, *why,
            opt.target, out);
        return {out};
    }
    if (rc == 3 || rc == 127 || rc < 0)
        throw BridgeError(codes::kNeedsPypto,
                          fmt::format("{} is a PyPTO kernel source ({}); {}{}", path, *why, kNeeds,
                                      msg.empty() ? "" : "\n  (" + (rc == 127 ? python + ": not found" : msg) + ")"),
                          path, at);
    throw BridgeError(
        codes::kPypto,
        fmt::format("{} is a PyPTO kernel source ({}); PyPTO could not compile it up to ExpandMixedKernel "
                    "(exit {}):\n{}",
                    path, *why, rc, msg),
        path, at);
}

}  // namespace cvsim::sim
