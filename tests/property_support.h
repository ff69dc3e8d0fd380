// Running a rapidcheck property as (part of) a GoogleTest case with a bounded number of cases.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>

namespace cvsim::test {

// CVSIM_PROPERTY_CASES when set (at least 1), else `dflt`.
inline int property_cases(int dflt) {
    const char* n = std::getenv("CVSIM_PROPERTY_CASES");
    return n ? std::max(1, std::atoi(n)) : dflt;
}

// Runs the property `t` for `cases` cases and fails the test case when it does not hold. The seed and the
// sizes come from RC_PARAMS as usual; without RC_PARAMS the cases are fixed (CI determinism: a property that
// counts how often the generator produced something may not pass in one run and fail in the next): `seed`
// when nonzero, else one derived from the property's name (FNV-1a). RC_PARAMS="seed=N" explores others.
template <typename Testable>
void check_property(const std::string& name, Testable&& t, int cases, uint64_t seed = 0) {
    rc::detail::TestParams params = rc::detail::configuration().testParams;
    params.maxSuccess = cases;
    if (seed == 0) {
        seed = 14695981039346656037ull;
        for (unsigned char ch : name) seed = (seed ^ ch) * 1099511628211ull;
    }
    if (!std::getenv("RC_PARAMS")) params.seed = seed;
    rc::detail::TestMetadata meta;
    meta.id = name;
    meta.description = name;
    auto result = rc::detail::checkTestable(std::forward<Testable>(t), meta, params);
    rc::detail::printResultMessage(result, std::cerr);
    std::cerr << "\n";
    EXPECT_TRUE(result.template is<rc::detail::SuccessResult>()) << name;
}

}  // namespace cvsim::test
