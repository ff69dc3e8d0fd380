// The schedule's generator computes std::mt19937_64 lazily (sim/schedule.h): the same values, so every
// schedule's draws (latency jitter, start skew, PCT points, visibility delays) are what they always were.
#include <gtest/gtest.h>

#include <random>

#include "sim/schedule.h"

namespace cvsim::sim {

TEST(ScheduleRng, TheLazyEngineGivesTheStandardEnginesValues) {
    for (uint64_t seed :
         {uint64_t{0}, uint64_t{1}, uint64_t{7}, uint64_t{0x9E3779B97F4A7C15ull}, ~uint64_t{0}, uint64_t{123456789}}) {
        std::mt19937_64 want(seed);
        LazyMt64 got(seed);
        for (int i = 0; i < 3 * 312 + 5; ++i) ASSERT_EQ(got(), want()) << "seed " << seed << " draw " << i;
    }
}

TEST(ScheduleRng, DistributionsDrawTheSameValuesAsOnTheStandardEngine) {
    for (uint64_t seed = 0; seed < 50; ++seed) {
        std::mt19937_64 want(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull);
        ScheduleRng got(seed);
        for (int i = 0; i < 400; ++i) {
            if (i % 3 == 0) {
                ASSERT_EQ(got.unit(), std::uniform_real_distribution<double>(0.0, 1.0)(want));
            } else {
                const uint64_t hi = static_cast<uint64_t>(i) * 977;
                ASSERT_EQ(got.uniform(3, hi + 3), std::uniform_int_distribution<uint64_t>(3, hi + 3)(want));
            }
        }
    }
}

}  // namespace cvsim::sim
