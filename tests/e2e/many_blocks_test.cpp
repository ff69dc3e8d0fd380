// Launches of hundreds of blocks (pypto-lib's decode kernels launch up to 1,024) are checked within a bounded
// address space, and running out of memory anywhere -- inside a SystemC process too -- is the documented
// diagnostic (E-CAPACITY, exit 2), never an abort or SystemC's "In process: ..." (docs/DECISIONS.md,
// "Memory of many-block launches"). Before: the checker stored a vector clock of blocks x 24 components per
// instruction (quadratic in the blocks), the reference started one thread of 8 MiB stack per lane (960 lanes
// here: 7.5 GB of address space), and an exception out of a SystemC process ended as exit 3.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_support.h"

namespace cvsim::test {
namespace {

// Each block's vector lane squares its band into a scratch tensor; its cube lane reads the band back for a
// matmul (a V2C dependency per block, fenced by the expander). `racy`: every block also stores its band's
// square into row band 0 of `last`, unordered between blocks (a WAW across blocks).
std::string kernel(int blocks, bool racy) {
    std::string k = R"(import pypto.language as pl

NB = )" + std::to_string(blocks) +
                    R"(
M = 16
K = 64
N = 64


@pl.program
class ManyBlocks:
    @pl.function(type=pl.FunctionType.InCore)
    def band(
        self,
        a: pl.Tensor[[NB * M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[NB * M, K], pl.FP16]],
        last: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[NB * M, N], pl.FP32]],
    ) -> pl.Tensor[[NB * M, N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        a_t = pl.load(a, [blk * M, 0], [M, K])
        sq = pl.mul(a_t, a_t)
        scratch = pl.store(sq, [blk * M, 0], scratch)
)";
    if (racy) k += "        last = pl.store(sq, [0, 0], last)\n";
    k += R"(        s_mat = pl.load(scratch, [blk * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, w_right)
        out = pl.store(z, [blk * M, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[NB * M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        last: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[NB * M, N], pl.FP32]],
    ) -> pl.Tensor[[NB * M, N], pl.FP32]:
        scratch = pl.create_tensor([NB * M, K], pl.FP16)
        out = self.band(a, w, scratch, last, out, attrs={"core_num": NB})
        return out
)";
    return k;
}

std::string write_kernel(const std::string& name, int blocks, bool racy) {
    std::string dir = testing::TempDir() + "/many_blocks";
    std::filesystem::create_directories(dir);
    std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << kernel(blocks, racy);
    return path;
}

RunLimits limits(uint64_t bytes) {
    RunLimits lim;
    lim.address_space_bytes = kSanitized ? 0 : bytes;
    lim.capture_bytes = size_t{1} << 20;
    return lim;
}

TEST(ManyBlocks, AMixedLaunchOf320BlocksIsCheckedInABoundedAddressSpace) {
    std::string path = write_kernel("clean320.py", 320, false);
    RunResult r = run_cvsim({"check", path, "--schedules", "3", "--jobs", "0", "--no-progress"}, kSanitized ? 900 : 300,
                            limits(uint64_t{2} << 30));
    ASSERT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(unwrapped(r.out).find("PASS: no finding"), std::string::npos) << r.out;
}

TEST(ManyBlocks, ARaceBetweenBlocksOfLaterWavesIsStillFound) {
    // Blocks 0 and 30 never run at once (24 clusters: waves), but nothing orders their stores: a WAW. (Every
    // pair of blocks is a finding of its own: 40 blocks, not hundreds, keep the test short.)
    std::string path = write_kernel("racy40.py", 40, true);
    RunResult r = run_cvsim({"check", path, "--schedules", "2", "--jobs", "0", "--no-progress"}, kSanitized ? 900 : 300,
                            limits(uint64_t{2} << 30));
    ASSERT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("E-RACE-WAW"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("last[0:16, 0:64]"), std::string::npos) << r.out;
}

