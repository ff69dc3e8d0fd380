// The sub-commands run, expand, params and ops, and what every sub-command shares (explore/check:
// cmd_explore.cpp, check_entries.cpp; the demo: demo.cpp).
#include "app/cli.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "app/cli_internal.h"
#include "app/report.h"
#include "app/sampling.h"
#include "frontend/codes.h"
#include "frontend/control_scalars.h"
#include "frontend/diag.h"
#include "frontend/launch.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"
#include "frontend/pipeline.h"
#include "frontend/printer.h"
#include "frontend/sema.h"
#include "traces/chrome_trace.h"
#include "traces/html.h"
#include "traces/vcd.h"

namespace cvsim::cli {

using sim::Finding;

void write_json(const std::string& path, const nlohmann::json& j) {
    if (path.empty()) return;
    write_text_file(path, j.dump(2) + "\n");
}

std::string try_write_text_file(const std::string& path, const std::string& text) {
    // Plain POSIX calls: this runs after SystemC too, where nothing on the error path may throw or call a
    // noreturn function (ASan loses track of the stack after QuickThreads' switches).
    // "-" is standard output (the text report is then off: main sets --quiet for `--json -`).
    const bool to_stdout = path == "-";
    if (to_stdout) std::cout.flush();
    int fd = to_stdout ? STDOUT_FILENO : ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return "cannot write '" + path + "': " + std::strerror(errno);
    size_t done = 0;
    while (done < text.size()) {
        ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            std::string err = "writing '" + path + "' failed: " + std::strerror(n < 0 ? errno : ENOSPC);
            if (!to_stdout) ::close(fd);
            return err;
        }
        done += static_cast<size_t>(n);
    }
    if (to_stdout) return "";
    if (::close(fd) != 0) return "writing '" + path + "' failed: " + std::strerror(errno);
    return "";
}

void write_text_file(const std::string& path, const std::string& text) {
    if (std::string err = try_write_text_file(path, text); !err.empty()) throw std::runtime_error(err);
}

sim::SessionOptions session_options(const CommonOptions& c) {
    sim::SessionOptions o;
    auto t = target_from_name(c.target);
    if (!t) throw std::invalid_argument(fmt::format("--target {}: expected a2a3 or a5", c.target));
    o.target = *t;
    for (const auto& f : c.configs) {
        std::error_code ec;
        if (std::filesystem::is_directory(f, ec))
            throw std::invalid_argument(fmt::format("--config {}: is a folder, expected a TOML file", f));
    }
    o.config_files = c.configs;
    o.param_sets = c.sets;
    auto p = passes::policy_from_name(c.v2c);
    if (!p) throw std::invalid_argument(fmt::format("--v2c {}: expected fence, syncall, reject or off", c.v2c));
    o.v2c = *p;
    auto c2 = passes::c2v_policy_from_name(c.c2v);
    if (!c2) throw std::invalid_argument(fmt::format("--c2v {}: expected upstream or complete", c.c2v));
    o.c2v = *c2;
    if (c.blocks < 1 || c.blocks > 4096)
        throw std::invalid_argument(fmt::format("--blocks {}: expected 1..4096", c.blocks));
    o.blocks = c.blocks;
    o.entry = c.entry;
    for (const auto& d : c.dims) {
        auto eq = d.find('=');
        size_t used = 0;
        long long v = 0;
        try {
            if (eq == std::string::npos || eq == 0) throw std::invalid_argument("");
            v = std::stoll(d.substr(eq + 1), &used, 0);
            if (used != d.size() - eq - 1 || v < 1) throw std::invalid_argument("");
        } catch (const std::exception&) {
            throw std::invalid_argument(fmt::format("--dim {}: expected NAME=VALUE with a positive integer VALUE", d));
        }
        o.dims[d.substr(0, eq)] = v;
    }
    o.visibility_delay = c.visibility_delay;
    if (!(c.timeout > 0) || !std::isfinite(c.timeout))
        throw std::invalid_argument(fmt::format("--timeout {}: expected a positive number of seconds", c.timeout));
    if (!(c.rtol >= 0) || !std::isfinite(c.rtol))
        throw std::invalid_argument(fmt::format("--rtol {}: expected a finite number >= 0", c.rtol));
    if (!(c.atol >= 0) || !std::isfinite(c.atol))
        throw std::invalid_argument(fmt::format("--atol {}: expected a finite number >= 0", c.atol));
    if (c.max_cycles == 0) throw std::invalid_argument("--max-cycles 0: expected a positive number of cycles");
    o.compare.rtol = c.rtol;
    o.compare.atol = c.atol;
    o.max_cycles = c.max_cycles;
    o.max_wall_seconds = c.timeout;
    o.max_instructions = c.work_budget;
    o.max_ref_work = c.work_budget * kRefWorkPerInstruction;
    for (const auto& in : c.inputs) {
        auto eq = in.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument(fmt::format("--input {}: expected NAME=FILE.npy or NAME=VALUE", in));
        std::string name = in.substr(0, eq), value = in.substr(eq + 1);
        if (value.size() > 4 && value.substr(value.size() - 4) == ".npy") {
            o.input_files[name] = value;
            continue;
        }
        // NAME=iota / NAME=iota+K: tensor element i (row-major) is K + i (what check's sampling of control data uses).
        if (value.rfind("iota", 0) == 0) {
            int64_t base = 0;
            bool ok = value.size() == 4;
            if (!ok && value[4] == '+') {
                try {
                    size_t used = 0;
                    base = std::stoll(value.substr(5), &used, 10);
                    ok = used == value.size() - 5;
                } catch (const std::exception&) {
                }
            }
            if (!ok)
                throw std::invalid_argument(
                    fmt::format("--input {}: expected iota or iota+K for a tensor filled with K, K+1, ...", in));
            o.iotas[name] = base;
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
            throw std::invalid_argument(
                fmt::format("--input {}: '{}' is neither a number nor an .npy file", in, value));
        }
    }
    return o;
}

