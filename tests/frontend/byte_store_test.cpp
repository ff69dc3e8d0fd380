// rt::ByteStore (frontend/byte_store.h): a lazy input's pages are its generator's bytes, generated on first access
// only; every flat access materialises the whole (the same bytes); copies share the generator; fill_inputs makes
// large In tensors lazy (the threshold from CVSIM_LAZY_INPUT_BYTES) and the rest flat, with equal bytes.
#include <gtest/gtest.h>

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

TEST(ByteStore, FillInputsMakesLargeInTensorsLazyWithTheSameBytes) {
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
    EXPECT_FALSE(lazy.tensors[2].bytes.lazy());  // an output (InOut) stays flat
    setenv("CVSIM_LAZY_INPUT_BYTES", "off", 1);
    EXPECT_EQ(rt::lazy_input_bytes(), SIZE_MAX);
    rt::TensorStore eager = store();
    rt::fill_inputs(eager, 4);
    EXPECT_FALSE(eager.tensors[0].bytes.lazy());
    setenv("CVSIM_LAZY_INPUT_BYTES", "100", 1);
    EXPECT_EQ(rt::lazy_input_bytes(), 100u);
    setenv("CVSIM_LAZY_INPUT_BYTES", "1x", 1);
    EXPECT_THROW(rt::lazy_input_bytes(), std::invalid_argument);
    unsetenv("CVSIM_LAZY_INPUT_BYTES");
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(lazy.tensors[i].bytes.vec(), eager.tensors[i].bytes.vec()) << i;
}

}  // namespace
}  // namespace cvsim
