// The hardware parameter table and everything it drives: presets, TOML/CLI overrides, validation, listing.
//
// Each parameter is declared exactly once, in core/params_table.cpp: dotted key, the field it binds (a pair of
// member pointers turned into get/put functions), both presets, unit, confidence per target, doc, source
// and allowed range. Everything else (preset(), TOML loading, set_param, validate, the listing, the
// configs/*.toml files) iterates that table, so adding a parameter is one entry.
#include "core/params.h"
#include "core/params_internal.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <type_traits>
#include <utility>

#include <fmt/format.h>
#include <toml++/toml.h>

namespace cvsim {

std::string_view target_name(Target t) {
    return t == Target::A2A3 ? "a2a3" : "a5";
}

std::optional<Target> target_from_name(std::string_view name) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower == "a2a3") return Target::A2A3;
    if (lower == "a5") return Target::A5;
    return std::nullopt;
}

namespace {

using detail::kMaxExact;

const std::vector<ParamInfo>& table() {
    return detail::param_table_rows();
}

bool is_power_of_two(double v) {
    if (v < 1 || v != std::floor(v)) return false;
    const auto u = static_cast<uint64_t>(v);
    return (u & (u - 1)) == 0;
}

// Shortest text that reads back as the same value; reals always carry a '.' so TOML keeps them floats.
std::string format_value(const ParamInfo& info, double v) {
    if (info.kind == ParamKind::Integer) return fmt::format("{}", static_cast<uint64_t>(v));
    std::string s = fmt::format("{}", v);
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
}

std::string format_bound(const ParamInfo& info, double v) {
    return info.kind == ParamKind::Integer ? fmt::format("{}", v) : format_value(info, v);
}

// Why `v` is not allowed for `info`, or empty if it is.
std::string range_problem(const ParamInfo& info, double v) {
    if (!std::isfinite(v)) return "must be a finite number";
    if (info.kind == ParamKind::Integer && v != std::floor(v)) return "must be a whole number";
    const bool too_low = info.min_exclusive ? !(v > info.min) : v < info.min;
    if (too_low || v > info.max) {
        const std::string lo = format_bound(info, info.min);
        const std::string hi = format_bound(info, info.max);
        const char* op = info.min_exclusive ? ">" : ">=";
        if (info.max >= static_cast<double>(kMaxExact)) return fmt::format("must be {} {}", op, lo);
        return fmt::format("must be {} {} and <= {}", op, lo, hi);
    }
    if (info.power_of_two && !is_power_of_two(v)) return "must be a power of two";
    return {};
}

size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string_view last_component(std::string_view key) {
    const size_t dot = key.rfind('.');
    return dot == std::string_view::npos ? key : key.substr(dot + 1);
}

// True if `name` is a group prefix ("gm", "l2", ...) of some key.
bool is_group(std::string_view name) {
    for (const ParamInfo& info : table()) {
        if (info.key.size() > name.size() && info.key.starts_with(name) && info.key[name.size()] == '.') return true;
    }
    return false;
}

std::string unknown_key_message(std::string_view key) {
    const std::string suggestion = suggest_param(key);
    if (suggestion.empty()) return fmt::format("unknown parameter '{}' (`cvsim params` lists them)", key);
    return fmt::format("unknown parameter '{}' (did you mean '{}'?)", key, suggestion);
}

std::string kind_text(const ParamInfo& info) {
    return fmt::format("{} ({})", info.kind == ParamKind::Integer ? "an integer" : "a number", info.unit);
}

// Checks `v` for `info` and stores it, or throws with `where` ("FILE:L:C" or "--set") in front.
void check_and_put(HwParams& p, const ParamInfo& info, double v, std::string_view shown, const std::string& where) {
    const std::string problem = range_problem(info, v);
    if (!problem.empty())
        throw ParamError(fmt::format("{}: parameter '{}' = {} is out of range: {}", where, info.key, shown, problem));
    info.put(p, v);
}

std::string location(const std::string& source_name, const toml::source_region& region) {
    if (region.begin.line == 0) return source_name;
    return fmt::format("{}:{}:{}", source_name, region.begin.line, region.begin.column);
}

std::string_view node_type_name(const toml::node& node) {
    switch (node.type()) {
        case toml::node_type::string:
            return "a string";
        case toml::node_type::boolean:
            return "a boolean";
        case toml::node_type::array:
            return "an array";
        case toml::node_type::table:
            return "a table";
        case toml::node_type::floating_point:
            return "a float";
        case toml::node_type::integer:
            return "an integer";
        case toml::node_type::date:
            return "a date";
        case toml::node_type::time:
            return "a time";
        case toml::node_type::date_time:
            return "a date-time";
        default:
            return "nothing";
    }
}

void apply_table(HwParams& p, const toml::table& tbl, const std::string& prefix, const std::string& source) {
    for (auto&& [k, node] : tbl) {
        const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
        const std::string key_where = location(source, k.source());
        const std::string where = location(source, node.source());
        if (prefix.empty() && key == "target") {
            const auto* name = node.as_string();
            const auto t = name ? target_from_name(name->get()) : std::nullopt;
            if (!t) throw ParamError(fmt::format("{}: 'target' must be \"a2a3\" or \"a5\"", where));
            if (*t != p.target) {
                throw ParamError(fmt::format("{}: this file describes target '{}' but the target is '{}'", where,
                                             target_name(*t), target_name(p.target)));
            }
            continue;
        }
        const ParamInfo* info = find_param(key);
        if (const auto* sub = node.as_table()) {
            if (info)
                throw ParamError(
                    fmt::format("{}: parameter '{}' expects {}, got a table", where, key, kind_text(*info)));
            apply_table(p, *sub, key, source);
            continue;
        }
        if (!info) {
            if (is_group(key)) {
                throw ParamError(
                    fmt::format("{}: '{}' is a parameter group, not a parameter; write [{}]", key_where, key, key));
            }
            throw ParamError(fmt::format("{}: {}", key_where, unknown_key_message(key)));
        }
        if (const auto* i = node.as_integer()) {
            // Above 2^53 a double would round onto an allowed value; make sure it is rejected instead.
            const int64_t v = i->get();
            const double dv = v > kMaxExact ? std::numeric_limits<double>::max() : static_cast<double>(v);
            check_and_put(p, *info, dv, fmt::format("{}", v), where);
        } else if (const auto* f = node.as_floating_point(); f && info->kind == ParamKind::Real) {
            check_and_put(p, *info, f->get(), fmt::format("{}", f->get()), where);
        } else {
            throw ParamError(fmt::format("{}: parameter '{}' expects {}, got {}", where, info->key, kind_text(*info),
                                         node_type_name(node)));
        }
    }
}

}  // namespace