std::vector<std::string> replay_args(const CommonOptions& c, const std::string& kernel, const sim::Schedule& s) {
    std::vector<std::string> a = {"run", kernel};
    auto opt = [&](const char* name, const std::string& v) {
        a.push_back(name);
        a.push_back(v);
    };
    if (c.target != "a2a3") opt("--target", c.target);
    if (c.v2c != "fence") opt("--v2c", c.v2c);
    if (c.c2v != "upstream") opt("--c2v", c.c2v);
    if (c.blocks != 1) opt("--blocks", std::to_string(c.blocks));
    // The schedule's resolved delay (drawn or fixed) replaces the option: the replay needs no draw.
    if (s.resolved ? (s.visibility_delay > 0 || s.max_visibility > 0 || c.visibility_delay)
                   : c.visibility_delay.has_value())
        opt("--visibility-delay", std::to_string(s.resolved ? s.visibility_delay : *c.visibility_delay));
    else if (!s.resolved && s.max_visibility > 0)
        opt("--max-visibility-delay", std::to_string(s.max_visibility));
    if (!c.entry.empty()) opt("--entry", c.entry);
    for (auto& d : c.dims) opt("--dim", d);
    for (auto& f : c.configs) opt("--config", f);
    for (auto& s2 : c.sets) opt("--set", s2);
    for (auto& i : c.inputs) opt("--input", i);
    opt("--schedule", s.str());
    opt("--seed", std::to_string(s.seed));
    return a;
}

std::string replay_command(const CommonOptions& c, const std::string& kernel, const sim::Schedule& s) {
    std::string cmd = "cvsim";
    for (const auto& a : replay_args(c, kernel, s)) cmd += " " + a;
    return cmd;
}