TEST(ManyBlocks, RunningOutOfMemoryInsideASystemCProcessIsTheCapacityDiagnostic) {
    // A std::bad_alloc thrown inside a core's SystemC process (CVSIM_FAULT_OUT_OF_MEMORY_AT: at the 5th
    // instruction) ends as main's out-of-memory diagnostic, in process and from an explore worker.
    std::string path = write_kernel("clean4.py", 4, false);
    ::setenv("CVSIM_FAULT_OUT_OF_MEMORY_AT", "5", 1);
    // Under ASan: this exit leaves the simulation mid-flight on purpose (SystemC cannot unwind a process once it
    // failed, so the session the processes reference is not destroyed): LeakSanitizer's report of it is not a
    // leak of a normal run, which the rest of the suite checks. Leak detection is off for these children only.
    const char* asan = std::getenv("ASAN_OPTIONS");
    const std::string saved_asan = asan ? asan : "";
    if (kSanitized)
        ::setenv("ASAN_OPTIONS", (saved_asan + (saved_asan.empty() ? "" : ":") + "detect_leaks=0").c_str(), 1);
    for (const std::vector<std::string>& args : {std::vector<std::string>{"run", path},
                                                 {"check", path, "--schedules", "2", "--jobs", "0", "--no-progress"},
                                                 {"check", path, "--schedules", "2", "--jobs", "1", "--no-progress"}}) {
        RunResult r = run_cvsim(args, 120, limits(0));
        ASSERT_FALSE(r.timed_out);
        EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args.back() << "\n" << r.out << r.err;
        EXPECT_NE(r.err.find("error[E-CAPACITY]: out of memory"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("In process"), std::string::npos) << r.err;
    }
    ::unsetenv("CVSIM_FAULT_OUT_OF_MEMORY_AT");
    if (kSanitized) {
        if (asan)
            ::setenv("ASAN_OPTIONS", saved_asan.c_str(), 1);
        else
            ::unsetenv("ASAN_OPTIONS");
    }
}

TEST(ManyBlocks, OneKernelOutOfMemoryDoesNotEndTheCheckOfTheOthers) {
    // A multi-launch orchestration whose first kernel runs out of memory (the hook, only in that kernel's sessions):
    // that kernel is E-CAPACITY, named, and the second kernel still gets its verdict (out of memory used to end
    // the whole check, or, escaping where nothing caught it, kill the explore workers: E-IO "keep dying").
    const std::string path = ::testing::TempDir() + "oom_two_launches.py";
    std::ofstream(path) << R"(import pypto.language as pl


@pl.program
class TwoLaunches:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(x: pl.Tensor[[16, 64], pl.FP16], t: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        t_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], t)
        return t_1

    @pl.function(type=pl.FunctionType.InCore)
    def use(t: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        tv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(t, [0, 0], [16, 64])
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(tv, 2.0)
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16)
        t1: pl.Tensor[[16, 64], pl.FP16] = self.fill(x, t)
        r: pl.Tensor[[16, 64], pl.FP16] = self.use(t1, out)
        return out
)";
    ::setenv("CVSIM_FAULT_OUT_OF_MEMORY_AT", "1", 1);
    ::setenv("CVSIM_FAULT_OUT_OF_MEMORY_ENTRY", "fill", 1);
    const char* asan = std::getenv("ASAN_OPTIONS");
    const std::string saved_asan = asan ? asan : "";
    if (kSanitized)
        ::setenv("ASAN_OPTIONS", (saved_asan + (saved_asan.empty() ? "" : ":") + "detect_leaks=0").c_str(), 1);
    // (--jobs 1: in-process, --jobs 0, SystemC cannot simulate again after a simulation failed; the later kernels
    // are then E-IO "run in a fresh process".)
    for (const char* jobs : {"1", "2"}) {
        RunResult r = run_cvsim({"check", path, "--schedules", "2", "--jobs", jobs, "--no-progress"}, 120, limits(0));
        ASSERT_FALSE(r.timed_out);
        EXPECT_EQ(r.exit_code, 2) << jobs << "\n" << r.out << r.err;
        EXPECT_NE(r.err.find("oom_two_launches.py:7:5: error[E-CAPACITY]: kernel 'fill' is not checked: out of memory"),
                  std::string::npos)
            << jobs << "\n"
            << r.err;
        EXPECT_NE(r.out.find("[use]"), std::string::npos) << jobs << "\n" << r.out;
        EXPECT_NE(r.out.find("PASS: no finding in any explored schedule"), std::string::npos) << jobs << "\n" << r.out;
    }
    ::unsetenv("CVSIM_FAULT_OUT_OF_MEMORY_AT");
    ::unsetenv("CVSIM_FAULT_OUT_OF_MEMORY_ENTRY");
    if (kSanitized) {
        if (asan)
            ::setenv("ASAN_OPTIONS", saved_asan.c_str(), 1);
        else
            ::unsetenv("ASAN_OPTIONS");
    }
}

TEST(ManyBlocks, ATileWriteOutsideItsTileIsAnOobFindingNotAnExceptionOutOfTheSimulation) {
    const std::string k = source_dir() + "/tests/e2e/kernels/adv/write_index_from_scalar.py";
    RunResult in = run_cvsim({"run", k, "--input", "r=3"});
    EXPECT_EQ(in.exit_code, 0) << in.out << in.err;
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"run", k, "--input", "r=16"},
          {"check", k, "--input", "r=16", "--schedules", "2", "--jobs", "0", "--no-progress"}}) {
        RunResult r = run_cvsim(args);
        EXPECT_EQ(r.exit_code, 1) << args[0] << "\n" << r.out << r.err;
        EXPECT_NE(r.out.find("E-OOB"), std::string::npos) << r.out;
        EXPECT_NE(unwrapped(r.out).find("pl.tile.write: index [16, 0] is outside the tile of shape [16, 16]"),
                  std::string::npos)
            << r.out;
        EXPECT_EQ(r.err.find("In process"), std::string::npos) << r.err;
    }
}

}  // namespace
}  // namespace cvsim::test
