// The host walk of an Orchestration function (issue 11): the scalar part of the host program PyPTO's runtime
// executes, run far enough to know every kernel launch's scalar arguments. Loops over launches, scalars the
// orchestration computes (loop variables, pl.tensor.dim, arithmetic, pl.min/max, pl.cast, pl.array.*), nested
// orchestration calls and `if`s on known values are evaluated; GM data (pl.tensor.read of an entry tensor) is
// known only from an --input NAME=FILE.npy. Tensor ops (slice, view, create, assemble, ...) are not executed:
// `check` takes each launched kernel on its own tensors (docs/DECISIONS.md, "Orchestration host statements").
// A value the walk cannot know stays unknown with the reason, so a kernel launched with it is reported not
// checked (E-UNCHECKED), never checked with a made-up value.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frontend/ir/ir.h"
#include "frontend/runtime.h"

namespace cvsim {

// One launch's scalar arguments, as the kernel's parameters name them.
struct LaunchBinding {
    std::vector<std::pair<std::string, std::string>>
        scalars;          // known scalar parameters (NAME, value as --input takes it)
    std::string unknown;  // the first scalar parameter whose value the walk could not know ("" = none)
    std::string why;      // why (names the statement or input that made it unknown)
    int blocks = 0;       // its core_num when the launch gives one (0: not given)
    // Scalar parameters the walk could not know but whose value cannot matter to the kernel
    // (frontend/scalar_influence.h): given 0 in `scalars`, listed here with why the walk did not know them.
    std::vector<std::pair<std::string, std::string>> dead;
    SourceLoc loc;  // the launch (where an unknown launch width is reported)
    bool operator==(const LaunchBinding& o) const {
        return scalars == o.scalars && unknown == o.unknown && blocks == o.blocks;
    }
};

struct HostKernelLaunches {
    std::string name;
    std::vector<LaunchBinding> distinct;  // distinct bindings, in the order the walk first met them
    int64_t launches = 0;                 // launches the walk executed (>= distinct.size())
};

// Part of every `why` of a value the walk does not know because it may be a size cvsim made up (pl.tensor.dim of
// a defaulted dim): check waits for the other sizes before it reports such a launch not checked.
inline constexpr char kMadeUpSizeWhy[] = "that cvsim gave the made-up size";

struct HostWalk {
    std::vector<HostKernelLaunches> kernels;  // in order of each kernel's first launch
    std::string incomplete;  // "" or why the walk stopped early (its budget): later launches were not seen
};

struct HostInputs {
    std::map<std::string, rt::Scalar>
        scalars;  // the entry's scalar parameters: NAME -> value (--input NAME=V; a tensor: its fill)
    std::map<std::string, std::string> files;  // the entry's tensor parameters: NAME -> FILE.npy
    int64_t step_budget = 2'000'000;           // statements the walk may execute
    // Dynamic dims sema gave a made-up value (the default, or the size the program's windows need; no --dim /
    // --input shape), with that value: a pl.tensor.dim extent equal to one of the values may be one of them,
    // so it is unknown (empty: none was defaulted).
    std::vector<std::pair<std::string, int64_t>> defaulted_dims;
    // Sampling (check, docs/DECISIONS.md "Unbound control scalars are sampled"): an entry scalar parameter no
    // --input gives, and every pl.tensor.read of an entry tensor no --input file gives, take this value; a
    // pl.tensor.dim of a made-up dim is its made-up size (the shapes the kernels are checked at). `sampled`
    // collects what took the value ("n", "data of cfg"), once each. nullopt: unknown, as without sampling.
    std::optional<int64_t> sample;
    bool sample_iota = false;  // ascending: the k-th sampled scalar is sample + k, a read at flat index i is sample + i
    std::vector<std::string>* sampled = nullptr;
    std::map<std::string, int64_t> iotas;  // --input T=iota+K: a read of T at flat index i is K + i
};

// Runs ORCH's host program (an Orchestration function of PROGRAM). Throws nothing for what it cannot evaluate
// (those values stay unknown); a CompileError only for a diagnostic of the program itself (E-OOB of a constant
// pl.tensor.read index into an --input tensor).
HostWalk walk_host(const ir::Program& program, const ir::Function& orch, const HostInputs& in);

// The launches in BODY of a `for b in pl.spmd(N)` loop (nested blocks included; a kernel call, pl.submit /
// pl.spmd_submit, or a call of another function): one inside a loop other than a nested pl.spmd counts twice, as it
// runs again beside the other blocks' earlier trips. More than one: the body is not one launch of N blocks.
int spmd_body_launches(const ir::Program& p, const ir::Block& body);

}  // namespace cvsim
