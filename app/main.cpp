// cvsim: command-line entry point (CLI11). Exit codes: 0 clean, 1 findings, 2 bad input/usage, 3 internal.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <iostream>
#include <nlohmann/json.hpp>

#include "app/bridge.h"
#include "app/cli.h"
#include "app/journal.h"
#include "app/parity.h"
#include "cvsim_version.h"
#include "frontend/codes.h"
#include "frontend/diag.h"

using namespace cvsim;
using namespace cvsim::cli;

namespace {

// Non-negative integers: CLI11 would otherwise wrap "-5" into 2^64 - 5 for an unsigned option.
const CLI::Validator kCount = CLI::Validator(
    [](std::string& s) -> std::string {
        if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
            return "expected a non-negative integer, got '" + s + "'";
        return "";
    },
    "");
const CLI::Validator kName =
    CLI::Validator([](std::string& s) -> std::string { return s.empty() ? "expected a name, got ''" : ""; }, "");

void add_common(CLI::App* app, CommonOptions& c, bool sim_options) {
    app->add_option("--target", c.target, "chip: a2a3 (default) or a5")->type_name("T");
    app->add_option("--config", c.configs, "TOML file overriding hardware parameters (repeatable)")->type_name("FILE");
    app->add_option("--set", c.sets, "override one parameter: KEY=VALUE (repeatable)")->type_name("KEY=VALUE");
    app->add_option("--json", c.json, "write a machine-readable report to FILE ('-': standard output, no text report)")
        ->type_name("FILE");
    app->add_flag("-q,--quiet", c.quiet, "print nothing but diagnostics");
    app->add_flag("-v,--verbose", c.verbose, "print expander statistics and more detail");
    app->add_option("--v2c", c.v2c, "V2C policy: fence (default), syncall, reject, off")->type_name("POLICY");
    app->add_option("--c2v", c.c2v,
                    "C2V policy: upstream (default: what the compiler fences) or complete (every C2V dependency)")
        ->type_name("POLICY");
    app->add_option("--blocks", c.blocks, "clusters to launch (default 1)")->type_name("N");
    app->add_option("--entry", c.entry, "function to launch (default: the only Group, else the only InCore function)")
        ->check(kName)
        ->type_name("NAME");
    app->add_option("--dim", c.dims, "NAME=V: value of the pl.dynamic symbol NAME (repeatable)")->type_name("NAME=V");
    if (!sim_options) return;
    app->add_option("--visibility-delay", c.visibility_delay,
                    "cycles from GM write completion to visibility (default: the gm.visibility_delay parameter, 0)")
        ->check(kCount)
        ->type_name("C");
    app->add_option("--input", c.inputs, "NAME=FILE.npy for a tensor, NAME=VALUE for a pl.Scalar (repeatable)")
        ->type_name("NAME=X");
    app->add_option("--rtol", c.rtol, "relative tolerance of the output comparison (default 0: bit-exact)")
        ->type_name("R");
    app->add_option("--atol", c.atol, "absolute tolerance of the output comparison (default 0)")->type_name("A");
    app->add_option("--max-cycles", c.max_cycles,
                    fmt::format("simulated-time bound per schedule in cycles (default {})", CommonOptions{}.max_cycles))
        ->check(kCount)
        ->type_name("N");
    app->add_option("--timeout", c.timeout,
                    fmt::format("wall-time bound per schedule in seconds (default {})", CommonOptions{}.timeout))
        ->type_name("S");
}

int report_diag(const Diagnostic& d, const std::string& json_path) {
    std::cerr << render_text(d);
    if (!json_path.empty()) {
        try {
            write_text_file(json_path, nlohmann::json{{"diagnostics", {to_json(d)}}}.dump(2) + "\n");
        } catch (const std::runtime_error& e) {
            std::cerr << "error[" << cvsim::codes::kIo << "]: " << e.what() << "\n";
            return kExitBadInput;
        }
    }
    return d.code == cvsim::codes::kV2cUnfenced ? kExitFindings : kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"cvsim: cycle-approximate simulator of Ascend AI-core clusters (AIC + 2 AIV) for PyPTO kernels"};
    app.require_subcommand(0, 1);
    // A CI log must say which cvsim produced a verdict.
    app.set_version_flag(
        "--version",
        std::string("cvsim ") + CVSIM_VERSION + " (commit " + CVSIM_GIT_COMMIT + ", " + CVSIM_BUILD_TYPE + " build)",
        "print the version, git commit and build type, then exit");
    CommonOptions common;
    RunOptions run;
    ExploreOptions explore;
    std::string expand_kernel, expand_out;
    uint64_t demo_schedules = 300;
    std::string shard = "0/1";
    bool no_progress = false;

