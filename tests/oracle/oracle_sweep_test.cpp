// The oracle sweep (OracleSweep.Seeded: CVSIM_ORACLE_SWEEP=N seeded kernels of the full generator, every failing
// class with its smallest kernel; without it 20 kernels on which checker and oracle must agree) and OracleSweep.File
// (one kernel's oracle verdict and checker findings). See oracle_property_test.cpp for the properties.
#include "oracle_property_support.h"

using namespace cvsim;
using namespace cvsim::test;
using namespace cvsim::test::prop;

namespace {

// ---- the manual sweep ----

// Without CVSIM_ORACLE_SWEEP: 20 kernels on which the checker and the oracle must agree.
TEST(OracleSweep, Seeded) {
    const bool manual = std::getenv("CVSIM_ORACLE_SWEEP") != nullptr;
    int n = manual ? env_int("CVSIM_ORACLE_SWEEP", 0) : 20;
    const char* dir = std::getenv("CVSIM_ORACLE_FINDINGS");
    OracleGenOptions opt = full_options();
    struct Class {
        int count = 0;
        std::string smallest, config, detail;
        size_t lines = SIZE_MAX;
    };
    std::map<std::string, Class> classes;
    int compared = 0, skipped = 0;
    // CVSIM_ORACLE_DUMP=DIR: every property-3 false error and every kernel with a redundant insertion is
    // written there (p3_<seed>.py, p4_<policy>_<seed>.py) for classification; CVSIM_ORACLE_P34_ONLY=1 runs
    // properties 2-4 only (no checker comparison, no --c2v complete loop).
    const char* dump = std::getenv("CVSIM_ORACLE_DUMP");
    const bool p34_only = manual && std::getenv("CVSIM_ORACLE_P34_ONLY") != nullptr;
    auto dump_kernel = [&](const std::string& file, const std::string& head, const std::string& text) {
        if (!dump) return;
        std::filesystem::create_directories(dump);
        std::ofstream f(std::string(dump) + "/" + file);
        std::string h = head;
        for (size_t p = 0; (p = h.find('\n', p)) != std::string::npos && p + 1 < h.size(); p += 3)
            h.replace(p, 1, "\n# ");
        f << "# " << h << "\n" << text;
    };
    const Config configs[] = {
        {Target::A2A3, passes::V2CPolicy::Off, 0},     {Target::A2A3, passes::V2CPolicy::Fence, 0},
        {Target::A2A3, passes::V2CPolicy::Syncall, 0}, {Target::A5, passes::V2CPolicy::Off, 0},
        {Target::A5, passes::V2CPolicy::Fence, 0},     {Target::A2A3, passes::V2CPolicy::Fence, 50},
        {Target::A5, passes::V2CPolicy::Syncall, 50}};
    for (int i = 0; i < (p34_only ? 0 : n); ++i) {
        OracleKernel k = seeded_oracle_kernel(static_cast<uint64_t>(i), opt);
        const Config& c = configs[static_cast<size_t>(i) % std::size(configs)];
        Comparison r = compare(k, c, 2);
        if (r.skipped) {
            ++skipped;
            if (std::getenv("CVSIM_ORACLE_SKIPS")) std::cout << "skipped: " << r.detail << "\n";
            continue;
        }
        ++compared;
        if (r.cls.empty()) continue;
        std::string key = r.cls + " [" + std::string(target_name(c.target)) + " " +
                          std::string(passes::policy_name(c.v2c)) + (c.vis ? " vis" : "") + "]";
        Class& cl = classes[key];
        ++cl.count;
        size_t lines = static_cast<size_t>(std::count(k.text.begin(), k.text.end(), '\n'));
        if (lines < cl.lines) {
            cl.lines = lines;
            cl.smallest = k.text;
            cl.config = cfg_str(c, k);
            cl.detail = r.detail;
        }
    }
    if (!manual) {
        for (const auto& [name, cl] : classes) {
            ADD_FAILURE() << "checker and oracle disagree: " << name << "\n   " << cl.config << "\n"
                          << cl.detail << cl.smallest;
        }
        return;
    }
    // Properties 2 and 3 on kernels whose GM dependencies the V2C policies promise to order.
    OracleGenOptions ord = full_options();
    ord.gm_c2v = ord.block_collide = ord.atomics = ord.wrong_sync = false;
    ord.single_store = ord.v2c_first = true;
    int p2 = 0, p3 = 0, p2_wrong = 0;
    Removal removal[2];  // fence, syncall: inserted synchronisations and how many the oracle finds necessary
    for (int i = 0; i < n; ++i) {
        OracleKernel k = seeded_oracle_kernel(static_cast<uint64_t>(i) + 1'000'000, ord);
        Target t = i % 2 ? Target::A5 : Target::A2A3;
        Opts o;
        o.target = t;
        o.blocks = k.blocks;
        o.v2c = passes::V2CPolicy::Off;
        std::unique_ptr<sim::Session> off;
        try {
            off = session_of("generated.py", k.text, o);
        } catch (const std::exception&) {
            continue;
        }
        auto vo = oracle_of(*off);
        if (vo.unsupported || vo.oob || vo.deadlock) continue;
        auto note = [&](const std::string& cls, const oracle::Verdict& v, const std::string& cfg) {
            std::string tags;
            if (!v.races.empty()) tags = line_tags(k.text, v.races[0].key.line_a, v.races[0].key.line_b);
            Class& cl = classes[cls + tags + " [" + std::string(target_name(t)) + "]"];
            ++cl.count;
            size_t lines = static_cast<size_t>(std::count(k.text.begin(), k.text.end(), '\n'));
            if (lines < cl.lines) {
                cl.lines = lines;
                cl.smallest = k.text;
                cl.config = cfg;
                cl.detail = format_verdict(v) + "\n";
            }
        };
        for (auto pol : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall}) {
            o.v2c = pol;
            o.vis = i % 3 == 0 ? 50 : 0;
            std::unique_ptr<sim::Session> s;
            try {
                s = session_of("generated.py", k.text, o);
            } catch (const std::exception& e) {
                continue;
            }
            ++p2;
            auto v = oracle_of(*s);
            if (!v.deadlock && v.races.empty()) {
                // Property 2's second half: the expansion computes what the sequential reference computes.
                CheckerView cv = checker_of(*s, 0);
                if (cv.other.count("E-MISMATCH") || cv.other.count("E-UNWRITTEN")) {
                    ++p2_wrong;
                    note(std::string("P2: ") + std::string(passes::policy_name(pol)) + (o.vis ? " (vis)" : "") +
                             " expansion differs from the reference",
                         v,
                         fmt::format("--target {} --v2c {} --blocks {} --visibility-delay {}", target_name(t),
                                     passes::policy_name(pol), k.blocks, o.vis));
                }
                Removal rm = try_removals(*s, k.text);
                Removal& acc = removal[pol == passes::V2CPolicy::Fence ? 0 : 1];
                acc.inserted += rm.inserted;
                acc.necessary += rm.necessary;
                acc.redundant += rm.redundant;
                if (rm.redundant) {
                    std::string sites;
                    for (const auto& x : rm.redundant_sites) sites += x + "; ";
                    dump_kernel(fmt::format("p4_{}_{}.py", passes::policy_name(pol), i),
                                fmt::format("redundant: {}\ncvsim run generated.py --target {} --v2c {} --blocks {} "
                                            "--visibility-delay {}",
                                            sites, target_name(t), passes::policy_name(pol), k.blocks, o.vis),
                                k.text);
                }
                if (rm.redundant && std::getenv("CVSIM_ORACLE_SHOW_REDUNDANT") && k.text.size() < 1900)
                    std::cout << "redundant synchronisation under --v2c " << passes::policy_name(pol) << " vis "
                              << o.vis << ":\n"
                              << k.text;
            }
            std::string cfg = fmt::format("--target {} --v2c {} --blocks {} --visibility-delay {}", target_name(t),
                                          passes::policy_name(pol), k.blocks, o.vis);
            if (v.deadlock)
                note(std::string("P2: ") + std::string(passes::policy_name(pol)) + (o.vis ? " (vis)" : "") +
                         " expansion deadlocks",
                     v, cfg);
            else if (!v.races.empty())
                note(std::string("P2: ") + std::string(passes::policy_name(pol)) + (o.vis ? " (vis)" : "") +
                         " expansion races",
                     v, cfg);
        }
        o.v2c = passes::V2CPolicy::Reject;
        o.vis = 0;
        bool rejected = false, live = true;
        uint32_t rejected_line = 0;
        std::string diag;
        try {
            session_of("generated.py", k.text, o);
        } catch (const CompileError& e) {
            rejected = e.diag().code == "E-V2C-UNFENCED";
            rejected_line = e.diag().loc.line;
            diag = e.diag().message;
            live = rejected_pair_live(vo, e.diag());  // both accesses of the pair it names are still there
        } catch (const std::exception&) {
        }
        ++p3;
        bool racy = unordered_v2c(vo);
        std::string cfg = fmt::format("--target {} --v2c reject --blocks {}", target_name(t), k.blocks);
        if (racy && !rejected) note("P3: reject silent on an unordered V2C dependency", vo, cfg);
        if (!racy && rejected) {
            note(live ? "P3: reject errors but every V2C dependency is ordered"
                      : "P3: reject errors on an access the expansion removes (dead)",
                 vo, cfg);
            dump_kernel(fmt::format("p3_{}.py", i),
                        fmt::format("{}: line {}: {}\ncvsim check generated.py {}",
                                    live ? "false reject" : "dead access rejected", rejected_line, diag, cfg),
                        k.text);
        }
    }
    // --c2v complete + fence / syncall on everything but deliberate mistakes and cross-block races.
    int p2c = 0, upstream_racy = 0;
    OracleGenOptions comp = complete_options();
    for (int i = 0; i < (p34_only ? 0 : n); ++i) {
        OracleKernel k = seeded_oracle_kernel(static_cast<uint64_t>(i) + 2'000'000, comp);
        Opts o;
        o.target = i % 2 ? Target::A5 : Target::A2A3;
        o.blocks = k.blocks;
        o.v2c = i % 4 < 2 ? passes::V2CPolicy::Fence : passes::V2CPolicy::Syncall;
        o.vis = i % 3 == 0 ? 50 : 0;
        std::unique_ptr<sim::Session> up, s;
        try {
            up = session_of("generated.py", k.text, o);
            o.c2v = passes::C2VPolicy::Complete;
            s = session_of("generated.py", k.text, o);
        } catch (const std::exception&) {
            continue;
        }
        auto vu = oracle_of(*up);
        if (vu.unsupported || vu.oob) continue;
        upstream_racy += vu.deadlock || !vu.races.empty();
        auto v = oracle_of(*s);
        ++p2c;
        if (!v.deadlock && v.races.empty()) continue;
        std::string cls = std::string("P2c: --c2v complete --v2c ") + std::string(passes::policy_name(o.v2c)) +
                          (o.vis ? " (vis)" : "") + (v.deadlock ? " expansion deadlocks" : " expansion races");
        Class& cl = classes[cls + " [" + std::string(target_name(o.target)) + "]"];
        ++cl.count;
        size_t lines = static_cast<size_t>(std::count(k.text.begin(), k.text.end(), '\n'));
        if (lines < cl.lines) {
            cl.lines = lines;
            cl.smallest = k.text;
            cl.config = fmt::format("--target {} --c2v complete --v2c {} --blocks {} --visibility-delay {}",
                                    target_name(o.target), passes::policy_name(o.v2c), k.blocks, o.vis);
            cl.detail = format_verdict(v) + "\n";
        }
    }
    std::cout << "property 2 (--c2v complete): " << p2c << " expansions (" << upstream_racy
              << " of them racy or deadlocking under --c2v upstream)\n";
    for (int pi = 0; pi < 2; ++pi)
        std::cout << "property 4 (" << (pi ? "syncall" : "fence") << "): " << removal[pi].inserted
                  << " inserted synchronisations removed one at a time, " << removal[pi].necessary << " necessary, "
                  << removal[pi].redundant << " redundant (the oracle finds no race without it)\n";
    std::cout << "properties 2/3: " << p2 << " fence/syncall expansions (" << p2_wrong
              << " with outputs that differ from the reference), " << p3 << " reject checks\n";
    std::cout << "oracle sweep: " << n << " kernels, " << compared << " compared, " << skipped << " skipped, "
              << classes.size() << " disagreement classes\n";
    int idx = 0;
    for (auto& [name, cl] : classes) {
        std::cout << "== " << cl.count << " x " << name << "\n   " << cl.config << "\n"
                  << cl.detail << cl.smallest << "\n";
        if (dir) {
            std::filesystem::create_directories(dir);
            std::ofstream f(std::string(dir) + "/sweep_" + std::to_string(idx++) + ".py");
            f << "# oracle disagreement: " << name << " (" << cl.count << " kernels)\n# cvsim check generated.py "
              << cl.config << "\n";
            std::string d = cl.detail;
            for (size_t p = 0; (p = d.find('\n', p)) != std::string::npos && p + 1 < d.size(); p += 3)
                d.replace(p, 1, "\n# ");
            f << "# " << d << "\n" << cl.smallest;
        }
    }
}

}  // namespace

