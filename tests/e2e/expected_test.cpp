// End to end: every case of ../shared/kernels/expected.toml through the real `cvsim check` binary.
#include <gtest/gtest.h>

#include <toml++/toml.h>

#include <set>
#include <string>
#include <vector>

#include "test_support.h"

using namespace cvsim::test;

namespace {

struct Case {
    std::string kernel;
    std::string args;
    std::string expect;       // "clean", "E-..." / "W-...", or "" for input errors
    std::string input_error;  // "E-PARSE" ...
    std::vector<int64_t> lines;
    std::string name;  // gtest-safe name
};

std::vector<Case> load_cases() {
    std::vector<Case> out;
    toml::table t = toml::parse_file(shared_dir() + "/kernels/expected.toml");
    auto* arr = t["case"].as_array();
    if (!arr) return out;
    for (auto& node : *arr) {
        auto& c = *node.as_table();
        Case k;
        k.kernel = c["kernel"].value_or(std::string());
        k.args = c["args"].value_or(std::string());
        k.expect = c["expect"].value_or(std::string());
        k.input_error = c["input_error"].value_or(std::string());
        if (auto* l = c["line"].as_array()) {
            for (auto& x : *l) k.lines.push_back(x.value_or<int64_t>(0));
        } else if (auto v = c["line"].value<int64_t>()) {
            k.lines.push_back(*v);
        }
        std::string n = k.kernel + "_" + k.args;
        for (auto& ch : n)
            if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
        k.name = n;
        out.push_back(k);
    }
    // Names must be unique for gtest.
    std::set<std::string> seen;
    for (auto& k : out)
        while (!seen.insert(k.name).second) k.name += "_";
    return out;
}

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.kernel << " " << c.args;
}

class ExpectedCase : public ::testing::TestWithParam<Case> {};

TEST_P(ExpectedCase, CheckGivesTheExpectedVerdict) {
    const Case& c = GetParam();
    std::vector<std::string> args = {"check", kernel_path(c.kernel)};
    for (auto& a : split_args(c.args)) args.push_back(a);
    RunResult r = run_cvsim(args, 300);
    std::string all = r.out + r.err;
    SCOPED_TRACE("cvsim check " + c.kernel + " " + c.args + "\n" + all);
    if (!c.input_error.empty()) {
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_NE(all.find("error[" + c.input_error + "]"), std::string::npos);
        bool line_ok = false;
        for (int64_t l : c.lines) line_ok |= all.find(":" + std::to_string(l) + ":") != std::string::npos;
        EXPECT_TRUE(line_ok) << "expected the diagnostic at one of the listed lines";
        // One primary diagnostic per mistake.
        size_t n = 0;
        for (size_t p = all.find("error["); p != std::string::npos; p = all.find("error[", p + 1)) ++n;
        EXPECT_EQ(n, 1u);
        return;
    }
    if (c.expect == "clean") {
        EXPECT_EQ(r.exit_code, 0);
        EXPECT_NE(all.find("PASS"), std::string::npos);
    } else {
        EXPECT_EQ(r.exit_code, 1);
        EXPECT_NE(all.find(c.expect), std::string::npos);
    }
}

INSTANTIATE_TEST_SUITE_P(Manifest, ExpectedCase, ::testing::ValuesIn(load_cases()),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

TEST(Manifest, HasCases) {
    EXPECT_GE(load_cases().size(), 30u);
}

}  // namespace
