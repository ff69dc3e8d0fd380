// Hand-written orderings that order nothing (issue 10 class 3; the generator's misleading_sync): a set on a
// pipe that does not cover the store's, the wait after the load, mismatched ids, a flag or a transport in
// the opposite direction, a hand-written pop after the load. The policies must not take them as "already
// ordered": V2C under fence / syncall and C2V under --c2v complete are clean per the checker and the oracle,
// --v2c off / --c2v upstream race, reject errors. A right ordering in the same place is recognised (control).
#include <gtest/gtest.h>

#include "oracle_support.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string fixture(const std::string& name) {
    return read_file(std::string(CVSIM_SOURCE_DIR) + "/tests/oracle/kernels/" + name);
}

struct Variant {
    const char* name;
    const char* before;    // lines at `# BEFORE` (before the producer store)
    const char* ordering;  // lines at `# ORDERING` (between the store and the load)
    const char* after;     // lines at `# AFTER` (after the load's use)
    bool orders = false;   // the control: a right ordering
    bool a5 = true;        // also on a5 (a hand-written tpush_to_aic of an ND tile is W-V2C-LAYOUT there)
    // A set on a pipe that does not cover the store: it orders once the store is published, and the ordering
    // policies publish an ordered store with a fence right after it (that fence alone is added, no token).
    bool orders_published = false;
};

std::string instantiate(std::string text, const Variant& v) {
    auto put = [&](const std::string& marker, const std::string& lines) {
        size_t p = text.find("        # " + marker + "\n");
        EXPECT_NE(p, std::string::npos) << marker;
        if (p == std::string::npos) return;
        std::string indented;
        size_t b = 0;
        while (b < lines.size()) {
            size_t e = lines.find('\n', b);
            if (e == std::string::npos) e = lines.size();
            indented += "        " + lines.substr(b, e - b) + "\n";
            b = e + 1;
        }
        text.replace(p, marker.size() + 11, indented);
    };
    put("BEFORE", v.before);
    put("ORDERING", v.ordering);
    put("AFTER", v.after);
    return text;
}

struct Outcome {
    bool checker_race = false, oracle_race = false, deadlock = false;
    int already_ordered = 0;
    std::string text;
};

Outcome outcome(const std::string& text, const Opts& o) {
    auto s = session_of("k.py", text, o);
    CheckerView cv = checker_of(*s, 3);
    auto v = oracle_of(*s, true);
    Outcome out;
    out.checker_race = cv.tensors.count("scratch") > 0;
    out.oracle_race = v.race_tensors().count("scratch") > 0;
    out.deadlock = cv.deadlock || v.deadlock;
    out.already_ordered = s->compiled().stats.already_ordered;
    out.text = format_verdict(v) + "\nchecker:\n" + cv.text;
    return out;
}

const Variant kV2c[] = {
    {"control: a right flag pair", "",
     "pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type=\"aiv\")\n"
     "pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type=\"aic\")",
     "", true},
    {"a set on the vector pipe", "",
     "pl.system.sync_set(3, pipe=pl.PipeType.V, core_type=\"aiv\")\n"
     "pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type=\"aic\")",
     "", false, true, true},
    {"the wait after the load", "", "pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type=\"aiv\")",
     "pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type=\"aic\")"},
    {"mismatched ids", "pl.system.sync_set(4, pipe=pl.PipeType.MTE3, core_type=\"aiv\")",
     "pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type=\"aiv\")\npl.system.sync_wait(4, pipe=pl.PipeType.MTE2, "
     "core_type=\"aic\")",
     "pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type=\"aic\")"},
    {"a PIPE_ALL flag from the cube to the vector lane", "",
     "pl.system.sync_set(3, pipe=pl.PipeType.ALL, core_type=\"aic\")\n"
     "pl.system.sync_wait(3, pipe=pl.PipeType.ALL, core_type=\"aiv\")",
     ""},
    {"a C2V transport", "",
     "pl.tpush_to_aiv(acc0, split=0)\nh: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)\n"
     "hv = pl.cast(h, pl.FP16)\npl.tfree_to_aic(h)",
     ""},
    {"a V2C transport popped after the load", "", "pl.tpush_to_aic(u, split=0)",
     "m: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0)\npl.tfree_to_aiv(m)", false, false},
};

