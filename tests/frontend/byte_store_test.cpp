// rt::ByteStore (frontend/byte_store.h): a lazy input's pages are its generator's bytes, generated on first access
// only; every flat access materialises the whole (the same bytes); copies share the generator; fill_inputs makes
// large In tensors lazy (the threshold from CVSIM_LAZY_INPUT_BYTES) and the rest flat, with equal bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "frontend/runtime.h"

namespace cvsim {
namespace {

std::vector<uint8_t> flat_input(DType t, uint64_t key, int64_t n) {
    std::vector<uint8_t> b(storage_bytes(t, n), 0);
    rt::generate_inputs(t, key, 0, n, b.data());
    return b;
}

TEST(ByteStore, PagesAreTheGeneratorsBytesGeneratedOnFirstAccess) {
    for (DType t : {DType::FP32, DType::BF16, DType::INT8, DType::FP4, DType::FP8E4M3FN}) {
        SCOPED_TRACE(std::string(dtype_name(t)));
        const uint64_t key = rt::input_key(7, "w");
        const int64_t n = 300001;  // odd: a 4-bit tensor's last byte holds one element
        const auto want = flat_input(t, key, n);
        rt::ByteStore s = rt::ByteStore::lazy_input(t, key, n);
        ASSERT_TRUE(s.lazy());
        EXPECT_EQ(s.size(), want.size());
        EXPECT_EQ(s.generated_bytes(), 0u);
        const size_t P = rt::ByteStore::kPageBytes;
        // One element in page 1: that page alone.
        EXPECT_EQ(*s.span(P + 5, 1), want[P + 5]);
        EXPECT_EQ(s.generated_bytes(), P);
        EXPECT_EQ(*s.span(want.size() - 1, 1), want.back());  // the last, partial page
        EXPECT_EQ(s.generated_bytes(), P + (want.size() - (want.size() - 1) / P * P));
        // Elements through tensor_element, against the flat buffer.
        rt::TensorBuffer tb;
        tb.dtype = t;
        tb.shape = {n};
        tb.bytes = s;  // a copy shares the pages
        for (int64_t i : {int64_t{0}, int64_t{1}, n / 3, n - 2, n - 1})
            EXPECT_EQ(rt::tensor_element(tb, i), get_element(t, want.data(), i)) << i;
        EXPECT_TRUE(tb.bytes.lazy());
        // Flat access materialises (this copy only), equal bytes.
        EXPECT_EQ(tb.bytes.vec(), want);
        EXPECT_FALSE(tb.bytes.lazy());
        EXPECT_TRUE(s.lazy());
        EXPECT_TRUE(s == tb.bytes);
        EXPECT_TRUE(s == rt::ByteStore::lazy_input(t, key, n));
        EXPECT_FALSE(s == rt::ByteStore::lazy_input(t, rt::input_key(8, "w"), n));
        std::vector<uint8_t> copy(s.begin(), s.end());
        EXPECT_EQ(copy, want);
        EXPECT_FALSE(s.lazy());
    }
}

TEST(ByteStore, FillInputsMakesLargeInAndInOutTensorsLazyWithTheSameBytes) {
    auto store = [] {
        rt::TensorStore s;
        rt::TensorBuffer big, small, inout;
        big.name = "big";
        big.dtype = DType::BF16;
        big.shape = {1024, 1024};  // 2 MiB
        small.name = "small";
        small.shape = {16, 16};
        inout.name = "io";
        inout.dtype = DType::BF16;
        inout.shape = {1024, 1024};
        inout.dir = ir::ParamDir::InOut;
        s.add(big);
        s.add(small);
        s.add(inout);
        return s;
    };
    unsetenv("CVSIM_LAZY_INPUT_BYTES");
    EXPECT_EQ(rt::lazy_input_bytes(), size_t{1} << 20);
    rt::TensorStore lazy = store();
    rt::fill_inputs(lazy, 4);
    EXPECT_TRUE(lazy.tensors[0].bytes.lazy());
    EXPECT_FALSE(lazy.tensors[1].bytes.lazy());
    EXPECT_TRUE(lazy.tensors[2].bytes.lazy());  // an InOut too (docs/DECISIONS.md, "Sparse outputs")
    setenv("CVSIM_LAZY_INPUT_BYTES", "off", 1);
    EXPECT_EQ(rt::lazy_input_bytes(), SIZE_MAX);
    rt::TensorStore eager = store();
    rt::fill_inputs(eager, 4);
    EXPECT_FALSE(eager.tensors[0].bytes.lazy());
    EXPECT_FALSE(eager.tensors[2].bytes.lazy());
    setenv("CVSIM_LAZY_INPUT_BYTES", "100", 1);
    EXPECT_EQ(rt::lazy_input_bytes(), 100u);
    setenv("CVSIM_LAZY_INPUT_BYTES", "1x", 1);
    EXPECT_THROW(rt::lazy_input_bytes(), std::invalid_argument);
    unsetenv("CVSIM_LAZY_INPUT_BYTES");
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(lazy.tensors[i].bytes.vec(), eager.tensors[i].bytes.vec()) << i;
}

// A large Out tensor is a lazy poisoned store: the bytes poison_fill gives; small ones stay flat.
TEST(ByteStore, PoisonOutputsMakesLargeOutTensorsLazyPoison) {
    rt::TensorStore s;
    rt::TensorBuffer big, small;
    big.name = "big";
    big.dtype = DType::FP16;
    big.shape = {1024, 1000};  // 2 MB
    big.dir = ir::ParamDir::Out;
    small = big;
    small.name = "small";
    small.shape = {16, 16};
    s.add(big);
    s.add(small);
    unsetenv("CVSIM_LAZY_INPUT_BYTES");
    rt::poison_outputs(s);
    ASSERT_TRUE(s.tensors[0].bytes.lazy());
    EXPECT_FALSE(s.tensors[1].bytes.lazy());
    std::vector<uint8_t> want(storage_bytes(DType::FP16, 1024 * 1000));
    poison_fill(DType::FP16, want.data(), 1024 * 1000);
    EXPECT_EQ(*s.tensors[0].bytes.span(rt::ByteStore::kPageBytes * 3 + 6, 1), want[rt::ByteStore::kPageBytes * 3 + 6]);
    EXPECT_EQ(s.tensors[0].bytes.vec(), want);
}

// A patched store reads its replaced pages and the generator's elsewhere; two patches of one generator are equal
// exactly when their bytes are, whichever pages each holds.
TEST(ByteStore, PatchedStoresReadAndCompareByTheirPages) {
    const uint64_t key = rt::input_key(5, "kv");
    const int64_t n = 100000;  // FP32: 400,000 B, 7 pages (the last partial)
    const rt::ByteStore gen = rt::ByteStore::lazy_input(DType::FP32, key, n);
    const auto flat = flat_input(DType::FP32, key, n);
    const size_t P = rt::ByteStore::kPageBytes;
    auto page_of = [&](size_t p, uint8_t fill) {
        rt::ByteStore::PatchPage pg;
        pg.bytes.assign(flat.begin() + static_cast<int64_t>(p * P),
                        flat.begin() + static_cast<int64_t>(std::min(flat.size(), (p + 1) * P)));
        pg.bytes[10] = fill;
        pg.written.assign(static_cast<size_t>(gen.page_elems()), 0);
        return pg;
    };
    rt::ByteStore::Patch a_pages;
    a_pages.emplace(2, page_of(2, 0xAB));
    const rt::ByteStore a = rt::ByteStore::patched(gen, a_pages);
    ASSERT_TRUE(a.patched());
    EXPECT_FALSE(a.lazy());
    EXPECT_EQ(*a.span(2 * P + 10, 1), 0xAB);
    EXPECT_EQ(*a.span(3 * P + 10, 1), flat[3 * P + 10]);
    // b holds page 2 with the same bytes and page 5 unchanged: equal to a; c changes page 6 (the last): not.
    rt::ByteStore::Patch b_pages;
    b_pages.emplace(2, page_of(2, 0xAB));
    b_pages.emplace(5, page_of(5, flat[5 * P + 10]));
    const rt::ByteStore b = rt::ByteStore::patched(gen, b_pages);
    EXPECT_TRUE(a == b);
    EXPECT_TRUE(b == a);
    rt::ByteStore::Patch c_pages = a_pages;
    c_pages.emplace(6, page_of(6, 0x01));
    const rt::ByteStore c = rt::ByteStore::patched(gen, c_pages);
    EXPECT_FALSE(a == c);
    EXPECT_FALSE(c == a);
    EXPECT_FALSE(gen == a);
    // Materialised: the flat bytes with page 2's change.
    auto want = flat;
    want[2 * P + 10] = 0xAB;
    rt::ByteStore m = a;
    EXPECT_EQ(m.vec(), want);
    EXPECT_FALSE(m.patched());
    EXPECT_TRUE(a.patched());  // the copy materialised alone
}

// bind_entry places a large tensor as lazy zeros (its inputs usually replace them), which read as zeros page by
// page and flat, and are a different generator from the seeded and poisoned ones.
TEST(ByteStore, LazyZerosReadAsZerosAndAreTheirOwnGenerator) {
    const int64_t n = 300000;
    const rt::ByteStore z = rt::ByteStore::lazy_zero(DType::BF16, n);
    ASSERT_TRUE(z.lazy());
    EXPECT_EQ(*z.span(rt::ByteStore::kPageBytes * 2 + 3, 1), 0);
    EXPECT_TRUE(rt::ByteStore::same_generator(z, rt::ByteStore::lazy_zero(DType::BF16, n)));
    EXPECT_FALSE(rt::ByteStore::same_generator(z, rt::ByteStore::lazy_poison(DType::BF16, n)));
    EXPECT_FALSE(rt::ByteStore::same_generator(z, rt::ByteStore::lazy_input(DType::BF16, 0, n)));
    EXPECT_EQ(z.vec(), std::vector<uint8_t>(storage_bytes(DType::BF16, n), 0));  // materialises z
}

}  // namespace
}  // namespace cvsim
