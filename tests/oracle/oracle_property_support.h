// Helpers of the oracle property and sweep tests (oracle_property_test.cpp, oracle_sweep_test.cpp): environment
// knobs, generator configurations, and one comparison of the checker with the oracle.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "oracle_gen.h"
#include "oracle_removal.h"
#include "oracle_support.h"
#include "property_support.h"
#include "test_support.h"

namespace cvsim::test::prop {

inline int env_int(const char* name, int dflt) {
    const char* v = std::getenv(name);
    return v ? std::max(1, std::atoi(v)) : dflt;
}
inline bool full() {
    return std::getenv("CVSIM_ORACLE_FULL") != nullptr;
}
inline int cases() {
    return env_int("CVSIM_PROPERTY_CASES", 150);
}

template <typename Testable>
void check_property(const std::string& name, Testable&& t) {
    test::check_property(name, std::forward<Testable>(t), cases(),
                         20261201);  // CI is deterministic; RC_PARAMS="seed=N" explores others
}

// Generator features: the full set, and the CI set that agrees with the checker on today's main.
inline OracleGenOptions full_options() {
    OracleGenOptions o;
    o.moving_windows = o.views = o.hand_sync = o.wrong_sync = o.barriers = o.block_collide = o.atomics = o.tile_views =
        o.live_loads = true;
    o.hand_rings = o.misleading_sync = true;
    o.max_blocks = 2;
    o.splits = {0, 1, 2};
    return o;
}
// Property 1 runs the full generator in CI too (classes 1, 6, 10 are fixed on main).
inline OracleGenOptions ci_options() {
    return full_options();
}

struct Config {
    Target target = Target::A2A3;
    passes::V2CPolicy v2c = passes::V2CPolicy::Off;
    uint64_t vis = 0;
};

inline std::string cfg_str(const Config& c, const OracleKernel& k) {
    return fmt::format("--target {} --v2c {} --blocks {} --visibility-delay {}", target_name(c.target),
                       passes::policy_name(c.v2c), k.blocks, c.vis);
}

// One comparison of the checker with the oracle. Empty `cls` = agreement (or skipped: `skipped` set).
struct Comparison {
    bool skipped = false;
    std::string cls;     // disagreement class
    std::string detail;  // what each side said
};

// What the source lines of a racing pair do (for naming a disagreement class).
inline std::string line_tags(const std::string& text, uint32_t a, uint32_t b) {
    std::set<std::string> tags;
    for (uint32_t ln : {a, b}) {
        size_t p = 0;
        for (uint32_t i = 1; i < ln && p != std::string::npos; ++i) p = text.find('\n', p) + 1;
        if (p == std::string::npos || (p == 0 && ln > 1)) continue;
        std::string l = text.substr(p, text.find('\n', p) - p);
        if (l.find("atomic=") != std::string::npos) tags.insert("atomic");
        if (l.find(", vw") != std::string::npos || l.find("(vw") != std::string::npos) tags.insert("view");
        if (l.find("% 2") != std::string::npos) tags.insert("moving window");
        if (l.find("(tv") != std::string::npos || l.find("pl.move(acc") != std::string::npos)
            tags.insert("popped tile / view");
        if (l.find("bi *") == std::string::npos && l.find("pl.store") != std::string::npos &&
            l.find("vw") == std::string::npos && text.find("bi = ") != std::string::npos)
            tags.insert("no block offset");
        if (l.find("sync_") != std::string::npos) tags.insert("hand flag");
        if (l.find("syncall") != std::string::npos) tags.insert("barrier");
    }
    std::string s;
    for (const auto& t : tags) s += (s.empty() ? "" : ", ") + t;
    return s.empty() ? "" : " {" + s + "}";
}

// `gm_only`: ring slot traffic is left out of the comparison (under a visibility delay the checker applies
// the fence rule to a2a3 slot writes: issue 10 class 10).
inline Comparison compare(const OracleKernel& k, const Config& c, int randoms, bool cross_check = false,
                          bool gm_only = false) {
    Comparison out;
    std::unique_ptr<sim::Session> s;
    try {
        Opts o;
        o.target = c.target;
        o.v2c = c.v2c;
        o.blocks = k.blocks;
        o.vis = c.vis;
        s = session_of("generated.py", k.text, o);
    } catch (const CompileError& e) {
        out.skipped = true;  // does not compile under this configuration (e.g. E-CAPACITY)
        out.detail = e.diag().code + " " + e.diag().message;
        return out;
    } catch (const std::exception& e) {
        out.skipped = true;
        out.detail = e.what();
        return out;
    }
    oracle::Verdict ov = oracle_of(*s, cross_check);  // cross_check: a disagreement inside the oracle throws
    if (ov.unsupported || ov.oob) {
        out.skipped = true;
        return out;
    }
    CheckerView cv = checker_of(*s, randoms);
    if (cv.timeout || cv.other.count("E-OOB")) {
        out.skipped = true;
        return out;
    }
    out.detail =
        format_verdict(ov) + "\nchecker:" + (cv.deadlock ? " DEADLOCK" : "") + keys_str(cv.races) + "\n" + cv.text;
    if (ov.deadlock != cv.deadlock) {
        out.cls = ov.deadlock ? "deadlock missed by the simulator" : "deadlock the oracle does not find";
        return out;
    }
    if (ov.deadlock) return out;
    auto okeys = ov.race_keys();
    auto slots = [](const std::string& t) { return t.rfind("__", 0) == 0; };
    for (const auto& key : cv.races)
        if (!okeys.count(key) && !(gm_only && slots(key.tensor))) {
            out.cls = "checker race the oracle does not find (" +
                      std::string(key.tensor.rfind("__", 0) == 0 ? "ring slots" : "GM") + ")" +
                      line_tags(k.text, key.line_a, key.line_b);
            return out;
        }
    for (const auto& t : ov.race_tensors())
        if (!cv.tensors.count(t) && !(gm_only && slots(t))) {
            out.cls = "race missed by the checker (" + std::string(t.rfind("__", 0) == 0 ? "ring slots" : "GM") + ")";
            for (const auto& r : ov.races)
                if (r.key.tensor == t) {
                    out.cls += line_tags(k.text, r.key.line_a, r.key.line_b);
                    break;
                }
            return out;
        }
    return out;
}

inline Config draw_config() {
    Config c;
    c.target = *rc::gen::element(Target::A2A3, Target::A5);
    c.v2c = *rc::gen::element(passes::V2CPolicy::Off, passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall);
    c.vis = *rc::gen::element<uint64_t>(0, 0, 50);
    return c;
}

// Everything a policy pair can order: the whole generator but deliberate mistakes and cross-block races
// (several stores per tensor, C2V and V2C round trips, cross-lane write-after-write, atomics included).
inline OracleGenOptions complete_options() {
    OracleGenOptions o = full_options();
    o.wrong_sync = false;
    o.block_collide = false;
    o.gm_waw = true;
    return o;
}

// A race of the AIC with an AIV on a kernel tensor. Where every cross-lane dependency is V2C (vector access
// first) or a cube-first write-after-read of a vector store (which reject reports too), or --c2v complete
// orders the cube-first ones, that is an unordered dependency reject must report.
inline bool unordered_v2c(const oracle::Verdict& v) {
    for (const auto& r : v.races)
        if (r.key.tensor.rfind("__", 0) != 0 && (r.write_core == 0) != (r.other_core == 0)) return true;
    return false;
}

// The source lines of the pair a reject diagnostic names: where it is reported (the cube access) and the
// vector access its message cites ("... at generated.py:N:C ...").
inline std::vector<uint32_t> rejected_lines(const Diagnostic& d) {
    std::vector<uint32_t> lines{d.loc.line};
    const std::string tag = "generated.py:";
    for (size_t p = d.message.find(tag); p != std::string::npos; p = d.message.find(tag, p + 1))
        lines.push_back(static_cast<uint32_t>(std::strtoul(d.message.c_str() + p + tag.size(), nullptr, 10)));
    return lines;
}

// Does the off expansion still hold an access at each of those lines (a dead load is gone from it)?
inline bool rejected_pair_live(const oracle::Verdict& v, const Diagnostic& d) {
    for (uint32_t line : rejected_lines(d)) {
        bool live = false;
        for (const auto& a : v.accesses) live |= a.line == line;
        if (!live) return false;
    }
    return true;
}

}  // namespace cvsim::test::prop
