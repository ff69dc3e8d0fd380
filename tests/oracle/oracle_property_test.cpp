// Properties checked against the verdict oracle on generated kernels (tests/oracle/oracle_gen.h):
//  1. the HB checker (nominal + random schedules) and the oracle agree on deadlock and, without one, every race
//     the checker reports is one the oracle finds (tensor, source-line pair) and every tensor the oracle finds
//     racing is reported by the checker (FastTrack reports a race per location, not every racing pair);
//  2. under --v2c fence / syncall the expansion is race- and deadlock-free per the oracle (kernels whose GM
//     dependencies are all V2C, no hand-written mistakes);
//  3. --v2c reject errors iff the oracle finds an unordered V2C dependency (an AIV write racing with an AIC read
//     of a kernel tensor) in the --v2c off expansion.
// CI runs properties 1 and 2 and the soundness half of 3 on the full generator, and 3 itself on a configuration
// restricted to what holds on today's main (CVSIM_PROPERTY_CASES cases, default 150); CVSIM_ORACLE_FULL=1 switches
// every generator feature on (the classes of issue 10 still open fail there). OracleSweep.Seeded with
// CVSIM_ORACLE_SWEEP=N runs N seeded kernels of the full configuration and prints every failing class with its smallest
// kernel (written to CVSIM_ORACLE_FINDINGS=DIR when set); without it, 20 kernels on which checker and oracle must
// agree.
#include "oracle_property_support.h"

using namespace cvsim;
using namespace cvsim::test;
using namespace cvsim::test::prop;

