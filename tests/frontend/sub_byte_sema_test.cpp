// Type rules of the 4-bit dtypes (frontend/ops_sub_byte.cpp, sema_types.cpp): byte-splitting shapes and windows are
// exit-2 E-TYPE diagnostics at a caret, ops without a 4-bit datapath and HF4 are E-UNSUPPORTED naming them, and
// the supported forms (load, cast, store, create, full; even byte-aligned windows) are accepted.
#include <gtest/gtest.h>

#include "frontend_util.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {
std::optional<Diagnostic> diag_body(const std::string& params, const std::string& body) {
    return diag_of(kernel_with(params, "", body));
}
}  // namespace

TEST(SubByteSema, ByteSplittingShapesAndWindowsAreTypeErrors) {
    struct Bad {
        std::string params, body, code, text;
    };
    const std::string p = "a: pl.Tensor[[16, 32], pl.FP4], o: pl.Out[pl.Tensor[[16, 32], pl.INT4]]";
    const Bad cases[] = {
        {"a: pl.Tensor[[16, 15], pl.FP4]", "        x = pl.load(a, [0, 0], [16, 14])\n", "E-TYPE",
         "last dimension must be even"},
        {p, "        x = pl.load(a, [0, 1], [16, 16])\n", "E-TYPE", "column offset 1"},
        {p, "        x = pl.load(a, [0, 0], [16, 15])\n", "E-TYPE", "odd number of columns"},
        {p, "        x = pl.load(a, [0, 0], [16, 32], valid_shape=[16, 7])\n", "E-TYPE", "odd number of columns"},
        {p, "        x = pl.tile.create([16, 31], dtype=pl.INT4)\n", "E-TYPE", "odd number of columns"},
        {p, "        x = pl.load(a, [0, 0], [16, 32])\n        y = pl.add(x, x)\n", "E-UNSUPPORTED",
         "only through pl.tile.load, store, cast"},
        {p, "        x = pl.load(a, [0, 0], [16, 32])\n        y = pl.tile.row_sum(x)\n", "E-UNSUPPORTED",
         "4-bit tiles only"},
        {p, "        x = pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)\n", "E-UNSUPPORTED",
         "UB (pl.Mem.Vec) only"},
        {"a: pl.Tensor[[16, 32], pl.FP4], s: pl.Scalar[pl.INT4]", "        x = pl.load(a, [0, 0], [16, 32])\n",
         "E-UNSUPPORTED", "pl.Scalar[pl.INT4]"},
        {p,
         "        x = pl.tile.full([16, 32], dtype=pl.INT4, value=1)\n        y = pl.store(x, [0, 0], o, "
         "atomic=pl.AtomicType.Add)\n",
         "E-TYPE", "atomic-add dtypes"},
    };
    for (const Bad& b : cases) {
        SCOPED_TRACE(b.body);
        auto d = diag_body(b.params, b.body);
        ASSERT_TRUE(d);
        EXPECT_EQ(d->code, b.code) << d->message;
        EXPECT_NE(d->message.find(b.text), std::string::npos) << d->message;
        EXPECT_GE(d->loc.line, 7u);
        EXPECT_GT(d->loc.col, 0u);
    }
}

TEST(SubByteSema, LoadCastStoreCreateAndFullOnByteAlignedWindowsAreAccepted) {
    const std::string p =
        "a: pl.Tensor[[16, 64], pl.FP4], o: pl.Out[pl.Tensor[[16, 64], pl.INT4]], f: pl.Out[pl.Tensor[[16, 64], "
        "pl.FP4]]";
    const std::string body =
        "        x = pl.load(a, [0, 2], [16, 32])\n"
        "        w = pl.cast(x, pl.FP16)\n"
        "        i = pl.cast(w, pl.INT4, mode='floor')\n"
        "        y = pl.store(i, [0, 32], o)\n"
        "        z = pl.tile.full([16, 64], dtype=pl.FP4, value=1.5)\n"
        "        c = pl.tile.create([16, 32], dtype=pl.UINT4)\n"
        "        g = pl.store(z, [0, 0], f)\n";
    auto d = diag_body(p, body);
    EXPECT_FALSE(d) << d->code << ": " << d->message;
}
