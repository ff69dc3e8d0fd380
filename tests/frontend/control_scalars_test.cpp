// control_scalar_params: which scalar parameters (and control-data tensors) decide what a kernel runs, so
// check samples them; a numeric operand only is data.
#include <gtest/gtest.h>

#include "frontend/control_scalars.h"
#include "frontend/sema.h"

using namespace cvsim;

namespace {

std::vector<std::string> control(const std::string& body, const std::string& params) {
    const std::string src =
        "import pypto.language as pl\n\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def k(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], " +
        params + ") -> pl.Tensor[[16, 64], pl.FP32]:\n" + body + "        return out\n";
    auto p = load_program_text("k.py", src);
    return control_scalar_params(*p, *p->find("k"));
}

TEST(ControlScalars, ANumericOperandIsDataALoopBoundAWindowAndAConditionAreControl) {
    const std::string params =
        "a: pl.Scalar[pl.INT32], b: pl.Scalar[pl.INT32], c: pl.Scalar[pl.INT32], s: pl.Scalar[pl.FP32]";
    const std::string body =
        "        for i in pl.range(a):\n"
        "            t = pl.load(x, [b * 16, 0], [16, 64])\n"
        "            u = pl.muls(t, s)\n"
        "            if c > 0:\n"
        "                out = pl.store(u, [0, 0], out)\n";
    EXPECT_EQ(control(body, params), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(ControlScalars, ThroughScalarArithmeticButNotThroughTileData) {
    const std::string params = "n: pl.Scalar[pl.INT32], s: pl.Scalar[pl.FP32]";
    // n reaches an offset through m; s reaches only tile data (a tile computed with it is then stored at a constant
    // window).
    const std::string body =
        "        m = n + 1\n"
        "        t = pl.load(x, [m * 16, 0], [16, 64])\n"
        "        u = pl.adds(t, s)\n"
        "        out = pl.store(u, [0, 0], out)\n";
    EXPECT_EQ(control(body, params), (std::vector<std::string>{"n"}));
}

TEST(ControlScalars, AnEntryTensorReadIntoAnAddressIsControlData) {
    const std::string params = "idx: pl.Tensor[[4], pl.INT32]";
    const std::string body =
        "        r = pl.tensor.read(idx, [0])\n"
        "        t = pl.load(x, [r * 16, 0], [16, 64])\n"
        "        out = pl.store(t, [0, 0], out)\n";
    EXPECT_EQ(control(body, params), (std::vector<std::string>{"idx"}));
}

}  // namespace

namespace {

TEST(ControlScalars, AScalarWrittenToGmOrIntoATileAndReadBackIntoALoopBoundIsControl) {
    const std::string params =
        "cell: pl.InOut[pl.Tensor[[8], pl.INT32]], n: pl.Scalar[pl.INT32], m: pl.Scalar[pl.INT32]";
    const std::string body =
        "        pl.tensor.write(cell, [0], n)\n"
        "        r = pl.tensor.read(cell, [0])\n"
        "        for i in pl.range(r):\n"
        "            t = pl.load(x, [0, 0], [16, 64])\n"
        "            out = pl.store(t, [0, 0], out)\n"
        "        f = pl.full([16, 64], dtype=pl.INT32, value=m)\n"
        "        q = pl.tile.read(f, [0, 0])\n"
        "        for j in pl.range(q):\n"
        "            u = pl.load(x, [0, 0], [16, 64])\n"
        "            out = pl.store(u, [0, 0], out)\n";
    EXPECT_EQ(control(body, params), (std::vector<std::string>{"cell", "n", "m"}));
}

TEST(ControlScalars, DataLoadedAndStoredIsNotControl) {
    // x's data flows through tiles into out, never into a bound or a window.
    const std::string body =
        "        t = pl.load(x, [0, 0], [16, 64])\n"
        "        u = pl.exp(t)\n"
        "        out = pl.store(u, [0, 0], out)\n";
    EXPECT_EQ(control(body, "s: pl.Scalar[pl.FP32]"), std::vector<std::string>{});
}

}  // namespace
