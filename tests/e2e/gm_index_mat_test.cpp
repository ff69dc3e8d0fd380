// pl.tile.mgather's Mat (L1) form on the cube (pto-isa MGATHER GM -> L1, issue 11): row and elem gathers through a
// GM index tensor run bit-exact to the reference on both targets with hand-computed values (gather_oob wrap and
// zero, a valid_shape), the elem mode's GM scratch holds the gathered elements in NZ order, two blocks sharing one
// scratch race (its write is a GM write), a V2C hand-over of the index tensor is ordered by the pass and races
// without it, and PyPTO's type rules are checked.
#include <gtest/gtest.h>

#include <filesystem>

#include "frontend/runtime.h"
#include "npy_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

}  // namespace

TEST(GmIndexMat, RowAndElemGathersIntoL1EqualTheReferenceAndTheHandComputedValues) {
    std::vector<double> table(64 * 32), flat(2048), ridx(32), eidx(32 * 32), eye(32 * 32, 0.0), scratch(1024, -7.0);
    for (int k = 0; k < 64 * 32; ++k) table[static_cast<size_t>(k)] = (k / 32) * 100 + k % 32;
    for (int k = 0; k < 2048; ++k) flat[static_cast<size_t>(k)] = k * 3 + 1;
    for (int r = 0; r < 32; ++r) ridx[static_cast<size_t>(r)] = (r * 29 + 11) % 64;
    ridx[3] = 70;  // past the 64 rows: wrap gives row 6
    ridx[4] = -1;  // read unsigned (4294967295): wrap gives row 4294967295 % 64 = 63
    for (int k = 0; k < 32 * 32; ++k) eidx[static_cast<size_t>(k)] = (k * 37) % 2048;
    eidx[5] = 2048;  // past the table: zero mode gives 0
    for (int i = 0; i < 32; ++i) eye[static_cast<size_t>(i * 33)] = 1.0;
    for (const char* target : {"a2a3", "a5"}) {
        SCOPED_TRACE(target);
        const std::string dir = ::testing::TempDir() + "/gm_index_mat_" + target;
        std::filesystem::create_directories(dir);
        rt::write_npy(npy_buffer("table", DType::FP32, {64, 32}, table), dir + "/table.npy");
        rt::write_npy(npy_buffer("flat", DType::FP32, {2048}, flat), dir + "/flat.npy");
        rt::write_npy(npy_buffer("ridx", DType::INT32, {1, 32}, ridx), dir + "/ridx.npy");
        rt::write_npy(npy_buffer("eidx", DType::INT32, {32, 32}, eidx), dir + "/eidx.npy");
        rt::write_npy(npy_buffer("eye", DType::FP32, {32, 32}, eye), dir + "/eye.npy");
        rt::write_npy(npy_buffer("scratch", DType::FP32, {1024}, scratch), dir + "/scratch.npy");
        std::vector<std::string> cmd = {"run", kernel("mgather_mat.py"), "--target", target, "--output-dir", dir};
        for (const char* n : {"table", "flat", "ridx", "eidx", "eye", "scratch"}) {
            cmd.push_back("--input");
            cmd.push_back(std::string(n) + "=" + dir + "/" + n + ".npy");
        }
        RunResult r = run_cvsim(cmd);
        ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
        EXPECT_NE(unwrapped(r.out).find("outputs: equal to the reference (3 tensors, bit-exact)"), std::string::npos)
            << r.out;
        const auto rows = npy_values(dir, "rows", DType::FP32, {32, 32}),
                   elems = npy_values(dir, "elems", DType::FP32, {32, 32}),
                   scr = npy_values(dir, "scratch", DType::FP32, {1024});
        for (int r0 = 0; r0 < 32; ++r0) {
            const int src = r0 == 3 ? 6 : r0 == 4 ? 63 : static_cast<int>(ridx[static_cast<size_t>(r0)]);
            for (int c = 0; c < 32; ++c)
                ASSERT_EQ(rows[static_cast<size_t>(r0 * 32 + c)], src * 100 + c) << r0 << "," << c;
        }
        // valid_shape [16, 24]: the rest of the tile is 0.
        for (int r0 = 0; r0 < 32; ++r0)
            for (int c = 0; c < 32; ++c) {
                const int k = r0 * 32 + c;
                const double want = r0 < 16 && c < 24 && k != 5 ? eidx[static_cast<size_t>(k)] * 3 + 1 : 0.0;
                ASSERT_EQ(elems[static_cast<size_t>(k)], want) << r0 << "," << c;
                // The scratch: element (r, c) at its NZ offset (8 FP32 per 32-byte block), every one of the 1024
                // written.
                ASSERT_EQ(scr[static_cast<size_t>(rt::nz_offset(r0, c, 32, 8))], want) << r0 << "," << c;
            }
    }
}