TEST(MisleadingSync, V2cFenceAndSyncallOrderWhatTheAuthorsSyncDoesNot) {
    std::string base = fixture("misleading_v2c.py");
    // Every compile that throws (reject) comes before the first simulation: under ASan an exception after
    // SystemC ran in the same process is a false stack-buffer-overflow (QuickThreads; docs/DECISIONS.md).
    for (const Variant& v : kV2c) {
        std::string text = instantiate(base, v);
        for (Target t : {Target::A2A3, Target::A5}) {
            if (t == Target::A5 && !v.a5) continue;
            std::string what = std::string(v.name) + " --target " + std::string(target_name(t));
            Opts o;
            o.target = t;
            o.v2c = passes::V2CPolicy::Reject;
            o.vis = 0;
            bool rejected = false;
            try {
                session_of("k.py", text, o);
            } catch (const CompileError& e) {
                rejected = e.diag().code == "E-V2C-UNFENCED";
            }
            EXPECT_EQ(rejected, !v.orders) << what << " --v2c reject";
        }
    }
    for (const Variant& v : kV2c) {
        std::string text = instantiate(base, v);
        for (Target t : {Target::A2A3, Target::A5}) {
            if (t == Target::A5 && !v.a5) continue;
            std::string what = std::string(v.name) + " --target " + std::string(target_name(t));
            Opts o;
            o.target = t;
            o.v2c = passes::V2CPolicy::Off;
            Outcome off = outcome(text, o);
            EXPECT_FALSE(off.deadlock) << what << "\n" << off.text;
            EXPECT_EQ(off.checker_race, !v.orders) << what << " --v2c off\n" << off.text;
            EXPECT_EQ(off.oracle_race, !v.orders) << what << " --v2c off\n" << off.text;
            for (auto pol : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall})
                for (uint64_t vis : {0, 50}) {
                    o.v2c = pol;
                    o.vis = vis;
                    Outcome r = outcome(text, o);
                    std::string w = what + " --v2c " + std::string(passes::policy_name(pol)) + " --visibility-delay " +
                                    std::to_string(vis);
                    EXPECT_FALSE(r.checker_race || r.oracle_race || r.deadlock) << w << "\n" << r.text;
                    EXPECT_EQ(r.already_ordered, v.orders || v.orders_published ? 1 : 0) << w;
                }
        }
    }
}

const Variant kC2v[] = {
    {"control: a right flag pair", "",
     "pl.system.sync_set(3, pipe=pl.PipeType.FIX, core_type=\"aic\")\n"
     "pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type=\"aiv\")",
     "", true},
    {"a set on the cube pipe", "",
     "pl.system.sync_set(3, pipe=pl.PipeType.M, core_type=\"aic\")\n"
     "pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type=\"aiv\")",
     "", false, true, true},
    {"the wait after the load", "", "pl.system.sync_set(3, pipe=pl.PipeType.FIX, core_type=\"aic\")",
     "pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type=\"aiv\")"},
    {"mismatched ids", "pl.system.sync_set(4, pipe=pl.PipeType.FIX, core_type=\"aic\")",
     "pl.system.sync_set(3, pipe=pl.PipeType.FIX, core_type=\"aic\")\npl.system.sync_wait(4, pipe=pl.PipeType.MTE2, "
     "core_type=\"aiv\")",
     "pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type=\"aiv\")"},
    {"a PIPE_ALL flag from the vector lane to the cube", "",
     "pl.system.sync_set(3, pipe=pl.PipeType.ALL, core_type=\"aiv\")\n"
     "pl.system.sync_wait(3, pipe=pl.PipeType.ALL, core_type=\"aic\")",
     ""},
    {"a V2C transport", "",
     "pl.tpush_to_aic(t, split=0)\nm: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0)\n"
     "pl.tfree_to_aiv(m)",
     "", false, false},
    {"a C2V transport popped after the load", "", "pl.tpush_to_aiv(acc0, split=0)",
     "h: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)\npl.tfree_to_aic(h)"},
};

TEST(MisleadingSync, C2vCompleteOrdersWhatTheAuthorsSyncDoesNot) {
    std::string base = fixture("misleading_c2v.py");
    for (const Variant& v : kC2v) {
        std::string text = instantiate(base, v);
        for (Target t : {Target::A2A3, Target::A5}) {
            if (t == Target::A5 && !v.a5) continue;
            std::string what = std::string(v.name) + " --target " + std::string(target_name(t));
            Opts o;
            o.target = t;
            o.c2v = passes::C2VPolicy::Upstream;
            Outcome up = outcome(text, o);
            EXPECT_FALSE(up.deadlock) << what << "\n" << up.text;
            EXPECT_EQ(up.checker_race, !v.orders) << what << " --c2v upstream\n" << up.text;
            EXPECT_EQ(up.oracle_race, !v.orders) << what << " --c2v upstream\n" << up.text;
            o.c2v = passes::C2VPolicy::Complete;
            for (auto pol : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall})
                for (uint64_t vis : {0, 50}) {
                    o.v2c = pol;
                    o.vis = vis;
                    Outcome r = outcome(text, o);
                    std::string w = what + " --c2v complete --v2c " + std::string(passes::policy_name(pol)) +
                                    " --visibility-delay " + std::to_string(vis);
                    EXPECT_FALSE(r.checker_race || r.oracle_race || r.deadlock) << w << "\n" << r.text;
                    EXPECT_EQ(r.already_ordered, v.orders || v.orders_published ? 1 : 0) << w;
                }
        }
    }
}

}  // namespace