    auto* demo = app.add_subcommand("demo", "the embedded demo (same as running cvsim without arguments)");
    demo->add_option("--schedules", demo_schedules, "random schedules per policy (default 300)")
        ->check(kCount)
        ->type_name("N");
    demo->add_option("--target", common.target, "chip: a2a3 (default) or a5")->type_name("T");

    auto* run_cmd =
        app.add_subcommand("run", "simulate one schedule: cycles, pipes, rings, findings, outputs vs reference");
    run_cmd->add_option("kernel", run.kernel, "kernel file (.py)")->required()->type_name("K.py");
    add_common(run_cmd, common, true);
    run_cmd->add_option("--seed", run.seed, "schedule seed (default 0)")->check(kCount)->type_name("N");
    run_cmd->add_option("--schedule", run.schedule, "nominal (default), random, pct:D, sweep")->type_name("S");
    run_cmd->add_option("--output-dir", run.output_dir, "write every output tensor as .npy here")->type_name("DIR");
    run_cmd->add_option("--trace", run.trace, "Chrome trace JSON (Perfetto)")->type_name("T.json");
    run_cmd->add_option("--vcd", run.vcd, "VCD waveform")->type_name("W.vcd");
    run_cmd->add_option("--html", run.html, "self-contained HTML timeline")->type_name("V.html");
    run_cmd
        ->add_option("--max-visibility-delay", run.max_visibility,
                     "random: draw the GM visibility delay from [0, C] (as explore does)")
        ->check(kCount)
        ->type_name("C");

    auto* expand_cmd =
        app.add_subcommand("expand", "expand mixed kernels into AIC/AIV/Group functions and print the DSL");
    expand_cmd->add_option("kernel", expand_kernel, "kernel file (.py)")->required()->type_name("K.py");
    expand_cmd->add_option("-o,--output", expand_out, "write to FILE instead of stdout")->type_name("FILE");
    std::string expand_compare;
    expand_cmd
        ->add_option("--compare", expand_compare,
                     "parity: compare the expansion's per-function op sequences with AFTER (upstream's printed "
                     "expansion); exit 1 if they differ")
        ->type_name("AFTER");
    add_common(expand_cmd, common, false);

