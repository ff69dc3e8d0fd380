// The reference interpreter on hand-checked numbers.
#include <gtest/gtest.h>

#include "frontend/launch.h"
#include "frontend/reference.h"
#include "reference_util.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

RefRun run(const std::string& text, uint64_t seed = 5) {
    return run_reference(text, seed);
}

double at(const rt::TensorBuffer& t, int64_t i) {
    return element_at(t, i);
}

TEST(Reference, VectorOpsRoundToTheTileDtype) {
    RefRun r = run(
        kernel_with("a: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP16]]", "",
                    "        t = pl.load(a, [0, 0], [16, 16])\n        u = pl.mul(t, t)\n        v = pl.add(u, 1.0)\n"
                    "        out = pl.store(v, [0, 0], out)\n"));
    ASSERT_FALSE(r.out.error);
    for (int64_t i = 0; i < 256; ++i) {
        double x = at(r.in.tensors[0], i);
        double want = round_to(DType::FP16, round_to(DType::FP16, x * x) + 1.0);
        ASSERT_EQ(at(r.out.gm.tensors[1], i), want) << i;
    }
}

TEST(Reference, MatmulAccumulatesInFp32) {
    RefRun r = run(kernel_with(
        "a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
        "",
        "        am = pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)\n        al = pl.move(am, "
        "target_memory=pl.Mem.Left)\n"
        "        bm = pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat)\n        br = pl.move(bm, "
        "target_memory=pl.Mem.Right)\n"
        "        z = pl.matmul(al, br)\n        out = pl.store(z, [0, 0], out)\n"));
    ASSERT_FALSE(r.out.error);
    const auto &a = r.in.tensors[0], &b = r.in.tensors[1];
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            double s = 0;
            for (int k = 0; k < 32; ++k) s += at(a, i * 32 + k) * at(b, k * 16 + j);
            ASSERT_EQ(at(r.out.gm.tensors[2], i * 16 + j), round_to(DType::FP32, s));
        }
}

TEST(Reference, LoopWithComputedOffsetsWritesEveryRow) {
    RefRun r = run(kernel_with(
        "a: pl.Tensor[[8, 16], pl.FP32], out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]", "",
        "        for i in pl.range(8):\n            t = pl.load(a, [i, 0], [1, 16])\n            u = pl.neg(t)\n"
        "            out = pl.store(u, [i, 0], out)\n"));
    ASSERT_FALSE(r.out.error);
    for (int64_t i = 0; i < 128; ++i) EXPECT_EQ(at(r.out.gm.tensors[1], i), -at(r.in.tensors[0], i));
}

TEST(Reference, RuntimeOutOfBoundsWindowIsAnError) {
    RefRun r = run(kernel_with("a: pl.Tensor[[8, 16], pl.FP32], out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]", "",
                               "        for i in pl.range(9):\n            t = pl.load(a, [i, 0], [1, 16])\n           "
                               " out = pl.store(t, [0, 0], out)\n"));
    ASSERT_TRUE(r.out.error);
    EXPECT_EQ(r.out.error->code, "E-OOB");
    EXPECT_EQ(r.out.error->loc.line, 9u);
}

TEST(Reference, UnbalancedPopDeadlocksInsteadOfHanging) {
    CompileOptions co;
    Compiled c = compile(parse_kernel("unbalanced_pop.py"), co);
    rt::TensorStore gm;
    rt::bind_entry(c.plan, gm, {});
    ref::Result r = ref::interpret(c.plan, gm);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->code, "E-DEADLOCK");
}

}  // namespace
