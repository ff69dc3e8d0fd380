// The cvsim command line: sub-commands and their shared options (SPEC 2).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/session.h"

namespace cvsim::cli {

// Exit codes of every command.
constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitInternal = 3;
constexpr int kExitInterrupted = 130;  // explore/check stopped by SIGINT/SIGTERM (128 + SIGINT): partial, no verdict

// Options shared by run / explore / check / expand (raw strings as given; validated into SessionOptions).
struct CommonOptions {
    std::string target = "a2a3";
    std::vector<std::string> configs;
    std::vector<std::string> sets;
    std::string json;  // --json FILE
    bool quiet = false;
    bool verbose = false;
    std::string v2c = "fence";
    std::string c2v = "upstream";
    int blocks = 1;
    std::string entry;
    std::vector<std::string> dims;             // --dim NAME=V (pl.dynamic symbols)
    std::optional<uint64_t> visibility_delay;  // --visibility-delay (unset: the gm.visibility_delay parameter)
    std::vector<std::string> inputs;           // NAME=FILE.npy or NAME=VALUE
    double rtol = 0, atol = 0;
    uint64_t max_cycles = 200'000'000;
    double timeout = 60;
    // --probe-budget: the deterministic work bound of one schedule of a check probe at a value or size cvsim
    // sampled beyond the first ones (app/cli_internal.h, above kMaxComparedSizes), in simulated tile instructions; the
    // probe's reference interpretation gets kRefWorkPerInstruction times this in statements and tile elements.
    uint64_t probe_budget = 500'000;
    // The bound of this entry's schedules in that unit (0: none; set on the probes, not by a flag).
    uint64_t work_budget = 0;
};

// The reference interpretation's share of a work budget (CommonOptions::work_budget): this many statements and tile
// elements per simulated instruction (the simulator's cost per instruction covers its data path and its timing).
constexpr uint64_t kRefWorkPerInstruction = 2048;

struct RunOptions {
    std::string kernel;
    uint64_t seed = 0;
    std::string schedule = "nominal";
    std::string output_dir;
    std::string trace, vcd, html;
    uint64_t max_visibility = 0;  // --max-visibility-delay: random: draw the GM visibility delay from [0, this]
};

struct ExploreOptions {
    std::vector<std::string> kernels;
    uint64_t schedules = 200;
    uint64_t seed = 1;
    std::string strategy = "random";
    int jobs = -1;        // worker processes (-1: the number of cores; 0: in this process)
    int shard_index = 0;  // --shard I/N: run the I-th of N slices of the seed range
    int shard_count = 1;
    bool stop_on_first = false;
    std::string jsonl;               // one JSON line per schedule; seeds already in the file are skipped
    std::string save_failures;       // directory: replay command (+ trace) per failing schedule
    uint64_t max_visibility = 0;     // random: draw the GM visibility delay from [0, this]
    int64_t fault_abort_seed = -1;   // testing: the schedule with this seed aborts its worker
    bool progress = true;            // a progress bar when stderr is a terminal, else a plain line every few seconds
    double progress_interval = 5;    // seconds between the plain progress lines (not a terminal)
    std::vector<std::string> merge;  // --merge: summarise these JSON-lines files instead of running
};

int cmd_run(const CommonOptions& c, const RunOptions& r);
int cmd_expand(const CommonOptions& c, const std::string& kernel, const std::string& out);
int cmd_explore(const CommonOptions& c, const ExploreOptions& e, bool is_check);
struct ExploreSummary;
// Writes DIR/<kernel>_<schedule>_seed<N>.{txt,json,vcd,html} for every distinct finding of SUM.
void save_failures(const std::string& dir, const CommonOptions& c, const std::string& kernel,
                   const ExploreSummary& sum);
int cmd_params(const CommonOptions& c);
int cmd_ops();  // the op table generated from the registry (docs/OPS_TABLE.md)
int cmd_demo(const CommonOptions& c, uint64_t schedules);

// Writes TEXT to PATH; throws std::runtime_error (E-IO) when it cannot be written whole (a full disk).
void write_text_file(const std::string& path, const std::string& text);
// The same without throwing: the error message, or "" when written.
std::string try_write_text_file(const std::string& path, const std::string& text);
// CommonOptions -> SessionOptions; throws std::invalid_argument with a message for bad values.
sim::SessionOptions session_options(const CommonOptions& c);
// The `cvsim` arguments (without the program name) that replay one schedule, and the same as one line.
std::vector<std::string> replay_args(const CommonOptions& c, const std::string& kernel, const sim::Schedule& s);
std::string replay_command(const CommonOptions& c, const std::string& kernel, const sim::Schedule& s);

}  // namespace cvsim::cli
