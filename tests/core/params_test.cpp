// Tests of the hardware parameter table: presets, TOML and command-line overrides, validation, listing.
#include "core/params.h"

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <toml++/toml.h>

#ifndef CVSIM_SOURCE_DIR
#define CVSIM_SOURCE_DIR "/work/main"
#endif

namespace cvsim {
namespace {

// The message of the ParamError `f` throws (fails the test if it throws nothing).
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const ParamError& e) {
        return e.what();
    }
    ADD_FAILURE() << "expected a ParamError";
    return {};
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string config_path(Target t) {
    return std::string(CVSIM_SOURCE_DIR) + "/configs/" + std::string(target_name(t)) + ".toml";
}

void collect_keys(const toml::table& tbl, const std::string& prefix, std::set<std::string>& out) {
    for (auto&& [k, node] : tbl) {
        const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
        if (const auto* sub = node.as_table()) {
            collect_keys(*sub, key, out);
        } else {
            out.insert(key);
        }
    }
}

TEST(Target, NamesRoundTrip) {
    EXPECT_EQ(target_from_name("a2a3"), Target::A2A3);
    EXPECT_EQ(target_from_name("A5"), Target::A5);
    EXPECT_EQ(target_from_name("a3"), std::nullopt);
    EXPECT_EQ(target_name(Target::A2A3), "a2a3");
    EXPECT_EQ(target_name(Target::A5), "a5");
}

TEST(ParamTable, EveryRowIsComplete) {
    std::set<std::string_view> keys;
    for (const ParamInfo& info : param_table()) {
        SCOPED_TRACE(std::string(info.key));
        EXPECT_TRUE(keys.insert(info.key).second) << "duplicate key";
        const size_t dot = info.key.find('.');
        ASSERT_NE(dot, std::string_view::npos);
        EXPECT_EQ(info.key.find('.', dot + 1), std::string_view::npos) << "one level of grouping";
        EXPECT_FALSE(info.unit.empty());
        EXPECT_FALSE(info.doc.empty());
        EXPECT_FALSE(info.source.empty());
        EXPECT_NE(std::string_view("HML").find(info.conf_a2a3), std::string_view::npos);
        EXPECT_NE(std::string_view("HML").find(info.conf_a5), std::string_view::npos);
        ASSERT_NE(info.get, nullptr);
        ASSERT_NE(info.put, nullptr);
    }
    EXPECT_GE(keys.size(), 50u);
}

TEST(Preset, EveryKeyHasItsPresetValue) {
    for (Target t : {Target::A2A3, Target::A5}) {
        const HwParams p = preset(t);
        EXPECT_EQ(p.target, t);
        for (const ParamInfo& info : param_table()) {
            EXPECT_EQ(info.get(p), info.preset_value(t)) << info.key << " on " << target_name(t);
        }
        EXPECT_NO_THROW(validate(p));
    }
}

TEST(Preset, NumbersFromHardwareMd) {
    const HwParams a = preset(Target::A2A3);
    const HwParams b = preset(Target::A5);
    EXPECT_EQ(a.chip.clusters, 24u);
    EXPECT_EQ(b.chip.clusters, 36u);
    EXPECT_EQ(a.chip.l0c_bytes, 128u * 1024);
    EXPECT_EQ(b.chip.l0c_bytes, 256u * 1024);
    EXPECT_EQ(a.chip.ub_usable_bytes, 184u * 1024);
    EXPECT_EQ(b.chip.ub_bytes, 248u * 1024);
    EXPECT_EQ(a.chip.bias_bytes, 1024u);
    EXPECT_EQ(b.chip.bias_bytes, 4096u);
    EXPECT_EQ(a.chip.flag_counters, 16u);
    EXPECT_EQ(b.chip.flag_counters, 32u);
    EXPECT_EQ(a.cube.mad_head, 21u);
    EXPECT_EQ(b.cube.mad_head, 25u);
    EXPECT_EQ(a.cube.cycles_per_fractal_b32, 2u);
    EXPECT_EQ(b.cube.cycles_per_fractal_b32, 8u);
    EXPECT_EQ(a.mte.l1_to_l0a_bw, 130.0);
    EXPECT_EQ(b.mte.l1_to_l0b_bw, 224.0);
    EXPECT_EQ(a.mte.fixp_head, 164u);
    EXPECT_EQ(b.mte.fixp_min_row_cycles, 4.59);
    EXPECT_EQ(a.gm.access_granule, 512u);
    EXPECT_EQ(b.gm.access_granule, 128u);
    EXPECT_EQ(a.gm.latency_hit, 50u);
    EXPECT_EQ(a.gm.latency_miss_extra, 150u);
    EXPECT_EQ(a.gm.visibility_delay, 0u);
    EXPECT_EQ(a.l2.size_bytes, 192u * 1024 * 1024);
    EXPECT_EQ(a.sync.slot_num_one_dir, 8u);
    EXPECT_EQ(a.sync.slot_num_both, 4u);
    EXPECT_EQ(a.sync.auto_slot_num, 2u);
    EXPECT_EQ(a.sync.soft_poll_interval, 200u);
    EXPECT_EQ(a.core.scalar_cycles_per_stmt, 1u);
}

// Each key reads and writes its own field: changing one key changes no other key.
TEST(ParamTable, EveryKeyOwnsADistinctField) {
    const HwParams base = preset(Target::A2A3);
    for (const ParamInfo& info : param_table()) {
        SCOPED_TRACE(std::string(info.key));
        HwParams p = base;
        const double v = info.get(p);
        bool changed = false;
        for (double candidate : {v * 2, v / 2, v + 1}) {
            if (candidate == v) continue;
            try {
                set_param(p, info.key, fmt::format("{}", candidate));
                changed = true;
                break;
            } catch (const ParamError&) {
            }
        }
        ASSERT_TRUE(changed);
        EXPECT_NE(info.get(p), v);
        for (const ParamInfo& other : param_table()) {
            if (&other != &info) {
                EXPECT_EQ(other.get(p), other.get(base)) << other.key;
            }
        }
    }
}

TEST(Toml, OverridesOnlyTheGivenKeys) {
    HwParams p = preset(Target::A2A3);
    apply_toml_string(p,
                      "l2.ways = 8            # dotted key at top level\n"
                      "[gm]\n"
                      "latency_hit = 60\n"
                      "[mte]\n"
                      "gm_to_l1_bw = 80.5\n"
                      "gm_to_ub_bw = 60       # an integer is accepted for a real parameter\n",
                      "ok.toml");
    HwParams expected = preset(Target::A2A3);
    expected.l2.ways = 8;
    expected.gm.latency_hit = 60;
    expected.mte.gm_to_l1_bw = 80.5;
    expected.mte.gm_to_ub_bw = 60.0;
    EXPECT_EQ(p, expected);
}

TEST(Toml, MatchingTargetKeyIsAcceptedOtherIsRejected) {
    HwParams p = preset(Target::A2A3);
    EXPECT_NO_THROW(apply_toml_string(p, "target = \"a2a3\"\n", "t.toml"));
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "target = \"a5\"\n", "t.toml"); }),
              "t.toml:1:10: this file describes target 'a5' but the target is 'a2a3'");
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "target = \"a9\"\n", "t.toml"); }),
              "t.toml:1:10: 'target' must be \"a2a3\" or \"a5\"");
}

