// From a parsed program to a launch: entry selection, expansion of mixed kernels, the launch plan.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/params.h"
#include "frontend/diag.h"
#include "frontend/host_eval.h"
#include "frontend/ir/ir.h"
#include "frontend/passes/expand_mixed_kernel.h"
#include "frontend/runtime.h"

namespace cvsim {

struct CompileOptions {
    std::string entry;             // --entry NAME ("" = the only Group, else the only InCore function)
    passes::ExpandOptions expand;  // policy, target, blocks
};

struct Compiled {
    std::shared_ptr<ir::Program> original;  // as parsed
    std::shared_ptr<ir::Program> expanded;  // after ExpandMixedKernel (the original when nothing was mixed)
    passes::ExpandStats stats;
    bool mixed = false;   // the entry was a mixed InCore function
    rt::LaunchPlan plan;  // over `expanded`; plan.mixed = the original function (reference)
};

// The program with every call between kernel functions (self.helper(...) inside an InCore/AIC/AIV function)
// inlined, as PyPTO's InlineFunctions does (frontend/launch_inline.cpp); PROGRAM itself when there is none.
std::shared_ptr<ir::Program> inline_kernel_calls(const std::shared_ptr<ir::Program>& program);
// A copy of PROGRAM in which the Orchestration function ORCH has every call of another Orchestration function
// (`o = self.helper(...)`, as a statement) inlined, transitively (at most 8 deep); nullptr when it calls none.
// RELOCATE(line of a call) true: the inlined statements take the call's location. For the launch-order analysis
// (unordered_launches), which otherwise did not see launches inside a called orchestration. ORIGIN (optional):
// each statement an inlined call brought in -> the number of that call (those of ORCH itself are not in it).
std::shared_ptr<ir::Program> inline_orchestration_calls(const ir::Program& program, const std::string& orch,
                                                        const std::function<bool(uint32_t)>& relocate,
                                                        std::map<const ir::Stmt*, int>* origin = nullptr);
// A call left in a kernel function after inlining (of an Orchestration/Group function, or inside an
// expression) is E-UNSUPPORTED, never run as a no-op.
void refuse_kernel_calls(const ir::Program& program);

// A function that uses distributed state (ir::Function::distributed: a pld.* type or op) is read and printed
// but not simulated: E-UNSUPPORTED at its first pld use, naming it (a no-op for a single-device function).
// compile() raises it for every function a launch reaches.
void refuse_distributed(const ir::Function& f);

// A function cvsim could not read (ir::Function::unread: an E-UNSUPPORTED in its body or signature) does not
// reject the file; a launch of ENTRY ("": the default entry) that reaches one, directly or through calls,
// raises its diagnostic (the earliest in source order). With no entry to follow (E-ENTRY), the file's first.
void refuse_unread(const ir::Program& program, const std::string& entry);
// The unread functions no launch of ENTRY reaches (empty when no entry can be chosen).
std::vector<const ir::Function*> unread_unreached(const ir::Program& program, const std::string& entry);

// Launches of ORCH (an Orchestration function) the runtime leaves unordered. A later launch runs after an earlier
// one when its deps= reach that launch's task id (directly, through task-id arrays, loop-carried values, or
// through a launch that does), when a host read between them waits for it, or when the runtime's tensor map
// orders them: both in AUTO scopes, the earlier one publishing a tracked tensor it writes and the later one
// looking up an argument that may share its bytes (In, InOut, or an Out argument PyPTO's DeriveCallDirections
// makes InOut) - never a writer after a reader. A launch in a manual scope neither looks up nor publishes.
// Launches of a loop are also paired with later iterations. One E-RACE-RAW / WAR / WAW diagnostic (at the later
// launch) per later launch that may share GM with an earlier one, one of the two writing it, without such an
// order (docs/DECISIONS.md, "Manual scopes" and "AUTO scopes order readers after writers only").
std::vector<Diagnostic> unordered_launches(const ir::Program& program, const ir::Function& orch);

// The function a launch of NAME runs ("": the outermost launcher: the only Orchestration, else the only Spmd,
// Group or InCore function); E-ENTRY when there is none to choose.
std::shared_ptr<ir::Function> pick_entry(const ir::Program& p, const std::string& name);

// Throws CompileError (E-ENTRY when no entry can be chosen; the expander's diagnostics otherwise).
Compiled compile(std::shared_ptr<ir::Program> program, const CompileOptions& opt);

// The hardware checks of an expanded program, run by every sub-command that expands (`expand` too, so it
// never prints a program `run` rejects), after passes::check_capacity of the program as written: buffer
// capacity as expanded (E-CAPACITY) and the ring buffers the expansion sets up.
// `store_layouts`: also refuse a Vec tile.store whose tile layout is not the tensor's (ND) — a kernel the board's
// toolchain rejects (pto-isa TSTORE); `expand` leaves it out, as the compiler pass it reproduces does.
void check_expanded_for_hardware(const ir::Program& expanded, const HwParams& hw, bool store_layouts = true);

// The kernels an Orchestration entry (chosen as compile() does) launches, in program order, each once, when it
// cannot be run as one launch: it launches several kernels or runs host statements cvsim reads but does not
// execute (pl.tensor.slice, pl.submit, ...). Empty otherwise (the entry runs as one launch). check and
// explore take each of these kernels as an entry of its own (docs/DECISIONS.md, Orchestration).
struct KernelLaunch {
    std::string name;                                          // the launched kernel
    std::vector<std::pair<std::string, std::string>> scalars;  // scalar parameters given constants at the first launch
    std::vector<std::string> computed;                         // scalar parameters the orchestration computes
    int blocks = 0;                                            // its attrs={"core_num": N} (0: not given)
    bool runtime_core_num = false;  // core_num is given but not a constant (the host walk may evaluate it)
    bool unread = false;            // it reaches a function cvsim could not read (compile() raises that diagnostic)
    bool unread_oob = false;        // ... and what it could not read is a window out of bounds at these sizes (E-OOB)
    // The host walk ran to its end and never launched it (the conditions around the launch are known and false:
    // an `if` on a value the walk does not know walks both arms and launches).
    bool not_launched = false;
    bool distributed =
        false;  // it reaches a distributed function (compile() refuses it: E-UNSUPPORTED, not E-UNCHECKED)
    // The host walk (frontend/host_eval.h) of the entry: the distinct scalar bindings its launches of this kernel
    // had, first-met order (empty: the walk did not launch it; `scalars`/`computed` above then apply), how many
    // launches it executed, and why the walk stopped early ("" = it ran to the end).
    std::vector<LaunchBinding> bindings;
    int64_t launch_count = 0;
    std::string walk_incomplete;
    // A launch of it whose tensor arguments cvsim cannot bind (aliasing it cannot express): check reports this
    // kernel not checked in its turn and checks the others (it used to end the whole check).
    std::shared_ptr<const Diagnostic> rejected;
};
std::vector<KernelLaunch> kernel_launches(const ir::Program& program, const std::string& entry,
                                          const HostInputs& host = {});
// The value of a launch call's attrs={"core_num": ...} (constant or not); nullptr when it gives none.
const ir::ExprPtr* core_num_attr(const ir::Expr& call);
// The kernel a launch call names: K of self.K(...), of pl.submit(self.K, ...) and of pl.spmd_submit(self.K, ...).
const std::string& launched_kernel(const ir::Expr& call);
// F and every function it reaches through calls and submits.
std::set<const ir::Function*> reached_from(const ir::Program& p, const ir::Function& f);
// The program of P's functions in KEEP, in P's order, sharing them (name and sources as P's).
ir::Program sub_program(const ir::Program& p, const std::set<const ir::Function*>& keep);

// The core_num every launch of ENTRY that gives one agrees on (attrs={"core_num": N}); nullopt when none gives
// one, when they differ, or when the entry is no orchestration.
std::optional<int> launch_width(const ir::Program& program, const std::string& entry);
// The widest launch of KERNEL in the program's Orchestration functions: its constant core_num, else the product
// of the pl.spmd loops around it, and where it is; nullopt when none launches it wider than 1 block. `--entry
// KERNEL` checks the kernel that wide (docs/DECISIONS.md, "A kernel named by --entry is launched as wide as its
// widest launch").
std::optional<std::pair<int64_t, SourceLoc>> kernel_site_width(const ir::Program& program, const std::string& kernel);

// Where each ring of one cluster lives in that cluster's hidden ring tensor (on a2a3 the GM buffer; on a5
// the same numbering names the consumer-SRAM slots for the hazard checker), from the lane programs'
// *_initialize_pipe calls. Ring id 0 keeps the compiler's layout: C2V at offset 0, V2C after it (each
// half as large as the larger direction); every other (direction, id) gets its own region after those.
struct RingLayout {
    int64_t bytes = 0;                                // tensor size (0: no ring is used)
    std::map<std::pair<int, int64_t>, int64_t> base;  // (direction 0 = C2V / 1 = V2C, id) -> byte offset
};
// bytes == -1 (and no bases) when the sizes overflow int64.
RingLayout ring_layout(const rt::LaunchPlan& plan);
int64_t ring_tensor_bytes(const rt::LaunchPlan& plan);  // ring_layout(plan).bytes; -1 when it overflows int64

}  // namespace cvsim
