// rt::reshape_window: a window of a pl.tensor.view (the tensor's row-major elements under another shape) as a
// box of the tensor, exactly, or nothing when those elements are not one box with the window's rows.
#include <gtest/gtest.h>

#include "frontend/runtime.h"

namespace cvsim::rt {
namespace {

Window win(std::vector<int64_t> off, std::vector<int64_t> ext) {
    Window w;
    w.offsets = std::move(off);
    w.extents = std::move(ext);
    return w;
}

TEST(ReshapeWindow, CollapsedLeadingDimensionsMapRowsIntoTheirMatrix) {
    // [2, 64, 64] read as [128, 64]: rows 64..127 are the second matrix.
    auto r = reshape_window({128, 64}, win({64, 0}, {64, 64}), {2, 64, 64});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->offsets, (std::vector<int64_t>{1, 0, 0}));
    EXPECT_EQ(r->extents, (std::vector<int64_t>{1, 64, 64}));
    // A narrower window inside one matrix: columns stay as they are.
    r = reshape_window({128, 64}, win({70, 16}, {8, 32}), {2, 64, 64});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->offsets, (std::vector<int64_t>{1, 6, 16}));
    EXPECT_EQ(r->extents, (std::vector<int64_t>{1, 8, 32}));
}

TEST(ReshapeWindow, AWindowAcrossTwoMatricesIsNoBox) {
    EXPECT_FALSE(reshape_window({128, 64}, win({60, 0}, {8, 64}), {2, 64, 64}));
}

TEST(ReshapeWindow, SplitAndIdentityViews) {
    // [64] read as [1, 64]: a row window is the same range.
    auto r = reshape_window({1, 64}, win({0, 8}, {1, 16}), {64});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->offsets, (std::vector<int64_t>{8}));
    EXPECT_EQ(r->extents, (std::vector<int64_t>{16}));
    // [4, 8] read as [32]: a range of whole rows has other rows than the window (1 x 16 vs 2 x 8).
    EXPECT_FALSE(reshape_window({32}, win({8}, {16}), {4, 8}));
    // Whole rows of [4, 8] read as [2, 16]: a [1, 16] window is two rows of 8, not one row of 16.
    EXPECT_FALSE(reshape_window({2, 16}, win({1, 0}, {1, 16}), {4, 8}));
}

}  // namespace
}  // namespace cvsim::rt