TEST(Toml, UnknownKeyIsRejectedWithSuggestion) {
    HwParams p = preset(Target::A2A3);
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[gm]\nlatency_hit = 60\nlatncy_hit = 60\n", "over.toml"); }),
              "over.toml:3:1: unknown parameter 'gm.latncy_hit' (did you mean 'gm.latency_hit'?)");
    // Right name in the wrong table.
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[gm]\nline_bytes = 256\n", "over.toml"); }),
              "over.toml:2:1: unknown parameter 'gm.line_bytes' (did you mean 'l2.line_bytes'?)");
    // Misspelled table.
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[vectr]\nhead = 3\n", "over.toml"); }),
              "over.toml:2:1: unknown parameter 'vectr.head' (did you mean 'vector.head'?)");
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "frobnicate = 1\n", "over.toml"); }),
              "over.toml:1:1: unknown parameter 'frobnicate' (`cvsim params` lists them)");
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "gm = 1\n", "over.toml"); }),
              "over.toml:1:1: 'gm' is a parameter group, not a parameter; write [gm]");
}

TEST(Toml, WrongTypeIsRejected) {
    HwParams p = preset(Target::A2A3);
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[l2]\nways = \"sixteen\"\n", "f.toml"); }),
              "f.toml:2:8: parameter 'l2.ways' expects an integer (count), got a string");
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[l2]\nways = 8.0\n", "f.toml"); }),
              "f.toml:2:8: parameter 'l2.ways' expects an integer (count), got a float");
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[mte]\ngm_to_ub_bw = true\n", "f.toml"); }),
              "f.toml:2:15: parameter 'mte.gm_to_ub_bw' expects a number (B/cycle), got a boolean");
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[gm.latency_hit]\nx = 1\n", "f.toml"); }),
              "f.toml:1:1: parameter 'gm.latency_hit' expects an integer (cycles), got a table");
}

