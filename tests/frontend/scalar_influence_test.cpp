// scalar_param_cannot_matter: a scalar parameter no derived value of which reaches anything with an effect (check
// then launches the kernel with any value of it); every other use, however indirect, keeps it live.
#include <gtest/gtest.h>

#include "frontend/scalar_influence.h"
#include "frontend/sema.h"

using namespace cvsim;

namespace {

// Whether parameter n of kernel k (BODY, with helper functions HELPERS before it) cannot matter.
bool dead(const std::string& body, const std::string& helpers = "") {
    const std::string src =
        "import pypto.language as pl\n\n\n@pl.program\nclass P:\n" + helpers +
        "    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def k(self, x: pl.Tensor[[64, 64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], "
        "pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:\n" +
        body + "        return out\n";
    auto p = load_program_text("k.py", src);
    const auto& f = *p->find("k");
    return scalar_param_cannot_matter(*p, f, 1);
}

const std::string kStore =
    "        t = pl.load(x, [0, 0], [16, 64])\n"
    "        out = pl.store(t, [0, 0], out)\n";

TEST(ScalarInfluence, UnusedOrOnlyInPlainArithmeticWhoseResultIsUnusedCannotMatter) {
    EXPECT_TRUE(dead(kStore));
    EXPECT_TRUE(dead("        m = n * 2 + 1\n        c = m > 3\n" + kStore));
    EXPECT_TRUE(dead("        m = pl.min(pl.cast(n, pl.INT32), 4)\n" + kStore));
}

TEST(ScalarInfluence, AnyOtherUseMatters) {
    // An offset, a numeric operand (data: unlike control_scalars, a value that only changes data matters too), a
    // division, a modulo, a shift, a branch condition, a loop bound.
    EXPECT_FALSE(dead("        t = pl.load(x, [n, 0], [16, 64])\n        out = pl.store(t, [0, 0], out)\n"));
    EXPECT_FALSE(
        dead("        f = pl.cast(n, pl.FP32)\n        t = pl.load(x, [0, 0], [16, 64])\n"
             "        u = pl.muls(t, f)\n        out = pl.store(u, [0, 0], out)\n"));
    EXPECT_FALSE(dead("        m = 64 % n\n" + kStore));
    EXPECT_FALSE(dead("        m = 64 // n\n" + kStore));
    EXPECT_FALSE(dead("        m = n << 2\n" + kStore));
    EXPECT_FALSE(dead("        if n > 0:\n            out = pl.store(pl.load(x, [0, 0], [16, 64]), [0, 0], out)\n"));
    EXPECT_FALSE(
        dead("        for i in pl.range(n):\n"
             "            t = pl.load(x, [0, 0], [16, 64])\n"
             "            out = pl.store(t, [0, 0], out)\n"));
}

TEST(ScalarInfluence, AnUnreadLoopCarryCannotMatterButItsIterVarOrResultDoes) {
    // The init of a carried value the body never reads, whose result is unused.
    EXPECT_TRUE(
        dead("        for i, (c,) in pl.range(2, init_values=(n,)):\n"
             "            r = i * 16\n"
             "            c2 = pl.yield_(r + c)\n" +
             kStore));
    // The iter var read as an offset.
    EXPECT_FALSE(
        dead("        for i, (c,) in pl.range(2, init_values=(n,)):\n"
             "            t = pl.load(x, [c, 0], [16, 64])\n"
             "            c2 = pl.yield_(i * 16)\n"
             "        out = pl.store(t, [0, 0], out)\n"));
    // The result read after a loop that never reads its carry (a 0-trip loop's result is its init).
    EXPECT_FALSE(
        dead("        for i, (c,) in pl.range(0, init_values=(n,)):\n"
             "            c2 = pl.yield_(i * 16)\n"
             "        t = pl.load(x, [c2, 0], [16, 64])\n"
             "        out = pl.store(t, [0, 0], out)\n"));
}

TEST(ScalarInfluence, TheYieldChainIsFollowedToAFixedPoint) {
    // n -> c -> the inner carry d -> the inner result e -> the outer carry k, read as an offset by the statement
    // before the one that carries it.
    EXPECT_FALSE(
        dead("        for i, (c, k) in pl.range(2, init_values=(n, 0)):\n"
             "            t = pl.load(x, [k, 0], [16, 64])\n"
             "            for j, (d,) in pl.range(1, init_values=(c,)):\n"
             "                d2 = pl.yield_(d)\n"
             "            c2, k2 = pl.yield_(c, d2)\n"
             "        out = pl.store(t, [0, 0], out)\n"));
    // The same chain with the carried k never read.
    EXPECT_TRUE(
        dead("        for i, (c, k) in pl.range(2, init_values=(n, 0)):\n"
             "            t = pl.load(x, [0, 0], [16, 64])\n"
             "            for j, (d,) in pl.range(1, init_values=(c,)):\n"
             "                d2 = pl.yield_(d)\n"
             "            c2, k2 = pl.yield_(c, d2)\n"
             "        out = pl.store(t, [0, 0], out)\n"));
}

TEST(ScalarInfluence, ABranchResultCarriesIt) {
    const std::string branch =
        "        for i in pl.range(2):\n"
        "            if i > 0:\n"
        "                m = pl.yield_(n)\n"
        "            else:\n"
        "                m = pl.yield_(0)\n";
    EXPECT_TRUE(dead(branch + "            t = pl.load(x, [0, 0], [16, 64])\n"
                              "            out = pl.store(t, [0, 0], out)\n"));
    EXPECT_FALSE(dead(branch + "            t = pl.load(x, [m, 0], [16, 64])\n"
                               "            out = pl.store(t, [0, 0], out)\n"));
}

TEST(ScalarInfluence, ACallFollowsTheCalleesParameter) {
    const std::string helpers =
        "    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def rows(self, x: pl.Tensor[[64, 64], pl.FP32], at: pl.Scalar[pl.INDEX]) -> pl.Tile[[16, 64], pl.FP32, "
        "pl.Mem.Vec]:\n"
        "        t = pl.load(x, [at, 0], [16, 64])\n"
        "        return t\n"
        "    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def ignores(self, x: pl.Tensor[[64, 64], pl.FP32], at: pl.Scalar[pl.INDEX]) -> pl.Tile[[16, 64], "
        "pl.FP32, pl.Mem.Vec]:\n"
        "        t = pl.load(x, [0, 0], [16, 64])\n"
        "        return t\n";
    EXPECT_FALSE(dead("        t = self.rows(x, n + 1)\n        out = pl.store(t, [0, 0], out)\n", helpers));
    EXPECT_TRUE(dead("        t = self.ignores(x, n + 1)\n        out = pl.store(t, [0, 0], out)\n", helpers));
}

TEST(ScalarInfluence, AReturnedValueMattersAndANonScalarIsNeverDead) {
    const std::string src =
        "import pypto.language as pl\n\n\n@pl.program\nclass P:\n"
        "    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def k(self, x: pl.Tensor[[64, 64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], "
        "pl.FP32]]) -> tuple[pl.Scalar[pl.INDEX], pl.Tensor[[16, 64], pl.FP32]]:\n" +
        kStore + "        return n, out\n";
    auto p = load_program_text("k.py", src);
    EXPECT_FALSE(scalar_param_cannot_matter(*p, *p->find("k"), 1));
    EXPECT_FALSE(scalar_param_cannot_matter(*p, *p->find("k"), 0));
    EXPECT_FALSE(scalar_param_cannot_matter(*p, *p->find("k"), 7));
}

}  // namespace