    auto* explore_cmd = app.add_subcommand("explore", "run many schedules and summarise distinct findings");
    auto* check_cmd =
        app.add_subcommand("check", "CI gate: expand, explore the default budget, exit 0 only if nothing was found");
    for (auto* cmd : {explore_cmd, check_cmd}) {
        cmd->add_option("kernels", explore.kernels, "kernel files (.py)")->required()->type_name("K.py");
        add_common(cmd, common, true);
        cmd->add_option("--schedules", explore.schedules, "schedules to explore (default 200)")
            ->check(kCount)
            ->type_name("N");
        cmd->add_option("--seed", explore.seed, "first seed (default 1)")->check(kCount)->type_name("S");
        cmd->add_option("--strategy", explore.strategy, "random (default), pct:D, sweep")->type_name("S");
        cmd->add_flag("--stop-on-first", explore.stop_on_first, "stop at the first schedule with a finding");
        cmd->add_option("--probe-budget", common.probe_budget,
                        fmt::format("tile instructions one schedule of a probe at a further sampled value or size may "
                                    "run; a probe beyond it gives no verdict (0: no bound; default {})",
                                    CommonOptions{}.probe_budget))
            ->check(kCount)
            ->type_name("N");
        cmd->add_option("--jobs", explore.jobs,
                        "worker processes (default: the number of cores; 0: run in this process)")
            ->check(kCount)
            ->check(CLI::Range(0, 1024).description(""))
            ->type_name("J");
        cmd->add_option("--shard", shard, "run the I-th of N slices of the seed range: I/N")->type_name("I/N");
        cmd->add_option("--jsonl", explore.jsonl,
                        "append one JSON line per schedule; seeds already in the file are skipped")
            ->type_name("FILE");
        cmd->add_option(
               "--save-failures", explore.save_failures,
               "write, per distinct finding, its replay command and its Chrome trace, VCD and HTML views into DIR")
            ->type_name("DIR");
        cmd->add_option("--max-visibility-delay", explore.max_visibility,
                        "random: draw the GM visibility delay from [0, C]")
            ->check(kCount)
            ->type_name("C");
        cmd->add_option("--fault-abort-seed", explore.fault_abort_seed,
                        "testing: the schedule with this seed aborts its worker")
            ->group("");
        cmd->add_flag("--no-progress", no_progress,
                      "no progress line (on a terminal a bar; in a log a plain line every few seconds)");
        cmd->add_option("--progress-interval", explore.progress_interval,
                        "testing: seconds between plain progress lines")
            ->group("");
        cmd->add_option("--merge", explore.merge,
                        "run nothing: summarise these --jsonl files (e.g. of all shards) as one run")
            ->expected(1, -1)
            ->type_name("FILE");
    }

    // The PyPTO bridge (sim/bridge.h): a kernel source file is compiled by PyPTO up to ExpandMixedKernel first.
    sim::BridgeOptions bridge;
    for (auto* cmd : {run_cmd, expand_cmd, explore_cmd, check_cmd}) {
        cmd->add_flag("--pypto", bridge.force,
                      "compile the kernel file with PyPTO up to ExpandMixedKernel first (automatic for @pl.jit / with "
                      "pl.at sources)");
        cmd->add_option("--pypto-kernel", bridge.kernel_name,
                        "with the PyPTO bridge: the @pl.program / @pl.jit of the file to compile");
    }

    auto* params_cmd = app.add_subcommand("params", "list every hardware parameter with value, unit, doc and source");
    params_cmd->add_option("--target", common.target, "chip: a2a3 (default) or a5")->type_name("T");
    params_cmd->add_option("--config", common.configs, "TOML file overriding hardware parameters (repeatable)")
        ->type_name("FILE");
    params_cmd->add_option("--set", common.sets, "override one parameter: KEY=VALUE (repeatable)")
        ->type_name("KEY=VALUE");
    params_cmd
        ->add_option("--json", common.json, "write every parameter (value, unit, doc, confidence, source) to FILE")
        ->type_name("FILE");
    params_cmd->add_flag("-q,--quiet", common.quiet, "print nothing but diagnostics");
    params_cmd->add_flag("-v,--verbose", common.verbose, "the whole table, one line per parameter, whatever the width");

