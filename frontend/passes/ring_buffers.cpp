// Ring buffer reservations: every reserve_buffer with constant size and base must fit and not overlap.
#include "frontend/passes/ring_buffers.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::passes {

using namespace ir;

namespace {

struct Region {
    std::string name;
    int64_t base = -1;  // -1: pl.AUTO
    int64_t size = 0;
    SourceLoc loc;
};

// The reserve_buffer a ring's buffer operand names: the function's own reservation (the consumer's), or through
// import_peer_buffer the peer function's reservation of that name (the producer's). nullopt: not a constant
// reservation cvsim can find (then nothing is checked).
struct Reservation {
    std::string name;
    int64_t size = 0;
    SourceLoc loc;
};

std::optional<Reservation> reservation_in(const Function& f, const std::string& name) {
    std::optional<Reservation> out;
    walk(f.body, [&](const StmtPtr& s) {
        const Expr* c = stmt_call(*s);
        if (out || !c || c->op->code != OpCode::ReserveBuffer || const_str(arg(*c, "name")) != name) return;
        if (auto size = const_int(arg(*c, "size"))) out = Reservation{name, *size, s->loc};
    });
    return out;
}

// a5: a ring of (explicit) slot_num x slot_size bytes larger than the buffer reserved for it (SPEC 4.3: "out-of-range
// buffers"): its last slots are UB/L1 bytes that belong to something else (another ring, tiles). E-CAPACITY at the
// *_initialize_pipe, for the consumer's own reservation and for the producer's import of it. (On a2a3 the rings
// live in GM, SPEC 4.3, and the reservation does not hold them: not checked there.)
void check_rings_fit_reservations(const Program& p, const HwParams& hw) {
    if (hw.target != Target::A5) return;
    // The consumers' own reservations first (where the ring lives), then the producers' imports of them.
    for (int producers = 0; producers < 2; ++producers)
        for (const auto& f : p.functions) {
            if (f->type != FuncType::AIC && f->type != FuncType::AIV) continue;
            std::map<const Var*, const Expr*> bound;  // a variable -> the reserve_buffer / import_peer_buffer it holds
            walk(f->body, [&](const StmtPtr& s) {
                const Expr* c = stmt_call(*s);
                if (c && (c->op->code == OpCode::ReserveBuffer || c->op->code == OpCode::ImportPeerBuffer) &&
                    s->targets.size() == 1)
                    bound[s->targets[0].get()] = c;
            });
            walk(f->body, [&](const StmtPtr& s) {
                const Expr* c = stmt_call(*s);
                if (!c || (c->op->code != OpCode::AicInitializePipe && c->op->code != OpCode::AivInitializePipe))
                    return;
                const auto mask = const_int(arg(*c, "dir_mask"));
                const auto slot_size = const_int(arg(*c, "slot_size"));
                if (!mask || !slot_size) return;
                // Only a ring whose depth the kernel states: without slot_num the reservation may be what the
                // toolchain sizes it from (hand-written kernels reserve 4 slots and leave the default, 8, unsaid).
                if (!arg(*c, "slot_num")) return;
                const int64_t slots = const_int(arg(*c, "slot_num")).value_or(0);
                int64_t ring = 0;
                if (slots <= 0 || __builtin_mul_overflow(*slot_size, slots, &ring)) return;
                for (int dir = 0; dir < 2; ++dir) {
                    if (!(*mask & (1 << dir))) continue;
                    const ExprPtr& buf = arg(*c, dir == 0 ? "c2v_consumer_buf" : "v2c_consumer_buf");
                    if (!buf || buf->kind != ExprKind::Var || !buf->var) continue;
                    auto it = bound.find(buf->var.get());
                    if (it == bound.end()) continue;
                    const Expr& b = *it->second;
                    if ((b.op->code == OpCode::ImportPeerBuffer) != (producers == 1)) continue;
                    const auto name = const_str(arg(b, "name"));
                    if (!name) continue;
                    std::optional<Reservation> r;
                    std::string whose;
                    if (b.op->code == OpCode::ReserveBuffer) {
                        r = reservation_in(*f, *name);
                    } else if (const auto peer_name = const_str(arg(b, "peer_func"))) {
                        if (const auto peer = p.find(*peer_name)) r = reservation_in(*peer, *name);
                        whose = fmt::format("by '{}' ", *peer_name);
                    }
                    if (!r || ring <= r->size) continue;
                    raise(codes::kCapacity, s->loc,
                          fmt::format(
                              "{} binds a {} ring of {} slots x {} bytes = {} bytes to the buffer '{}', reserved {}"
                              "at line {} with {} bytes: the ring overruns its reservation (on a5 the ring lives "
                              "there, so "
                              "its last slots are {} bytes that belong to something else)",
                              c->op->name(), dir == 0 ? "C2V" : "V2C", slots, *slot_size, ring, *name, whose,
                              r->loc.line, r->size, dir == 0 ? "UB" : "L1"),
                          "reserve slot_num x slot_size bytes for the ring (or make the ring smaller)");
                }
            });
        }
}

// a5: two rings bound to one reservation (SPEC 4.3: a ring lives in its consumer's SRAM at the address its
// reserve_buffer gives, so both rings' slot 0 is the reservation's first byte and a push into one ring overwrites a
// tile the other ring's consumer still holds). Reserving overlapping buffers is E-CAPACITY; so is this. Checked on
// the consumer's own reservation (each ring's consumer binds it), at the second *_initialize_pipe that binds it.
void check_one_ring_per_reservation(const Program& p, const HwParams& hw) {
    if (hw.target != Target::A5) return;
    for (const auto& f : p.functions) {
        if (f->type != FuncType::AIC && f->type != FuncType::AIV) continue;
        std::map<const Var*, const Expr*> reserved;  // a variable -> the reserve_buffer it holds
        walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = stmt_call(*s);
            if (c && c->op->code == OpCode::ReserveBuffer && s->targets.size() == 1) reserved[s->targets[0].get()] = c;
        });
        std::map<std::string, std::pair<SourceLoc, int64_t>> first;  // reservation name -> first ring bound (loc, id)
        walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = stmt_call(*s);
            if (!c || (c->op->code != OpCode::AicInitializePipe && c->op->code != OpCode::AivInitializePipe)) return;
            const auto mask = const_int(arg(*c, "dir_mask"));
            if (!mask) return;
            const int64_t id = arg(*c, "id") ? const_int(arg(*c, "id")).value_or(-1) : 0;
            for (int dir = 0; dir < 2; ++dir) {
                if (!(*mask & (1 << dir))) continue;
                const ExprPtr& buf = arg(*c, dir == 0 ? "c2v_consumer_buf" : "v2c_consumer_buf");
                if (!buf || buf->kind != ExprKind::Var || !buf->var) continue;
                auto it = reserved.find(buf->var.get());
                if (it == reserved.end()) continue;
                const auto name = const_str(arg(*it->second, "name"));
                if (!name) continue;
                auto [f0, fresh] = first.emplace(*name, std::make_pair(s->loc, id));
                if (fresh || (f0->second.first.line == s->loc.line && f0->second.first.col == s->loc.col)) continue;
                raise(codes::kCapacity, s->loc,
                      fmt::format("{} binds ring {} to the buffer '{}', which the ring {} bound at line {} already "
                                  "holds: on a5 both rings' slots start at the reservation's base, so a push into "
                                  "one overwrites a tile the other ring's consumer still holds",
                                  c->op->name(), id, *name, f0->second.second, f0->second.first.line),
                      "reserve a buffer of its own for each ring");
            }
        });
    }
}

}  // namespace

