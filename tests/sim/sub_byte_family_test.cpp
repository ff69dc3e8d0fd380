// The 4-bit dtypes as an op family (as tests/sim/ops_family_test.cpp): load -> cast -> compute -> cast -> store over
// packed INT4 / UINT4 / FP4 tensors on random inputs (several shapes, input seeds, both targets, column offsets
// inside the row), simulator outputs bit-exact to the reference interpreter.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "frontend/source.h"
#include "sim/session.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::sim;

namespace {

std::string kernel(const char* dt, int r, int c, const char* op) {
    // The tile covers the right half of each row (column offset c / 2: even) and lands at column 0 of the output.
    return fmt::format(
        "import pypto.language as pl\n\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def f(self, a: pl.Tensor[[{r}, {c}], pl.{dt}], out: pl.Out[pl.Tensor[[{r}, {c}], pl.{dt}]],\n"
        "          wide: pl.Out[pl.Tensor[[{r}, {h}], pl.FP16]]):\n"
        "        x = pl.load(a, [0, {h}], [{r}, {h}])\n"
        "        w = pl.cast(x, pl.FP16)\n"
        "        v = pl.cast(w, pl.FP32)\n"
        "        y = {op}\n"
        "        z = pl.cast(y, pl.{dt}, mode='round')\n"
        "        out = pl.store(z, [0, 0], out)\n"
        "        out = pl.store(x, [0, {h}], out)\n"
        "        wide = pl.store(w, [0, 0], wide)\n",
        fmt::arg("dt", dt), fmt::arg("r", r), fmt::arg("c", c), fmt::arg("h", c / 2), fmt::arg("op", op));
}

}  // namespace

TEST(SubByteFamily, LoadCastComputeStoreMatchesTheReferenceBitForBit) {
    struct Shape {
        int r, c;
    };
    const Shape shapes[] = {{16, 16}, {8, 64}, {32, 8}};
    const char* ops[] = {"pl.mul(v, 1.75)", "pl.add(v, -2.5)", "pl.exp(v)"};
    for (const char* dt : {"FP4", "INT4", "UINT4"})
        for (const Shape& s : shapes)
            for (const char* op : ops)
                for (uint64_t seed : {1, 2})
                    for (Target target : {Target::A2A3, Target::A5}) {
                        const std::string text = kernel(dt, s.r, s.c, op);
                        SCOPED_TRACE(fmt::format("{} [{}, {}] {} seed {} target {}", dt, s.r, s.c, op, seed,
                                                 static_cast<int>(target)));
                        SessionOptions o;
                        o.input_seed = seed;
                        o.target = target;
                        try {
                            Session sess(std::make_shared<SourceFile>("sub_byte.py", text), o);
                            const auto& ref = sess.reference();
                            ASSERT_FALSE(ref.error) << ref.error->code << " " << ref.error->message << "\n" << text;
                            ScheduleResult r = sess.run(Schedule{});
                            EXPECT_TRUE(r.clean())
                                << (r.findings.empty() ? "" : r.findings[0].code + " " + r.findings[0].message) << "\n"
                                << text;
                        } catch (const std::exception& e) {
                            ADD_FAILURE() << e.what() << "\n" << text;
                        }
                    }
}