    auto* ops_cmd = app.add_subcommand("ops", "print the op table (docs/OPS_TABLE.md) generated from the op registry");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "error[" << cvsim::codes::kUsage << "]: " << e.what() << "\n"
                  << "run 'cvsim --help' for usage\n";
        return kExitBadInput;
    }

    if (common.json == "-") common.quiet = true;  // standard output carries the JSON report alone

    auto dispatch = [&]() -> int {
        if (*run_cmd || *expand_cmd || *explore_cmd || *check_cmd) {
            bridge.target = common.target.empty() ? "a2a3" : common.target;
            if (*run_cmd) run.kernel = sim::resolve_kernel(run.kernel, bridge);
            if (*expand_cmd) expand_kernel = sim::resolve_kernel(expand_kernel, bridge);
            if ((*explore_cmd || *check_cmd) && explore.merge.empty()) {
                std::vector<std::string> resolved;
                for (const auto& k : explore.kernels)
                    for (auto& r : sim::resolve_kernels(k, bridge, true)) resolved.push_back(std::move(r));
                explore.kernels = std::move(resolved);
            }
        }
        if (*run_cmd) return cmd_run(common, run);
        if (*expand_cmd)
            return expand_compare.empty() ? cmd_expand(common, expand_kernel, expand_out)
                                          : cmd_parity(common, expand_kernel, expand_compare);
        if (*explore_cmd || *check_cmd) {
            explore.progress = !no_progress;
            auto slash = shard.find('/');
            try {
                std::string i = slash == std::string::npos ? "" : shard.substr(0, slash),
                            n = slash == std::string::npos ? "" : shard.substr(slash + 1);
                for (const std::string* part : {&i, &n})
                    if (part->empty() || part->size() > 9 || part->find_first_not_of("0123456789") != std::string::npos)
                        throw std::invalid_argument("");
                explore.shard_index = std::stoi(i);
                explore.shard_count = std::stoi(n);
            } catch (const std::exception&) {
                throw std::invalid_argument("--shard " + shard + ": expected I/N with 0 <= I < N");
            }
            return cmd_explore(common, explore, static_cast<bool>(*check_cmd));
        }
        if (*params_cmd) return cmd_params(common);
        if (*ops_cmd) return cmd_ops();
        return cmd_demo(common, demo_schedules);
    };
    try {
        int rc = dispatch();
        // The report is the product: stdout that could not take it (a full disk) is an I/O error.
        std::cout.flush();
        if (!std::cout) {
            std::cerr << "error[" << cvsim::codes::kIo << "]: writing the report to standard output failed\n";
            return kExitBadInput;
        }
        return rc;
    } catch (const sim::BridgeError& e) {
        // At the line that made cvsim take the file for a kernel source (file:line:col with a caret), the first
        // line of the message there and the rest (PyPTO's own output) below it.
        std::shared_ptr<SourceFile> src;
        if (e.line() > 0) try {
                src = SourceFile::read(e.file());
            } catch (const std::exception&) {
            }
        if (!src || e.line() > src->line_count()) {
            std::cerr << "error[" << e.code() << "]: " << e.what() << "\n";
            return kExitBadInput;
        }
        const std::string text = e.what();
        const size_t nl = text.find('\n');
        Diagnostic d;
        d.code = e.code();
        d.message = text.substr(0, nl);
        const std::string_view line = src->line_text(e.line());
        const size_t first = line.find_first_not_of(" \t");
        d.loc = SourceLoc{src.get(), e.line(), static_cast<uint32_t>(first == std::string_view::npos ? 1 : first + 1)};
        d.keep = src;
        const int rc = report_diag(d, common.json);
        if (nl != std::string::npos) std::cerr << text.substr(nl + 1) << "\n";
        return rc;
    } catch (const CompileError& e) {
        return report_diag(e.diag(), common.json);
    } catch (const ParamError& e) {
        std::cerr << "error[" << cvsim::codes::kConfig << "]: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const JournalError& e) {
        std::cerr << "error[" << cvsim::codes::kJournal << "]: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::invalid_argument& e) {
        std::cerr << "error[" << cvsim::codes::kUsage << "]: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::runtime_error& e) {
        std::cerr << "error[" << cvsim::codes::kIo << "]: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::bad_alloc&) {
        std::cerr << "error[" << cvsim::codes::kCapacity
                  << "]: out of memory (the kernel needs more memory than this machine gives cvsim)\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "internal error: " << e.what() << "\n";
        return kExitInternal;
    }
}
