// Findings and verdicts: what one schedule (or an exploration) found, and output comparison against the
// reference (SPEC 6, 7).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "frontend/codes.h"
#include "frontend/ops.h"
#include "frontend/runtime.h"
#include "frontend/source.h"

namespace cvsim::sim {

// One of the two GM accesses of a race, as the hazard checker saw it (for trace writers to point at).
struct FindingAccess {
    uint32_t cluster = 0;              // cluster index
    uint8_t core = 0;                  // 0 = AIC, 1 = AIV0, 2 = AIV1 (sim::CoreId)
    ir::Pipe pipe = ir::Pipe::Scalar;  // pipe that executed it
    bool write = false;                // a store (else a load)
    uint64_t cycle = 0;                // a read's start, a write's completion (relative to the schedule start)
    SourceLoc loc;                     // source statement
};

struct Finding {
    std::string code;                     // "E-RACE-RAW", "E-DEADLOCK", "W-V2C-LAYOUT", ...
    std::string message;                  // one line (the race report, the deadlock summary, ...)
    std::vector<std::string> details;     // further lines (each blocked core, ...)
    SourceLoc loc;                        // primary location
    SourceLoc loc2;                       // second access (races)
    uint64_t cycle = 0;                   // when it was detected
    std::string key;                      // identity for de-duplication across schedules
    std::vector<FindingAccess> accesses;  // races: the two accesses, in the order the message names them
    bool is_error() const { return code.size() > 1 && code[0] == 'E'; }
};

std::string format_finding(const Finding& f);  // "error[E-RACE-RAW]: RAW on GM ...\n  details..."
nlohmann::json finding_json(const Finding& f);

struct CompareOptions {
    double rtol = 0;  // relative tolerance (0: bit-exact)
    double atol = 0;  // absolute tolerance
};

// Compares every output tensor of `got` with `want` (the reference): E-UNWRITTEN where poison remains
// but the reference wrote a value, E-MISMATCH otherwise (count, first index, max abs difference).
// `code` lets E-NONDET reuse the comparison against the nominal schedule. Elements float atomic adds
// produced may differ by their order tolerance (TensorBuffer::atomic_tol of `tol`, default `want`).
std::vector<Finding> compare_outputs(const rt::TensorStore& got, const rt::TensorStore& want, const CompareOptions& opt,
                                     const std::string& mismatch_code = codes::kMismatch,
                                     const rt::TensorStore* tol = nullptr);

}  // namespace cvsim::sim