TEST(GmIndexMat, TheScratchWriteIsAGmWriteTwoBlocksSharingItRace) {
    // PyPTO's elem mode stages the gather through the scratch: a scratch shared by two blocks is a WAW race.
    std::string src = read_file(kernel("mgather_mat.py"));
    const std::string path = ::testing::TempDir() + "/gm_index_mat_blocks.py";
    ASSERT_TRUE(write_text_file(path, src));
    const std::string dir = ::testing::TempDir() + "/gm_index_mat_blocks";
    std::filesystem::create_directories(dir);
    std::vector<double> ridx(32), eidx(1024);
    for (int k = 0; k < 32; ++k) ridx[static_cast<size_t>(k)] = k;
    for (int k = 0; k < 1024; ++k) eidx[static_cast<size_t>(k)] = k;
    rt::write_npy(npy_buffer("ridx", DType::INT32, {1, 32}, ridx), dir + "/ridx.npy");
    rt::write_npy(npy_buffer("eidx", DType::INT32, {32, 32}, eidx), dir + "/eidx.npy");
    RunResult r = run_cvsim({"check", path, "--blocks", "2", "--schedules", "10", "--jobs", "1", "--input",
                             "ridx=" + dir + "/ridx.npy", "--input", "eidx=" + dir + "/eidx.npy"});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(unwrapped(r.out).find("error[E-RACE-WAW]: WAW on GM scratch"), std::string::npos) << r.out;
    // One block: no finding; its scope names the data-dependent addresses.
    RunResult one = run_cvsim({"check", path, "--schedules", "10", "--jobs", "1", "--input",
                               "ridx=" + dir + "/ridx.npy", "--input", "eidx=" + dir + "/eidx.npy"});
    EXPECT_EQ(one.exit_code, 0) << one.out << one.err;
    EXPECT_NE(unwrapped(one.out).find("holds for the explored schedules only"), std::string::npos) << one.out;
}

TEST(GmIndexMat, AV2CHandOverOfTheIndexTensorIsOrderedByThePassAndARaceWithoutIt) {
    for (const char* target : {"a2a3", "a5"}) {
        SCOPED_TRACE(target);
        RunResult off = run_cvsim({"check", kernel("mgather_mat_v2c.py"), "--target", target, "--v2c", "off",
                                   "--schedules", "20", "--jobs", "1"});
        EXPECT_EQ(off.exit_code, 1) << off.out << off.err;
        EXPECT_NE(unwrapped(off.out).find("error[E-RACE-RAW]: RAW on GM idx"), std::string::npos) << off.out;
        for (const char* policy : {"fence", "syncall"}) {
            RunResult ok = run_cvsim({"check", kernel("mgather_mat_v2c.py"), "--target", target, "--v2c", policy,
                                      "--schedules", "20", "--jobs", "1"});
            EXPECT_EQ(ok.exit_code, 0) << policy << "\n" << ok.out << ok.err;
        }
    }
}

TEST(GmIndexMat, PyptosTypeRulesOfTheMatFormAreChecked) {
    const std::vector<Misuse> cases = {
        {"coalesce=\"elem\", gather_oob=\"zero\", target_memory=pl.Mem.Mat,\n                                          "
         "                         scratch=scratch,",
         "coalesce=\"elem\", gather_oob=\"zero\", target_memory=pl.Mem.Mat,", "E-TYPE",
         "Mat elem mode requires a GM scratch tensor", "a5"},
        {"scratch=scratch, valid_shape=[16, 24]", "scratch=flat, valid_shape=[16, 24]", "E-TYPE",
         "must not alias mem or idx", "a5"},
        {"valid_shape=[16, 24]", "valid_shape=[16, 40]", "E-TYPE", "0 < Mat valid_shape[1] <= output_shape[1]", "a5"},
        {"pl.tile.mgather(table, ridx, coalesce=\"row\"", "pl.tile.mgather(table, eidx, coalesce=\"row\"", "E-TYPE",
         "requires a [1, R] GM idx tensor", "a5"},
        {"gather_oob=\"wrap\", target_memory=pl.Mem.Mat)",
         "gather_oob=\"wrap\", target_memory=pl.Mem.Mat, scratch=scratch)", "E-TYPE", "scratch belongs to elem mode",
         "a5"},
    };
    expect_misuses(read_file(kernel("mgather_mat.py")), cases, "gm_index_mat");
}
