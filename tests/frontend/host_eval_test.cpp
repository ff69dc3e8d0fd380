// The host walk of an Orchestration function (frontend/host_eval.h): which scalar arguments each kernel launch
// gets, and why a value stays unknown. Each case is a printed-style orchestration around one tiny kernel.
#include <gtest/gtest.h>

#include <fstream>

#include "frontend/host_eval.h"
#include "frontend/launch.h"
#include "frontend/runtime.h"
#include "frontend_util.h"

namespace cvsim::test {
namespace {

// A program whose kernel `k(x, a, b, out)` takes two INDEX scalars (both read: a scalar the kernel never uses
// is bound to 0, see AScalarTheKernelCannotUseIsBoundToZero); BODY is the orchestration's body
// (8-space indented), which may use x (a [64, 64] FP16 tensor), lens (a [4] INT32 tensor), out and `n` (INDEX).
std::string orch(const std::string& body) {
    return R"(import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(x: pl.Tensor[[64, 64], pl.FP16], a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [a, b], [16, 64])
        out = pl.tile.store(t, [a, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], lens: pl.Tensor[[4], pl.INT32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
)" + body + "        return out\n";
}

HostWalk walk(const std::string& body, HostInputs in = {}) {
    auto p = parse_text(orch(body));
    return walk_host(*p, *p->find("main"), in);
}

// "a=0 b=1; a=16 b=1" for the one kernel's distinct bindings ("?NAME" for an unknown one).
std::string bindings(const HostWalk& w) {
    std::string s;
    for (const auto& k : w.kernels)
        for (const auto& b : k.distinct) {
            if (!s.empty()) s += "; ";
            std::string one;
            for (const auto& [n, v] : b.scalars) one += (one.empty() ? "" : " ") + n + "=" + v;
            if (!b.unknown.empty()) one += (one.empty() ? "?" : " ?") + b.unknown;
            s += one;
        }
    return s;
}

TEST(HostWalk, ALoopOfLaunchesGivesOneBindingPerIteration) {
    auto w = walk("        for i in pl.range(4):\n            out = self.k(x, i * 16, 1, out)\n");
    EXPECT_EQ(bindings(w), "a=0 b=1; a=16 b=1; a=32 b=1; a=48 b=1");
    ASSERT_EQ(w.kernels.size(), 1u);
    EXPECT_EQ(w.kernels[0].launches, 4);
    EXPECT_TRUE(w.incomplete.empty());
}

TEST(HostWalk, RepeatedBindingsAreOneAndTheLaunchCountStays) {
    auto w = walk("        for i in pl.range(0, 6, 2):\n            out = self.k(x, 0, i // 4, out)\n");
    EXPECT_EQ(bindings(w), "a=0 b=0; a=0 b=1");
    EXPECT_EQ(w.kernels[0].launches, 3);
}

TEST(HostWalk, ComputedScalarsDimsMinMaxAndCasts) {
    auto w = walk(
        "        d: pl.Scalar[pl.INDEX] = pl.tensor.dim(x, 0)\n"
        "        r: pl.Scalar[pl.INDEX] = pl.min(d - 50, 20)\n"
        "        q: pl.Scalar[pl.INDEX] = pl.max(-7 // 2, r % 5)\n"
        "        out = self.k(x, r, q, out)\n");
    EXPECT_EQ(bindings(w), "a=14 b=4");  // -7 // 2 = -4 (floor), 14 % 5 = 4
}

TEST(HostWalk, AnExtentThatMayBeADefaultedDynamicDimIsUnknown) {
    // A dynamic dim sema defaulted (no --dim) is made up: a scalar derived from it must not feed a check.
    HostInputs in;
    in.defaulted_dims = {{"T", 64}};
    auto w =
        walk("        d: pl.Scalar[pl.INDEX] = pl.tensor.dim(x, 0)\n        out = self.k(x, d - 16, 0, out)\n", in);
    EXPECT_EQ(bindings(w), "b=0 ?a");
    EXPECT_NE(w.kernels[0].distinct[0].why.find("--dim"), std::string::npos) << w.kernels[0].distinct[0].why;
}

TEST(HostWalk, LoopCarriedValuesAndBranchResults) {
    auto w = walk(
        "        for i, (acc,) in pl.range(3, init_values=(0,)):\n"
        "            out = self.k(x, acc, i, out)\n"
        "            acc2: pl.Scalar[pl.INDEX] = acc + 16\n"
        "            acc3: pl.Scalar[pl.INDEX] = pl.yield_(acc2)\n");
    EXPECT_EQ(bindings(w), "a=0 b=0; a=16 b=1; a=32 b=2");
}

TEST(HostWalk, AnIfOnAKnownValueTakesOneArm) {
    auto w = walk(
        "        for i in pl.range(3):\n"
        "            if i == 1:\n"
        "                out = self.k(x, 16, i, out)\n"
        "            else:\n"
        "                out = self.k(x, 0, i, out)\n");
    EXPECT_EQ(bindings(w), "a=0 b=0; a=16 b=1; a=0 b=2");
}

TEST(HostWalk, AnUnknownConditionRunsBothArmsAndWhatTheyAssignIsUnknownAfter) {
    // n is the entry's scalar: without --input the condition is unknown.
    auto w = walk(
        "        v: pl.Scalar[pl.INDEX] = 0\n"
        "        if n > 2:\n"
        "            out = self.k(x, 16, 0, out)\n"
        "            v = 32\n"
        "        out = self.k(x, v, 1, out)\n");
    ASSERT_EQ(w.kernels.size(), 1u);
    ASSERT_EQ(w.kernels[0].distinct.size(), 2u);
    EXPECT_EQ(bindings(w), "a=16 b=0; b=1 ?a");
    EXPECT_NE(w.kernels[0].distinct[1].why.find("condition"), std::string::npos) << w.kernels[0].distinct[1].why;
    // Given the entry's scalar, the walk takes one arm.
    HostInputs in;
    in.scalars["n"] = rt::Scalar::of_int(3);
    EXPECT_EQ(bindings(walk("        v: pl.Scalar[pl.INDEX] = 0\n        if n > 2:\n            v = 32\n        out = "
                            "self.k(x, v, 1, out)\n",
                            in)),
              "a=32 b=1");
}

TEST(HostWalk, ALoopWithUnknownBoundsLaunchesWithItsVariableUnknown) {
    auto w = walk(
        "        for i in pl.range(n):\n            out = self.k(x, 0, i, out)\n            out = self.k(x, 0, 5, "
        "out)\n");
    EXPECT_EQ(bindings(w), "a=0 ?b; a=0 b=5");
    EXPECT_NE(w.kernels[0].distinct[0].why.find("bounds"), std::string::npos);
}

TEST(HostWalk, AScalarTheKernelCannotUseIsBoundToZero) {
    // k2 only carries c through a loop that never reads it (frontend/scalar_influence.h): the walk does not know
    // it (a kernel's tuple result), but any value gives the same run, so the launch is bound with c=0.
    auto p = parse_text(R"(import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k1(x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> tuple[pl.Scalar[pl.INDEX], pl.Tensor[[64, 64], pl.FP16]]:
        t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out = pl.tile.store(t, [0, 0], out)
        return 16, out

    @pl.function(type=pl.FunctionType.InCore)
    def k2(x: pl.Tensor[[64, 64], pl.FP16], a: pl.Scalar[pl.INDEX], c: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        for i, (d,) in pl.range(2, init_values=(c,)):
            t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [a, 0], [16, 64])
            d_1: pl.Scalar[pl.INDEX] = pl.yield_(i)
        out = pl.tile.store(t, [a, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]], out2: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        r: pl.Tuple[pl.Scalar[pl.INDEX], pl.Tensor[[64, 64], pl.FP16]] = self.k1(x, out)
        v: pl.Scalar[pl.INDEX] = r[0]
        out2 = self.k2(x, v, v, out2)
        return out2
)");
    auto w = walk_host(*p, *p->find("main"), {});
    ASSERT_EQ(w.kernels.size(), 2u);
    ASSERT_EQ(w.kernels[1].distinct.size(), 1u);
    const LaunchBinding& b = w.kernels[1].distinct[0];
    EXPECT_EQ(b.unknown, "a");  // a is an offset: still unknown
    ASSERT_EQ(b.dead.size(), 1u);
    EXPECT_EQ(b.dead[0].first, "c");
    EXPECT_EQ(b.scalars, (std::vector<std::pair<std::string, std::string>>{{"c", "0"}}));
}

TEST(HostWalk, ArraysHoldWhatUpdateElementWrote) {
    auto w = walk(
        "        ids: pl.Array[2, pl.INT32] = pl.array.create(2, pl.INT32)\n"
        "        ids_1: pl.Array[2, pl.INT32] = pl.array.update_element(ids, 1, 48)\n"
        "        e: pl.Scalar[pl.INT32] = pl.array.get_element(ids_1, 1)\n"
        "        f: pl.Scalar[pl.INT32] = pl.array.get_element(ids_1, 0)\n"
        "        out = self.k(x, e, f, out)\n");
    EXPECT_EQ(bindings(w), "a=48 ?b");  // element 0 was never written
}

TEST(HostWalk, TensorDataIsKnownOnlyFromAnInputFile) {
    const std::string body =
        "        for i in pl.range(4):\n"
        "            l: pl.Scalar[pl.INT32] = pl.tensor.read(lens, [i])\n"
        "            out = self.k(x, 0, l, out)\n";
    auto w = walk(body);
    EXPECT_EQ(bindings(w), "a=0 ?b");
    EXPECT_NE(w.kernels[0].distinct[0].why.find("--input lens=FILE.npy"), std::string::npos)
        << w.kernels[0].distinct[0].why;
    // A 1-D .npy as numpy writes it ("'shape': (4,)").
    const std::string path = ::testing::TempDir() + "host_walk_lens.npy";
    {
        std::string header = "{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }";
        header.append(64 - (10 + header.size() + 1) % 64, ' ');
        header += '\n';
        std::ofstream f(path, std::ios::binary);
        f.write("\x93NUMPY\x01\x00", 8);
        f.put(static_cast<char>(header.size()));
        f.put(0);
        f << header;
        for (int32_t v : {16, 8, 8, 3}) f.write(reinterpret_cast<const char*>(&v), 4);
    }
    HostInputs in;
    in.files["lens"] = path;
    EXPECT_EQ(bindings(walk(body, in)), "a=0 b=16; a=0 b=8; a=0 b=3");
}

TEST(HostWalk, NestedOrchestrationsAreEnteredWithTheirArguments) {
    auto p = parse_text(R"(import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(x: pl.Tensor[[64, 64], pl.FP16], a: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [a, 0], [16, 64])
        out = pl.tile.store(t, [a, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def inner(self, x: pl.Tensor[[64, 64], pl.FP16], base: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        for j in pl.range(2):
            out = self.k(x, base + j * 16, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        out = self.inner(x, 0, out)
        out = self.inner(x, 32, out)
        return out
)");
    auto w = walk_host(*p, *p->find("main"), {});
    EXPECT_EQ(bindings(w), "a=0; a=16; a=32; a=48");
}

TEST(HostWalk, TheStepBudgetEndsTheWalkAndSaysSo) {
    HostInputs in;
    in.step_budget = 50;
    auto w = walk("        for i in pl.range(1000):\n            out = self.k(x, 0, i, out)\n", in);
    EXPECT_FALSE(w.incomplete.empty());
    ASSERT_EQ(w.kernels.size(), 1u);
    EXPECT_LT(w.kernels[0].launches, 50);
}

TEST(HostWalk, KernelLaunchesCarryTheWalksBindings) {
    auto p = parse_text(orch("        for i in pl.range(2):\n            out = self.k(x, i * 16, 0, out)\n"));
    auto ks = kernel_launches(*p, "main");
    ASSERT_EQ(ks.size(), 1u);
    ASSERT_EQ(ks[0].bindings.size(), 2u);
    EXPECT_EQ(ks[0].bindings[1].scalars[0], (std::pair<std::string, std::string>{"a", "16"}));
    EXPECT_EQ(ks[0].launch_count, 2);
}

}  // namespace
}  // namespace cvsim::test
