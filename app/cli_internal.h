// app/ internals shared by the sub-commands (cli.cpp: run, expand, params; check_entries.cpp: what check and
// explore take from a kernel file; cmd_explore.cpp: explore and check). Not part of the app's interface (cli.h).
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "app/cli.h"
#include "app/sampling.h"
#include "frontend/diag.h"
#include "frontend/launch.h"
#include "frontend/passes/timing_scope.h"
#include "frontend/pipeline.h"

namespace cvsim::cli {

// Writes J (indented) to PATH; nothing when PATH is empty.
void write_json(const std::string& path, const nlohmann::json& j);

// A run whose only findings are a construct cvsim does not model at run time (E-UNSUPPORTED, e.g. a
// pl.tensor.view window that is no single box of the tensor) and the E-UNCHECKED outputs it causes has no
// verdict: exit 2 as for any unsupported construct (SPEC 3), not 1. With any other finding it stays 1.
bool only_unsupported(const std::vector<std::string>& codes);

// A function cvsim could not read (ir::Function::unread) that the entry's launches do not reach: say so, and why.
void note_unread(const ir::Program& p, const std::string& kernel, const std::string& entry);

// The kernel file through the pass pipeline (frontend/pipeline.h) with the command line's options: the
// whole-program expansion `expand` prints, and the launch passes `run` and `check` run, so expand accepts
// nothing run rejects. LAUNCHES false: only the printed expansion (check's timing scope, after its sessions
// ran the launch passes). Unbound pl.dynamic symbols take kDefaultDim; NOTES prints which on stderr (unless
// --quiet).
PipelineResult expand_kernel_file(const CommonOptions& c, const std::string& kernel, bool notes = false,
                                  bool launches = true, bool reached_only = false);

// The entries check/explore take from one kernel file: the kernels an Orchestration entry launches when it is
// not one launch (frontend/launch.h kernel_launches), else the entry as given ("": compile() chooses).
// Each kernel's options: --entry NAME, and its scalar parameters given the constants of its launch site (an
// --input of the user wins). A scalar the orchestration computes (cvsim does not run host scalar code) and the
// user does not give makes that kernel unchecked: any value cvsim picked could make the verdict vacuous (a
// valid region of 0 rows accesses nothing), so the kernel gets E-UNCHECKED at the parameter, never a pass.
// A kernel the orchestration launches with many scalar bindings (a loop over launches) is checked on at most
// this many of them (docs/DECISIONS.md, "The host walk").
constexpr size_t kMaxBindings = 8;

// A schedule at an extra sampled value (app/sampling.h ExtraSample) or size is bounded by --probe-budget
// (CommonOptions::work_budget, a count of work, so the same on a loaded machine as on an idle one): a value whose
// schedule does not finish within it is no verdict (a made-up size must not turn into an E-TIMEOUT).

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

// The static half of the verdict's scope, over the lane programs the exploration ran.
passes::TimingScope timing_scope_of(const CommonOptions& c, const std::string& kernel);

// The entries check/explore take from kernel file KERNEL (above); DEFAULTED_OUT: the pl.dynamic symbols cvsim
// defaulted, with their size.
std::vector<CheckEntry> entries_of(const CommonOptions& c, const std::string& kernel,
                                   std::vector<std::pair<std::string, int64_t>>* defaulted_out = nullptr);

// What the check of entry X depends on (check_launch_entries.cpp); "" when X has no program to read it from.
std::string launch_signature(const CheckEntry& x);

// The entries of LAUNCHES (the host walk's, under SAMPLED: "" or the walk's sampled values, of SAMPLE_KIND)
// appended to OUT, each distinct launch once; ONLY: the kernels to take (null: all) (check_launch_entries.cpp).
void add_launch_entries(const CommonOptions& c, const std::string& kernel, const std::shared_ptr<ir::Program>& program,
                        const std::vector<KernelLaunch>& launches, const std::string& sampled,
                        std::optional<SampleKind> sample_kind, const std::set<std::string>* only,
                        std::vector<CheckEntry>& out);

}  // namespace cvsim::cli