TEST(Toml, OutOfRangeIsRejected) {
    HwParams p = preset(Target::A2A3);
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[l2]\nways = 0\n", "f.toml"); }),
              "f.toml:2:8: parameter 'l2.ways' = 0 is out of range: must be >= 1 and <= 256");
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[l2]\nline_bytes = 500\n", "f.toml"); }),
              "f.toml:2:14: parameter 'l2.line_bytes' = 500 is out of range: must be a power of two");
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[mte]\nub_to_gm_bw = 0.0\n", "f.toml"); }),
              "f.toml:2:15: parameter 'mte.ub_to_gm_bw' = 0 is out of range: must be > 0.0");
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[gm]\nlatency_hit = -5\n", "f.toml"); }),
              "f.toml:2:15: parameter 'gm.latency_hit' = -5 is out of range: must be >= 0 and <= 1000000");
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[gm]\nguard_gap = 9223372036854775807\n", "f.toml"); }),
              "f.toml:2:13: parameter 'gm.guard_gap' = 9223372036854775807 is out of range: "
              "must be >= 0 and <= 1073741824");
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[gm]\nshort_row_fraction = 1.5\n", "f.toml"); }),
              "f.toml:2:22: parameter 'gm.short_row_fraction' = 1.5 is out of range: must be >= 0.0 and <= 1.0");
    EXPECT_EQ(error_of([&] { apply_toml_string(p, "[chip]\nclock_ghz = nan\n", "f.toml"); }),
              "f.toml:2:13: parameter 'chip.clock_ghz' = nan is out of range: must be a finite number");
}

TEST(Toml, SyntaxErrorNamesTheLine) {
    HwParams p = preset(Target::A2A3);
    const std::string msg = error_of([&] { apply_toml_string(p, "[gm]\nlatency_hit = = 3\n", "bad.toml"); });
    EXPECT_EQ(msg.rfind("bad.toml:2:", 0), 0u) << msg;
    EXPECT_NE(msg.find("TOML syntax error"), std::string::npos) << msg;
}

TEST(Toml, MissingFileIsAnError) {
    HwParams p = preset(Target::A2A3);
    EXPECT_EQ(error_of([&] { apply_toml_file(p, "/nonexistent/x.toml"); }),
              "/nonexistent/x.toml: cannot open parameter file");
}

TEST(Configs, EachFileHoldsEveryKeyAndReproducesItsPreset) {
    std::set<std::string> table_keys;
    for (const ParamInfo& info : param_table()) table_keys.insert(std::string(info.key));
    for (Target t : {Target::A2A3, Target::A5}) {
        SCOPED_TRACE(config_path(t));
        const toml::table tbl = toml::parse_file(config_path(t));
        std::set<std::string> file_keys;
        collect_keys(tbl, "", file_keys);
        file_keys.erase("target");
        EXPECT_EQ(file_keys, table_keys);

        HwParams p = preset(t);
        apply_toml_file(p, config_path(t));
        EXPECT_EQ(p, preset(t));

        // Loading over the other target's values (with the target switched) also lands on the preset:
        // the file alone determines every parameter.
        const Target other = t == Target::A2A3 ? Target::A5 : Target::A2A3;
        HwParams q = preset(other);
        q.target = t;
        apply_toml_file(q, config_path(t));
        EXPECT_EQ(q, preset(t));
    }
}