void check_ring_buffers(const Program& p, const HwParams& hw) {
    for (const auto& f : p.functions) {
        if (f->type != FuncType::AIC && f->type != FuncType::AIV) continue;
        const bool aiv = f->type == FuncType::AIV;
        const int64_t capacity = static_cast<int64_t>(aiv ? hw.chip.ub_usable_bytes : hw.chip.l1_bytes);
        const char* buffer = aiv ? "UB" : "L1";
        std::vector<Region> regions;
        walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = stmt_call(*s);
            if (!c || c->op->code != OpCode::ReserveBuffer) return;
            Region r;
            r.name = const_str(arg(*c, "name")).value_or("?");
            r.size = const_int(arg(*c, "size")).value_or(0);
            r.base = arg(*c, "base") ? const_int(arg(*c, "base")).value_or(-1) : -1;
            r.loc = s->loc;
            if (r.size <= 0)
                raise(codes::kCapacity, s->loc,
                      fmt::format("reserve_buffer '{}' needs a positive constant size", r.name));
            if (r.base < -1)
                raise(codes::kCapacity, s->loc,
                      fmt::format("reserve_buffer '{}' has a negative base {}", r.name, r.base));
            regions.push_back(r);
        });
        // Explicit regions first (checked against each other), then AUTO ones placed after them.
        int64_t end = 0;
        std::vector<const Region*> fixed;
        for (const auto& r : regions)
            if (r.base >= 0) fixed.push_back(&r);
        for (const Region* r : fixed) {
            if (r->base + r->size > capacity)
                raise(codes::kCapacity, r->loc,
                      fmt::format("reserve_buffer '{}' [{}, {}) lies outside {} ({} bytes on {})", r->name, r->base,
                                  r->base + r->size, buffer, capacity, target_name(hw.target)));
            for (const Region* o : fixed)
                if (o != r && r->base < o->base + o->size && o->base < r->base + r->size && loc_before(o->loc, r->loc))
                    raise(
                        codes::kCapacity, r->loc,
                        fmt::format("reserve_buffer '{}' [{}, {}) overlaps '{}' [{}, {}) reserved at line {}", r->name,
                                    r->base, r->base + r->size, o->name, o->base, o->base + o->size, o->loc.line));
            end = std::max(end, r->base + r->size);
        }
        for (const auto& r : regions) {
            if (r.base >= 0) continue;
            if (end + r.size > capacity)
                raise(codes::kCapacity, r.loc,
                      fmt::format(
                          "reserve_buffer '{}' of {} bytes does not fit {} ({} of {} bytes already reserved on {})",
                          r.name, r.size, buffer, end, capacity, target_name(hw.target)));
            end += r.size;
        }
    }
    check_rings_fit_reservations(p, hw);
    check_one_ring_per_reservation(p, hw);
}

}  // namespace cvsim::passes
