// Ring buffer reservations: every reserve_buffer with constant size and base must fit and not overlap.
#include "frontend/passes/ring_buffers.h"

#include <fmt/format.h>

#include <algorithm>

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
}

}  // namespace cvsim::passes
