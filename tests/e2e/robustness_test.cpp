// Robustness: the shared bad inputs and a few hundred deterministic malformed mutations of the sample
// kernels (truncation, byte noise, huge/negative/overflowing numbers, deep nesting, long lines) through the
// binary under a wall limit and a memory limit. Every exit must be 0, 1 or 2 with a well-formed report —
// never 3 (internal error), a signal or a timeout. The suite runs in the Release and the ASan/UBSan builds.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>

#include "test_support.h"

using namespace cvsim::test;

namespace {

// Runs cvsim ARGS with an address-space limit (as `ulimit -v`; none under ASan, which reserves terabytes of
// address space) and a wall limit, keeping at most 1 MiB of each stream.
RunResult run_limited(const std::vector<std::string>& args, int wall_seconds, rlim_t mem_bytes) {
    return run_cvsim(args, wall_seconds,
                     RunLimits{kSanitized ? 0 : static_cast<uint64_t>(mem_bytes), size_t{1} << 20, ""});
}

std::vector<std::string> sample_kernels() {
    std::vector<std::string> out;
    for (const auto& dir : {shared_dir() + "/kernels", shared_dir() + "/kernels/bad"})
        for (const auto& e : std::filesystem::directory_iterator(dir))
            if (e.path().extension() == ".py") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

// One malformed input: its name (for the failure message) and text.
struct Mutant {
    std::string name, text;
};

std::vector<Mutant> mutants(const std::string& kind) {
    std::vector<Mutant> out;
    std::mt19937_64 rng(0xC5510u + std::hash<std::string>{}(kind) % 1000);  // deterministic per kind
    auto pick = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(rng() % n); };
    const std::vector<std::string> numbers = {"-1",
                                              "0",
                                              "-9223372036854775808",
                                              "9223372036854775807",
                                              "9223372036854775806",
                                              "4294967297",
                                              "18446744073709551616",
                                              "99999999999999999999999",
                                              "-16",
                                              "4611686018427387904",
                                              "1e308",
                                              "-0",
                                              "0x7fffffffffffffff",
                                              "65536"};
    // CVSIM_ROBUSTNESS_VARIANTS=N (scripts/nightly.sh) runs N variants per sample and kind instead of 2.
    int variants = 2;
    if (const char* env = std::getenv("CVSIM_ROBUSTNESS_VARIANTS")) variants = std::max(1, std::atoi(env));
    for (const auto& path : sample_kernels()) {
        const std::string base = std::filesystem::path(path).filename().string();
        const std::string text = read_file(path);
        if (text.empty()) continue;
        for (int v = 0; v < variants; ++v) {
            Mutant m{base + "/" + kind + std::to_string(v), text};
            if (kind == "truncate") {
                m.text = text.substr(0, pick(text.size()));
            } else if (kind == "noise") {
                int n = 1 + static_cast<int>(pick(8));
                for (int k = 0; k < n && !m.text.empty(); ++k) {
                    size_t at = pick(m.text.size());
                    switch (pick(3)) {
                        case 0:
                            m.text[at] = static_cast<char>(rng() & 0xff);
                            break;
                        case 1:
                            m.text.insert(at, 1, "()[]:,=\n\t #'\"\\"[pick(15)]);
                            break;
                        default:
                            m.text.erase(at, 1 + pick(4));
                            break;
                    }
                }
            } else if (kind == "numbers") {
                // Replace a few integer literals (offsets, shapes, loop bounds, slot sizes) by extreme values.
                std::vector<std::pair<size_t, size_t>> lits;
                for (size_t i = 0; i < text.size();) {
                    if (std::isdigit(static_cast<unsigned char>(text[i])) &&
                        (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])))) {
                        size_t j = i;
                        while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
                        lits.push_back({i, j - i});
                        i = j;
                    } else {
                        ++i;
                    }
                }
                if (lits.empty()) continue;
                std::vector<std::pair<size_t, size_t>> chosen;
                for (int k = 0; k < 1 + static_cast<int>(pick(3)); ++k) chosen.push_back(lits[pick(lits.size())]);
                std::sort(chosen.rbegin(), chosen.rend());
                chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
                for (auto [at, len] : chosen) m.text.replace(at, len, numbers[pick(numbers.size())]);
            } else if (kind == "structure") {
                // Deep nesting, long lines, duplicated or deleted lines, at a random line.
                std::vector<std::string> lines;
                std::string line;
                std::istringstream in(text);
                while (std::getline(in, line)) lines.push_back(line);
                size_t at = pick(lines.size() + 1);
                std::string indent = "        ";
                switch ((static_cast<size_t>(v) + out.size()) % 3) {
                    case 0: {
                        size_t depth = 50 + pick(5000);
                        lines.insert(
                            lines.begin() + static_cast<std::ptrdiff_t>(at),
                            indent + "z = " + std::string(depth, "([-"[pick(3)]) + "1" + std::string(depth, ')'));
                        break;
                    }
                    case 1:
                        lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at),
                                     indent + "z = " + std::string(200000 + pick(200000), 'a'));
                        break;
                    default:
                        if (!lines.empty()) {
                            size_t from = pick(lines.size());
                            if (pick(2))
                                lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), lines[from]);
                            else
                                lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(from));
                        }
                        break;
                }
                m.text.clear();
                for (const auto& l : lines) m.text += l + "\n";
            }
            out.push_back(std::move(m));
        }
    }
    return out;
}