std::span<const ParamInfo> param_table() {
    return table();
}

const ParamInfo* find_param(std::string_view key) {
    for (const ParamInfo& info : table()) {
        if (info.key == key) return &info;
    }
    return nullptr;
}

std::string suggest_param(std::string_view key) {
    const ParamInfo* best = nullptr;
    size_t best_distance = std::max<size_t>(2, key.size() / 4) + 1;
    for (const ParamInfo& info : table()) {
        const size_t d = edit_distance(key, info.key);
        if (d < best_distance) {
            best_distance = d;
            best = &info;
        }
    }
    if (best) return std::string(best->key);
    // Right name, wrong group ("gm.line_bytes" -> "l2.line_bytes").
    for (const ParamInfo& info : table()) {
        if (last_component(info.key) == last_component(key)) return std::string(info.key);
    }
    return {};
}

HwParams preset(Target t) {
    HwParams p;
    p.target = t;
    for (const ParamInfo& info : table()) info.put(p, info.preset_value(t));
    return p;
}

void apply_toml_string(HwParams& p, std::string_view text, const std::string& source_name) {
#if TOML_EXCEPTIONS
    toml::table tbl;
    try {
        tbl = toml::parse(text, source_name);
    } catch (const toml::parse_error& e) {
        throw ParamError(fmt::format("{}: TOML syntax error: {}", location(source_name, e.source()), e.description()));
    }
#else
    toml::parse_result result = toml::parse(text, source_name);
    if (!result) {
        const toml::parse_error& e = result.error();
        throw ParamError(fmt::format("{}: TOML syntax error: {}", location(source_name, e.source()), e.description()));
    }
    toml::table tbl = std::move(result).table();
#endif
    apply_table(p, tbl, "", source_name);
}

void apply_toml_file(HwParams& p, const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ParamError(fmt::format("{}: cannot open parameter file", path));
    std::ostringstream text;
    text << in.rdbuf();
    apply_toml_string(p, text.str(), path);
}

void set_param(HwParams& p, std::string_view key, std::string_view value, const std::string& source_name) {
    const ParamInfo* info = find_param(key);
    if (!info) throw ParamError(fmt::format("{}: {}", source_name, unknown_key_message(key)));
    double v = 0;
    bool ok = false;
    const char* end = value.data() + value.size();
    if (info->kind == ParamKind::Integer) {
        int64_t i = 0;
        const auto r = std::from_chars(value.data(), end, i);
        ok = r.ec == std::errc() && r.ptr == end;
        v = static_cast<double>(i);
    } else {
        const auto r = std::from_chars(value.data(), end, v);
        ok = r.ec == std::errc() && r.ptr == end;
    }
    if (!ok) {
        throw ParamError(
            fmt::format("{}: parameter '{}' expects {}, got '{}'", source_name, key, kind_text(*info), value));
    }
    check_and_put(p, *info, v, value, source_name);
}

