// The 4-bit dtypes end to end (tests/e2e/kernels/sub_byte_cast.py): packed .npy inputs written byte by byte
// (element 2k in the low nibble of byte k), the kernel run on both targets, outputs bit-exact to the reference
// and equal to hand-computed values (FP4 round to nearest even with saturation, INT4 saturation, UINT4 copies).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "frontend/runtime.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

rt::TensorBuffer packed(const std::string& name, DType t, int64_t rows, int64_t cols,
                        uint8_t (*code)(int64_t r, int64_t c)) {
    rt::TensorBuffer b;
    b.name = name;
    b.dtype = t;
    b.shape = {rows, cols};
    b.bytes.assign(static_cast<size_t>(rows * cols / 2), 0);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; c += 2)
            b.bytes[static_cast<size_t>((r * cols + c) / 2)] = static_cast<uint8_t>(code(r, c) | code(r, c + 1) << 4);
    return b;
}

rt::TensorBuffer read_out(const std::string& dir, const std::string& name, DType t, std::vector<int64_t> shape) {
    rt::TensorBuffer b;
    b.name = name;
    b.dtype = t;
    b.shape = std::move(shape);
    rt::read_npy(b, dir + "/" + name + ".npy");
    return b;
}

const double kFp4[16] = {0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6};

}  // namespace

TEST(SubByte, PackedTensorsLoadCastAndStoreBitExactToTheReferenceAndTheHandValues) {
    for (const char* target : {"a2a3", "a5"}) {
        SCOPED_TRACE(target);
        const std::string dir = ::testing::TempDir() + "/sub_byte_" + target;
        std::filesystem::create_directories(dir);
        rt::write_npy(packed("a", DType::FP4, 16, 32, [](int64_t, int64_t c) { return static_cast<uint8_t>(c % 16); }),
                      dir + "/a.npy");
        rt::write_npy(packed("b", DType::INT4, 16, 32,
                             [](int64_t, int64_t c) { return static_cast<uint8_t>(((c % 16) - 8) & 0xF); }),
                      dir + "/b.npy");
        rt::write_npy(
            packed("u", DType::UINT4, 16, 32, [](int64_t r, int64_t c) { return static_cast<uint8_t>((r + c) % 16); }),
            dir + "/u.npy");
        RunResult r =
            run_cvsim({"run", kernel("sub_byte_cast.py"), "--target", target, "--input", "a=" + dir + "/a.npy",
                       "--input", "b=" + dir + "/b.npy", "--input", "u=" + dir + "/u.npy", "--output-dir", dir});
        ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
        EXPECT_NE(unwrapped(r.out).find("outputs: equal to the reference (4 tensors, bit-exact)"), std::string::npos)
            << r.out;
        // The .npy of a 4-bit tensor is its packed bytes: uint8, last dimension halved.
        {
            std::ifstream f(dir + "/o1.npy", std::ios::binary);
            std::string head(128, '\0');
            f.read(head.data(), 128);
            EXPECT_NE(head.find("'descr': '|u1'"), std::string::npos) << head;
            EXPECT_NE(head.find("'shape': (16, 16)"), std::string::npos) << head;
        }
        const auto o1 = read_out(dir, "o1", DType::FP4, {16, 32});
        const auto o2 = read_out(dir, "o2", DType::INT4, {16, 32});
        const auto o3 = read_out(dir, "o3", DType::UINT4, {16, 32});
        const auto o4 = read_out(dir, "o4", DType::FP32, {16, 32});
        // fp4(1.5 * x) by hand, byte by byte: codes (0,1) -> (0, 0x2 = 1 (0.75 ties to even)), (2,3) -> (1.5, 2),
        // (4,5) -> (3, 4 (4.5)), (6,7) -> (6, 6 (9 saturates)), and the same with the sign bit.
        const uint8_t want_bytes[8] = {0x20, 0x43, 0x65, 0x77, 0xA8, 0xCB, 0xED, 0xFF};
        for (int64_t row = 0; row < 16; ++row)
            for (int64_t k = 0; k < 16; ++k)
                EXPECT_EQ(o1.bytes[static_cast<size_t>(row * 16 + k)], want_bytes[k % 8]) << row << "," << k;
        for (int64_t row = 0; row < 16; ++row)
            for (int64_t c = 0; c < 32; ++c) {
                const int64_t i = row * 32 + c;
                EXPECT_EQ(get_element(DType::FP32, o4.bytes.data(), i), kFp4[c % 16]) << c;  // low nibble first
                const double v = static_cast<double>(c % 16) - 8;
                EXPECT_EQ(get_element(DType::INT4, o2.bytes.data(), i), std::min(v + 3, 7.0)) << c;
                EXPECT_EQ(get_element(DType::UINT4, o3.bytes.data(), i),
                          static_cast<double>((row + (c + 16) % 32) % 16))
                    << row << "," << c;
            }
    }
}

TEST(SubByte, ItsGeneratedInputsRunBitExactUnderTwoSchedulesAndCheckClean) {
    for (const char* seed : {"1", "7"}) {
        RunResult r = run_cvsim({"run", kernel("sub_byte_cast.py"), "--seed", seed});
        EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
        EXPECT_NE(unwrapped(r.out).find("outputs: equal to the reference (4 tensors, bit-exact)"), std::string::npos)
            << r.out;
    }
    RunResult c = run_cvsim({"check", kernel("sub_byte_cast.py"), "--schedules", "5", "--jobs", "1"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
}

TEST(SubByte, ARunTimeWindowThatSplitsAByteIsAnOobFinding) {
    RunResult r = run_cvsim({"run", kernel("sub_byte_odd_offset.py")});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    const std::string out = unwrapped(r.out + r.err);
    EXPECT_NE(out.find("error[E-OOB]"), std::string::npos) << out;
    EXPECT_NE(out.find("window [0:16, 17:31] of FP4 tensor a of shape [16, 32] splits a byte"), std::string::npos)
        << out;
}
