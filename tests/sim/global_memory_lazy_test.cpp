// GM with a lazy input (docs/DECISIONS.md, "Lazy GM inputs"): reads, compares, raw reads, writes and atomic adds
// see the same bytes as with the input loaded flat, only the pages touched are generated, and reloading the image
// restores the pages a schedule wrote.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "sim/global_memory.h"

namespace cvsim {
namespace {

// A [rows, cols] input `x` of `dtype` (seed 3) and a small flat output after it; lazy or flat.
rt::TensorStore store_of(DType dtype, int64_t rows, int64_t cols, bool lazy) {
    rt::TensorStore s;
    rt::TensorBuffer x;
    x.name = "x";
    x.dtype = dtype;
    x.shape = {rows, cols};
    const uint64_t key = rt::input_key(3, "x");
    if (lazy) {
        x.bytes = rt::ByteStore::lazy_input(dtype, key, x.numel());
    } else {
        x.bytes.assign(storage_bytes(dtype, x.numel()), 0);
        rt::generate_inputs(dtype, key, 0, x.numel(), x.bytes.data());
    }
    s.add(x);
    rt::TensorBuffer y;
    y.name = "y";
    y.dtype = DType::FP32;
    y.shape = {4, 8};
    y.dir = ir::ParamDir::Out;
    y.bytes.assign(4 * 8 * 4, 0);
    s.add(y);
    return s;
}

rt::Window win(std::vector<int64_t> off, std::vector<int64_t> ext) {
    rt::Window w;
    w.offsets = std::move(off);
    w.extents = std::move(ext);
    return w;
}

TEST(GlobalMemoryLazy, ReadsEqualTheFlatLoadAndGenerateOnlyTouchedPages) {
    for (DType dt : {DType::BF16, DType::FP32, DType::INT8, DType::FP4}) {
        SCOPED_TRACE(std::string(dtype_name(dt)));
        const int64_t rows = 4096, cols = 1000;  // BF16: 8 MB, 125 pages of 64 KiB
        rt::TensorStore lazy = store_of(dt, rows, cols, true), flat = store_of(dt, rows, cols, false);
        ASSERT_TRUE(lazy.tensors[0].bytes.lazy());
        const HwParams hw = load_params(Target::A2A3, {}, {});
        GlobalMemory a, b;
        a.load(lazy, hw, 1);
        b.load(flat, hw, 2);
        // A window that straddles page boundaries, a column band over many rows, a single element.
        for (const rt::Window& w :
             {win({60, 100}, {10, 512}), win({0, 900}, {rows, 100}), win({rows - 1, 998}, {1, 2})}) {
            std::vector<uint8_t> ga, gb;
            a.read(lazy.tensors[0], 0, w, 0, ga);
            b.read(flat.tensors[0], 0, w, 0, gb);
            EXPECT_EQ(ga, gb) << rt::window_str(w);
            EXPECT_TRUE(a.read_equals(lazy.tensors[0], 0, w, 0, gb));
        }
        uint8_t ra[64], rb[64];
        a.read_raw(0, 65536 - 32, 64, 0, ra);  // across a page boundary
        b.read_raw(0, 65536 - 32, 64, 0, rb);
        EXPECT_EQ(std::vector<uint8_t>(ra, ra + 64), std::vector<uint8_t>(rb, rb + 64));
        // The column band touched every page; the other windows added nothing new.
        EXPECT_EQ(a.generated_bytes(), lazy.tensors[0].bytes.size());
        // The lazy store itself generated nothing (GM generates its own pages).
        EXPECT_EQ(lazy.tensors[0].bytes.generated_bytes(), 0u);
        EXPECT_TRUE(lazy.tensors[0].bytes.lazy());
    }
}

TEST(GlobalMemoryLazy, OneReadGeneratesOnePage) {
    rt::TensorStore lazy = store_of(DType::BF16, 100000, 1024, true);  // 204.8 MB
    GlobalMemory gm;
    gm.load(lazy, load_params(Target::A2A3, {}, {}), 1);
    std::vector<uint8_t> got;
    gm.read(lazy.tensors[0], 0, win({5000, 0}, {16, 1024}), 0, got);  // 32 KiB inside page 156
    EXPECT_EQ(gm.generated_bytes(), rt::ByteStore::kPageBytes);
    const uint64_t key = rt::input_key(3, "x");
    std::vector<uint8_t> want(got.size());
    rt::generate_inputs(DType::BF16, key, 5000 * 1024, 16 * 1024, want.data());
    EXPECT_EQ(got, want);
}

TEST(GlobalMemoryLazy, WritesLandOnGeneratedBytesAndAReloadRestoresThem) {
    const HwParams hw = load_params(Target::A2A3, {}, {});
    for (bool atomic : {false, true}) {
        SCOPED_TRACE(atomic ? "atomic" : "plain");
        rt::TensorStore lazy = store_of(DType::FP32, 2048, 512, true), flat = store_of(DType::FP32, 2048, 512, false);
        GlobalMemory a, b;
        a.load(lazy, hw, 11);
        b.load(flat, hw, 12);
        // A partial write into the middle of an untouched page: the rest of the page keeps the input.
        const rt::Window w = win({100, 7}, {3, 5});
        std::vector<uint8_t> data(3 * 5 * 4);
        for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 13 + 1);
        a.write(lazy.tensors[0], 0, w, data.data(), 10, atomic);
        b.write(flat.tensors[0], 0, w, data.data(), 10, atomic);
        const rt::Window around = win({99, 0}, {5, 512});
        std::vector<uint8_t> ga, gb;
        a.read(lazy.tensors[0], 0, around, 20, ga);
        b.read(flat.tensors[0], 0, around, 20, gb);
        EXPECT_EQ(ga, gb);
        // The same image again: the written page reads as the input again.
        a.load(lazy, hw, 11);
        b.load(flat, hw, 12);
        a.read(lazy.tensors[0], 0, around, 0, ga);
        b.read(flat.tensors[0], 0, around, 0, gb);
        EXPECT_EQ(ga, gb);
        std::vector<uint8_t> image(gb.size());
        std::memcpy(image.data(), flat.tensors[0].bytes.data() + 99 * 512 * 4, image.size());
        EXPECT_EQ(gb, image);
    }
}

}  // namespace
}  // namespace cvsim
