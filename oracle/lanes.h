// The oracle's lanes: every launched core's instructions with their same-core predecessors (internal).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "oracle/oracle.h"

namespace cvsim::oracle::detail {

// Pipes of SPEC 4.1 (the oracle's own numbering).
enum Pipe : uint8_t { kScalar, kMte1, kMte2, kMte3, kCube, kFixp, kVector, kPipes };

enum class Kind : uint8_t { Compute, Gm, Push, PopWait, PopCopy, Free, Set, Wait, Arrive, Depart, Fence };

// One access to GM or ring slot memory: an element box [lo, hi) of resource `res`.
struct Access {
    int res = -1;
    std::vector<int64_t> lo, hi;
    bool write = false;
    bool atomic = false;
    int64_t gather = -1;  // a V2C push's slot write: pushes of one gather (same ring, same k) never race
    bool slot = false;    // ring slot traffic: published by its ready flag, no fence rule
};

struct Ins {
    Kind kind = Kind::Compute;
    uint8_t pipe = kScalar;
    uint32_t line = 0;
    std::vector<int> deps;  // same-core predecessors (indices into the lane)
    std::vector<Access> acc;
    // synchronisation
    int dir = 0;        // ring direction: 0 C2V, 1 V2C
    int64_t id = 0;     // ring id / event id
    std::string group;  // syncall core type: "mix", "aiv", "aic"
    bool hard = false;  // hard syncall
    std::string text;   // "tpop_from_aic" ... (deadlock report)
};

struct Lane {
    int cluster = 0;
    int core = 0;         // 0 AIC, 1 AIV0, 2 AIV1
    bool replay = false;  // a2a3 unsplit lane 1: handshakes only
    std::vector<Ins> ins;
    std::map<std::pair<int, int64_t>, int> slot_num;  // (dir, id) -> slots, from *_initialize_pipe
};

struct Model {
    std::vector<Lane> lanes;
    std::vector<std::string> resources;  // names of GM tensors / slot memories
    int blocks = 1;
    // A standalone AIV kernel (no AIC, one AIV lane): one block per AIV core, so the chip holds twice its clusters.
    bool standalone_aiv = false;
    bool oob = false;
    bool unsupported = false;
    std::string why;
};

// Walks every lane of the launch (throws nothing; unsupported constructs are flagged in the model).
Model build_model(const rt::LaunchPlan& plan, const rt::TensorStore& tensors, const Options& opt);

}  // namespace cvsim::oracle::detail
