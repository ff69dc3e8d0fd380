// Tests of models/ring_buffer: the cross-core ring protocol (empty, full, wrap-around, gather, broadcast,
// errors).
#include "core/ring_buffer.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <deque>

namespace cvsim {
namespace {

using FreeResult = RingBuffer::FreeResult;

TEST(RingBufferTest, EmptyRingAcceptsPushesAndRefusesPops) {
    RingBuffer ring(4, 1, 1);
    EXPECT_TRUE(ring.can_push(0));
    EXPECT_FALSE(ring.can_pop(0));
    EXPECT_EQ(ring.occupancy(), 0);
    EXPECT_EQ(ring.next_push_slot(0), 0);
    EXPECT_EQ(ring.next_pop_slot(0), 0);
    EXPECT_THROW(ring.pop(0), std::logic_error);
}

TEST(RingBufferTest, FullRingRefusesPushUntilAConsumerFrees) {
    RingBuffer ring(3, 1, 1);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(ring.push(0), i);
    EXPECT_FALSE(ring.can_push(0));
    EXPECT_THROW(ring.push(0), std::logic_error);
    EXPECT_EQ(ring.occupancy(), 3);
    // Popping alone does not make room: the data is still in the slot until tfree.
    EXPECT_EQ(ring.pop(0), 0);
    EXPECT_FALSE(ring.can_push(0));
    EXPECT_EQ(ring.free(0, 0), FreeResult::Ok);
    EXPECT_TRUE(ring.can_push(0));
    EXPECT_EQ(ring.occupancy(), 2);
}

TEST(RingBufferTest, SlotsWrapAroundInRoundRobinOrder) {
    RingBuffer ring(2, 1, 1);
    std::vector<int> pushed, popped;
    for (int i = 0; i < 7; ++i) {
        pushed.push_back(ring.push(0));
        popped.push_back(ring.pop(0));
        EXPECT_EQ(ring.free(0, popped.back()), FreeResult::Ok);
    }
    EXPECT_EQ(pushed, (std::vector<int>{0, 1, 0, 1, 0, 1, 0}));
    EXPECT_EQ(popped, pushed);
    EXPECT_EQ(ring.slot(0).generation, 4u);
    EXPECT_EQ(ring.slot(1).generation, 3u);
    EXPECT_EQ(ring.push_count(), 7u);
    EXPECT_EQ(ring.pop_count(), 7u);
    EXPECT_EQ(ring.max_occupancy(), 1);
}

TEST(RingBufferTest, IndexAliasingDoesNotLetAConsumerPopTheSameGenerationTwice) {
    // With one slot, the consumer's head returns to slot 0 right after popping it: the popped mask, not the
    // head position, must stop a second pop of the same data.
    RingBuffer ring(1, 1, 1);
    ring.push(0);
    EXPECT_EQ(ring.pop(0), 0);
    EXPECT_EQ(ring.next_pop_slot(0), 0);
    EXPECT_FALSE(ring.can_pop(0));
    EXPECT_FALSE(ring.can_push(0));  // nor may the producer overwrite it before the free
    EXPECT_EQ(ring.free(0, 0), FreeResult::Ok);
    EXPECT_FALSE(ring.can_pop(0));  // free slot: nothing to pop
    ring.push(0);
    EXPECT_TRUE(ring.can_pop(0));
    EXPECT_EQ(ring.slot(0).generation, 1u);
}

TEST(RingBufferTest, GatherSlotIsNotReadyUntilBothProducerLanesPushed) {
    RingBuffer ring(2, 2, 1);  // V2C with split: both AIVs write halves of one slot
    EXPECT_EQ(ring.push(0), 0);
    EXPECT_FALSE(ring.slot(0).ready);
    EXPECT_FALSE(ring.can_pop(0));
    EXPECT_EQ(ring.occupancy(), 1);
    // Lane 0 runs ahead into slot 1 but cannot lap into slot 0 again.
    EXPECT_EQ(ring.push(0), 1);
    EXPECT_FALSE(ring.can_push(0));
    EXPECT_EQ(ring.push(1), 0);
    EXPECT_TRUE(ring.slot(0).ready);
    EXPECT_EQ(ring.slot(0).pushed, 0b11u);
    EXPECT_EQ(ring.pop(0), 0);
    EXPECT_FALSE(ring.can_pop(0));  // slot 1 only has lane 0's half
    EXPECT_EQ(ring.free(0, 0), FreeResult::Ok);
    EXPECT_TRUE(ring.can_push(0));  // slot 0 free again for the next generation
    EXPECT_TRUE(ring.can_push(1));  // lane 1's next slot (1) still lacks its half
    EXPECT_EQ(ring.push(1), 1);
    EXPECT_TRUE(ring.can_pop(0));
    EXPECT_EQ(ring.push_count(), 4u);
}

TEST(RingBufferTest, BroadcastSlotIsNotFreeUntilBothConsumerLanesFreed) {
    RingBuffer ring(1, 1, 2);  // C2V to both AIVs
    ring.push(0);
    EXPECT_TRUE(ring.can_pop(0));
    EXPECT_TRUE(ring.can_pop(1));
    EXPECT_EQ(ring.pop(0), 0);
    EXPECT_EQ(ring.free(0, 0), FreeResult::Ok);
    EXPECT_FALSE(ring.can_push(0));  // lane 1 still holds it
    EXPECT_FALSE(ring.can_pop(0));   // and lane 0 already consumed it
    EXPECT_EQ(ring.pop(1), 0);
    EXPECT_FALSE(ring.can_push(0));
    EXPECT_EQ(ring.free(1, 0), FreeResult::Ok);
    EXPECT_TRUE(ring.can_push(0));
    EXPECT_EQ(ring.occupancy(), 0);
    EXPECT_EQ(ring.slot(0).generation, 1u);
}

TEST(RingBufferTest, ProtocolErrorsAreReportedNotApplied) {
    RingBuffer ring(2, 1, 2);
    EXPECT_EQ(ring.free(0, 0), FreeResult::NotPopped);  // nothing pushed yet
    ring.push(0);
    EXPECT_EQ(ring.free(0, 0), FreeResult::NotPopped);  // ready but not popped by this lane
    EXPECT_EQ(ring.free(0, 7), FreeResult::NotPopped);  // no such slot
    ring.pop(0);
    EXPECT_EQ(ring.free(0, 0), FreeResult::Ok);
    EXPECT_EQ(ring.free(0, 0), FreeResult::AlreadyFreed);
    EXPECT_EQ(ring.free(1, 0), FreeResult::NotPopped);  // lane 1 must pop before it frees
    EXPECT_EQ(ring.free_count(), 1u);
    EXPECT_EQ(ring.occupancy(), 1);  // the errors did not release the slot
    ring.pop(1);
    EXPECT_EQ(ring.free(1, 0), FreeResult::Ok);
    EXPECT_EQ(ring.occupancy(), 0);
    // After the slot recycled, a repeated free is still recognised as a double free.
    EXPECT_EQ(ring.free(1, 0), FreeResult::AlreadyFreed);
    EXPECT_EQ(ring.free(0, 0), FreeResult::AlreadyFreed);
    EXPECT_EQ(ring.free(0, 1), FreeResult::NotPopped);
}

TEST(RingBufferTest, DoubleFreeOnASingleConsumerRingIsDetected) {
    RingBuffer ring(4, 1, 1);
    ring.push(0);
    ring.pop(0);
    EXPECT_EQ(ring.free(0, 0), FreeResult::Ok);
    EXPECT_EQ(ring.free(0, 0), FreeResult::AlreadyFreed);
    ring.push(0);  // slot 1
    EXPECT_EQ(ring.free(0, 0), FreeResult::AlreadyFreed);
}

TEST(RingBufferTest, ResetRestoresAFreshRing) {
    RingBuffer ring(2, 2, 2);
    ring.push(0);
    ring.push(1);
    ring.pop(0);
    ring.reset();
    EXPECT_EQ(ring.occupancy(), 0);
    EXPECT_EQ(ring.max_occupancy(), 0);
    EXPECT_EQ(ring.push_count(), 0u);
    EXPECT_EQ(ring.next_push_slot(1), 0);
    EXPECT_EQ(ring.next_pop_slot(0), 0);
    EXPECT_FALSE(ring.can_pop(1));
    EXPECT_TRUE(ring.can_push(0));
    EXPECT_EQ(ring.free(0, 0), FreeResult::NotPopped);
}

TEST(RingBufferTest, MaxOccupancyIsTheHighWaterMark) {
    RingBuffer ring(8, 1, 1);
    for (int i = 0; i < 5; ++i) ring.push(0);
    for (int i = 0; i < 5; ++i) ring.free(0, ring.pop(0));
    ring.push(0);
    EXPECT_EQ(ring.occupancy(), 1);
    EXPECT_EQ(ring.max_occupancy(), 5);
}

TEST(RingBufferTest, BadArgumentsAreCallerBugs) {
    EXPECT_THROW(RingBuffer(0, 1, 1), std::invalid_argument);
    EXPECT_THROW(RingBuffer(4, 0, 1), std::invalid_argument);
    EXPECT_THROW(RingBuffer(4, 1, RingBuffer::kMaxLanes + 1), std::invalid_argument);
    RingBuffer ring(4, 1, 2);
    EXPECT_THROW(ring.can_push(1), std::out_of_range);
    EXPECT_THROW(ring.can_pop(2), std::out_of_range);
    EXPECT_THROW(ring.free(-1, 0), std::out_of_range);
    EXPECT_THROW(ring.slot(4), std::out_of_range);
}

// Model: with in-order frees, item k of every lane uses slot k % n; producer p may push item k once every
// consumer freed item k - n; consumer c may pop item k once every producer pushed it.
RC_GTEST_PROP(RingBufferProperty, AgreesWithACountingModelUnderRandomSchedules, ()) {
    const int n = *rc::gen::inRange(1, 6);
    const int P = *rc::gen::inRange(1, 3);
    const int C = *rc::gen::inRange(1, 3);
    RingBuffer ring(n, P, C);
    std::vector<int64_t> pushed(P, 0), popped(C, 0), freed(C, 0);
    int max_occ = 0;
    const int steps = *rc::gen::inRange(1, 200);
    for (int step = 0; step < steps; ++step) {
        const int64_t min_freed = *std::min_element(freed.begin(), freed.end());
        const int64_t min_pushed = *std::min_element(pushed.begin(), pushed.end());
        const int64_t max_pushed = *std::max_element(pushed.begin(), pushed.end());
        for (int p = 0; p < P; ++p) RC_ASSERT(ring.can_push(p) == (pushed[p] - n < min_freed));
        for (int c = 0; c < C; ++c) RC_ASSERT(ring.can_pop(c) == (popped[c] < min_pushed));
        RC_ASSERT(ring.occupancy() == static_cast<int>(max_pushed - min_freed));
        max_occ = std::max(max_occ, ring.occupancy());
        RC_ASSERT(ring.max_occupancy() == max_occ);

        const int action = *rc::gen::inRange(0, 4);
        if (action == 0) {
            const int p = *rc::gen::inRange(0, P);
            if (ring.can_push(p)) RC_ASSERT(ring.push(p) == static_cast<int>(pushed[p]++ % n));
        } else if (action == 1) {
            const int c = *rc::gen::inRange(0, C);
            if (ring.can_pop(c)) RC_ASSERT(ring.pop(c) == static_cast<int>(popped[c]++ % n));
        } else if (action == 2) {
            const int c = *rc::gen::inRange(0, C);
            if (freed[c] < popped[c]) RC_ASSERT(ring.free(c, static_cast<int>(freed[c]++ % n)) == FreeResult::Ok);
        } else {
            // A free of a slot the lane holds nothing in is an error and changes nothing.
            const int c = *rc::gen::inRange(0, C);
            const int s = *rc::gen::inRange(0, n);
            bool held = false;
            for (int64_t k = freed[c]; k < popped[c]; ++k) held |= k % n == s;
            if (!held) RC_ASSERT(ring.free(c, s) != FreeResult::Ok);
        }
    }
}

}  // namespace
}  // namespace cvsim
