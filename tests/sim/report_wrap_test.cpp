// The text reports' width fitting (sim/report.h): what a reader pastes must survive the wrap.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "app/report.h"
#include "test_support.h"

using namespace cvsim;

namespace {

// Every width from the narrowest to past the line: a replay command wraps with shell continuations and an
// option never lands on one line with its value on the next (CI once saw "--seed \" then "17" when the
// kernel's path was 6 characters longer than here).
TEST(ReportWrap, AReplayCommandKeepsEachOptionWithItsValueAtEveryWidth) {
    const std::string line =
        "    replay: cvsim run /some/where/a/fairly/long/path/to/kernels/v2c_rope_attn.py --schedule random "
        "--seed 17 --v2c fence --target a5 --visibility-delay 50 --no-progress";
    for (size_t width = 40; width <= line.size() + 1; ++width) {
        const std::string out = cli::fit_width(line + "\n", width);
        std::istringstream in(out);
        std::string l;
        size_t lines = 0;
        while (std::getline(in, l)) {
            ++lines;
            const bool last = in.peek() == EOF;
            if (!last) {
                ASSERT_GE(l.size(), 2u) << out;
                EXPECT_EQ(l.substr(l.size() - 2), " \\") << "width " << width << ":\n" << out;
                const std::string body = l.substr(0, l.size() - 2);
                const size_t sp = body.rfind(' ');
                const std::string lastword = body.substr(sp == std::string::npos ? 0 : sp + 1);
                EXPECT_FALSE(lastword.rfind("--", 0) == 0 && lastword != "--no-progress")
                    << "width " << width << " split " << lastword << " from its value:\n"
                    << out;
            }
        }
        EXPECT_EQ(lines > 1, line.size() > width) << out;
        EXPECT_EQ(test::unwrapped(out), line + "\n") << "width " << width;
    }
}

}  // namespace