// The exit code is 0, 1 or 2, and a 1 or 2 comes with a report that says why.
void expect_well_formed(const std::string& what, const RunResult& r) {
    static const std::regex diag(R"(error\[E-[A-Z0-9-]+\]|warning\[W-[A-Z0-9-]+\])");
    ASSERT_FALSE(r.timed_out) << what << ": hit the wall limit";
    ASSERT_EQ(r.signal, 0) << what << ": killed by signal " << r.signal << "\n" << r.err.substr(0, 4000);
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2) << what << ": exit " << r.exit_code << "\n"
                                                                          << r.err.substr(0, 4000);
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << what << "\n" << r.err.substr(0, 4000);
    if (r.exit_code == 2) {
        EXPECT_TRUE(std::regex_search(r.err, diag)) << what << ": exit 2 without a diagnostic\n"
                                                    << r.err.substr(0, 2000);
    }
    if (r.exit_code == 1) {
        EXPECT_TRUE(std::regex_search(r.out, diag) || std::regex_search(r.err, diag))
            << what << ": exit 1 without a finding\n"
            << r.out.substr(0, 2000);
    }
}

const int kWall = kSanitized ? 60 : 20;
const rlim_t kMem = rlim_t{2} << 30;

void run_all(const std::vector<Mutant>& ms, const std::string& tag, const std::vector<std::string>& extra = {}) {
    std::string dir = testing::TempDir() + "/robust_" + tag;
    std::filesystem::create_directories(dir);
    int i = 0;
    std::map<int, int> exits;
    for (const auto& m : ms) {
        std::string path = dir + "/m" + std::to_string(i++) + ".py";
        std::ofstream(path, std::ios::binary) << m.text;
        std::vector<std::string> args = {"run", path, "--timeout", "5", "--max-cycles", "5000000"};
        args.insert(args.end(), extra.begin(), extra.end());
        RunResult r = run_limited(args, kWall, kMem);
        expect_well_formed(m.name + " (" + path + ")", r);
        ++exits[r.exit_code];
        if (testing::Test::HasFatalFailure()) return;
    }
    std::string summary;
    for (auto [code, n] : exits) summary += " exit " + std::to_string(code) + ": " + std::to_string(n);
    std::cout << tag << ": " << ms.size() << " inputs;" << summary << "\n";
}

TEST(Robustness, TheSharedBadInputsAndSamples) {
    std::vector<Mutant> ms;
    for (const auto& p : sample_kernels()) ms.push_back({p, read_file(p)});
    run_all(ms, "samples");
}

TEST(Robustness, TruncatedKernels) {
    run_all(mutants("truncate"), "truncate");
}
TEST(Robustness, ByteNoise) {
    run_all(mutants("noise"), "noise");
}
TEST(Robustness, HugeNegativeAndOverflowingNumbers) {
    run_all(mutants("numbers"), "numbers");
}
TEST(Robustness, DeepNestingLongLinesAndMovedLines) {
    run_all(mutants("structure"), "structure");
}

// Computed GM offsets that overflow int64 (in loops, so no static check sees them): E-OOB, never heap
// corruption, a crash or a pass.
// A long loop holding barriers (long_loop_barrier.py: 4000 trips, two fence + syncall each under --v2c fence) is
// checked in bounded memory and time: each drain listed every earlier instruction of its core as a dependency,
// so the recorded stream grew quadratically (3.5 GB and 17 s here; 23 GB at 200,000 trips, then killed).
TEST(Robustness, ALongLoopOfBarriersIsCheckedInBoundedMemory) {
    const std::string k = source_dir() + "/tests/e2e/kernels/long_loop_barrier.py";
    RunResult r = run_limited({"check", k, "--schedules", "1", "--jobs", "1", "--no-progress"}, kSanitized ? 120 : 30,
                              rlim_t{1} << 30);
    expect_well_formed("long_loop_barrier.py", r);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
}

TEST(Robustness, OverflowingComputedOffsetsAreOutOfBounds) {
    const std::vector<std::string> offsets = {"0, 9223372036854775807",        "9223372036854775800, 0",
                                              "i * 4611686018427387904, 0",    "0, i * 9223372036854775807 + 1",
                                              "0, -9223372036854775807 - i",   "i * 2305843009213693952 * 4, 0",
                                              "i - 9223372036854775807 - 1, 0"};
    std::string dir = testing::TempDir() + "/robust_offsets";
    std::filesystem::create_directories(dir);
    int n = 0;
    for (const auto& off : offsets) {
        std::string path = dir + "/o" + std::to_string(n++) + ".py";
        std::ofstream(path) << "import pypto.language as pl\n\n\n@pl.program\nclass Oob:\n"
                               "    @pl.function(type=pl.FunctionType.InCore)\n"
                               "    def main(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], "
                               "pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:\n"
                               "        for i in pl.range(0, 2):\n"
                               "            t = pl.load(x, ["
                            << off
                            << "], [16, 16])\n"
                               "            y = pl.store(t, [0, 0], y)\n"
                               "        return y\n";
        for (const char* cmd : {"run", "check"}) {
            std::vector<std::string> args = {cmd, path};
            if (std::string(cmd) == "check")
                args.insert(args.end(), {"--schedules", "3", "--jobs", "1", "--no-progress"});
            RunResult r = run_limited(args, kWall, kMem);
            std::string what = std::string(cmd) + " with offsets [" + off + "]";
            expect_well_formed(what, r);
            EXPECT_NE(r.exit_code, 0) << what << ": an out-of-bounds window passed";
            EXPECT_TRUE(r.err.find("E-OOB") != std::string::npos || r.out.find("E-OOB") != std::string::npos)
                << what << "\n"
                << r.out << r.err;
        }
    }
}

}  // namespace
