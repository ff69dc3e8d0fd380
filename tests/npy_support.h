// .npy and kernel-file helpers of the e2e tests that write inputs for `cvsim run` and read its outputs back.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "frontend/runtime.h"
#include "test_support.h"

namespace cvsim::test {

// A tensor buffer of `values` (row-major), each rounded to `t` as put_element does.
inline rt::TensorBuffer npy_buffer(const std::string& name, DType t, std::vector<int64_t> shape,
                                   const std::vector<double>& values) {
    rt::TensorBuffer b;
    b.name = name;
    b.dtype = t;
    b.shape = std::move(shape);
    b.bytes.assign(storage_bytes(t, static_cast<int64_t>(values.size())), 0);
    for (size_t i = 0; i < values.size(); ++i) put_element(t, values[i], b.bytes.data(), static_cast<int64_t>(i));
    return b;
}

// The elements of an output .npy `dir/name.npy` of the given dtype and shape.
inline std::vector<double> npy_values(const std::string& dir, const std::string& name, DType t,
                                      std::vector<int64_t> shape) {
    rt::TensorBuffer out;
    out.name = name;
    out.dtype = t;
    out.shape = std::move(shape);
    rt::read_npy(out, dir + "/" + name + ".npy");
    std::vector<double> v(static_cast<size_t>(out.numel()));
    for (size_t i = 0; i < v.size(); ++i) v[i] = get_element(t, out.bytes.data(), static_cast<int64_t>(i));
    return v;
}

// Writes a kernel (or any text) file; false when it cannot be opened.
inline bool write_text_file(const std::string& path, const std::string& text) {
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return false;
    std::fputs(text.c_str(), f);
    return std::fclose(f) == 0;
}

// A misuse of an op in a kernel: `from` replaced by `to` in the kernel's text makes `cvsim run --target
// target` exit 2 with error[code], a message containing `text` and a caret.
struct Misuse {
    std::string from, to, code, text, target;
};
inline void expect_misuses(const std::string& kernel_text, const std::vector<Misuse>& cases, const std::string& tag) {
    int i = 0;
    for (const Misuse& b : cases) {
        std::string text = kernel_text;
        const size_t p = text.find(b.from);
        ASSERT_NE(p, std::string::npos) << b.from;
        text.replace(p, b.from.size(), b.to);
        const std::string path = ::testing::TempDir() + "/" + tag + "_bad" + std::to_string(i++) + ".py";
        ASSERT_TRUE(write_text_file(path, text)) << path;
        RunResult r = run_cvsim({"run", path, "--target", b.target});
        EXPECT_EQ(r.exit_code, 2) << b.to << "\n" << r.err;
        EXPECT_NE(r.err.find("error[" + b.code + "]"), std::string::npos) << b.to << "\n" << r.err;
        EXPECT_NE(r.err.find(b.text), std::string::npos) << b.to << "\n" << r.err;
        EXPECT_NE(r.err.find("^"), std::string::npos) << "no caret: " << r.err;
    }
}

}  // namespace cvsim::test
