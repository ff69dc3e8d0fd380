// Capacity check: a liveness scan per function, as the PyPTO allocator rejects what does not fit.
//
// Algorithm. Flatten each function's statements in program order (pre-order, nested blocks inline) and
// number them. Variables that share storage are merged first (union-find): a matmul_acc/gemv_acc result
// and its accumulator, a loop-carried value with its initial value, its yielded value and the loop's
// result, a branch result with its yields, and `b = a` aliases. A storage is live from its first definition to its last
// use; a use inside a loop of a variable defined before that loop keeps it live to the end of the loop (the next
// iteration reads it again), and loop-carried values live across the whole loop. At every statement, sum the physical
// bytes (layout padding included) of the live tiles of each memory space; the first statement where a sum exceeds the
// buffer's capacity is the error.
#include "frontend/passes/capacity.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "core/layout.h"
#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::passes {

using namespace ir;

namespace {

struct Flat {
    const Stmt* stmt;
    size_t loop_end;  // for a loop header: index of its last statement
};

void flatten(const Block& b, std::vector<Flat>& out, std::vector<size_t>& loop_stack) {
    for (const auto& s : b) {
        size_t me = out.size();
        out.push_back({s.get(), me});
        if (s->kind == StmtKind::For || s->kind == StmtKind::If) {
            if (s->kind == StmtKind::For) loop_stack.push_back(me);
            flatten(s->body, out, loop_stack);
            flatten(s->orelse, out, loop_stack);
            if (s->kind == StmtKind::For) loop_stack.pop_back();
            out[me].loop_end = out.size() - 1;
        }
    }
}

uint64_t capacity(const HwParams& hw, Mem m) {
    switch (m) {
        case Mem::Vec:
            return hw.chip.ub_usable_bytes;
        case Mem::Mat:
            return hw.chip.l1_bytes;
        case Mem::Left:
            return hw.chip.l0a_bytes;
        case Mem::Right:
            return hw.chip.l0b_bytes;
        case Mem::Acc:
            return hw.chip.l0c_bytes;
        case Mem::Bias:
            return hw.chip.bias_bytes;
        default:
            return UINT64_MAX;
    }
}

const char* buffer_name(Mem m) {
    switch (m) {
        case Mem::Vec:
            return "UB (Vec)";
        case Mem::Mat:
            return "L1 (Mat)";
        case Mem::Left:
            return "L0A (Left)";
        case Mem::Right:
            return "L0B (Right)";
        case Mem::Acc:
            return "L0C (Acc)";
        case Mem::Bias:
            return "Bias table";
        default:
            return "?";
    }
}

std::string bytes_str(uint64_t b) {
    if (b % 1024 == 0) return fmt::format("{} bytes ({} KiB)", b, b / 1024);
    return fmt::format("{} bytes", b);
}

void check_function(const Function& f, const HwParams& hw) {
    std::vector<Flat> flat;
    std::vector<size_t> loops;
    flatten(f.body, flat, loops);
    // Loops enclosing each flat index (innermost last).
    std::vector<std::vector<size_t>> enclosing(flat.size());
    for (size_t i = 0; i < flat.size(); ++i)
        if (flat[i].stmt->kind == StmtKind::For)
            for (size_t j = i + 1; j <= flat[i].loop_end; ++j) enclosing[j].push_back(i);
    // Storage classes.
    std::map<const Var*, const Var*> parent;
    std::function<const Var*(const Var*)> find = [&](const Var* v) -> const Var* {
        auto it = parent.find(v);
        if (it == parent.end() || it->second == v) return v;
        return it->second = find(it->second);
    };
    auto unite = [&](const Var* a, const Var* b) {
        if (!a || !b || a->type.kind != TypeKind::Tile || b->type.kind != TypeKind::Tile) return;
        parent[find(a)] = find(b);
    };
    auto var_of = [](const ExprPtr& e) -> const Var* { return e && e->kind == ExprKind::Var ? e->var.get() : nullptr; };
    for (const auto& fl : flat) {
        const Stmt& s = *fl.stmt;
        if (const Expr* c = stmt_call(s);
            c && (c->op->code == OpCode::MatmulAcc || c->op->code == OpCode::GemvAcc) && !s.targets.empty())
            unite(s.targets[0].get(), var_of(arg(*c, "acc")));
        if (s.kind == StmtKind::Assign && s.value && s.value->kind == ExprKind::Var && s.targets.size() == 1)
            unite(s.targets[0].get(), s.value->var.get());
        // A view op (slice, reshape, transpose_view, set_validshape) names bytes of its operand's buffer: PyPTO's
        // allocator gives the view its source's MemRef (allocate_memory_addr_pass: "every view physically aliases").
        if (const Expr* c = stmt_call(s);
            c && c->op->effect == Effect::View && s.targets.size() == 1 && !c->args.empty()) {
            const Var* src = var_of(c->args[0]);
            if (src && src->type.kind == TypeKind::Tile && s.targets[0]->type.kind == TypeKind::Tile &&
                src->type.mem == s.targets[0]->type.mem)
                unite(s.targets[0].get(), src);
        }
        if (s.kind == StmtKind::Yield)
            for (size_t k = 0; k < s.targets.size() && k < s.values.size(); ++k)
                unite(s.targets[k].get(), var_of(s.values[k]));
        if (s.kind == StmtKind::For)
            for (size_t k = 0; k < s.iter_args.size(); ++k) {
                unite(s.iter_args[k].get(), var_of(s.init_values[k]));
                if (k < s.targets.size()) unite(s.iter_args[k].get(), s.targets[k].get());
                if (!s.body.empty() && s.body.back()->kind == StmtKind::Yield && k < s.body.back()->values.size())
                    unite(s.iter_args[k].get(), var_of(s.body.back()->values[k]));
            }
    }
    struct Range {
        size_t first = SIZE_MAX, last = 0;
        uint64_t bytes = 0;
        std::string names;
    };
    std::map<const Var*, Range> live;  // by storage class representative
    auto def = [&](const Var* v, size_t i) {
        if (v->type.kind != TypeKind::Tile) return;
        Range& r = live[find(v)];
        r.first = std::min(r.first, i);
        r.last = std::max(r.last, i);
    };
    for (size_t i = 0; i < flat.size(); ++i) {
        const Stmt& s = *flat[i].stmt;
        for (auto& t : s.targets) def(t.get(), i);
        for (auto& t : s.iter_args) def(t.get(), i);
    }
    for (size_t i = 0; i < flat.size(); ++i) {
        const Stmt& s = *flat[i].stmt;
        std::set<const Var*> reads;
        Stmt shallow = s;
        shallow.body.clear();
        shallow.orelse.clear();
        collect_reads(shallow, reads);
        for (const Var* v : reads) {
            auto it = live.find(find(v));
            if (it == live.end()) continue;
            size_t last = i;
            // Read inside a loop it was defined outside of: live until the loop ends.
            for (size_t l : enclosing[i])
                if (it->second.first < l) last = std::max(last, flat[l].loop_end);
            it->second.last = std::max(it->second.last, last);
        }
        if (s.kind == StmtKind::For)
            for (auto& a : s.iter_args)
                if (live.count(find(a.get())))
                    live[find(a.get())].last = std::max(live[find(a.get())].last, flat[i].loop_end);
    }
    // Size and names of each storage class (the largest member decides the size).
    for (const auto& v : f.vars) {
        if (v->type.kind != TypeKind::Tile) continue;
        auto it = live.find(find(v.get()));
        if (it == live.end()) continue;
        const Type& t = v->type;
        it->second.bytes = std::max<uint64_t>(
            it->second.bytes, physical_bytes(t.layout(), t.dtype, t.mem == Mem::Acc, t.rows(), t.cols()));
        it->second.names += (it->second.names.empty() ? "" : "/") + v->name;
    }
    // a5: a ring lives in its consumer's SRAM at its reservation (SPEC 4.3), the AIV's C2V rings in UB and the AIC's
    // V2C rings in L1, for the whole function and beside the live tiles; a popped tile (or a view of it) is one of
    // its slots, not a tile of its own. (On a2a3 the rings are in GM and a pop copies into a tile of its own.)
    const bool rings_here = hw.target == Target::A5 && (f.type == FuncType::AIV || f.type == FuncType::AIC);
    const Mem ring_mem = f.type == FuncType::AIV ? Mem::Vec : Mem::Mat;
    uint64_t reserved = 0;
    std::string reserved_names;
    if (rings_here)
        walk(f.body, [&](const StmtPtr& s) {
            const Expr* c = stmt_call(*s);
            if (!c || c->op->code != OpCode::ReserveBuffer) return;
            const auto size = const_int(arg(*c, "size"));
            if (!size || *size <= 0) return;
            reserved += static_cast<uint64_t>(*size);
            reserved_names +=
                fmt::format("{}'{}'", reserved_names.empty() ? "" : "/", const_str(arg(*c, "name")).value_or("?"));
        });
    // A reservation alone larger than the buffer is check_ring_buffers' (its own message).
    if (reserved > capacity(hw, ring_mem)) reserved = 0;
    if (reserved > 0) {
        const OpCode pop = f.type == FuncType::AIV ? OpCode::TpopFromAic : OpCode::TpopFromAiv;
        std::set<const Var*> slot_vars;  // popped tiles and views of them
        for (const auto& fl : flat) {
            const Stmt& s = *fl.stmt;
            const Expr* c = stmt_call(s);
            if (!c || s.targets.size() != 1 || s.targets[0]->type.kind != TypeKind::Tile ||
                s.targets[0]->type.mem != ring_mem)
                continue;
            if (c->op->code == pop ||
                (c->op->effect == Effect::View && !c->args.empty() && slot_vars.count(var_of(c->args[0]))))
                slot_vars.insert(s.targets[0].get());
        }
        // A storage class is slot memory when every tile of it is (a class that also holds another tile keeps it).
        std::map<const Var*, bool> all_slot;
        for (const auto& v : f.vars)
            if (v->type.kind == TypeKind::Tile && live.count(find(v.get()))) {
                auto [it, fresh] = all_slot.emplace(find(v.get()), true);
                it->second = it->second && slot_vars.count(v.get()) > 0;
            }
        for (const auto& [rep, slot] : all_slot)
            if (slot) live.erase(rep);
    }
    // In-place reuse, as PyPTO's MemoryReuse pass does: the result of a vector compute op may take the buffer
    // of an operand whose life ends at that op (same memory, at least as large), unless the op needs distinct
    // source and destination buffers (PyPTO's not_inplace_safe ops: ir::is_inplace_safe).
    std::map<size_t, const Var*> reused;  // statement -> the storage of its result, which lives in a dying operand
    for (size_t i = 0; i < flat.size(); ++i) {
        const Stmt& s = *flat[i].stmt;
        const Expr* c = stmt_call(s);
        if (!c || s.kind != StmtKind::Assign || s.targets.size() != 1 || !is_inplace_safe(c->op->code)) continue;
        const Var* res = s.targets[0].get();
        if (res->type.kind != TypeKind::Tile) continue;
        auto rit = live.find(find(res));
        if (rit == live.end() || rit->second.first != i) continue;
        for (const auto& a : c->args) {
            const Var* o = var_of(a);
            if (!o || o->type.kind != TypeKind::Tile || o->type.mem != res->type.mem) continue;
            auto oit = live.find(find(o));
            if (oit == live.end() || oit->first == rit->first || oit->second.last != i || oit->second.first >= i)
                continue;
            if (oit->second.bytes < rit->second.bytes) continue;
            reused[i] = rit->first;
            break;
        }
    }
    for (size_t i = 0; i < flat.size(); ++i) {
        std::map<Mem, uint64_t> used;
        std::map<Mem, std::vector<std::tuple<uint64_t, size_t, std::string>>>
            who;  // (bytes, first live statement, names)
        if (reserved > 0) {
            used[ring_mem] = reserved;
            who[ring_mem].push_back({reserved, 0, "ring buffers " + reserved_names});
        }
        for (auto& [v, r] : live) {
            if (r.first > i || r.last < i) continue;
            if (auto ru = reused.find(i); ru != reused.end() && ru->second == v)
                continue;  // shares a dying operand's buffer here
            used[v->type.mem] += r.bytes;
            who[v->type.mem].push_back({r.bytes, r.first, r.names});
        }
        for (auto& [m, b] : used) {
            uint64_t cap = capacity(hw, m);
            if (b <= cap) continue;
            auto& tiles = who[m];
            // Largest first, then in program order: `live` is keyed by pointer, so its order is no order.
            std::sort(tiles.begin(), tiles.end(), [](auto& a, auto& c) {
                if (std::get<0>(a) != std::get<0>(c)) return std::get<0>(a) > std::get<0>(c);
                return std::tie(std::get<1>(a), std::get<2>(a)) < std::tie(std::get<1>(c), std::get<2>(c));
            });
            std::string list;
            for (auto& [sz, first, n] : tiles)
                list += fmt::format("{}{} ({})", list.empty() ? "" : ", ", n, bytes_str(sz));
            raise(codes::kCapacity, flat[i].stmt->loc,
                  fmt::format("{} in '{}' needs {} here but holds {} on {}; live tiles: {}", buffer_name(m), f.name,
                              bytes_str(b), bytes_str(cap), target_name(hw.target), list),
                  "split the work into smaller tiles (loop over blocks) or end a tile's use earlier");
        }
    }
}

}  // namespace

void check_capacity(const Program& p, const HwParams& hw) {
    for (const auto& f : p.functions) check_function(*f, hw);
    // Flag ids name one of the cluster's chip.flag_counters counters (a2a3: 16; a5: 32, 16 per AIV).
    for (const auto& f : p.functions)
        walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = stmt_call(*s);
            if (!c || (c->op->code != OpCode::SyncSet && c->op->code != OpCode::SyncWait)) return;
            auto id = const_int(arg(*c, "event_id"));
            if (id && *id >= static_cast<int64_t>(hw.chip.flag_counters))
                raise(codes::kCapacity, arg(*c, "event_id")->loc,
                      fmt::format("{}: event_id {} names no flag counter: a {} cluster has {} (chip.flag_counters)",
                                  c->op->code == OpCode::SyncSet ? "sync_set" : "sync_wait", *id,
                                  target_name(hw.target), hw.chip.flag_counters));
        });
}

}  // namespace cvsim::passes