namespace {

// Runs this very binary with ARGS (no shell) and waits; returns its exit code, or -1 if it did not exit.
int run_self(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    std::string self = "/proc/self/exe";
    argv.push_back(self.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::cout.flush();
    std::cerr.flush();
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        execv("/proc/self/exe", argv.data());
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

// Per distinct finding: DIR/<kernel>_<schedule>_seed<N>.txt (the finding and its replay command) and the
// three views of that schedule (.json Chrome trace, .vcd, .html), written by replaying it with `cvsim run`
// in a child process (a fresh SystemC elaboration; the replay is byte-identical to the explored schedule).
void save_failures(const std::string& dir, const CommonOptions& c, const std::string& kernel,
                   const ExploreSummary& sum) {
    std::filesystem::create_directories(dir);
    std::string base = std::filesystem::path(kernel).stem().string();
    std::set<std::string> replayed;
    for (const auto& d : sum.distinct) {
        std::string stem = fmt::format("{}/{}_{}_seed{}", dir, base, d.first.str(), d.first.seed);
        for (auto& ch : stem)
            if (ch == ':') ch = '_';
        std::ofstream out(stem + ".txt", std::ios::app);
        out << "# " << d.finding.code << " in " << d.count << " of " << sum.schedules << " schedules\n";
        out << d.replay << "\n\n" << sim::format_finding(d.finding);
        out.close();
        if (d.finding.code == cvsim::codes::kCrash) continue;  // replaying a crash would crash again; the .txt says how
        if (!replayed.insert(stem).second) continue;           // another finding of the same schedule
        auto args = replay_args(c, kernel, d.first);
        args.insert(args.end(), {"-q", "--trace", stem + ".json", "--vcd", stem + ".vcd", "--html", stem + ".html"});
        int rc = run_self(args);
        if (rc != kExitClean && rc != kExitFindings)
            std::cerr << fmt::format("warning: writing the traces of {} failed (exit {})\n", stem, rc);
    }
}

bool only_unsupported(const std::vector<std::string>& codes) {
    bool unsupported = false;
    for (const std::string& code : codes) {
        if (code == cvsim::codes::kUnsupported)
            unsupported = true;
        else if (code != cvsim::codes::kUnchecked)
            return false;
    }
    return unsupported;
}

int cmd_run(const CommonOptions& c, const RunOptions& r) {
    sim::SessionOptions so = session_options(c);
    so.memo = false;  // one schedule: nothing reuses recorded results
    auto sched = sim::parse_schedule(r.schedule);
    if (!sched)
        throw std::invalid_argument(fmt::format("--schedule {}: expected nominal, random, pct:D or sweep", r.schedule));
    sched->seed = r.seed;
    if (r.max_visibility > 0) {
        if (sched->strategy != sim::Strategy::Random)
            throw std::invalid_argument("--max-visibility-delay: the delay is drawn by --schedule random only");
        sched->max_visibility = r.max_visibility;
    }
    sim::Session session(SourceFile::read(r.kernel), so);
    if (!c.quiet)
        for (const auto& n : session.dim_notes()) std::cerr << n;
    if (!c.quiet && session.compiled().original) {
        // SPEC 2: an unbound pl.Scalar is 0 in `run`; say so when it decides what runs (check samples it).
        const auto entry =
            session.compiled().original->find(session.compiled().plan.entry ? session.compiled().plan.entry->name : "");
        std::vector<std::string> unset;
        if (entry && entry->type != ir::FuncType::Orchestration)
            for (const auto& n : control_scalar_params(*session.compiled().original, *entry))
                if (!so.scalars.count(n)) unset.push_back(n);
        if (!unset.empty())
            std::cerr << fmt::format(
                "note: the scalar parameter(s) {} decide what '{}' runs and no --input gives them: this run uses 0 "
                "(check runs them at 1, 2 and 0)\n",
                fmt::join(unset, ", "), entry->name);
    }
    if (!c.quiet && c.verbose) print_expand_stats(std::cerr, session.compiled().stats);
    // Trace views (SPEC 9). The VCD registers its signals with SystemC before the machine elaborates.
    std::vector<std::pair<std::string, std::string>> trace_meta = {
        {"kernel", std::filesystem::path(r.kernel).filename().string()},
        {"target", c.target},
        {"v2c", std::string(passes::policy_name(so.v2c))},
        {"schedule", r.schedule},
        {"seed", std::to_string(r.seed)}};
    std::vector<std::string> tensor_names;
    for (const auto& t : session.initial_gm().tensors) tensor_names.push_back(t.name);
    std::unique_ptr<traces::VcdTrace> vcd;
    std::unique_ptr<traces::ChromeTrace> chrome;
    std::unique_ptr<traces::HtmlTimeline> html;
    std::vector<sim::EventSink*> sinks;
    if (!r.vcd.empty()) {
        sim::init_systemc();
        vcd = std::make_unique<traces::VcdTrace>(
            r.vcd, traces::VcdLayout{session.clusters_needed(), traces::flag_event_ids(*session.compiled().expanded)});
        vcd->attach(sim::Machine::instance(session.clusters_needed()));
        sinks.push_back(vcd.get());
    }
    if (!r.trace.empty()) {
        traces::ChromeTraceOptions to;
        to.clock_ghz = session.hw().chip.clock_ghz;
        to.metadata = trace_meta;
        to.tensor_names = tensor_names;
        chrome = std::make_unique<traces::ChromeTrace>(r.trace, to);
        sinks.push_back(chrome.get());
    }
    if (!r.html.empty()) {
        traces::HtmlOptions ho;
        ho.title = "cvsim: " + trace_meta[0].second;
        ho.metadata = trace_meta;
        ho.clock_ghz = session.hw().chip.clock_ghz;
        ho.tensor_names = tensor_names;
        html = std::make_unique<traces::HtmlTimeline>(r.html, ho);
        sinks.push_back(html.get());
    }
    sim::ScheduleResult res = session.run(*sched, sinks);
    if (chrome) {
        chrome->add_findings(res.findings);
        chrome->finish();
    }
    if (html) {
        html->add_findings(res.findings);
        std::vector<std::tuple<uint32_t, sim::CoreId, sim::CoreId>> replays;
        for (const auto& core : res.outcome.cores)
            if (core.replay)
                replays.emplace_back(static_cast<uint32_t>(core.cluster), core.core,
                                     sim::CoreId::Aiv0);  // lane 1 replays lane 0
        html->set_replays(std::move(replays));
        html->finish();
    }
    if (vcd) vcd->close();
    for (const std::string* err : {chrome ? &chrome->error() : nullptr, html ? &html->error() : nullptr})
        if (err && !err->empty()) {
            std::cerr << "error[" << cvsim::codes::kIo << "]: " << *err
                      << "\n";  // no exception after SystemC (see try_write_text_file)
            return kExitBadInput;
        }
    const ref::Result& want = session.reference();
    if (!c.quiet) print_run_report(std::cout, session, res, want, c.verbose, output_width());
    if (!r.output_dir.empty()) {
        std::filesystem::create_directories(r.output_dir);
        for (const auto& t : res.outcome.gm_final.tensors)
            if (t.is_output()) rt::write_npy(t, r.output_dir + "/" + t.name + ".npy");
    }
    if (!c.json.empty()) {
        // No exception once SystemC has run: ASan cannot follow QuickThreads' stack switches and reports a
        // false stack-buffer-overflow when a throw unwinds (docs/DECISIONS.md); the error is reported here.
        if (std::string err = try_write_text_file(c.json, run_json(session, res, want).dump(2) + "\n"); !err.empty()) {
            std::cerr << "error[" << cvsim::codes::kIo << "]: " << err << "\n";
            return kExitBadInput;
        }
    }
    std::vector<std::string> codes;
    for (const auto& f : res.findings) codes.push_back(f.code);
    return res.clean() ? kExitClean : only_unsupported(codes) ? kExitBadInput : kExitFindings;
}

void note_unread(const ir::Program& p, const std::string& kernel, const std::string& entry) {
    for (const ir::Function* f : unread_unreached(p, entry))
        std::cerr << fmt::format(
            "note: {}: function '{}' is not read ({} at line {}: {}); the entry does not reach it (a launch "
            "that does is not checked)\n",
            kernel, f->name, f->unread.diag->code, f->unread.diag->loc.line, f->unread.diag->message);
}

PipelineResult expand_kernel_file(const CommonOptions& c, const std::string& kernel, bool notes, bool launches,
                                  bool reached_only) {
    sim::SessionOptions so = session_options(c);
    auto file = SourceFile::read(kernel);
    std::vector<std::pair<std::string, int64_t>> defaulted;
    std::vector<std::pair<std::string, int64_t>> inferred;
    std::vector<std::string> specialised;
    PipelineOptions po;
    po.sema = SemaOptions{sim::dims_from_inputs(file, so.dims, so.input_files), kDefaultDim, &defaulted};
    po.sema.inferred = &inferred;
    po.sema.specialised = &specialised;
    po.sema.keep_unread = true;  // a function no launch of the entry reaches may be one cvsim cannot read
    po.sema.reuse = true;        // read only (check's verdict scope reads the program of every kernel's sessions)
    po.entry = c.entry;
    po.after_sema = [&](const ir::Program& program) {
        if (!notes || c.quiet) return;
        for (const auto& [n, v] : inferred) std::cerr << inferred_dim_note(n, v);
        for (const auto& sp : specialised) std::cerr << "note: " << sp << "\n";
        for (const auto& [d, v] : defaulted) std::cerr << defaulted_dim_note(d, v);
        note_unread(program, kernel, c.entry);
        // The launch's own width when the orchestration gives one: run and check launch (and expand) with it.
        if (auto w = launch_width(program, c.entry); w && *w != so.blocks)
            std::cerr << fmt::format("note: {}: the launch sets core_num {}; expanded for {} block(s)\n", kernel, *w,
                                     *w);
    };
    po.hw = sim::session_params(so);
    po.expand = sim::session_expand_options(so, po.hw);
    po.printed = true;
    po.reached_only = reached_only;
    po.every_launch = launches;
    po.host.scalars = so.scalars;  // the launches check checks (entries_of)
    po.host.iotas = so.iotas;
    po.host.files = so.input_files;
    po.store_layouts = false;  // the board toolchain's rule, not the pass's (check_expanded_for_hardware)
    po.gm_budget = false;      // cvsim's own GM bound is the simulator's limit: expand allocates no GM
    return run_pipeline(file, po);
}

int cmd_expand(const CommonOptions& c, const std::string& kernel, const std::string& out) {
    if (c.json == "-" && out.empty())
        throw std::invalid_argument("--json -: standard output already carries the expanded program; give -o FILE");
    PipelineResult piped = expand_kernel_file(c, kernel, true);
    std::string text = print_program(*piped.printed);
    if (out.empty())
        std::cout << text;
    else {
        write_text_file(out, text);
    }
    if (c.verbose) {
        print_expand_stats(std::cerr, piped.printed_stats);
        std::cerr << format_pass_records(piped.passes);
    }
    if (!c.json.empty())
        write_json(c.json, {{"expand", stats_json(piped.printed_stats)}, {"passes", passes_json(piped.passes)}});
    return kExitClean;
}

int cmd_params(const CommonOptions& c) {
    sim::SessionOptions so = session_options(c);
    HwParams hw = load_params(so.target, so.config_files, so.param_sets);
    auto rows = param_rows(hw);
    if (!c.quiet) {
        std::cout << (c.verbose ? format_param_table(rows) : format_params_text(rows, output_width()));
        // The op registry's cost entries: which formula prices each op, with its source and confidence.
        std::string costs = "\nop cost formulas (per op: cvsim ops)\n";
        for (const auto& f : op_cost_table())
            costs += fmt::format("  {:<16} conf {}  {}  [source: {}]\n", f.name, f.confidence, f.formula, f.source);
        std::cout << (c.verbose ? costs : fit_width(costs, output_width()));
    }
    nlohmann::json j = params_json(hw, rows);
    j["op_costs"] = nlohmann::json::array();
    for (const auto& f : op_cost_table())
        j["op_costs"].push_back({{"name", f.name},
                                 {"formula", f.formula},
                                 {"confidence", std::string(1, f.confidence)},
                                 {"source", f.source}});
    write_json(c.json, j);
    return kExitClean;
}

int cmd_ops() {
    std::cout << ir::ops_table_markdown();
    return kExitClean;
}

}  // namespace cvsim::cli
