// The sub-commands: run, expand, explore/check, params (the demo is in demo.cpp).
#include "app/cli.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "app/report.h"
#include "app/sampling.h"
#include "frontend/codes.h"
#include "frontend/control_scalars.h"
#include "frontend/diag.h"
#include "frontend/launch.h"
#include "frontend/ops.h"
#include "frontend/parser.h"
#include "frontend/passes/ir_util.h"
#include "frontend/pipeline.h"
#include "frontend/printer.h"
#include "frontend/sema.h"
#include "traces/chrome_trace.h"
#include "traces/html.h"
#include "traces/vcd.h"

namespace cvsim::cli {

using sim::Finding;

namespace {

void write_json(const std::string& path, const nlohmann::json& j) {
    if (path.empty()) return;
    write_text_file(path, j.dump(2) + "\n");
}

}  // namespace

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

namespace {
// A run whose only findings are a construct cvsim does not model at run time (E-UNSUPPORTED, e.g. a
// pl.tensor.view window that is no single box of the tensor) and the E-UNCHECKED outputs it causes has no
// verdict: exit 2 as for any unsupported construct (SPEC 3), not 1. With any other finding it stays 1.
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
}  // namespace

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

namespace {

// A function cvsim could not read (ir::Function::unread) that the entry's launches do not reach: say so, and why.
void note_unread(const ir::Program& p, const std::string& kernel, const std::string& entry) {
    for (const ir::Function* f : unread_unreached(p, entry))
        std::cerr << fmt::format(
            "note: {}: function '{}' is not read ({} at line {}: {}); the entry does not reach it (a launch "
            "that does is not checked)\n",
            kernel, f->name, f->unread.diag->code, f->unread.diag->loc.line, f->unread.diag->message);
}

// The kernel file through the pass pipeline (frontend/pipeline.h) with the command line's options: the
// whole-program expansion `expand` prints, and the launch passes `run` and `check` run, so expand accepts
// nothing run rejects. LAUNCHES false: only the printed expansion (check's timing scope, after its sessions
// ran the launch passes). Unbound pl.dynamic symbols take kDefaultDim; NOTES prints which on stderr (unless
// --quiet).
PipelineResult expand_kernel_file(const CommonOptions& c, const std::string& kernel, bool notes = false,
                                  bool launches = true, bool reached_only = false) {
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

}  // namespace

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

namespace {

// The static half of the verdict's scope, over the lane programs the exploration ran.
passes::TimingScope timing_scope_of(const CommonOptions& c, const std::string& kernel) {
    // (a kernel entry: the functions it reaches, not every kernel of a whole-model file)
    auto program = expand_kernel_file(c, kernel, false, /*launches=*/false, /*reached_only=*/true).printed;
    // A kernel an orchestration launches is checked on its launch's scalars, which the host walk computed: the
    // orchestration's own control flow is not part of that check's scope.
    if (auto e = c.entry.empty() ? nullptr : program->find(c.entry); e && e->type != ir::FuncType::Orchestration) {
        auto only = std::make_shared<ir::Program>(*program);
        std::erase_if(only->functions, [](const auto& f) { return f->type == ir::FuncType::Orchestration; });
        return passes::analyse_timing_scope(*only);
    }
    return passes::analyse_timing_scope(*program);
}

// The entries check/explore take from one kernel file: the kernels an Orchestration entry launches when it is
// not one launch (frontend/launch.h kernel_launches), else the entry as given ("": compile() chooses).
// Each kernel's options: --entry NAME, and its scalar parameters given the constants of its launch site (an
// --input of the user wins). A scalar the orchestration computes (cvsim does not run host scalar code) and the
// user does not give makes that kernel unchecked: any value cvsim picked could make the verdict vacuous (a
// valid region of 0 rows accesses nothing), so the kernel gets E-UNCHECKED at the parameter, never a pass.
// A kernel the orchestration launches with many scalar bindings (a loop over launches) is checked on at most
// this many of them (docs/DECISIONS.md, "The host walk").
constexpr size_t kMaxBindings = 8;

// The wall-time bound (seconds) of one schedule at an extra sampled value (app/sampling.h ExtraSample): a value
// whose schedule does not finish within it is no verdict (a made-up size must not turn into an E-TIMEOUT).
constexpr double kExtraSampleTimeout = 2;

// Sizes cvsim defaulted are sampled (docs/DECISIONS.md): the values a comparison of the program's source changes
// at (at most this many per symbol, up to kMaxComparedSize), then every defaulted symbol at 1, 2, ..., 64 (and,
// with several, each alone where not all of them compile at a size); each launch at a size gets the nominal schedule
// and at most kSizeSchedules more, and a file at most kMaxSizeEntries launches at other sizes.
constexpr size_t kMaxComparedSizes = 8;
constexpr int64_t kMaxComparedSize = 1024;
constexpr uint64_t kSizeSchedules = 2;
constexpr size_t kMaxSizeEntries = 48;

struct CheckEntry {
    CommonOptions opts;
    std::string unbound;  // a computed scalar parameter without --input ("": every scalar is bound)
    std::string why;      // why the host walk does not know it ("": the walk did not reach the launch)
    std::string binding;  // "NAME=V, ..." of this launch when the kernel is launched with several bindings
    SourceLoc loc;        // that parameter's declaration
    std::shared_ptr<const ir::Program> program;  // keeps the source file `loc` points into alive
    // Unbound control scalars checked at values cvsim chose (app/sampling.h): "n=1, flag=1" ("" otherwise);
    // the entries of one kernel's sampling share `sample_group` (-1: none).
    std::string sampled;
    int sample_group = -1;
    // The Orchestration function whose launch this is, when check takes several of a file in turn ("" otherwise).
    std::string orchestration;
    // That entry's walk was rejected (e.g. aliased launch arguments): reported in its turn, the others checked.
    std::shared_ptr<const Diagnostic> rejected;
    // 0: the dims the file's parse gave; k > 0: the pl.dynamic symbols cvsim defaulted, at kDefaultDim >> k
    // (a retry after the default put a window out of bounds: docs/DECISIONS.md, "A size cvsim defaulted ...").
    int dim_try = 0;
    // 1: an extra sampled value (app/sampling.h ExtraSample), checked only when the kinds before it found nothing,
    // with its nominal run first and a small budget; 2: the same, one of the descending chain (only its largest
    // value in bounds is checked).
    int sample_extra = 0;
    // Non-empty: the pl.dynamic symbols cvsim defaulted at another size ("N=16"), checked after the default gave
    // this kernel no finding (docs/DECISIONS.md, "Sizes cvsim defaulted are sampled").
    std::string dim_sample = {};
};
// attrs={"core_num": X} at a launch where X is computed at run time (docs/DECISIONS.md): cvsim launches
// --blocks; say so, naming the launch and the expression.
// `launches`: the host walk's launches; a kernel whose every binding has an evaluated core_num is launched with
// that width (LaunchBinding::blocks), so it gets no note.
// `skip`: functions whose launches are another entry's (the other Orchestration functions of a file check takes
// one by one).
void note_runtime_core_num(const ir::Program& p, int blocks, const std::vector<KernelLaunch>& launches,
                           const std::set<std::string>& skip = {}) {
    // The widths the walk evaluated for `name` ("" when some binding has none).
    auto evaluated = [&](const std::string& name) {
        std::set<int> widths;
        for (const auto& k : launches)
            if (k.name == name && !k.bindings.empty())
                for (const auto& b : k.bindings) {
                    if (b.blocks <= 0) return std::string();
                    widths.insert(b.blocks);
                }
        std::string w;
        for (int x : widths) w += (w.empty() ? "" : ", ") + std::to_string(x);
        return w;
    };
    for (const auto& f : p.functions) {
        if (skip.count(f->name)) continue;
        passes::walk(f->body, [&](const ir::StmtPtr& s) {
            const ir::ExprPtr& v = s->value;
            if (!v || v->kind != ir::ExprKind::FuncCall) return;
            const ir::ExprPtr* val = core_num_attr(*v);
            if (!val || (*val)->kind == ir::ExprKind::Int) return;
            // The kernel launched (a pl.spmd_submit's / pl.submit's first argument): the walk's launches name it.
            const std::string& kernel = launched_kernel(*v);
            if (std::string w = evaluated(kernel); !w.empty()) {
                std::cerr << fmt::format(
                    "note: {}:{}: the launch of '{}' sets core_num at run time; the host walk evaluates it to {} "
                    "block(s), which cvsim launches\n",
                    f->name, s->loc.line, kernel, w);
                return;
            }
            std::cerr << fmt::format(
                "note: {}:{}: the launch of '{}' sets core_num to the run-time value {}; cvsim "
                "launches --blocks {} block(s) (pass --blocks N to check N)\n",
                f->name, s->loc.line, kernel, print_expr(*val), blocks);
        });
    }
}

// The entry kernel checked as given, or, when scalar parameters that decide what it runs are not given, once
// per sampled assignment of them (docs/DECISIONS.md, "Unbound control scalars are sampled").
std::vector<CheckEntry> sampled_entries(const CommonOptions& c, const std::string& kernel,
                                        const std::shared_ptr<ir::Program>& program) {
    std::shared_ptr<ir::Function> fn;
    try {
        fn = pick_entry(*program, c.entry);
    } catch (const CompileError&) {
        return {CheckEntry{c, "", "", "", {}, nullptr, "", -1, "", nullptr}};  // the session reports E-ENTRY
    }
    std::vector<std::string> names;
    for (const auto& n : control_scalar_params(*program, *fn)) {
        bool given = false;
        for (const auto& in : c.inputs) given |= in.rfind(n + "=", 0) == 0;
        if (!given) names.push_back(n);
    }
    if (names.empty() || fn->type == ir::FuncType::Orchestration)
        return {CheckEntry{c, "", "", "", {}, nullptr, "", -1, "", nullptr}};
    auto samples = sample_assignments(*fn, names);
    const size_t base_samples = samples.size();
    std::vector<ExtraSample> extras;
    std::vector<std::string> extra_at, chain_at;
    for (const auto& x : extra_samples(*program, *fn)) {
        Assignment a = extra_assignment(*fn, names, x);
        if (std::find(samples.begin(), samples.end(), a) != samples.end()) continue;  // a kind gave it already
        samples.push_back(std::move(a));
        extras.push_back(x);
        (x.chain ? chain_at : extra_at).push_back(x.descending ? "descending" : std::to_string(x.value));
    }
    if (!c.quiet) {
        std::vector<std::string> at;
        for (size_t i = 0; i < base_samples; ++i) at.push_back(samples[i].front().second);
        std::cerr << fmt::format(
            "note: {}: '{}' takes the scalar parameter(s) {} that decide what it runs, and no --input gives them: "
            "cvsim checks it with each set to {} (a verdict each; --input NAME=V checks the values you use); when "
            "none of these finds anything, also with each set to {}, and to the largest of {} it takes\n",
            kernel, fn->name, fmt::join(names, ", "), fmt::join(at, ", then "), fmt::join(extra_at, ", "),
            fmt::join(chain_at, ", "));
    }
    std::vector<CheckEntry> out;
    for (size_t i = 0; i < samples.size(); ++i) {
        const Assignment& a = samples[i];
        CheckEntry e{c, "", "", "", {}, nullptr, "", -1, "", nullptr};
        if (i >= base_samples) {
            e.sample_extra = extras[i - base_samples].chain ? 2 : 1;
            e.opts.timeout = std::min(e.opts.timeout, kExtraSampleTimeout);
        }
        e.opts.entry = fn->name;
        for (const auto& [n, v] : a) e.opts.inputs.push_back(n + "=" + v);
        e.sampled = assignment_text(a);
        e.binding = e.sampled + " (sampled)";
        e.sample_group = 0;
        e.program = program;
        out.push_back(std::move(e));
    }
    return out;
}

void add_launch_entries(const CommonOptions& c, const std::string& kernel, const std::shared_ptr<ir::Program>& program,
                        const std::vector<KernelLaunch>& launches, const std::string& sampled,
                        std::optional<SampleKind> sample_kind, const std::set<std::string>* only,
                        std::vector<CheckEntry>& out);

// A note for each scalar parameter a launch takes from a value the host walk does not know but that cannot matter
// to the kernel (LaunchBinding::dead): it is checked with 0 and the verdict holds for every value. NOTED: the
// (kernel, parameter) pairs already noted.
void note_dead_scalars(const CommonOptions& c, const std::string& kernel, const std::vector<KernelLaunch>& launches,
                       std::set<std::pair<std::string, std::string>>& noted) {
    if (c.quiet) return;
    for (const auto& k : launches)
        for (const auto& b : k.bindings)
            for (const auto& [name, why] : b.dead) {
                bool given = false;
                for (const auto& in : c.inputs) given |= in.rfind(name + "=", 0) == 0;
                if (given || !noted.insert({k.name, name}).second) continue;
                std::cerr << fmt::format(
                    "note: {}: kernel '{}' is launched with its scalar '{}' from a value cvsim does not know ({}), "
                    "but no value derived from it reaches anything the kernel does (an op, an address, a loop "
                    "bound, a branch, a returned value): cvsim checks it with {}=0 and the value does not matter\n",
                    kernel, k.name, name, why, name);
            }
}

std::vector<CheckEntry> entries_of_entry(const CommonOptions& c, const std::string& kernel,
                                         const std::shared_ptr<ir::Program>& program, const HostInputs& host,
                                         const std::set<std::string>& other_entries);

// The integer constants (and each plus one) that the `if` conditions of ORCH, and of the orchestrations it calls,
// compare a computed value with (`x < 3`, `128 < n`: 3, 4, 128, 129), in source order, each once; at most 8.
// Sampled at each, a value on both sides of every such branch is tried (docs/DECISIONS.md, "Branch boundaries
// are sampled").
std::vector<int64_t> branch_boundaries(const ir::Program& p, const ir::Function& orch) {
    constexpr size_t kMaxBounds = 8;
    std::vector<int64_t> out;
    std::set<const ir::Function*> seen;
    std::function<void(const ir::ExprPtr&)> cond = [&](const ir::ExprPtr& e) {
        if (!e) return;
        if (e->kind == ir::ExprKind::Compare && e->args.size() == 2) {
            for (int side = 0; side < 2; ++side) {
                const ir::ExprPtr& k = e->args[side];
                const ir::ExprPtr& other = e->args[1 - side];
                if (!k || !other || k->kind != ir::ExprKind::Int || other->kind == ir::ExprKind::Int) continue;
                if (k->ival < 0 || k->ival > (int64_t{1} << 31)) continue;
                for (int64_t v : {k->ival, k->ival + 1})
                    if (out.size() < kMaxBounds && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
            }
        }
        for (const auto& a : e->args) cond(a);
    };
    std::function<void(const ir::Function&)> visit = [&](const ir::Function& f) {
        if (!seen.insert(&f).second) return;
        passes::walk(f.body, [&](const ir::StmtPtr& s) {
            if (s->kind == ir::StmtKind::If) cond(s->value);
            if (const ir::ExprPtr& v = s->value; v && v->kind == ir::ExprKind::FuncCall)
                if (auto callee = p.find(v->sval); callee && callee->type == ir::FuncType::Orchestration)
                    visit(*callee);
        });
    };
    visit(orch);
    return out;
}

// The Orchestration functions of P no other Orchestration function calls, in source order, when there are
// several (empty otherwise: pick_entry chooses the entry, or says E-ENTRY for the other kinds).
std::vector<std::string> orchestration_entries(const ir::Program& p) {
    std::set<std::string> called;
    for (const auto& f : p.functions)
        if (f->type == ir::FuncType::Orchestration)
            passes::walk(f->body, [&](const ir::StmtPtr& s) {
                if (const ir::ExprPtr& v = s->value; v && v->kind == ir::ExprKind::FuncCall) called.insert(v->sval);
            });
    std::vector<std::string> out;
    for (const auto& f : p.functions)
        if (f->type == ir::FuncType::Orchestration && f->specialised_from.empty() && !called.count(f->name))
            out.push_back(f->name);
    return out.size() > 1 ? out : std::vector<std::string>{};
}

std::vector<CheckEntry> entries_of(const CommonOptions& c, const std::string& kernel,
                                   std::vector<std::pair<std::string, int64_t>>* defaulted_out = nullptr) {
    sim::SessionOptions so = session_options(c);
    std::vector<std::pair<std::string, int64_t>> defaulted;
    auto file = SourceFile::read(kernel);
    std::vector<std::pair<std::string, int64_t>> inferred;
    SemaOptions sema{sim::dims_from_inputs(file, so.dims, so.input_files), kDefaultDim, &defaulted};
    sema.inferred = &inferred;
    std::vector<std::string> specialised;
    sema.specialised = &specialised;
    sema.keep_unread = true;  // the launches that reach a function cvsim cannot read are reported not checked
    sema.reuse = true;        // (its kernels' sessions read the same program)
    auto program = load_program(file, sema);
    if (defaulted_out) *defaulted_out = defaulted;
    // Several Orchestration functions and no --entry: each is an entry of its own, checked in turn
    // (docs/DECISIONS.md, "check takes every Orchestration function of a file").
    const std::vector<std::string> orchs =
        c.entry.empty() ? orchestration_entries(*program) : std::vector<std::string>{};
    if (!c.quiet) {
        for (const auto& [n, v] : inferred) std::cerr << inferred_dim_note(n, v);
        for (const auto& sp : specialised) std::cerr << "note: " << sp << "\n";
        for (const auto& [d, v] : defaulted) std::cerr << defaulted_dim_note(d, v);
        if (orchs.empty()) {
            note_unread(*program, kernel, c.entry);
        } else {
            // What no entry reaches (in source order).
            std::map<const ir::Function*, size_t> unreached;
            for (const auto& o : orchs)
                for (const ir::Function* f : unread_unreached(*program, o)) ++unreached[f];
            for (const auto& fp : program->functions)
                if (const ir::Function* f = fp.get(); unreached.count(f) && unreached[f] == orchs.size())
                    std::cerr << fmt::format(
                        "note: {}: function '{}' is not read ({} at line {}: {}); no entry reaches it (a launch "
                        "that does is not checked)\n",
                        kernel, f->name, f->unread.diag->code, f->unread.diag->loc.line, f->unread.diag->message);
        }
    }
    HostInputs host;
    host.scalars = so.scalars;
    host.iotas = so.iotas;
    host.files = so.input_files;
    host.defaulted_dims = defaulted;
    if (orchs.empty()) return entries_of_entry(c, kernel, program, host, {});
    if (!c.quiet)
        std::cerr << fmt::format(
            "note: {}: the program has {} Orchestration functions ({}); check takes each as an entry in turn (--entry "
            "NAME takes one)\n",
            kernel, orchs.size(), fmt::join(orchs, ", "));
    std::vector<CheckEntry> out;
    for (const auto& o : orchs) {
        CommonOptions co = c;
        co.entry = o;
        std::set<std::string> others(orchs.begin(), orchs.end());
        others.erase(o);
        std::vector<CheckEntry> es;
        try {
            es = entries_of_entry(co, kernel, program, host, others);
        } catch (const CompileError& err) {
            // One entry cvsim cannot walk does not hide the verdicts of the others.
            CheckEntry r{co, "", "", "", {}, program, "", -1, "", nullptr};
            r.rejected = std::make_shared<const Diagnostic>(err.diag());
            es.push_back(std::move(r));
        }
        for (auto& e : es) {
            e.orchestration = o;
            // One kernel's samples under two entries are two groups.
            if (e.sample_group >= 0)
                e.sample_group =
                    static_cast<int>((static_cast<size_t>(e.sample_group) ^ std::hash<std::string>{}(o)) & 0x3fffffff);
            out.push_back(std::move(e));
        }
    }
    return out;
}

// The entries of one entry C.entry ("": the one pick_entry chooses) of PROGRAM.
std::vector<CheckEntry> entries_of_entry(const CommonOptions& c, const std::string& kernel,
                                         const std::shared_ptr<ir::Program>& program, const HostInputs& host,
                                         const std::set<std::string>& other_entries) {
    auto launches = kernel_launches(*program, c.entry, host);
    if (!c.quiet) note_runtime_core_num(*program, c.blocks, launches, other_entries);
    std::set<std::pair<std::string, std::string>> noted_dead;
    note_dead_scalars(c, kernel, launches, noted_dead);
    if (launches.empty()) {
        // --entry KERNEL that an orchestration launches wider than --blocks (its core_num, or the pl.spmd loops
        // around it): its blocks run at once on the board, so it is checked that wide (one block was a false PASS
        // for blocks writing the same rows). --blocks N > 1 given by the user stands.
        const ir::Function* fn = c.entry.empty() ? nullptr : program->find(c.entry).get();
        if (fn && fn->type != ir::FuncType::Orchestration && c.blocks == 1)
            if (auto w = kernel_site_width(*program, c.entry)) {
                CommonOptions wide = c;
                wide.blocks = static_cast<int>(w->first);
                if (!c.quiet)
                    std::cerr << fmt::format(
                        "note: {}: '{}' is launched with {} blocks at line {}; cvsim checks it with {} (--blocks N "
                        "checks another width)\n",
                        kernel, c.entry, w->first, w->second.line, w->first);
                return sampled_entries(wide, kernel, program);
            }
        return sampled_entries(c, kernel, program);
    }
    if (!c.quiet)
        std::cerr << fmt::format(
            "note: {}: the entry{} launches {} kernel(s); each is checked on its own (--entry NAME), and the launches "
            "against each other as the runtime orders them\n",
            kernel, c.entry.empty() ? std::string() : " '" + c.entry + "'", launches.size());
    // A launch whose scalars the walk could not know because nobody gave the entry's scalars or the data it
    // reads them from: the walk runs again with those set to each sampled value (docs/DECISIONS.md, "Unbound
    // control scalars are sampled"); what it still cannot know stays E-UNCHECKED.
    std::set<std::string> known, unknown;  // kernels whose every launch the walk knows / does not
    for (const auto& k : launches) {
        bool u = k.bindings.empty() && !k.computed.empty();
        for (const auto& b : k.bindings) u |= !b.unknown.empty() || (k.runtime_core_num && b.blocks <= 0);
        u &= !k.distributed && !k.unread && !k.rejected;  // their own E-UNSUPPORTED, whatever the values
        (u ? unknown : known).insert(k.name);
    }
    std::vector<CheckEntry> out;
    // Launches the runtime leaves unordered (docs/DECISIONS.md, "Manual scopes" and "AUTO scopes order readers
    // after writers only"): a finding each, before the kernels' own verdicts (which run each launch alone).
    try {
        if (auto orch = pick_entry(*program, c.entry); orch && orch->type == ir::FuncType::Orchestration)
            for (auto& d : unordered_launches(*program, *orch)) {
                CommonOptions co = c;
                co.entry = orch->name;  // the JSON report's "entry": the launches are the orchestration's
                CheckEntry r{co, "", "", "", {}, program, "", -1, "", nullptr};
                r.rejected = std::make_shared<const Diagnostic>(std::move(d));
                out.push_back(std::move(r));
            }
    } catch (const CompileError&) {
        // No entry to follow: the kernels' entries report it.
    }
    add_launch_entries(c, kernel, program, launches, "", std::nullopt, &known, out);
    if (unknown.empty()) return out;
    bool noted = false;
    std::set<std::string> sampled_kernels;  // kernels some sample launches with known scalars
    bool any_sampled = false;               // some walk set a value no --input gives
    // The walk under KIND: the kernels of ONLY it launches with known scalars get entries.
    auto walk_sampled = [&](const SampleKind& kind, const std::set<std::string>& only) {
        std::vector<std::string> sampled;
        HostInputs hs = host;
        hs.sample = kind.value;
        hs.sample_iota = kind.iota;
        hs.sampled = &sampled;
        // Under a sample, only what the walk then knows: a kernel it does not launch (a zero trip count) or
        // launches with a scalar it still cannot know (a sampled read past its tensor) gets no verdict from it.
        std::vector<KernelLaunch> ls;
        const std::vector<KernelLaunch> walked = kernel_launches(*program, c.entry, hs);
        note_dead_scalars(c, kernel, walked, noted_dead);
        for (auto k : walked) {
            std::erase_if(k.bindings, [](const LaunchBinding& b) { return !b.unknown.empty(); });
            if (k.bindings.empty()) continue;
            if (only.count(k.name)) sampled_kernels.insert(k.name);
            ls.push_back(std::move(k));
        }
        any_sampled |= !sampled.empty();
        if (!c.quiet && !noted && !sampled.empty()) {
            noted = true;
            std::cerr << fmt::format(
                "note: {}: the orchestration's launches depend on values no --input gives ({}): cvsim checks them with "
                "each set to 1, then 2, then 0, then ascending from 0 and from 1 (a verdict each; --input gives the "
                "real ones)\n",
                kernel, fmt::join(sampled, ", "));
        }
        const std::string what = kind.iota ? fmt::format("ascending from {}", kind.value) : std::to_string(kind.value);
        add_launch_entries(c, kernel, program, ls,
                           sampled.empty() ? "" : fmt::format("{}={}", fmt::join(sampled, ", "), what), kind, &only,
                           out);
    };
    for (const SampleKind& kind : sample_kinds()) walk_sampled(kind, unknown);
    // The kernels the values above launch: they also get the extra values (below).
    const std::set<std::string> base_sampled = sampled_kernels;
    std::set<std::string> still;
    for (const auto& n : unknown)
        if (!sampled_kernels.count(n)) still.insert(n);
    // A kernel no sample launches (behind a branch on a sampled value that 0, 1 and 2 do not take, such as
    // `if layer_id < 3: ... else: launch`): the walk runs again with the sampled values at each constant the
    // orchestration's branch conditions compare with, and one more, until every such kernel is launched
    // (docs/DECISIONS.md, "Branch boundaries are sampled").
    if (!still.empty() && any_sampled) {
        std::vector<int64_t> bounds = branch_boundaries(*program, *pick_entry(*program, c.entry));
        std::erase_if(bounds, [](int64_t v) { return v == 0 || v == 1 || v == 2; });
        if (!c.quiet && !bounds.empty())
            std::cerr << fmt::format(
                "note: {}: no sampled value launches {}: cvsim also samples the constants the orchestration's branch "
                "conditions compare with, and each plus one ({}), in turn until one launches them\n",
                kernel, fmt::join(still, ", "), fmt::join(bounds, ", "));
        for (int64_t v : bounds) {
            if (still.empty()) break;
            walk_sampled(SampleKind{v, false}, still);
            std::erase_if(still, [&](const std::string& n) { return sampled_kernels.count(n) > 0; });
        }
    }
    // The extra values (app/sampling.h) for the kernels the values above launch, each checked only when those
    // found nothing in that kernel (docs/DECISIONS.md, "Larger sampled values").
    if (any_sampled && !base_sampled.empty()) {
        for (const ExtraSample& x : extra_samples(*program, *pick_entry(*program, c.entry))) {
            if (x.descending) continue;  // the host walk samples one value for all
            const size_t before = out.size();
            walk_sampled(SampleKind{x.value, false}, base_sampled);
            for (size_t i = before; i < out.size(); ++i)
                if (out[i].sample_group >= 0) {
                    out[i].sample_extra = x.chain ? 2 : 1;
                    out[i].opts.timeout = std::min(out[i].opts.timeout, kExtraSampleTimeout);
                }
        }
    }
    // What no sample makes known is reported as before (E-UNCHECKED with the walk's reason).
    add_launch_entries(c, kernel, program, launches, "", std::nullopt, &still, out);
    return out;
}

// The entries of LAUNCHES (the host walk's, under SAMPLED: "" or the walk's sampled values) appended to OUT,
// each distinct launch once.
void add_launch_entries(const CommonOptions& c, const std::string& kernel, const std::shared_ptr<ir::Program>& program,
                        const std::vector<KernelLaunch>& launches, const std::string& sampled,
                        std::optional<SampleKind> sample_kind, const std::set<std::string>* only,
                        std::vector<CheckEntry>& out) {
    for (const auto& k : launches) {
        if (only && !only->count(k.name)) continue;
        if (k.rejected) {  // its arguments cannot be bound: reported in its turn, once
            CheckEntry entry{c, "", "", "", {}, program, "", -1, "", nullptr};
            entry.opts.entry = k.name;
            entry.rejected = k.rejected;
            if (std::none_of(out.begin(), out.end(), [&](const CheckEntry& x) {
                    return x.rejected && x.opts.entry == k.name && x.rejected->message == k.rejected->message;
                }))
                out.push_back(std::move(entry));
            continue;
        }
        // The launches to check: one per distinct scalar binding the host walk found (at most kMaxBindings of
        // them: the first, the last and evenly spaced ones), else the first launch site's constants.
        // A launch with a scalar the walk does not know is always reported (E-UNCHECKED), never left out.
        std::vector<const LaunchBinding*> known, unknown, picked;
        for (const auto& b : k.bindings) (b.unknown.empty() ? known : unknown).push_back(&b);
        const size_t nb = k.bindings.size(), nk = known.size();
        if (nk <= kMaxBindings) {
            picked = known;
        } else {
            // The first and the last, then for each scalar parameter (and the launch width) the first binding
            // with its smallest and with its largest value (an out-of-range window is likeliest there; evenly
            // spaced launches of a non-monotonic scalar can miss both), then evenly spaced ones up to
            // kMaxBindings; extremes beyond that are kept (at most kMaxExtremes in all).
            constexpr size_t kMaxExtremes = 16;
            std::set<size_t> chosen{0, nk - 1};
            auto number = [](const std::string& t) -> std::optional<double> {
                try {
                    size_t used = 0;
                    double v = std::stod(t, &used);
                    if (used == t.size()) return v;
                } catch (const std::exception&) {
                }
                return std::nullopt;
            };
            std::map<std::string, std::pair<size_t, size_t>> lo_hi;  // parameter -> (index of min, index of max)
            std::map<std::string, std::pair<double, double>> value;
            for (size_t j = 0; j < nk; ++j) {
                std::vector<std::pair<std::string, std::string>> vals = known[j]->scalars;
                vals.emplace_back("core_num", std::to_string(known[j]->blocks));
                for (const auto& [name, text] : vals) {
                    auto v = number(text);
                    if (!v) continue;
                    auto [it, fresh] = value.try_emplace(name, *v, *v);
                    auto& idx = lo_hi.try_emplace(name, j, j).first->second;
                    if (fresh) continue;
                    if (*v < it->second.first) it->second.first = *v, idx.first = j;
                    if (*v > it->second.second) it->second.second = *v, idx.second = j;
                }
            }
            for (const auto& [name, idx] : lo_hi)
                for (size_t j : {idx.first, idx.second})
                    if (chosen.size() < kMaxExtremes) chosen.insert(j);
            for (size_t j = 0; chosen.size() < kMaxBindings && j < kMaxBindings; ++j)
                chosen.insert((j * (nk - 1) + (kMaxBindings - 1) / 2) / (kMaxBindings - 1));
            for (size_t j = 0; chosen.size() < kMaxBindings && j < nk; ++j) chosen.insert(j);
            for (size_t j : chosen) picked.push_back(known[j]);
        }
        const size_t n_checked = picked.size();
        picked.insert(picked.end(), unknown.begin(), unknown.end());
        if (!c.quiet && !k.walk_incomplete.empty())
            std::cerr << fmt::format("note: {}: {}\n", kernel, k.walk_incomplete);
        if (!c.quiet && nk > kMaxBindings)
            std::cerr << fmt::format(
                "note: {}: kernel '{}' is launched {} times with {} distinct scalar bindings; cvsim checks {} of them "
                "(the first, the last, the first with the smallest and with the largest value of each scalar and of "
                "core_num, then evenly spaced ones; the others are not checked; --input NAME=V checks one)\n",
                kernel, k.name, k.launch_count, nk, n_checked);
        if (picked.empty()) picked.push_back(nullptr);
        for (const LaunchBinding* b : picked) {
            CheckEntry entry{c, "", "", "", {}, nullptr, "", -1, "", nullptr};
            entry.program = program;  // its kernel's location for a diagnostic about it (E-CAPACITY)
            if (!sampled.empty()) {
                entry.sampled = sampled;
                entry.sample_group = static_cast<int>(std::hash<std::string>{}(k.name) & 0x3fffffff);
            }
            CommonOptions& ck = entry.opts;
            ck.entry = k.name;
            if (k.blocks > 0) ck.blocks = k.blocks;  // the launch's core_num, as a whole-program launch uses it
            ck.inputs.clear();
            auto given = [&](const std::string& name) {
                for (const auto& in : c.inputs)
                    if (in.rfind(name + "=", 0) == 0) return true;
                return false;
            };
            // Another kernel's --input is not this kernel's (a name it does not have would be E-USAGE).
            for (const auto& in : c.inputs) {
                const auto* fn = program->find(k.name).get();
                std::string name = in.substr(0, in.find('='));
                bool has = false;
                for (const auto& p : fn->params) has |= p.var->name == name;
                if (has) ck.inputs.push_back(in);
            }
            auto unbound = [&](const std::string& name, const std::string& why) {
                if (given(name) || !entry.unbound.empty() || k.distributed || k.unread)
                    return;  // its own E-UNSUPPORTED
                entry.unbound = name;
                entry.why = why;
                for (const auto& p : program->find(k.name)->params)
                    if (p.var->name == name) entry.loc = p.var->loc;
                entry.program = program;
            };
            if (b) {
                std::vector<std::string> shown;
                for (const auto& [name, value] : b->scalars) {
                    if (!given(name)) ck.inputs.push_back(name + "=" + value);
                    bool dead = false;
                    for (const auto& d : b->dead) dead |= d.first == name && !given(name);
                    shown.push_back(name + "=" + (dead ? std::string("any") : value));
                }
                if (b->blocks > 0) ck.blocks = b->blocks;
                if (!b->unknown.empty()) unbound(b->unknown, b->why);
                if (!entry.unbound.empty() && !entry.loc.valid()) entry.loc = b->loc;  // a launch width: the launch
                if (nb > 1 || !sampled.empty()) entry.binding = fmt::format("{}", fmt::join(shown, ", "));
            } else {
                for (const auto& [name, value] : k.scalars)
                    if (!given(name)) ck.inputs.push_back(name + "=" + value);
                for (const auto& name : k.computed) unbound(name, "");
            }
            // A user's --input can make two bindings one launch: check it once. Launches not checked for the same
            // reason are reported once.
            if (!entry.unbound.empty()) entry.binding.clear();
            if (!sampled.empty())
                entry.binding += (entry.binding.empty() ? "" : ", ") + std::string("sampled ") + sampled;
            // The kernel's own control data (an entry tensor whose elements it reads into loop bounds or addresses)
            // no --input gives: the orchestration's sample when it has one, else sampled like an entry's scalars.
            std::vector<CheckEntry> variants;
            std::vector<std::string> data;
            if (entry.unbound.empty() && !k.distributed &&
                !k.unread)  // those get their own E-UNSUPPORTED, whatever the data
                for (const auto& n : control_scalar_params(*program, *program->find(k.name)))
                    for (const auto& p : program->find(k.name)->params)
                        if (p.var->name == n && p.var->type.kind == ir::TypeKind::Tensor && !given(n))
                            data.push_back(n);
            if (data.empty()) {
                variants.push_back(std::move(entry));
            } else {
                for (const SampleKind& kind : sample_kind ? std::vector<SampleKind>{*sample_kind} : sample_kinds()) {
                    CheckEntry x = entry;
                    std::vector<std::string> what;
                    const std::string fill =
                        kind.iota ? (kind.value == 0 ? std::string("iota") : fmt::format("iota+{}", kind.value))
                                  : std::to_string(kind.value);
                    for (const auto& n : data) {
                        x.opts.inputs.push_back(fmt::format("{}={}", n, fill));
                        what.push_back("data of " + n);
                    }
                    if (!sample_kind) {
                        x.sampled = fmt::format("{}={}", fmt::join(what, ", "), fill);
                        x.binding += (x.binding.empty() ? "" : ", ") + std::string("sampled ") + x.sampled;
                        x.sample_group = static_cast<int>(std::hash<std::string>{}(k.name) & 0x3fffffff);
                    }
                    x.program = program;
                    variants.push_back(std::move(x));
                }
            }
            for (auto& x : variants) {
                bool dup = false;
                for (const auto& o : out)
                    if (o.opts.entry == x.opts.entry)
                        dup |= x.unbound.empty() ? o.unbound.empty() && o.opts.inputs == x.opts.inputs &&
                                                       o.opts.blocks == x.opts.blocks
                                                 : o.unbound == x.unbound && o.why == x.why;
                if (!dup) out.push_back(std::move(x));
            }
        }
    }
}

// What the check of entry X depends on: its kernel and the functions it calls as printed (their shapes and every
// size folded in), its inputs and its width. Two entries with one signature are the same check whatever --dim
// made their programs; "" when X has no program to read it from (never the same as another).
std::string launch_signature(const CheckEntry& x) {
    if (!x.program || x.opts.entry.empty() || !x.program->find(x.opts.entry)) return "";
    std::string sig = fmt::format("{}\x1f{}\x1f{}", x.opts.entry, x.opts.blocks, fmt::join(x.opts.inputs, "\x1f"));
    std::set<std::string> seen;
    std::vector<const ir::Function*> todo = {x.program->find(x.opts.entry).get()};
    while (!todo.empty()) {
        const ir::Function* f = todo.back();
        todo.pop_back();
        if (!seen.insert(f->name).second) continue;
        sig += "\x1f" + print_function(*f);
        passes::walk(f->body, [&](const ir::StmtPtr& st) {
            if (const ir::ExprPtr& v = st->value; v && v->kind == ir::ExprKind::FuncCall)
                if (auto callee = x.program->find(v->sval)) todo.push_back(callee.get());
        });
    }
    return sig;
}

}  // namespace

// The first out-of-bounds finding of SUM's nominal schedule (nullptr: none); RACE: whether the run raced.
static const DistinctFinding* nominal_oob(const ExploreSummary& sum, bool* race = nullptr) {
    const DistinctFinding* oob = nullptr;
    for (const auto& d : sum.distinct) {
        if (!oob && d.finding.code == cvsim::codes::kOob && d.first.strategy == sim::Strategy::Nominal) oob = &d;
        if (race) *race |= cvsim::is_race_code(d.finding.code);
    }
    return oob;
}

// Whether SUM found something and all of it is a bound hit: E-TIMEOUT, or E-UNCHECKED (the reference interpreter's
// own wall-time bound; at an extra sampled value, anything else that leaves a kernel unchecked was found before).
static bool only_timeouts(const ExploreSummary& sum) {
    if (sum.distinct.empty()) return false;
    for (const auto& d : sum.distinct)
        if (d.finding.code != cvsim::codes::kTimeout && d.finding.code != cvsim::codes::kUnchecked) return false;
    return true;
}

int cmd_explore(const CommonOptions& c, const ExploreOptions& e, bool is_check) {
    sim::SessionOptions so = session_options(c);
    auto base = sim::parse_schedule(e.strategy);
    if (!base || base->strategy == sim::Strategy::Nominal)
        throw std::invalid_argument(fmt::format("--strategy {}: expected random, pct:D or sweep", e.strategy));
    if (e.max_visibility > 0 && base->strategy != sim::Strategy::Random)
        throw std::invalid_argument(
            fmt::format("--max-visibility-delay: the delay is drawn by --strategy random only, not {}", e.strategy));
    if (e.shard_count < 1 || e.shard_index < 0 || e.shard_index >= e.shard_count)
        throw std::invalid_argument(
            fmt::format("--shard {}/{}: expected I/N with 0 <= I < N", e.shard_index, e.shard_count));
    // The in-process loop (--jobs 0) keeps no journal and runs the whole range: refuse what it would ignore.
    if (e.jobs == 0 && e.merge.empty() && (!e.jsonl.empty() || e.shard_count != 1))
        throw std::invalid_argument("--jobs 0 runs in this process without --jsonl or --shard; use --jobs 1 or more");
    // Seeds base..base+N-1 must not wrap around 2^64 (a wrapped range would never end); the last seed stays
    // below 2^64 - 1 so that seed + 1 is never 0.
    if (e.schedules > UINT64_MAX - 1 - e.seed)
        throw std::invalid_argument(
            fmt::format("--seed {} --schedules {}: the seed range passes 2^64 - 1; use a smaller base seed or budget",
                        e.seed, e.schedules));
    bool any_findings = false;
    // The fixed visibility delay of every schedule that draws none: the option, else the parameter.
    const uint64_t fixed_visibility = c.visibility_delay
                                          ? *c.visibility_delay
                                          : load_params(so.target, so.config_files, so.param_sets).gm.visibility_delay;
    nlohmann::json report = nlohmann::json::array();
    bool any_unread = false;  // a kernel of a multi-launch file that gave a diagnostic instead of a verdict
    // For the closing line of a file of several kernels (its last lines are otherwise one kernel's verdict, which
    // may read PASS when another kernel, or the launches, failed).
    bool several = false;
    int verdicts = 0, verdicts_found = 0, diag_found = 0;
    for (const auto& kernel : e.kernels) {
        // A deque: entries are appended while it is walked (retries at smaller defaulted dims) and references into it
        // (sample_first) stay valid.
        std::vector<std::pair<std::string, int64_t>> defaulted;
        std::deque<CheckEntry> entries;
        if (e.merge.empty())
            for (auto& x : entries_of(c, kernel, &defaulted)) entries.push_back(std::move(x));
        else
            entries.push_back({c, "", "", "", {}, nullptr, "", -1, "", nullptr});
        const bool per_launch =
            entries.size() > 1 || entries[0].opts.entry != c.entry || !entries[0].orchestration.empty();
        several |= entries.size() > 1;
        if (e.jobs == 0 && e.merge.empty() && entries.size() > 1) {
            // In-process: SystemC elaborates once per process, so the machine is built for the widest launch
            // (a narrower one leaves clusters idle); each launch elaborating its own failed from the second on.
            int widest = 1;
            for (const auto& ent : entries) widest = std::max(widest, ent.opts.blocks);
            sim::Machine::instance(widest);
        }
        // Sampled scalars (app/sampling.h): a value the kernel does not take (E-OOB at compile time or in the
        // nominal schedule) is no verdict value; a kernel none of whose samples it takes gets E-UNCHECKED.
        std::map<int, int> sample_taken, sample_count, sample_rejected;
        std::map<int, std::string> sample_why;
        std::map<int, const CheckEntry*> sample_first;
        // Per sample group: some entry found something (its extra values are then not tried); the descending chain
        // of extra values reached a value the kernel takes (the smaller ones are not tried).
        std::map<int, bool> sample_found, chain_done;
        // A value of the chain whose nominal run raced out of bounds: reported when no smaller value stays in bounds
        // (a race can be what put the window out of bounds; a smaller value shows a race without that artefact).
        struct ChainFallback {
            const CheckEntry* ent;
            std::string label;
            ExploreSummary sum;
            std::shared_ptr<sim::Session> session;  // in-process: the findings point into its source file
        };
        std::map<int, ChainFallback> chain_fallback;
        // An extra sampled value the kernel does not take: counted like any sample, without a note of its own.
        auto skip_extra = [&](const CheckEntry& ent, const std::string& why, bool counted) {
            if (!counted) return;
            if (!sample_why.count(ent.sample_group)) sample_why[ent.sample_group] = why;
            ++sample_count[ent.sample_group];
            ++sample_rejected[ent.sample_group];
        };
        auto reject_sample = [&](const CheckEntry& ent, const std::string& why) {
            if (!sample_why.count(ent.sample_group)) sample_why[ent.sample_group] = why;
            ++sample_rejected[ent.sample_group];
            if (!c.quiet)
                std::cerr << fmt::format("note: {} [{}]: {} is not a value it takes ({}); no verdict with it\n", kernel,
                                         ent.opts.entry, ent.sampled, why);
        };
        // Defaulted dims (docs/DECISIONS.md, "A size cvsim defaulted that the kernel does not take"): the pl.dynamic
        // symbols no --dim and no shape of the program bind are a guess (kDefaultDim). When the guess puts a
        // window of a kernel out of bounds in the nominal schedule, the kernel is also checked with those symbols
        // halved, down to the first size whose nominal run stays in bounds, and that verdict is reported too. The
        // default's reports are kept and always given after it (a smaller size can hide what the default found:
        // a launch that is out of bounds at every size, a loop a small size skips; found by review).
        // Sizes cvsim defaulted are sampled (queue_sizes below): the kernels (by retry_key) whose entries at the
        // default found something or gave no verdict, and those a sampled size found something in.
        std::set<std::string> size_dirty, size_found;
        struct DimRetry {
            int level = 0;                                // the size tried last: kDefaultDim >> level
            int pending = 0;                              // its entries not run yet
            bool taken = false;                           // some entry of a retry stayed in bounds
            std::string why;                              // the default's first out-of-bounds message
            std::vector<std::function<bool()>> deferred;  // the default's reports (true: interrupted)
        };
        std::map<std::string, DimRetry> retries;  // by retry_key
        // A kernel of one entry: its Orchestration function (several in a file) and its name.
        auto retry_key = [](const CheckEntry& x) { return x.orchestration + "\x1f" + x.opts.entry; };
        auto tag = [](const CheckEntry& ent) { return ent.opts.entry.empty() ? "" : " [" + ent.opts.entry + "]"; };
        auto dims_text = [&](int level) {
            std::vector<std::string> t;
            for (const auto& dv : defaulted) t.push_back(fmt::format("{}={}", dv.first, kDefaultDim >> level));
            return fmt::format("{}", fmt::join(t, ", "));
        };
        // Queues kernel NAME's launches with the defaulted dims at the first size from kDefaultDim >> LEVEL down
        // that gives any; false when no size down to 1 does.
        auto push_level = [&](const std::string& name, int level) {
            for (; (kDefaultDim >> level) >= 1; ++level) {
                CommonOptions c2 = c;
                c2.quiet = true;
                for (const auto& dv : defaulted)
                    c2.dims.push_back(fmt::format("{}={}", dv.first, kDefaultDim >> level));
                int n = 0;
                try {
                    for (auto& x : entries_of(c2, kernel)) {
                        if (retry_key(x) != name || !x.unbound.empty() || x.rejected) continue;
                        x.opts.quiet = c.quiet;
                        x.dim_try = level;
                        // The sizes first, unless the binding shows them already (a symbol passed as a scalar).
                        std::vector<std::string> shown;
                        for (const auto& dv : defaulted)
                            if (x.binding.find(dv.first + "=") == std::string::npos)
                                shown.push_back(fmt::format("{}={}", dv.first, kDefaultDim >> level));
                        if (!x.binding.empty()) shown.push_back(x.binding);
                        x.binding = fmt::format("{}", fmt::join(shown, ", "));
                        entries.push_back(std::move(x));
                        ++n;
                    }
                } catch (const CompileError&) {
                    // This size does not compile (out of bounds at compile time, ...): the next one.
                }
                retries[name].level = level;
                retries[name].pending = n;
                if (n > 0) return true;
            }
            return false;
        };
        // The default's run of ENT put a window out of bounds (WHY): keep its report (REPORT) until a smaller
        // size is tried. False when the file has no defaulted dim (REPORT then runs now as before).
        auto defer_default = [&](const CheckEntry& ent, const std::string& why, std::function<bool()> report_it) {
            // Not with --jsonl (a journal is one size's) or in-process (its machine is elaborated once, for the
            // default's widths).
            if (defaulted.empty() || ent.dim_try > 0 || !e.merge.empty() || !e.jsonl.empty() || e.jobs == 0)
                return false;
            size_dirty.insert(retry_key(ent));
            DimRetry& r = retries[retry_key(ent)];
            r.deferred.push_back(std::move(report_it));
            if (r.deferred.size() > 1) return true;
            r.why = why;
            if (!c.quiet)
                std::cerr << fmt::format(
                    "note: {}{}: with the size(s) cvsim defaulted ({}) a window falls outside its tensor ({}); "
                    "cvsim tries smaller sizes\n",
                    kernel, tag(ent), dims_text(0), why);
            if (!push_level(retry_key(ent), 1)) {
                if (!c.quiet)
                    std::cerr << fmt::format(
                        "note: {}{}: no smaller size gives this launch (the program does not compile with one, or "
                        "does not launch it); the default's report stands\n",
                        kernel, tag(ent));
                r.deferred.clear();  // no smaller size gives a launch: report it now
                return false;
            }
            return true;
        };
        // An entry of a retry finished (TAKEN: it stayed in bounds): the next size when no entry of this one was
        // taken, the default's reports when there is none. True when a report was interrupted.
        auto retry_done = [&](const CheckEntry& ent, bool taken) {
            DimRetry& r = retries[retry_key(ent)];
            if (taken && !r.taken && !c.quiet)
                std::cerr << fmt::format(
                    "note: {}{}: also checked with {}, the largest size at most {} at which its nominal run stays in "
                    "bounds (the verdict there is above); the report at the size cvsim defaulted follows and "
                    "counts (the window fell outside its tensor: {}); --dim NAME=V checks the size you use\n",
                    kernel, tag(ent), dims_text(r.level), kDefaultDim, r.why);
            r.taken |= taken;
            if (--r.pending > 0) return false;
            if (!r.taken && push_level(retry_key(ent), r.level + 1)) return false;
            if (!r.taken && !c.quiet)
                std::cerr << fmt::format("note: {}{}: no smaller size stays in bounds either\n", kernel, tag(ent));
            auto deferred = std::move(r.deferred);
            r.deferred.clear();
            for (auto& f : deferred)
                if (f()) return true;
            return false;
        };
        auto interrupted_exit = [&]() {
            if (!c.json.empty()) write_json(c.json, {{"kernels", report}, {"interrupted", true}});
            return kExitInterrupted;
        };
        // Sizes cvsim defaulted are sampled (docs/DECISIONS.md): a kernel clean at the size(s) cvsim made up can
        // race at another (a window at N - 16 meets one at 0 only when N = 16; a loop over N // 16 runs once;
        // `if N <= 32`). Once every entry at the default ran, the launches of the kernels that found nothing there
        // are checked again at other sizes of those symbols, each size a small run; a size the kernel does not
        // take (it does not compile, or its nominal run falls outside a tensor) or whose schedules only hit the
        // wall-time bound is no verdict, and a size that finds something is that kernel's verdict.
        std::vector<std::string> size_taken, size_skipped;  // the sizes checked, and those no launch took
        int widest = 1;  // --jobs 0: the machine is elaborated for the default's widest launch
        for (const auto& ent : entries) widest = std::max(widest, ent.opts.blocks);
        auto size_text = [](const std::vector<std::pair<std::string, int64_t>>& dims) {
            std::vector<std::string> t;
            for (const auto& [n, v] : dims) t.push_back(fmt::format("{}={}", n, v));
            return fmt::format("{}", fmt::join(t, ", "));
        };
        // A launch at a size that is the same check as one already run (a kernel the symbol does not reach,
        // launched with the same scalars) is not run again: the signatures run (launch_signature).
        std::set<std::string> checked;
        std::vector<std::vector<std::pair<std::string, int64_t>>> tried;
        size_t queued = 0;
        bool capped = false;
        // With several symbols, a size at which all of them together launch something but no launch takes it (its
        // nominal run falls outside a tensor): by its text, the size, its launches not run yet, whether one took it.
        struct SizeGroup {
            int64_t value = 0;
            int pending = 0;
            bool taken = false;
        };
        std::map<std::string, SizeGroup> size_groups;
        // Queues the launches of the program with COMBO's sizes; false when it does not compile with them or
        // launches nothing there (the default itself and a repeat are not queued again). QUEUED_HERE: how many it
        // queued.
        auto queue_combo = [&](const std::vector<std::pair<std::string, int64_t>>& combo, int* queued_here = nullptr) {
            bool is_default = true;
            for (const auto& [n, v] : combo)
                for (const auto& d : defaulted) is_default &= d.first != n || d.second == v;
            if (capped || is_default || std::find(tried.begin(), tried.end(), combo) != tried.end()) return true;
            tried.push_back(combo);
            CommonOptions c2 = c;
            c2.quiet = true;
            for (const auto& [n, v] : combo) c2.dims.push_back(fmt::format("{}={}", n, v));
            const std::string text = size_text(combo);
            std::vector<CheckEntry> xs;
            try {
                xs = entries_of(c2, kernel);
            } catch (const CompileError&) {
                size_skipped.push_back(text);  // this size does not compile: not one the program takes
                return false;
            }
            bool launches = false, any = false;
            for (auto& x : xs) {
                if (x.sample_extra > 0 || !x.unbound.empty()) continue;
                if (x.rejected && !cvsim::is_race_code(x.rejected->code)) continue;
                launches = true;
                if (size_dirty.count(retry_key(x)) || size_found.count(retry_key(x))) continue;
                if (e.jobs == 0 && x.opts.blocks > widest) continue;  // this process's machine is narrower
                if (std::string sig = launch_signature(x); !sig.empty() && !checked.insert(sig).second) {
                    any = true;  // the size is taken (what it changes was checked already)
                    continue;
                }
                if (queued == kMaxSizeEntries) {
                    capped = true;
                    break;
                }
                x.opts.quiet = c.quiet;
                x.opts.timeout = std::min(x.opts.timeout, kExtraSampleTimeout);
                x.dim_sample = text;
                x.sample_group = -1;  // not one of the default's samples: no group bookkeeping
                std::vector<std::string> shown;
                for (const auto& [n, v] : combo)
                    if (x.binding.find(n + "=") == std::string::npos) shown.push_back(fmt::format("{}={}", n, v));
                if (!x.binding.empty()) shown.push_back(x.binding);
                x.binding = fmt::format("{}", fmt::join(shown, ", "));
                entries.push_back(std::move(x));
                ++queued;
                if (queued_here) ++*queued_here;
                any = true;
            }
            if (!any && !capped) size_skipped.push_back(text);
            return launches;
        };
        auto queue_sizes = [&]() {
            // (--merge reads journals: it runs nothing, so it has no defaulted sizes.)
            if (defaulted.empty() || !e.merge.empty()) return;
            for (const auto& x : entries)
                if (std::string sig = launch_signature(x); !sig.empty()) checked.insert(sig);
            // The sizes: the values the program compares each symbol with (that symbol alone), then all symbols
            // together at 1, 2, 4, ..., 64 (ascending: the smallest sizes overlap the most windows, and those the
            // program does not take cost only a compile), and where the program does not compile with all of them
            // at one size (one symbol needs to be larger), each symbol alone at it.
            try {
                const ast::Module module = parse_module(SourceFile::read(kernel));
                for (const auto& d : defaulted)
                    for (int64_t v : compared_sizes(module, d.first, kMaxComparedSizes, kMaxComparedSize))
                        queue_combo({{d.first, v}});
            } catch (const CompileError&) {
                // The program was read before: nothing to add.
            }
            int smallest = 1;
            while ((kDefaultDim >> smallest) > 1) ++smallest;
            for (int k = smallest; k >= 1; --k) {
                std::vector<std::pair<std::string, int64_t>> all;
                for (const auto& d : defaulted) all.emplace_back(d.first, kDefaultDim >> k);
                int n = 0;
                if (!queue_combo(all, &n) && defaulted.size() > 1)
                    for (const auto& d : defaulted) queue_combo({{d.first, kDefaultDim >> k}});
                else if (n > 0 && defaulted.size() > 1)
                    size_groups[size_text(all)] = SizeGroup{kDefaultDim >> k, n, false};  // decided when they ran
            }
            if (capped && !c.quiet)
                std::cerr << fmt::format(
                    "note: {}: cvsim checks at most {} launches at sizes other than the one it defaulted; the rest "
                    "are not checked (--dim NAME=V checks the sizes you use)\n",
                    kernel, kMaxSizeEntries);
        };
        // A launch at a sampled size ran (TAKEN: the program takes the size): when the last launch of all symbols
        // together at one size did not take it, each symbol alone at that size is queued.
        auto size_entry_done = [&](const CheckEntry& ent, bool taken) {
            auto it = size_groups.find(ent.dim_sample);
            if (it == size_groups.end()) return;
            SizeGroup& g = it->second;
            g.taken |= taken;
            if (--g.pending > 0 || g.taken) return;
            for (const auto& d : defaulted) queue_combo({{d.first, g.value}});
        };
        // A sampled size's run: no verdict (true) when the nominal run falls outside a tensor or every finding is
        // a bound hit.
        auto size_not_taken = [&](const ExploreSummary& sum) { return nominal_oob(sum) || only_timeouts(sum); };
        // The report of one explored entry (true: the run was interrupted).
        auto emit = [&](const CheckEntry& ent, const std::string& label, const ExploreSummary& sum) {
            const CommonOptions& ck = ent.opts;
            VerdictScope scope =
                verdict_scope(timing_scope_of(ck, kernel), sum, *base, fixed_visibility, e.max_visibility);
            if (!c.quiet) print_explore_summary(std::cout, label, sum, is_check, &scope, output_width());
            if (!c.quiet && !ent.sampled.empty() && !sum.distinct.empty())
                std::cout << fmt::format(
                    "note: found with values cvsim sampled ({}), not given: values your program never takes can break "
                    "its "
                    "preconditions; --input NAME=VALUE checks the ones it does\n",
                    ent.sampled);
            if (!e.save_failures.empty()) save_failures(e.save_failures, ck, kernel, sum);
            nlohmann::json item = explore_json(kernel, sum, &scope);
            if (per_launch || ent.dim_try > 0 || !ent.dim_sample.empty()) item["entry"] = ck.entry;
            if (!ent.orchestration.empty()) item["orchestration"] = ent.orchestration;
            if (!ent.binding.empty()) item["launch"] = ent.binding;
            if (!ent.dim_sample.empty()) item["sizes"] = ent.dim_sample;  // the sizes cvsim chose, not given
            report.push_back(item);
            std::vector<std::string> codes;
            for (const auto& d : sum.distinct) codes.push_back(d.finding.code);
            if (only_unsupported(codes)) {
                any_unread = true;
                if (!c.quiet)
                    std::cout << "NO VERDICT: a construct of this kernel is not modelled at run time (E-UNSUPPORTED "
                                 "above); exit 2\n";
            } else {
                ++verdicts;
                if (!sum.distinct.empty()) {
                    any_findings = true;
                    ++verdicts_found;
                }
            }
            if (!sum.distinct.empty()) size_dirty.insert(retry_key(ent));
            return sum.interrupted;
        };
        // An entry's verdict, or for a sampled value the kernel does not take, a note (true: interrupted).
        auto report_entry = [&](const CheckEntry& ent, const std::string& label, const ExploreSummary& sum) {
            if (ent.sample_group >= 0) {
                ++sample_count[ent.sample_group];
                // Not when the same run races: a race can be what put the window out of bounds (a stale read of a
                // sampled index; found by review), and the race is a verdict of its own.
                bool race = false;
                const DistinctFinding* oob = nominal_oob(sum, &race);
                if (oob && !race) {
                    reject_sample(ent, oob->finding.message);
                    return false;
                }
                ++sample_taken[ent.sample_group];
                if (!sum.distinct.empty()) sample_found[ent.sample_group] = true;
            }
            return emit(ent, label, sum);
        };
        bool sizes_queued = false;
        for (size_t ei = 0;; ++ei) {
            if (ei == entries.size()) {
                // Every entry at the default ran (and the retries): the other sizes of the defaulted symbols.
                if (sizes_queued) break;
                sizes_queued = true;
                queue_sizes();
                if (ei == entries.size()) break;
            }
            const CheckEntry& ent = entries[ei];
            if (!ent.dim_sample.empty() && size_found.count(retry_key(ent))) {
                size_entry_done(ent, false);  // not run: the kernel's verdict is found already
                continue;
            }
            if (ent.sample_group >= 0) {
                sample_taken.emplace(ent.sample_group, 0);
                sample_first.emplace(ent.sample_group, &ent);
            }
            // Extra sampled values: only while the group found nothing, never into a journal, one value of the chain.
            if (ent.sample_extra > 0 && (sample_found[ent.sample_group] || !e.jsonl.empty() ||
                                         (ent.sample_extra == 2 && chain_done[ent.sample_group])))
                continue;
            const CommonOptions& ck = ent.opts;
            const std::string& entry = ck.entry;
            // Several entries of one file: "FILE [ENTRY: KERNEL ...]".
            const std::string label =
                per_launch || ent.dim_try > 0 || !ent.dim_sample.empty()
                    ? kernel + " [" +
                          (ent.orchestration.empty() || ent.orchestration == entry ? "" : ent.orchestration + ": ") +
                          entry + (ent.binding.empty() ? "" : (entry.empty() ? "" : " ") + ent.binding) + "]"
                    : kernel;
            ExploreSummary sum;
            // In-process: the findings' source locations point into the session's source file, so the session
            // lives until the summary is printed and reported (a deferred report keeps it).
            std::shared_ptr<sim::Session> session;
            try {
                if (ent.rejected) throw CompileError(*ent.rejected);
                if (ent.unbound == "pl.spmd" || ent.unbound == "core_num")  // the launch width, not a scalar
                    raise(cvsim::codes::kUnchecked, ent.loc,
                          fmt::format("kernel '{}' is not checked as launched ({}), and checking it otherwise could "
                                      "hide the races between its blocks",
                                      entry, ent.why),
                          "launch it alone in a pl.spmd loop (or with core_num) of a constant width of 1 to 4096");
                bool tensor_arg = false;  // a pl.spmd launch's per-block window of a tensor (host walk)
                if (ent.program)
                    if (auto fn = ent.program->find(entry))
                        for (const auto& p : fn->params)
                            tensor_arg |= p.var->name == ent.unbound && p.var->type.kind == ir::TypeKind::Tensor;
                if (tensor_arg)
                    raise(cvsim::codes::kUnchecked, ent.loc,
                          fmt::format("kernel '{}' is not checked: its tensor '{}' is each block's own window ({}), "
                                      "which one binding for all the blocks of its launch cannot express",
                                      entry, ent.unbound, ent.why),
                          "pass the whole tensor and take each block's window in the kernel (pl.tile.get_block_idx())");
                if (!ent.unbound.empty())
                    raise(
                        cvsim::codes::kUnchecked, ent.loc,
                        ent.why.empty()
                            ? fmt::format("kernel '{}' is not checked: its scalar '{}' is computed by the "
                                          "orchestration, which cvsim "
                                          "does not run, and a value cvsim picked could make the verdict vacuous",
                                          entry, ent.unbound)
                            : fmt::format("kernel '{}' is not checked: the orchestration computes its scalar '{}' from "
                                          "a value cvsim "
                                          "does not know ({}), and a value cvsim picked could make the verdict vacuous",
                                          entry, ent.unbound, ent.why),
                        fmt::format("give the value the orchestration computes: --input {}=VALUE", ent.unbound));
                auto explore_with = [&](const ExploreOptions& eo) {
                    // Out of memory checking one kernel of a multi-launch file is that kernel's E-CAPACITY; the
                    // others are still checked (it used to end the whole check).
                    try {
                        if (eo.jobs == 0) {
                            sim::SessionOptions kso = session_options(ck);
                            kso.max_visibility_delay =
                                eo.max_visibility;  // reject: a drawn delay needs published stores
                            session = std::make_shared<sim::Session>(SourceFile::read(kernel), kso);
                            return explore_kernel(*session, ck, kernel, eo, *base);
                        }
                        return explore_parallel(ck, kernel, eo, *base);
                    } catch (const std::bad_alloc&) {
                        session.reset();
                        if (!per_launch) throw;
                        std::shared_ptr<ir::Function> fn = ent.program ? ent.program->find(entry) : nullptr;
                        raise(cvsim::codes::kCapacity, fn ? fn->loc : SourceLoc{},
                              fmt::format("kernel '{}'{} is not checked: out of memory (it needs more memory than "
                                          "this machine gives cvsim)",
                                          entry, ent.binding.empty() ? "" : " [" + ent.binding + "]"),
                              "check it alone with --entry NAME and smaller --dim sizes, or on a machine with more "
                              "memory");
                    }
                };
                if (!e.merge.empty()) {
                    sum = merge_jsonl(c, kernel, e, *base);
                } else if (ent.sample_extra > 0) {
                    // An extra sampled value: its nominal run (and one more) decides whether the kernel takes it; a
                    // value it takes that shows nothing there is explored on a small budget (the happens-before
                    // graph of a kernel whose control and addresses do not depend on data is the same in every
                    // schedule, and the scope line says when that does not hold).
                    ExploreOptions probe = e;
                    probe.schedules = 1;
                    sum = explore_with(probe);
                    bool raced = false;
                    const bool out_of_bounds =
                        (nominal_oob(sum, &raced) && (!raced || ent.sample_extra == 2)) || only_timeouts(sum);
                    if (!out_of_bounds && ent.sample_extra == 2) chain_done[ent.sample_group] = true;
                    if (!out_of_bounds && sum.distinct.empty() && !sum.interrupted && e.schedules > 1) {
                        ExploreOptions small = e;
                        small.schedules = std::min<uint64_t>(e.schedules, 8);
                        sum = explore_with(small);
                    }
                } else if (!ent.dim_sample.empty()) {
                    // A sampled size: a small budget (its nominal schedule among them), never into a journal (a
                    // journal is the default's), and whole in every shard.
                    ExploreOptions small = e;
                    small.schedules = std::min<uint64_t>(e.schedules, kSizeSchedules);
                    small.jsonl.clear();
                    small.shard_index = 0;
                    small.shard_count = 1;
                    sum = explore_with(small);
                } else if (ent.dim_try > 0 && e.schedules > 1) {
                    // A retry at a smaller size: its nominal schedule decides whether the kernel takes the size
                    // (a probe of one more schedule, no journal), and only a size it takes is explored in full.
                    ExploreOptions probe = e;
                    probe.schedules = 1;
                    probe.jsonl.clear();
                    sum = explore_with(probe);
                    if (!nominal_oob(sum) && !sum.interrupted) sum = explore_with(e);
                } else {
                    sum = explore_with(e);
                }
            } catch (const CompileError& err) {
                // A reject diagnostic is a finding (exit 1); other diagnostics are bad input (exit 2). One kernel of
                // a multi-launch file that cannot be checked does not hide the verdicts of the others.
                nlohmann::json item = {{"kernel", kernel}, {"diagnostic", to_json(err.diag())}};
                if (per_launch || ent.dim_try > 0) item["entry"] = entry;
                if (!ent.orchestration.empty()) item["orchestration"] = ent.orchestration;
                if (!ent.binding.empty()) item["launch"] = ent.binding;
                const bool oob = err.diag().code == cvsim::codes::kOob;
                const bool race_diag =
                    err.diag().code == cvsim::codes::kV2cUnfenced || cvsim::is_race_code(err.diag().code);
                if (!ent.dim_sample.empty()) {
                    // A sampled size: a race (a reject diagnostic, launches a manual scope leaves unordered) is
                    // the kernel's verdict there; any other diagnostic says the program does not take the size.
                    if (!race_diag) {
                        size_entry_done(ent, false);
                        continue;
                    }
                    std::cerr << render_text(err.diag());
                    if (!c.quiet)
                        std::cerr << fmt::format(
                            "note: {}{}: found with {}, a size cvsim chose for the pl.dynamic symbol(s) it defaulted "
                            "(with {} it found nothing): bind the sizes your program uses with --dim NAME=V\n",
                            kernel, tag(ent), ent.dim_sample, size_text(defaulted));
                    any_findings = true;
                    ++diag_found;
                    size_found.insert(retry_key(ent));
                    item["sizes"] = ent.dim_sample;
                    report.push_back(item);
                    continue;
                }
                if (ent.sample_extra > 0 && err.diag().code != cvsim::codes::kV2cUnfenced) {
                    // An extra value the program does not compile with: no verdict with it.
                    skip_extra(ent, err.diag().message, oob);
                    continue;
                }
                if (ent.dim_try > 0) {
                    // A diagnostic at a smaller size is no verdict there (the default's report comes anyway).
                    if (retry_done(ent, false)) return interrupted_exit();
                    continue;
                }
                if (race_diag) {
                    // (a race between launches of a manual scope: unordered_launches)
                    std::cerr << render_text(err.diag());
                    any_findings = true;
                    ++diag_found;
                    size_dirty.insert(retry_key(ent));
                    if (ent.sample_group >= 0) {
                        // A verdict with this value (the group is not unchecked).
                        ++sample_count[ent.sample_group];
                        ++sample_taken[ent.sample_group];
                        sample_found[ent.sample_group] = true;
                    }
                    report.push_back(item);
                    continue;
                }
                auto report_it = [&, diag = err.diag(), item, keep = per_launch, at = &ent]() {
                    if (at->sample_group >= 0) ++sample_count[at->sample_group];
                    if (at->sample_group >= 0 && diag.code == cvsim::codes::kOob) {
                        reject_sample(*at, diag.loc.valid() ? fmt::format("{}: {}", diag.loc.short_str(), diag.message)
                                                            : diag.message);
                        return false;
                    }
                    size_dirty.insert(retry_key(*at));
                    if (!keep) throw CompileError(diag);
                    std::cerr << render_text(diag);
                    any_unread = true;
                    report.push_back(item);
                    return false;
                };
                if (oob && defer_default(ent, err.diag().message, report_it)) continue;
                report_it();
                continue;
            }
            if (!ent.dim_sample.empty() && !sum.interrupted) {
                if (size_not_taken(sum)) {
                    if (std::find(size_skipped.begin(), size_skipped.end(), ent.dim_sample) == size_skipped.end())
                        size_skipped.push_back(ent.dim_sample);
                    size_entry_done(ent, false);
                    continue;
                }
                size_entry_done(ent, true);
                if (std::find(size_taken.begin(), size_taken.end(), ent.dim_sample) == size_taken.end())
                    size_taken.push_back(ent.dim_sample);
                if (sum.distinct.empty()) continue;  // nothing there: the default's report stands
                size_found.insert(retry_key(ent));
                if (report_entry(ent, label, sum)) return interrupted_exit();
                if (!c.quiet)
                    std::cout << fmt::format(
                        "note: found with {}, a size cvsim chose for the pl.dynamic symbol(s) it defaulted (with {} it "
                        "found nothing in this kernel): bind the sizes your program uses with --dim NAME=V\n",
                        ent.dim_sample, size_text(defaulted));
                continue;
            }
            // Out of bounds in the nominal schedule, and whether the run raced.
            bool race = false;
            const DistinctFinding* oob = nominal_oob(sum, &race);
            if (ent.sample_extra > 0 && only_timeouts(sum) && !sum.interrupted) {
                skip_extra(ent, "its schedules exceed the wall-time bound", false);
                continue;
            }
            if (ent.sample_extra > 0 && oob && !sum.interrupted) {
                if (race && ent.sample_extra == 2) {
                    if (!chain_fallback.count(ent.sample_group))
                        chain_fallback.emplace(ent.sample_group, ChainFallback{&ent, label, sum, session});
                    continue;
                }
                if (!race) {
                    skip_extra(ent, oob->finding.message, true);
                    continue;
                }
            }
            if (ent.dim_try > 0 && !sum.interrupted) {
                // Its verdict first when the size stays in bounds, then (the level done) the default's reports.
                if (!oob && report_entry(ent, label, sum)) return interrupted_exit();
                if (retry_done(ent, !oob)) return interrupted_exit();
                continue;
            } else if (oob && !sum.interrupted) {
                const std::string why =
                    oob->finding.message +
                    (race ? "; the run also raced there, which an access outside a tensor can cause" : "");
                if (defer_default(ent, why, [&report_entry, at = &ent, label, sum, session]() {
                        return report_entry(*at, label, sum);
                    }))
                    continue;
            }
            if (report_entry(ent, label, sum)) return interrupted_exit();
        }
        // A chain value that raced out of bounds, when no smaller one stayed in bounds (and nothing else was found).
        for (auto& [g, fb] : chain_fallback)
            if (!chain_done[g] && !sample_found[g] && report_entry(*fb.ent, fb.label, fb.sum))
                return interrupted_exit();
        // Every retry ends in retry_done; a report still kept here would be lost, so it is given.
        for (auto& [name, r] : retries)
            for (auto& f : std::exchange(r.deferred, {}))
                if (f()) return interrupted_exit();
        for (const auto& [g, taken] : sample_taken) {
            if (taken > 0 || sample_rejected[g] < sample_count[g])
                continue;  // a verdict, or another diagnostic said why not
            const CheckEntry& ent = *sample_first[g];
            Diagnostic d;
            d.code = cvsim::codes::kUnchecked;
            d.loc = ent.program ? ent.program->find(ent.opts.entry)->loc : SourceLoc{};
            d.message = fmt::format(
                "kernel '{}' is not checked: it takes none of the values cvsim sampled for its unbound scalar "
                "parameter(s) (the first: {})",
                ent.opts.entry, sample_why[g]);
            d.hint = "give the values your program uses: --input NAME=VALUE";
            std::cerr << render_text(d);
            nlohmann::json item = {{"kernel", kernel}, {"entry", ent.opts.entry}, {"diagnostic", to_json(d)}};
            if (!ent.orchestration.empty()) item["orchestration"] = ent.orchestration;
            report.push_back(item);
            any_unread = true;
        }
        if (!c.quiet && size_found.empty() && !size_taken.empty()) {
            std::vector<std::string> not_taken;
            for (const auto& t : size_skipped)
                if (std::find(size_taken.begin(), size_taken.end(), t) == size_taken.end()) not_taken.push_back(t);
            std::cerr << fmt::format(
                "note: {}: the kernels the size(s) cvsim defaulted ({}) found nothing in were also checked, with the "
                "nominal schedule and up to {} more each, with {} (sizes cvsim chose: the values the program compares "
                "them with, then halvings of {}): no finding there{}; --dim NAME=V checks the sizes you use\n",
                kernel, size_text(defaulted), kSizeSchedules, fmt::join(size_taken, "; "), kDefaultDim,
                not_taken.empty()
                    ? std::string()
                    : fmt::format(" ({} not taken: out of bounds or not compiling)", fmt::join(not_taken, "; ")));
        }
    }
    if (!c.json.empty()) write_json(c.json, {{"kernels", report}});
    if (several && !c.quiet) {
        std::cout.flush();
        const std::string races =
            diag_found > 0 ? fmt::format("{} race diagnostic(s) (error[...] above), ", diag_found) : "";
        if (any_findings)
            std::cout << fmt::format("FAIL (the file): {}{} of {} kernel verdict(s) with findings; exit 1\n", races,
                                     verdicts_found, verdicts);
        else if (any_unread)
            std::cout << fmt::format(
                "NO VERDICT (the file): {} kernel verdict(s), all clean, but not every kernel was checked (the "
                "diagnostics above); exit 2\n",
                verdicts);
        else
            std::cout << fmt::format("PASS (the file): all {} kernel verdict(s) clean\n", verdicts);
    }
    return any_findings ? kExitFindings : any_unread ? kExitBadInput : kExitClean;
}

}  // namespace cvsim::cli
