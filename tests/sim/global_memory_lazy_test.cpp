// GM with a lazy input (docs/DECISIONS.md, "Lazy GM inputs"): reads, compares, raw reads, writes and atomic adds
// see the same bytes as with the input loaded flat, only the pages touched are generated, and reloading the image
// restores the pages a schedule wrote.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "sim/global_memory.h"
#include "sim/verdict.h"

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

// A lazy output (a seeded InOut, a poisoned Out) comes back from store_back as the pages the run wrote on its
// generator: the same bytes and written mask as the flat load gives, and only the written pages held
// (docs/DECISIONS.md, "Sparse outputs").
TEST(GlobalMemoryLazy, ALazyOutputComesBackAsTheWrittenPagesWithTheFlatBytesAndMask) {
    const HwParams hw = load_params(Target::A2A3, {}, {});
    for (DType dt : {DType::FP32, DType::BF16, DType::FP4}) {
        for (ir::ParamDir dir : {ir::ParamDir::InOut, ir::ParamDir::Out}) {
            for (bool atomic : {false, true}) {
                if (atomic && dt == DType::FP4) continue;  // no 4-bit atomics
                SCOPED_TRACE(fmt::format("{} {} {}", dtype_name(dt), dir == ir::ParamDir::Out ? "Out" : "InOut",
                                         atomic ? "atomic" : "plain"));
                rt::TensorStore lazy = store_of(dt, 2048, 512, true), flat = store_of(dt, 2048, 512, false);
                for (rt::TensorStore* s : {&lazy, &flat}) {
                    rt::TensorBuffer& x = s->tensors[0];
                    x.dir = dir;
                    if (dir == ir::ParamDir::Out && s == &lazy) x.bytes = rt::ByteStore::lazy_poison(dt, x.numel());
                    if (dir == ir::ParamDir::Out && s == &flat) poison_fill(dt, x.bytes.data(), x.numel());
                }
                ASSERT_TRUE(lazy.tensors[0].bytes.lazy());
                GlobalMemory a, b;
                a.load(lazy, hw, 21);
                b.load(flat, hw, 22);
                // Two windows: one straddling a page boundary (row 64 of 512 FP32 columns is byte 131072), one in
                // the middle of another page, partly overlapping bytes of elements (4-bit: whole bytes).
                const rt::Window w1 = win({63, 500}, {2, 12}), w2 = win({700, 8}, {3, 6});
                for (const rt::Window& w : {w1, w2}) {
                    std::vector<uint8_t> data(storage_bytes(dt, w.rows() * w.cols()));
                    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 29 + 3);
                    a.write(lazy.tensors[0], 0, w, data.data(), 10, atomic);
                    b.write(flat.tensors[0], 0, w, data.data(), 10, atomic);
                }
                rt::TensorStore la = lazy, fb = flat;
                a.store_back(la, 100);
                b.store_back(fb, 100);
                const rt::TensorBuffer& got = la.tensors[0];
                ASSERT_TRUE(got.bytes.patched());
                EXPECT_LE(got.bytes.patch()->size(), 3u);  // pages 1 and 2 (the boundary), and row 700's
                // The written mask of the pages, element by element, against the flat run's.
                const int64_t pe = got.bytes.page_elems();
                std::vector<uint8_t> mask(static_cast<size_t>(got.numel()), 0);
                for (const auto& [p, pg] : *got.bytes.patch())
                    std::copy(pg.written.begin(), pg.written.end(), mask.begin() + static_cast<int64_t>(p) * pe);
                EXPECT_EQ(mask, fb.tensors[0].written);
                EXPECT_EQ(std::count(mask.begin(), mask.end(), 1), 2 * 12 + 3 * 6);
                // The bytes, materialised, against the flat run's; and equality both ways without materialising.
                rt::TensorBuffer copy = got;
                EXPECT_TRUE(copy.bytes == la.tensors[0].bytes);
                EXPECT_EQ(copy.bytes.vec(), fb.tensors[0].bytes.vec());
                EXPECT_FALSE(la.tensors[0].bytes == lazy.tensors[0].bytes);  // written pages differ
            }
        }
    }
}

// Two runs' lazy outputs compared page by page (compare_outputs' paged path; a page the same on both sides is
// skipped whole): the one element that differs and the four elements only the reference wrote are each found,
// counted exactly, and a page both wrote alike adds nothing.
TEST(GlobalMemoryLazy, LazyOutputsComparedPageByPageFindExactlyTheDifferences) {
    const HwParams hw = load_params(Target::A2A3, {}, {});
    rt::TensorStore lazy = store_of(DType::FP32, 2048, 512, true);
    rt::TensorBuffer& x = lazy.tensors[0];
    x.dir = ir::ParamDir::Out;
    x.bytes = rt::ByteStore::lazy_poison(DType::FP32, x.numel());
    GlobalMemory want, got;
    want.load(lazy, hw, 21);
    got.load(lazy, hw, 22);
    auto write = [&](GlobalMemory& gm, const rt::Window& w, std::vector<float> v) {
        gm.write(x, 0, w, reinterpret_cast<const uint8_t*>(v.data()), 10, false);
    };
    const rt::Window same = win({63, 500}, {2, 12}), differs = win({700, 8}, {3, 6}),
                     want_only = win({1500, 0}, {1, 4});
    for (GlobalMemory* gm : {&want, &got}) write(*gm, same, std::vector<float>(24, 0.25f));
    std::vector<float> v(18, 1.5f);
    write(want, differs, v);
    v[7] = 2.5f;
    write(got, differs, v);
    write(want, want_only, std::vector<float>(4, 3.0f));
    rt::TensorStore w = lazy, g = lazy;
    want.store_back(w, 100);
    got.store_back(g, 100);
    ASSERT_TRUE(w.tensors[0].bytes.patched() && g.tensors[0].bytes.patched());
    const std::vector<sim::Finding> f = sim::compare_outputs(g, w, sim::CompareOptions{});
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[0].code, codes::kUnwritten);
    EXPECT_NE(f[0].message.find("4 of 1048576 elements were never written (first at [1500, 0])"), std::string::npos)
        << f[0].message;
    EXPECT_EQ(f[1].code, codes::kMismatch);
    EXPECT_NE(f[1].message.find("1 of 1048576 elements differ from the reference (first at [701, 9]: got 2.5 want 1.5"),
              std::string::npos)
        << f[1].message;
    // A run against itself: every page the same on both sides, nothing found.
    EXPECT_TRUE(sim::compare_outputs(w, w, sim::CompareOptions{}).empty());
}

}  // namespace
}  // namespace cvsim
