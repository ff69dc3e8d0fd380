// Publication of a V2C store under a GM visibility delay (issue 10, SPEC 4.5/6) when the store sits in a
// loop or branch: a system.fence() after the loop / branch that runs after every instance of the store and
// before the release publishes it (reject accepts; before: a false E-V2C-UNFENCED); a fence before the store
// in the body, in one arm of a branch, or none does not (reject errors, as the checker and the oracle find a
// race in the program as written). fence / syncall expansions stay race-free under the delay.
#include <gtest/gtest.h>

#include "oracle_support.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

const char* kLoop =
    "        for i in pl.range(2):\n            sv0 = pl.store(vin, [i * 16, 0], sv0)\n        pl.system.fence()\n";

struct Variant {
    const char* name;
    const char* body;  // replaces kLoop
    bool published;
};

const Variant kVariants[] = {
    {"fence after the loop", kLoop, true},
    {"fence after the store in the body",
     "        for i in pl.range(2):\n            sv0 = pl.store(vin, [i * 16, 0], sv0)\n            "
     "pl.system.fence()\n",
     true},
    {"stores in an arm, fence after the loop",
     "        for i in pl.range(2):\n            if i == 1:\n                sv0 = pl.store(vin, [0, 0], sv0)\n"
     "                sv0 = pl.store(vin, [16, 0], sv0)\n        pl.system.fence()\n",
     true},
    {"fence before the store in the body",
     "        for i in pl.range(2):\n            pl.system.fence()\n            sv0 = pl.store(vin, [i * 16, 0], "
     "sv0)\n",
     false},
    {"fence in one arm after the store",
     "        for i in pl.range(2):\n            sv0 = pl.store(vin, [i * 16, 0], sv0)\n            if i == 0:\n       "
     "         pl.system.fence()\n",
     false},
    {"no fence", "        for i in pl.range(2):\n            sv0 = pl.store(vin, [i * 16, 0], sv0)\n", false},
};

std::string variant(const Variant& v) {
    std::string t = read_file(std::string(CVSIM_SOURCE_DIR) + "/tests/oracle/kernels/reject_publish_nested.py");
    size_t p = t.find(kLoop);
    EXPECT_NE(p, std::string::npos);
    if (p != std::string::npos) t.replace(p, std::string(kLoop).size(), v.body);
    return t;
}

TEST(PublishNested, RejectAcceptsExactlyTheFencesThatFollowEveryStoreBeforeTheRelease) {
    // Every compile that throws comes before the first simulation (ASan + QuickThreads, docs/DECISIONS.md).
    for (const Variant& v : kVariants)
        for (Target t : {Target::A2A3, Target::A5}) {
            Opts o;
            o.target = t;
            o.vis = 50;
            o.v2c = passes::V2CPolicy::Reject;
            std::string code;
            try {
                session_of("k.py", variant(v), o);
            } catch (const CompileError& e) {
                code = e.diag().code;
            }
            EXPECT_EQ(code, v.published ? "" : "E-V2C-UNFENCED") << v.name << " " << target_name(t);
        }
    for (const Variant& v : kVariants)
        for (Target t : {Target::A2A3, Target::A5}) {
            std::string what = std::string(v.name) + " " + std::string(target_name(t));
            Opts o;
            o.target = t;
            o.vis = 50;
            o.v2c = passes::V2CPolicy::Off;
            auto off = session_of("k.py", variant(v), o);
            CheckerView cv = checker_of(*off, 3);
            EXPECT_EQ(cv.races.empty(), v.published) << what << " --v2c off:\n" << cv.text;
            auto ov = oracle_of(*off, true);
            EXPECT_EQ(ov.races.empty(), v.published) << what << " --v2c off (oracle):\n" << format_verdict(ov);
            for (auto p : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall}) {
                o.v2c = p;
                auto s = session_of("k.py", variant(v), o);
                CheckerView f = checker_of(*s, 3);
                EXPECT_TRUE(f.races.empty() && !f.deadlock)
                    << what << (p == passes::V2CPolicy::Fence ? " fence" : " syncall") << ":\n"
                    << f.text;
                auto fv = oracle_of(*s, true);
                EXPECT_TRUE(fv.races.empty() && !fv.deadlock) << what << " (oracle):\n" << format_verdict(fv);
            }
        }
}

}  // namespace
