// The sub-commands: run, expand, explore/check, params (the demo is in demo.cpp).
#include "sim/cli.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "frontend/diag.h"
#include "frontend/printer.h"
#include "frontend/sema.h"
#include "sim/report.h"

namespace cvsim::cli {

using sim::Finding;

namespace {

void write_json(const std::string& path, const nlohmann::json& j) {
    if (path.empty()) return;
    std::ofstream out(path);
    if (!out) throw std::runtime_error("cannot write '" + path + "'");
    out << j.dump(2) << "\n";
}

}  // namespace

sim::SessionOptions session_options(const CommonOptions& c) {
    sim::SessionOptions o;
    auto t = target_from_name(c.target);
    if (!t) throw std::invalid_argument(fmt::format("--target {}: expected a2a3 or a5", c.target));
    o.target = *t;
    o.config_files = c.configs;
    o.param_sets = c.sets;
    auto p = passes::policy_from_name(c.v2c);
    if (!p) throw std::invalid_argument(fmt::format("--v2c {}: expected fence, syncall, reject or off", c.v2c));
    o.v2c = *p;
    if (c.blocks < 1 || c.blocks > 4096) throw std::invalid_argument(fmt::format("--blocks {}: expected 1..4096", c.blocks));
    o.blocks = c.blocks;
    o.entry = c.entry;
    o.visibility_delay = c.visibility_delay;
    o.compare.rtol = c.rtol;
    o.compare.atol = c.atol;
    o.max_cycles = c.max_cycles;
    o.max_wall_seconds = c.timeout;
    for (const auto& in : c.inputs) {
        auto eq = in.find('=');
        if (eq == std::string::npos || eq == 0) throw std::invalid_argument(fmt::format("--input {}: expected NAME=FILE.npy or NAME=VALUE", in));
        std::string name = in.substr(0, eq), value = in.substr(eq + 1);
        if (value.size() > 4 && value.substr(value.size() - 4) == ".npy") {
            o.input_files[name] = value;
            continue;
        }
        try {
            size_t used = 0;
            if (value.find_first_of(".eE") != std::string::npos) {
                double d = std::stod(value, &used);
                if (used != value.size()) throw std::invalid_argument("");
                o.scalars[name] = rt::Scalar::of_float(d);
            } else {
                long long v = std::stoll(value, &used, 0);
                if (used != value.size()) throw std::invalid_argument("");
                o.scalars[name] = rt::Scalar::of_int(v);
            }
        } catch (const std::exception&) {
            throw std::invalid_argument(fmt::format("--input {}: '{}' is neither a number nor an .npy file", in, value));
        }
    }
    return o;
}

std::string replay_command(const CommonOptions& c, const std::string& kernel, const sim::Schedule& s) {
    std::string cmd = fmt::format("cvsim run {}", kernel);
    if (c.target != "a2a3") cmd += " --target " + c.target;
    if (c.v2c != "fence") cmd += " --v2c " + c.v2c;
    if (c.blocks != 1) cmd += fmt::format(" --blocks {}", c.blocks);
    if (c.visibility_delay) cmd += fmt::format(" --visibility-delay {}", c.visibility_delay);
    if (!c.entry.empty()) cmd += " --entry " + c.entry;
    for (auto& f : c.configs) cmd += " --config " + f;
    for (auto& s2 : c.sets) cmd += " --set " + s2;
    for (auto& i : c.inputs) cmd += " --input " + i;
    cmd += fmt::format(" --schedule {} --seed {}", s.str(), s.seed);
    return cmd;
}

int cmd_run(const CommonOptions& c, const RunOptions& r) {
    sim::SessionOptions so = session_options(c);
    auto sched = sim::parse_schedule(r.schedule);
    if (!sched) throw std::invalid_argument(fmt::format("--schedule {}: expected nominal, random, pct:D or sweep", r.schedule));
    sched->seed = r.seed;
    sim::Session session(SourceFile::read(r.kernel), so);
    if (!c.quiet && c.verbose) print_expand_stats(std::cerr, session.compiled().stats);
    sim::ScheduleResult res = session.run(*sched);
    const ref::Result& want = session.reference();
    if (!c.quiet) print_run_report(std::cout, session, res, want, c.verbose);
    if (!r.output_dir.empty()) {
        std::filesystem::create_directories(r.output_dir);
        for (const auto& t : res.outcome.gm_final.tensors)
            if (t.is_output()) rt::write_npy(t, r.output_dir + "/" + t.name + ".npy");
    }
    if (!c.json.empty()) write_json(c.json, run_json(session, res, want));
    return res.clean() ? kExitClean : kExitFindings;
}

int cmd_expand(const CommonOptions& c, const std::string& kernel, const std::string& out) {
    sim::SessionOptions so = session_options(c);
    auto program = load_program(SourceFile::read(kernel));
    passes::ExpandOptions eo;
    eo.v2c = so.v2c;
    eo.target = so.target;
    eo.blocks = so.blocks;
    eo.chip_clusters = static_cast<int>(load_params(so.target, so.config_files, so.param_sets).chip.clusters);
    passes::ExpandStats stats;
    auto expanded = passes::expand_mixed_kernel(*program, eo, stats);
    std::string text = print_program(*expanded);
    if (out.empty()) std::cout << text;
    else {
        std::ofstream f(out);
        if (!f) throw std::runtime_error("cannot write '" + out + "'");
        f << text;
    }
    if (c.verbose) print_expand_stats(std::cerr, stats);
    if (!c.json.empty()) write_json(c.json, {{"expand", stats_json(stats)}});
    return kExitClean;
}

int cmd_params(const CommonOptions& c) {
    sim::SessionOptions so = session_options(c);
    HwParams hw = load_params(so.target, so.config_files, so.param_sets);
    std::cout << format_param_table(param_rows(hw));
    return kExitClean;
}

int cmd_explore(const CommonOptions& c, const ExploreOptions& e, bool is_check) {
    sim::SessionOptions so = session_options(c);
    auto base = sim::parse_schedule(e.strategy);
    if (!base || base->strategy == sim::Strategy::Nominal)
        throw std::invalid_argument(fmt::format("--strategy {}: expected random, pct:D or sweep", e.strategy));
    bool any_findings = false;
    nlohmann::json report = nlohmann::json::array();
    for (const auto& kernel : e.kernels) {
        std::unique_ptr<sim::Session> session;
        try {
            session = std::make_unique<sim::Session>(SourceFile::read(kernel), so);
        } catch (const CompileError& err) {
            // A reject diagnostic is a finding (exit 1); other diagnostics are bad input (exit 2).
            if (err.diag().code == "E-V2C-UNFENCED") {
                std::cerr << render_text(err.diag());
                any_findings = true;
                report.push_back({{"kernel", kernel}, {"diagnostic", to_json(err.diag())}});
                continue;
            }
            throw;
        }
        ExploreSummary sum = explore_kernel(*session, c, kernel, e, *base);
        if (!c.quiet) print_explore_summary(std::cout, kernel, sum, is_check);
        report.push_back(explore_json(kernel, sum));
        if (!sum.distinct.empty()) any_findings = true;
    }
    if (!c.json.empty()) write_json(c.json, {{"kernels", report}});
    return any_findings ? kExitFindings : kExitClean;
}

}  // namespace cvsim::cli