TEST(Configs, FilesAreTheGeneratedListingWithACommentPerKey) {
    for (Target t : {Target::A2A3, Target::A5}) {
        // Line by line, so a stale file reports the first stale line rather than two whole files.
        std::istringstream file(read_file(config_path(t)));
        std::istringstream generated(format_param_toml(preset(t)));
        std::string a, b;
        for (int line = 1; std::getline(generated, b); ++line) {
            const bool more = static_cast<bool>(std::getline(file, a));
            ASSERT_TRUE(more && a == b) << config_path(t) << ":" << line << ": expected '" << b << "', got '"
                                        << (more ? a : "<end of file>") << "' (regenerate the file from "
                                        << "format_param_toml(preset(" << target_name(t) << ")))";
        }
        EXPECT_FALSE(std::getline(file, a)) << config_path(t) << " has extra lines";
    }
}

TEST(SetParam, CommandLineOverrides) {
    HwParams p = preset(Target::A5);
    set_param(p, "gm.latency_hit", "75");
    set_param_assignment(p, " l2.ways = 8 ");
    set_param_assignment(p, "mte.gm_to_l1_bw=99.5");
    EXPECT_EQ(p.gm.latency_hit, 75u);
    EXPECT_EQ(p.l2.ways, 8u);
    EXPECT_EQ(p.mte.gm_to_l1_bw, 99.5);
    EXPECT_EQ(get_param(p, "gm.latency_hit"), 75.0);

    EXPECT_EQ(error_of([&] { set_param(p, "gm.latency_hitt", "5"); }),
              "--set: unknown parameter 'gm.latency_hitt' (did you mean 'gm.latency_hit'?)");
    EXPECT_EQ(error_of([&] { set_param(p, "gm.latency_hit", "1.5"); }),
              "--set: parameter 'gm.latency_hit' expects an integer (cycles), got '1.5'");
    EXPECT_EQ(error_of([&] { set_param(p, "mte.gm_to_l1_bw", "fast"); }),
              "--set: parameter 'mte.gm_to_l1_bw' expects a number (B/cycle), got 'fast'");
    EXPECT_EQ(error_of([&] { set_param(p, "l2.line_bytes", "384", "--param"); }),
              "--param: parameter 'l2.line_bytes' = 384 is out of range: must be a power of two");
    EXPECT_EQ(error_of([&] { set_param_assignment(p, "gm.latency_hit"); }),
              "--set: expected KEY=VALUE, got 'gm.latency_hit'");
    EXPECT_EQ(error_of([&] { (void)get_param(p, "nope.key"); }),
              "unknown parameter 'nope.key' (`cvsim params` lists them)");
}

TEST(Validate, RelationsBetweenParameters) {
    HwParams p = preset(Target::A2A3);
    p.chip.ub_usable_bytes = p.chip.ub_bytes + 1;
    EXPECT_EQ(error_of([&] { validate(p); }),
              "parameters: chip.ub_usable_bytes (196609) exceeds chip.ub_bytes (196608)");

    p = preset(Target::A2A3);
    p.l2.ways = 7;
    EXPECT_EQ(error_of([&] { validate(p); }),
              "parameters: l2.size_bytes (201326592) is not a multiple of l2.line_bytes * l2.ways (512 * 7 = "
              "3584)");

    // Fields written directly in code are range-checked too.
    p = preset(Target::A2A3);
    p.gm.access_granule = 100;
    EXPECT_EQ(error_of([&] { validate(p); }),
              "parameters: 'gm.access_granule' = 100 is out of range: must be a power of two");
}

TEST(LoadParams, FilesThenAssignmentsThenValidation) {
    const std::string path = ::testing::TempDir() + "/cvsim_params_test.toml";
    {
        std::ofstream out(path);
        out << "[gm]\nlatency_hit = 70\nlatency_miss_extra = 300\n";
    }
    const std::vector<std::string> files = {path};
    const std::vector<std::string> sets = {"gm.latency_hit=80"};
    const HwParams p = load_params(Target::A5, files, sets);
    EXPECT_EQ(p.target, Target::A5);
    EXPECT_EQ(p.gm.latency_hit, 80u);          // the command line wins over the file
    EXPECT_EQ(p.gm.latency_miss_extra, 300u);  // the file wins over the preset
    EXPECT_EQ(p.gm.access_granule, 128u);      // the preset stays for everything else

    const std::vector<std::string> bad = {"l2.ways=5"};
    EXPECT_EQ(error_of([&] { (void)load_params(Target::A2A3, {}, bad); }),
              "parameters: l2.size_bytes (201326592) is not a multiple of l2.line_bytes * l2.ways (512 * 5 = "
              "2560)");
}