void set_param_assignment(HwParams& p, std::string_view assignment, const std::string& source_name) {
    const size_t eq = assignment.find('=');
    if (eq == std::string_view::npos) {
        throw ParamError(fmt::format("{}: expected KEY=VALUE, got '{}'", source_name, assignment));
    }
    auto trim = [](std::string_view s) {
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
        return s;
    };
    set_param(p, trim(assignment.substr(0, eq)), trim(assignment.substr(eq + 1)), source_name);
}

double get_param(const HwParams& p, std::string_view key) {
    const ParamInfo* info = find_param(key);
    if (!info) throw ParamError(unknown_key_message(key));
    return info->get(p);
}

void validate(const HwParams& p) {
    for (const ParamInfo& info : table()) {
        const double v = info.get(p);
        const std::string problem = range_problem(info, v);
        if (!problem.empty()) {
            throw ParamError(
                fmt::format("parameters: '{}' = {} is out of range: {}", info.key, format_value(info, v), problem));
        }
    }
    if (p.target == Target::A5 && p.chip.flag_counters % kAivsPerCluster != 0) {
        throw ParamError(fmt::format(
            "parameters: chip.flag_counters ({}) must split evenly over the {} AIVs of an a5 cluster (1:1 flags)",
            p.chip.flag_counters, kAivsPerCluster));
    }
    if (p.chip.ub_usable_bytes > p.chip.ub_bytes) {
        throw ParamError(fmt::format("parameters: chip.ub_usable_bytes ({}) exceeds chip.ub_bytes ({})",
                                     p.chip.ub_usable_bytes, p.chip.ub_bytes));
    }
    if (p.l2.size_bytes % (p.l2.line_bytes * p.l2.ways) != 0) {
        throw ParamError(
            fmt::format("parameters: l2.size_bytes ({}) is not a multiple of l2.line_bytes * l2.ways ({} * {} = {})",
                        p.l2.size_bytes, p.l2.line_bytes, p.l2.ways, p.l2.line_bytes * p.l2.ways));
    }
}

HwParams load_params(Target t, std::span<const std::string> toml_files, std::span<const std::string> assignments) {
    HwParams p = preset(t);
    for (const std::string& f : toml_files) apply_toml_file(p, f);
    for (const std::string& a : assignments) set_param_assignment(p, a);
    validate(p);
    return p;
}

std::vector<ParamRow> param_rows(const HwParams& p) {
    std::vector<ParamRow> rows;
    rows.reserve(table().size());
    for (const ParamInfo& info : table()) {
        const char conf = info.confidence(p.target);
        rows.push_back(ParamRow{.name = std::string(info.key),
                                .value = format_value(info, info.get(p)),
                                .unit = std::string(info.unit),
                                .confidence = conf,
                                .doc = fmt::format("{} (conf {})", info.doc, conf),
                                .source = std::string(info.source)});
    }
    return rows;
}

std::string format_param_table(const std::vector<ParamRow>& rows) {
    size_t w_name = 9, w_value = 5, w_unit = 4, w_doc = 3;  // header widths
    for (const ParamRow& r : rows) {
        w_name = std::max(w_name, r.name.size());
        w_value = std::max(w_value, r.value.size());
        w_unit = std::max(w_unit, r.unit.size());
        w_doc = std::max(w_doc, r.doc.size());
    }
    std::string out = fmt::format("{:<{}}  {:>{}}  {:<{}}  {:<{}}  {}\n", "parameter", w_name, "value", w_value, "unit",
                                  w_unit, "doc", w_doc, "source");
    for (const ParamRow& r : rows) {
        out += fmt::format("{:<{}}  {:>{}}  {:<{}}  {:<{}}  {}\n", r.name, w_name, r.value, w_value, r.unit, w_unit,
                           r.doc, w_doc, r.source);
    }
    return out;
}

std::string format_param_toml(const HwParams& p) {
    const std::string_view t = target_name(p.target);
    std::string out = fmt::format(
        "# cvsim hardware parameters, target {0}: every key, one comment each.\n"
        "# Generated from the table in models/params.cpp (`cvsim params --target {0}` lists the same rows).\n"
        "# Confidence: H two independent sources or a code constant; M one source or a fitted model;\n"
        "# L press figure or placeholder. Copy a key into your own file to override it.\n"
        "target = \"{0}\"\n",
        t);
    std::string_view group;
    for (const ParamInfo& info : table()) {
        const size_t dot = info.key.find('.');
        const std::string_view g = info.key.substr(0, dot);
        if (g != group) {
            out += fmt::format("\n[{}]\n", g);
            group = g;
        }
        out += fmt::format("# {} (conf {})\n# unit: {}; source: {}\n{} = {}\n", info.doc, info.confidence(p.target),
                           info.unit, info.source, info.key.substr(dot + 1), format_value(info, info.get(p)));
    }
    return out;
}

}  // namespace cvsim