namespace {

// CVSIM_ORACLE_FILE=K.py [CVSIM_ORACLE_TARGET=a5] [CVSIM_ORACLE_V2C=off] [CVSIM_ORACLE_C2V=complete]
// [CVSIM_ORACLE_BLOCKS=2] [CVSIM_ORACLE_VIS=50]: prints the oracle's verdict and the checker's findings for one kernel
// (skipped without CVSIM_ORACLE_FILE).
TEST(OracleSweep, File) {
    // Without CVSIM_ORACLE_FILE: the shared unbalanced_pop.py, which both sides must call a deadlock.
    const char* env_file = std::getenv("CVSIM_ORACLE_FILE");
    std::string path = env_file ? env_file : kernel_path("unbalanced_pop.py");
    const char* file = path.c_str();
    Opts o;
    if (const char* t = std::getenv("CVSIM_ORACLE_TARGET"))
        o.target = std::string(t) == "a5" ? Target::A5 : Target::A2A3;
    if (const char* p = std::getenv("CVSIM_ORACLE_V2C"))
        o.v2c = passes::policy_from_name(p).value_or(passes::V2CPolicy::Fence);
    if (const char* p = std::getenv("CVSIM_ORACLE_C2V"))
        o.c2v = passes::c2v_policy_from_name(p).value_or(passes::C2VPolicy::Upstream);
    o.blocks = env_int("CVSIM_ORACLE_BLOCKS", 1);
    if (std::getenv("CVSIM_ORACLE_VIS")) o.vis = static_cast<uint64_t>(env_int("CVSIM_ORACLE_VIS", 0));
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto s = session_of(file, text, o);
    auto v = oracle_of(*s, true);
    auto c = checker_of(*s, 5);
    std::cout << format_verdict(v) << "\nchecker:" << (c.deadlock ? " DEADLOCK" : "") << keys_str(c.races) << "\n"
              << c.text;
    if (!env_file) {
        EXPECT_TRUE(v.deadlock);
        EXPECT_TRUE(c.deadlock);
    }
}

}  // namespace