TEST(Listing, EveryRowHasValueUnitDocAndSource) {
    for (Target t : {Target::A2A3, Target::A5}) {
        const std::vector<ParamRow> rows = param_rows(preset(t));
        ASSERT_EQ(rows.size(), param_table().size());
        for (const ParamRow& r : rows) {
            SCOPED_TRACE(r.name);
            EXPECT_FALSE(r.value.empty());
            EXPECT_FALSE(r.unit.empty());
            EXPECT_FALSE(r.source.empty());
            EXPECT_TRUE(r.doc.ends_with(fmt::format("(conf {})", r.confidence)));
        }
    }
    const std::vector<ParamRow> rows = param_rows(preset(Target::A5));
    const auto find = [&](std::string_view name) {
        for (const ParamRow& r : rows) {
            if (r.name == name) return r;
        }
        return ParamRow{};
    };
    EXPECT_EQ(find("gm.access_granule").value, "128");
    EXPECT_EQ(find("gm.access_granule").unit, "bytes");
    EXPECT_EQ(find("mte.fixp_min_row_cycles").value, "4.59");
    EXPECT_EQ(find("mte.l1_to_l0a_bw").value, "206.0");
    EXPECT_EQ(find("chip.clock_ghz").confidence, 'L');
    EXPECT_EQ(find("gm.latency_hit").doc, "DMA start latency when every line it touches hits in L2 (conf L)");
}

TEST(Listing, TableIsAligned) {
    const std::vector<ParamRow> rows = param_rows(preset(Target::A2A3));
    const std::string text = format_param_table(rows);
    std::istringstream in(text);
    std::string header;
    std::getline(in, header);
    EXPECT_EQ(header.rfind("parameter ", 0), 0u);
    const size_t unit_col = header.find("unit");
    const size_t doc_col = header.find("doc");
    const size_t source_col = header.find("source");
    ASSERT_NE(unit_col, std::string::npos);
    size_t lines = 0;
    for (std::string line; std::getline(in, line); ++lines) {
        const ParamRow& r = rows[lines];
        EXPECT_EQ(line.rfind(r.name, 0), 0u) << line;
        EXPECT_EQ(line.substr(unit_col, r.unit.size()), r.unit) << line;
        EXPECT_EQ(line.substr(doc_col, r.doc.size()), r.doc) << line;
        EXPECT_EQ(line.substr(source_col), r.source) << line;
        // Values are right-aligned against the "value" header.
        EXPECT_EQ(line.substr(unit_col - 2 - r.value.size(), r.value.size()), r.value) << line;
    }
    EXPECT_EQ(lines, rows.size());
}

// Any real value survives format -> TOML -> parse bit for bit (the configs rely on it).
RC_GTEST_PROP(ParamsProperty, TomlRoundTripsRealValues, ()) {
    HwParams p = preset(*rc::gen::element(Target::A2A3, Target::A5));
    p.mte.gm_to_ub_bw = *rc::gen::map(rc::gen::inRange(1, 1000000000), [](int i) { return i / 997.0; });
    p.mte.fixp_min_row_cycles = *rc::gen::map(rc::gen::inRange(0, 1000000), [](int i) { return i / 3.0; });
    p.gm.short_row_fraction = *rc::gen::map(rc::gen::inRange(0, 1000), [](int i) { return i / 1000.0; });
    p.gm.latency_hit = *rc::gen::inRange<uint64_t>(0, 1000000);
    HwParams q = preset(p.target == Target::A2A3 ? Target::A5 : Target::A2A3);
    q.target = p.target;
    apply_toml_string(q, format_param_toml(p), "roundtrip.toml");
    RC_ASSERT(q == p);
}

}  // namespace
}  // namespace cvsim
