// `run` keeps what is live, not what was simulated (issue 13): a flash-attention-shaped loop of 1,500 key
// blocks (about 31,000 tile instructions, the shape bench/gen_big_kernel.py --iters 1500 --tile 32 writes)
// runs clean under a 150 MiB address-space limit. Before instructions were retired, every instruction kept
// its operand tiles, payload and memo copy until the schedule ended (about 200 MB here), and the run died.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "test_support.h"

namespace cvsim::test {
namespace {

const char* kKernel = R"(import pypto.language as pl

S = 32
D = 32
BK = 16
KB = 16
NB = 1500


@pl.program
class BigFlash:
    @pl.function(type=pl.FunctionType.InCore)
    def flash(
        self,
        q: pl.Tensor[[S, D], pl.FP16],
        k: pl.Tensor[[D, KB * BK], pl.FP16],
        v: pl.Tensor[[KB * BK, D], pl.FP16],
        out: pl.Out[pl.Tensor[[S, D], pl.FP32]],
    ) -> pl.Tensor[[S, D], pl.FP32]:
        q_mat = pl.load(q, [0, 0], [S, D], target_memory=pl.MemorySpace.Mat)
        q_left = pl.move(q_mat, target_memory=pl.MemorySpace.Left)
        k0_mat = pl.load(k, [0, 0], [D, BK], target_memory=pl.MemorySpace.Mat)
        k0_right = pl.move(k0_mat, target_memory=pl.MemorySpace.Right)
        s0 = pl.matmul(q_left, k0_right)
        s0_vec = pl.move(s0, target_memory=pl.MemorySpace.Vec)
        p0 = pl.exp(pl.mul(s0_vec, 0.0625))
        p0_h = pl.tile.cast(p0, pl.FP16)
        p0_mat = pl.move(p0_h, target_memory=pl.MemorySpace.Mat)
        p0_left = pl.move(p0_mat, target_memory=pl.MemorySpace.Left)
        v0_mat = pl.load(v, [0, 0], [BK, D], target_memory=pl.MemorySpace.Mat)
        v0_right = pl.move(v0_mat, target_memory=pl.MemorySpace.Right)
        o0 = pl.matmul(p0_left, v0_right)
        for i, (o,) in pl.range(1, NB, init_values=(o0,)):
            j = i % KB
            k_mat = pl.load(k, [0, j * BK], [D, BK], target_memory=pl.MemorySpace.Mat)
            k_right = pl.move(k_mat, target_memory=pl.MemorySpace.Right)
            s = pl.matmul(q_left, k_right)
            s_vec = pl.move(s, target_memory=pl.MemorySpace.Vec)
            p = pl.exp(pl.mul(s_vec, 0.0625))
            p_h = pl.tile.cast(p, pl.FP16)
            p_mat = pl.move(p_h, target_memory=pl.MemorySpace.Mat)
            p_left = pl.move(p_mat, target_memory=pl.MemorySpace.Left)
            v_mat = pl.load(v, [j * BK, 0], [BK, D], target_memory=pl.MemorySpace.Mat)
            v_right = pl.move(v_mat, target_memory=pl.MemorySpace.Right)
            o_next = pl.matmul_acc(o, p_left, v_right)
            o_out = pl.yield_(o_next)
        out = pl.store(o_out, [0, 0], out)
        return out
)";

TEST(EngineMemory, LongRunStaysWithinAFixedAddressSpace) {
    std::string dir = testing::TempDir() + "/engine_memory";
    std::filesystem::create_directories(dir);
    std::string path = dir + "/big_flash.py";
    std::ofstream(path, std::ios::binary) << kKernel;
    RunLimits lim;
    lim.address_space_bytes = kSanitized ? 0 : uint64_t{150} << 20;
    lim.capture_bytes = size_t{1} << 20;
    RunResult r = run_cvsim({"run", path}, kSanitized ? 600 : 120, lim);
    ASSERT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(unwrapped(r.out).find("outputs: equal to the reference"), std::string::npos) << r.out;
    EXPECT_NE(unwrapped(r.out).find("findings: none"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cvsim::test
