// A store's `shapes` partition that runs past a tensor dimension (PyPTO's FlattenTileNdTo2D stores a [2, 3, 8]
// result's [6, 8] tile through the partition [1, 6, 8]; codegen's pto.partition_view addresses it through the
// tensor's strides): rt::partition_window, the type rule, the reference interpreter and the simulator.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "frontend/runtime.h"
#include "reference_util.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

double at(const rt::TensorBuffer& t, int64_t i) {
    return element_at(t, i);
}

const std::string kParams = "x: pl.Tensor[[6, 8], pl.FP32], out: pl.Out[pl.Tensor[[2, 3, 8], pl.FP32]]";

std::string store_kernel(const std::string& offsets, const std::string& shapes) {
    return kernel_with(kParams, "",
                       "        t: pl.Tile[[6, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [6, 8])\n"
                       "        out = pl.tile.store(t, " +
                           offsets + ", out, " + shapes + ")\n");
}

}  // namespace

TEST(PartitionWindow, ConsecutiveRowsPastADimensionAreOneBoxOfTheTensor) {
    // [1, 6, 8] at [0, 0, 0] of [2, 3, 8]: rows 0..5 of the tensor's 6 rows = the whole tensor.
    auto w = rt::partition_window(3, {2, 3, 8}, {0, 0, 0}, {1, 6, 8});
    ASSERT_TRUE(w);
    EXPECT_EQ(w->tensor, 3u);
    EXPECT_EQ(w->offsets, (std::vector<int64_t>{0, 0, 0}));
    EXPECT_EQ(w->extents, (std::vector<int64_t>{2, 3, 8}));
    // [1, 3, 4] at [0, 2, 4] of [3, 2, 8]: tensor rows 2..4 are not one box (they start inside a matrix and
    // leave it): nothing.
    EXPECT_FALSE(rt::partition_window(0, {3, 2, 8}, {0, 2, 4}, {1, 3, 4}));
    // [1, 4, 8] at [0, 2, 0] of [4, 2, 8]: rows 2..5 = matrices 1 and 2, whole.
    w = rt::partition_window(0, {4, 2, 8}, {0, 2, 0}, {1, 4, 8});
    ASSERT_TRUE(w);
    EXPECT_EQ(w->offsets, (std::vector<int64_t>{1, 0, 0}));
    EXPECT_EQ(w->extents, (std::vector<int64_t>{2, 2, 8}));
    // Past the tensor's end, a row spilling over the last dimension, rows that are not consecutive: nothing.
    EXPECT_FALSE(rt::partition_window(0, {2, 3, 8}, {0, 1, 0}, {1, 6, 8}));
    EXPECT_FALSE(rt::partition_window(0, {2, 3, 8}, {0, 0, 4}, {1, 6, 8}));
    EXPECT_FALSE(rt::partition_window(0, {4, 3, 8}, {0, 0, 0}, {2, 4, 8}));
}

TEST(PartitionWindow, AStoreThroughItWritesTheTensorsRowsInOrder) {
    RefRun r = run_reference(store_kernel("[0, 0, 0]", "[1, 6, 8]"), 4);
    ASSERT_FALSE(r.out.error) << r.out.error->message;
    for (int64_t i = 0; i < 48; ++i) ASSERT_EQ(at(r.out.gm.tensors[1], i), at(r.in.tensors[0], i)) << i;
    // A run-time offset is resolved when the store runs: [1, 3, 8] at [b, 0, 0] is a plain box, [1, 6, 8] at
    // [0, b, 0] with b = 0 the partition.
    r = run_reference(kernel_with(kParams + ", b: pl.Scalar[pl.INDEX]", "",
                                  "        t: pl.Tile[[6, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [6, 8])\n"
                                  "        out = pl.tile.store(t, [0, b, 0], out, [1, 6, 8])\n"),
                      4);
    ASSERT_FALSE(r.out.error) << r.out.error->message;  // b is 0 (no --input)
    EXPECT_EQ(at(r.out.gm.tensors[1], 47), at(r.in.tensors[0], 47));
    // A partition whose rows run past the tensor stays E-OOB (statically when the offsets are constant).
    auto d = diag_of(store_kernel("[0, 1, 0]", "[1, 6, 8]"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-OOB");
}

TEST(PartitionWindow, TheSimulatorWritesTheSameElementsAsTheReference) {
    // `run` compares the simulator's output with the reference interpreter's, element by element.
    const std::string path = testing::TempDir() + "partition_store.py";
    std::ofstream(path) << store_kernel("[0, 0, 0]", "[1, 6, 8]");
    auto r = run_cvsim({"run", path});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("outputs: equal to the reference"), std::string::npos) << r.out;
}
