// GM reads, compares, writes and L2 touches walk a window's rows incrementally (models/global_memory.cpp):
// checked against the per-row index decomposition (rt::window_row_start) on random windows of rank 1-5.
#include "sim/global_memory.h"

#include <cstring>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace cvsim {
namespace {

RC_GTEST_PROP(GlobalMemoryRows, ReadTouchAndWriteFollowTheRowDecomposition, ()) {
    const size_t rank = *rc::gen::inRange<size_t>(1, 6);
    rt::TensorBuffer t;
    t.name = "x";
    t.dtype = *rc::gen::element(DType::FP32, DType::FP16, DType::INT8);
    rt::Window w;
    for (size_t d = 0; d < rank; ++d) {
        const int64_t size = *rc::gen::inRange<int64_t>(1, 6);
        const int64_t ext = *rc::gen::inRange<int64_t>(1, size + 1);
        t.shape.push_back(size);
        w.extents.push_back(ext);
        w.offsets.push_back(*rc::gen::inRange<int64_t>(0, size - ext + 1));
    }
    const size_t eb = dtype_bytes(t.dtype);
    t.bytes.resize(static_cast<size_t>(t.numel()) * eb);
    for (size_t i = 0; i < t.bytes.size(); ++i) t.bytes[i] = static_cast<uint8_t>(i * 7 + 1);
    rt::TensorStore store;
    store.add(t);
    HwParams hw = load_params(Target::A2A3, {}, {});
    hw.l2.size_bytes = 4 * 1024;  // small: the row pattern decides the hits
    hw.l2.line_bytes = 32;
    hw.l2.ways = 2;
    GlobalMemory gm;
    gm.load(store, hw);

    // The reference: each row's start decomposed from its index.
    const size_t row_bytes = static_cast<size_t>(w.cols()) * eb;
    std::vector<uint8_t> want;
    L2Cache ref(hw.l2.size_bytes, hw.l2.line_bytes, static_cast<uint32_t>(hw.l2.ways));
    L2Result want_l2;
    for (int64_t r = 0; r < w.rows(); ++r) {
        const size_t start = static_cast<size_t>(rt::window_row_start(t, w, r)) * eb;
        want.insert(want.end(), t.bytes.begin() + static_cast<std::ptrdiff_t>(start),
                    t.bytes.begin() + static_cast<std::ptrdiff_t>(start + row_bytes));
        L2Result x = ref.access(gm.base(0) + start, row_bytes);
        want_l2.hits += x.hits;
        want_l2.misses += x.misses;
    }
    std::vector<uint8_t> got;
    gm.read(t, 0, w, 0, got);
    RC_ASSERT(got == want);
    RC_ASSERT(gm.read_equals(t, 0, w, 0, want));
    RC_ASSERT(gm.touch(t, 0, w) == want_l2);

    // A write of the window lands on exactly the decomposed rows.
    std::vector<uint8_t> data(want.size());
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(200 - i);
    gm.write(t, 0, w, data.data(), 0);
    rt::TensorStore back = store;
    back.tensors[0].dir = ir::ParamDir::Out;
    gm.store_back(back, 1);
    std::vector<uint8_t> expect = t.bytes;
    for (int64_t r = 0; r < w.rows(); ++r) {
        const size_t start = static_cast<size_t>(rt::window_row_start(t, w, r)) * eb;
        std::memcpy(expect.data() + start, data.data() + static_cast<size_t>(r) * row_bytes, row_bytes);
    }
    RC_ASSERT(back.tensors[0].bytes == expect);
}

}  // namespace
// A core reads its own completed write before the visibility delay has passed; another core reads the old
// bytes until then (SPEC 4.5: the delay is to other cores). Overlapping own writes apply in issue order; an
// atomic add is not read back early (it lands at the memory).
TEST(GlobalMemoryVisibility, ACoreReadsItsOwnWriteBeforeOthersSeeIt) {
    rt::TensorBuffer t;
    t.name = "x";
    t.dtype = DType::INT8;
    t.shape = {2, 8};
    t.bytes.assign(16, 1);
    rt::TensorStore store;
    store.add(t);
    HwParams hw = load_params(Target::A2A3, {}, {});
    GlobalMemory gm;
    gm.load(store, hw);
    rt::Window row0;
    row0.offsets = {0, 0};
    row0.extents = {1, 8};
    rt::Window half;
    half.offsets = {0, 4};
    half.extents = {1, 4};
    const std::vector<uint8_t> a(8, 7), b(4, 9);
    gm.write(t, 0, row0, a.data(), /*visible_at=*/100, false, /*writer=*/1);
    gm.write(t, 0, half, b.data(), /*visible_at=*/120, false, /*writer=*/1);
    std::vector<uint8_t> got;
    gm.read(t, 0, row0, 50, got, /*reader=*/1);
    EXPECT_EQ(got, (std::vector<uint8_t>{7, 7, 7, 7, 9, 9, 9, 9}));
    gm.read(t, 0, row0, 50, got, /*reader=*/2);
    EXPECT_EQ(got, std::vector<uint8_t>(8, 1));
    EXPECT_FALSE(gm.read_equals(t, 0, row0, 50, std::vector<uint8_t>(8, 1), 1));  // the writer has writes pending
    EXPECT_TRUE(gm.read_equals(t, 0, row0, 50, std::vector<uint8_t>(8, 1), 2));
    gm.read(t, 0, row0, 110, got, 2);
    EXPECT_EQ(got, std::vector<uint8_t>(8, 7));
    gm.read(t, 0, row0, 130, got, 2);
    EXPECT_EQ(got, (std::vector<uint8_t>{7, 7, 7, 7, 9, 9, 9, 9}));
}

}  // namespace cvsim