namespace {

TEST(OracleProperty, CheckerAgreesWithTheOracle) {
    OracleGenOptions opt = ci_options();
    check_property("HB checker and oracle agree on races and deadlock", [opt] {
        OracleKernel k = *rc::gen::resize(rc::kNominalSize, gen_oracle_kernel(opt));
        Config c = draw_config();
        Comparison r = compare(k, c, 2, /*cross_check=*/true);
        RC_TAG(r.skipped ? "skipped" : "compared");
        if (!r.cls.empty()) RC_FAIL(r.cls + " under " + cfg_str(c, k) + "\n" + r.detail + k.text);
    });
}

// Kernels whose GM dependencies the V2C policies promise to order: V2C only, no hand-written mistakes.
OracleGenOptions orderable_options() {
    OracleGenOptions o = full() ? full_options() : OracleGenOptions{};
    o.single_store = true;
    o.gm_c2v = false;
    o.wrong_sync = false;
    o.block_collide = false;
    o.atomics = false;
    if (!full()) {
        o = OracleGenOptions{};
        o.single_store = true;
        o.gm_c2v = false;
        o.moving_windows = o.barriers = true;
        o.max_blocks = 2;
        o.splits = {0, 1, 2};
        o.rows_vary = false;  // reject errors on disjoint windows: issue 10 class 12
        // A V2C tile move or an author's flag pair between store and load in a loop is taken as ordering the
        // loop-carried WAR too (fence / syncall add nothing), and reject does not see either (class 3, 12, 13).
        o.boundary_v2c = false;
        // not in CI: views (class 4), a5 split flags (class 7), a visibility delay (class 5)
    }
    return o;
}

// Every generator feature the policies promise to order (views, moving windows, branches, author syncs,
// splits, two blocks), both targets, with and without a visibility delay: all of it holds since the issue-10
// fixes (10,000-kernel sweep: no failure), so CI runs the whole configuration.
OracleGenOptions orderable_full() {
    OracleGenOptions o = full_options();
    o.v2c_first = true;  // vector-first write-after-read / write-after-write are V2C too
    o.single_store = true;
    o.gm_c2v = false;
    o.wrong_sync = false;
    o.block_collide = false;
    o.atomics = false;
    return o;
}

TEST(OracleProperty, FenceAndSyncallExpansionsAreCleanPerTheOracle) {
    OracleGenOptions opt = orderable_full();
    check_property("fence / syncall: the oracle finds no race and no deadlock", [opt] {
        OracleKernel k = *rc::gen::resize(rc::kNominalSize, gen_oracle_kernel(opt));
        Opts o;
        o.v2c = *rc::gen::element(passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall);
        o.target = *rc::gen::element(Target::A2A3, Target::A5);
        o.vis = *rc::gen::element<uint64_t>(0, 50);
        o.blocks = k.blocks;
        std::unique_ptr<sim::Session> s;
        try {
            s = session_of("generated.py", k.text, o);
        } catch (const CompileError& e) {
            RC_FAIL("does not compile: " + render_text(e.diag()) + "\n" + k.text);
        }
        auto v = oracle_of(*s);
        RC_ASSERT(!v.unsupported);
        const std::string cfg = std::string("--v2c ") + std::string(passes::policy_name(o.v2c)) + " --target " +
                                std::string(target_name(o.target)) + " --blocks " + std::to_string(k.blocks) +
                                " --visibility-delay " + std::to_string(o.vis);
        if (v.deadlock || !v.races.empty()) RC_FAIL(cfg + ": " + format_verdict(v) + "\n" + k.text);
        // ... and the expansion computes what the sequential reference computes (the nominal simulation).
        CheckerView cv = checker_of(*s, 0);
        if (cv.other.count("E-MISMATCH") || cv.other.count("E-UNWRITTEN"))
            RC_FAIL(cfg + ": outputs differ from the reference\n" + cv.text + k.text);
    });
}

// --c2v complete with --v2c fence / syncall: no cross-core GM hazard of either direction and no deadlock.
TEST(OracleProperty, CompleteC2vExpansionsAreCleanPerTheOracle) {
    OracleGenOptions opt = complete_options();
    check_property("--c2v complete + fence / syncall: the oracle finds no race and no deadlock", [opt] {
        OracleKernel k = *rc::gen::resize(rc::kNominalSize, gen_oracle_kernel(opt));
        Opts o;
        o.v2c = *rc::gen::element(passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall);
        o.c2v = passes::C2VPolicy::Complete;
        o.target = *rc::gen::element(Target::A2A3, Target::A5);
        o.vis = *rc::gen::element<uint64_t>(0, 50);
        o.blocks = k.blocks;
        std::unique_ptr<sim::Session> s;
        try {
            s = session_of("generated.py", k.text, o);
        } catch (const CompileError& e) {
            RC_FAIL("does not compile: " + render_text(e.diag()) + "\n" + k.text);
        }
        auto v = oracle_of(*s);
        RC_ASSERT(!v.unsupported);
        if (v.deadlock || !v.races.empty())
            RC_FAIL(std::string("--c2v complete --v2c ") + std::string(passes::policy_name(o.v2c)) + " --target " +
                    std::string(target_name(o.target)) + " --blocks " + std::to_string(k.blocks) +
                    " --visibility-delay " + std::to_string(o.vis) + ": " + format_verdict(v) + "\n" + k.text);
    });
}

// Soundness half of property 3 on the whole orderable configuration: reject is never silent on a V2C
// dependency the oracle finds unordered in the off expansion (it may still err conservatively).
TEST(OracleProperty, RejectIsNeverSilentOnAnUnorderedV2cDependency) {
    OracleGenOptions opt = orderable_full();
    check_property("reject is never silent on an unordered V2C dependency", [opt] {
        OracleKernel k = *rc::gen::resize(rc::kNominalSize, gen_oracle_kernel(opt));
        Opts o;
        o.v2c = passes::V2CPolicy::Off;
        o.target = *rc::gen::element(Target::A2A3, Target::A5);
        o.blocks = k.blocks;
        auto off = session_of("generated.py", k.text, o);
        auto v = oracle_of(*off);
        RC_ASSERT(!v.unsupported);
        if (v.deadlock || !unordered_v2c(v)) {
            RC_TAG("nothing to reject");
            return;
        }
        o.v2c = passes::V2CPolicy::Reject;
        try {
            session_of("generated.py", k.text, o);
        } catch (const CompileError& e) {
            if (e.diag().code == "E-V2C-UNFENCED") return;
            RC_FAIL("reject gave another diagnostic: " + render_text(e.diag()) + "\n" + k.text);
        }
        RC_FAIL("reject is silent on an unordered V2C dependency (--target " + std::string(target_name(o.target)) +
                ")\n" + format_verdict(v) + "\n" + k.text);
    });
}

// The same under --c2v complete on everything a policy pair can order (cube scratches the vector lane
// reads and writes, cross-lane write-after-write): what complete + off leaves is V2C, and reject reports it.
TEST(OracleProperty, RejectIsNeverSilentUnderCompleteC2v) {
    OracleGenOptions opt = complete_options();
    check_property("--c2v complete: reject is never silent on an unordered V2C dependency", [opt] {
        OracleKernel k = *rc::gen::resize(rc::kNominalSize, gen_oracle_kernel(opt));
        Opts o;
        o.v2c = passes::V2CPolicy::Off;
        o.c2v = passes::C2VPolicy::Complete;
        o.target = *rc::gen::element(Target::A2A3, Target::A5);
        o.blocks = k.blocks;
        std::unique_ptr<sim::Session> off;
        try {
            off = session_of("generated.py", k.text, o);
        } catch (const CompileError& e) {
            RC_FAIL("does not compile: " + render_text(e.diag()) + "\n" + k.text);
        }
        auto v = oracle_of(*off);
        RC_ASSERT(!v.unsupported);
        if (v.deadlock || !unordered_v2c(v)) {
            RC_TAG("nothing to reject");
            return;
        }
        o.v2c = passes::V2CPolicy::Reject;
        try {
            session_of("generated.py", k.text, o);
        } catch (const CompileError& e) {
            if (e.diag().code == "E-V2C-UNFENCED") return;
            RC_FAIL("reject gave another diagnostic: " + render_text(e.diag()) + "\n" + k.text);
        }
        RC_FAIL("--c2v complete --v2c reject is silent on an unordered dependency (--target " +
                std::string(target_name(o.target)) + ")\n" + format_verdict(v) + "\n" + k.text);
    });
}

TEST(OracleProperty, RejectErrorsIffTheOffExpansionHasAnUnorderedV2cDependency) {
    OracleGenOptions opt = orderable_options();
    // reject does not see an author's flag pair or barrier in a loop (class 13)
    opt.hand_sync = opt.barriers = full();
    check_property("reject errors iff the oracle finds an unordered V2C dependency under off", [opt] {
        OracleKernel k = *rc::gen::resize(rc::kNominalSize, gen_oracle_kernel(opt));
        Opts o;
        o.v2c = passes::V2CPolicy::Off;
        o.blocks = k.blocks;
        auto off = session_of("generated.py", k.text, o);
        auto v = oracle_of(*off);
        RC_ASSERT(!v.unsupported);
        if (v.deadlock) {
            RC_TAG("deadlocks under off");
            return;
        }
        bool rejected = false;
        std::string diag;
        o.v2c = passes::V2CPolicy::Reject;
        try {
            session_of("generated.py", k.text, o);
        } catch (const CompileError& e) {
            rejected = e.diag().code == "E-V2C-UNFENCED";
            diag = render_text(e.diag());
        }
        // (A load lane DCE removes is no access: reject no longer errors on one, gm_sync skips it.)
        bool racy = unordered_v2c(v);
        RC_TAG(racy ? "racy" : "ordered");
        if (rejected != racy)
            RC_FAIL(std::string(rejected ? "reject errors but the oracle finds every V2C dependency ordered: " + diag
                                         : "reject is silent on an unordered V2C dependency") +
                    "\n" + format_verdict(v) + "\n" + k.text);
    });
}

}  // namespace
