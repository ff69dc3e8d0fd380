// Type rules of the synchronisation and pipe ops: ring push/pop/free and setup, shard/gather, barriers, flags,
// cache invalidation, prefetch, FFTS setup and fences (OPS.md).
#include <fmt/format.h>

#include <optional>
#include <string>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/ops_types_internal.h"

namespace cvsim::ir::typing {

namespace {

// aiv_shard / aic_gather: the split code comes from the enclosing split_aiv region, else from split=N.
// aiv_shard hands a lane its half on the split axis (rows for 1/3, columns for 2/4; the larger half
// for the odd codes, which lane 0 gets); aic_gather joins two halves (double extent, minus one for odd).
Type shard_gather_type(const Expr& call, int region_split) {
    bool shard = call.op->code == OpCode::AivShard;
    const Type& t = tile_arg(call, "tile");
    if (shard && !is_cube_mem(t.mem))
        type_error(
            call, fmt::format("pl.tile.aiv_shard: shards a cube tile (pl.Mem.Mat or pl.Mem.Acc), got {}", type_str(t)));
    if (!shard) expect_mem(call, "tile", {Mem::Vec});
    const ExprPtr& sa = arg(call, "split");
    std::optional<int64_t> given = sa ? const_int(sa) : std::nullopt;
    if (sa && (!given || *given < 0 || *given > 4))
        raise(codes::kType, sa->loc,
              fmt::format("{}: split must be a constant 0..4 (0 none, 1 up-down, 2 left-right, 3 up-down-odd, 4 "
                          "left-right-odd), got {}",
                          op_label(call), given ? std::to_string(*given) : "a non-constant"));
    int split = 0;
    if (region_split >= 0) {
        // The odd variant of the region's mode (3 in an UP_DOWN region, 4 in a LEFT_RIGHT one) does not
        // contradict it: it is how an odd extent is split there.
        bool odd_variant = given && region_split > 0 && *given == region_split + 2;
        if (given && *given != region_split && !odd_variant)
            raise(codes::kType, sa->loc,
                  fmt::format("{}: split={} contradicts the enclosing pl.split_aiv region (split {})", op_label(call),
                              *given, region_split),
                  region_split > 0
                      ? fmt::format(
                            "inside a split_aiv region the op takes the region's mode; drop split= (or use split={} "
                            "for an odd extent)",
                            region_split + 2)
                      : "inside a split_aiv region the op takes the region's mode; drop split=");
        split = odd_variant ? static_cast<int>(*given) : region_split;
    } else if (given) {
        split = static_cast<int>(*given);
    } else {
        type_error(call, fmt::format("{} outside a pl.split_aiv region needs split=N", op_label(call)),
                   "0 none, 1 up-down, 2 left-right, 3 up-down-odd, 4 left-right-odd");
    }
    Type r = Type::tile(t.shape, t.dtype, shard ? Mem::Vec : Mem::Mat);
    if (split == 0) return r;
    if (t.shape.size() != 2)
        type_error(call, fmt::format("{}: split {} needs a 2-D tile, got {}", op_label(call), split, type_str(t)));
    size_t axis = split == 1 || split == 3 ? 0 : 1;
    bool odd = split >= 3;
    int64_t n = t.shape[axis];
    if (shard) {
        if (n < 2) type_error(call, fmt::format("{}: cannot split extent {} between two lanes", op_label(call), n));
        if (!odd && n % 2 != 0)
            type_error(call,
                       fmt::format("{}: split {} halves the {} evenly, but the tile is {}", op_label(call), split,
                                   axis == 0 ? "rows" : "columns", shape_str(t.shape)),
                       fmt::format("use split={} (lane 0 gets the larger half)", split + 2));
        r.shape[axis] = (n + 1) / 2;
    } else {
        r.shape[axis] = odd ? 2 * n - 1 : 2 * n;
    }
    return r;
}

// tpush/tpop split= must be a constant split code.
void check_split(const Expr& call, bool optional) {
    const ExprPtr& sa = arg(call, "split");
    if (!sa && optional) return;
    auto v = const_int(sa);
    if (!v || *v < 0 || *v > 4)
        raise(
            codes::kType, sa ? sa->loc : call.loc,
            fmt::format(
                "{}: split must be a constant 0..4 (0 none, 1 up-down, 2 left-right, 3 up-down-odd, 4 left-right-odd)",
                op_label(call)));
}

void expect_str(const Expr& call, const std::string& name) {
    const ExprPtr& a = arg(call, name);
    if (!a || a->kind != ExprKind::Str)
        raise(
            codes::kType, a ? a->loc : call.loc,
            fmt::format("{}: '{}' must be a string, got {}", op_label(call), name, a ? type_str(a->type) : "nothing"));
}

}  // namespace

std::optional<Type> sync_op_type(const Expr& call, int region_split) {
    using O = OpCode;
    const O c = call.op->code;
    switch (c) {
        case O::TpushToAiv: {
            check_split(call, false);
            const Type& t = tile_arg(call, "tile");
            if (!is_cube_mem(t.mem))
                type_error(call, fmt::format("pl.tile.tpush_to_aiv: pushes a cube tile, got {}", type_str(t)));
            return Type::none();
        }
        case O::TpushToAic:
            check_split(call, false);
            expect_mem(call, "tile", {Mem::Vec});
            return Type::none();
        case O::TpopFromAic:
        case O::TpopFromAiv: {
            check_split(call, true);
            auto shape = const_int_list(arg(call, "shape"));
            const ExprPtr& d = arg(call, "dtype");
            if (!shape || !d) return Type::unknown();
            if (d->kind != ExprKind::DTypeLit)
                raise(codes::kType, d->loc, fmt::format("{}: dtype must be a pl dtype", op_label(call)));
            return Type::tile(*shape, d->dtype, c == O::TpopFromAic ? Mem::Vec : Mem::Mat);
        }
        case O::TfreeToAic:
        case O::TfreeToAiv: {
            tile_arg(call, "tile");
            // split= is ignored (the pop's split code applies, as upstream's StampTfreeSplit does).
            if (const ExprPtr& sp = arg(call, "split");
                sp && (!const_int(sp) || *const_int(sp) < 0 || *const_int(sp) > 2))
                raise(codes::kType, sp->loc, fmt::format("{}: split must be 0, 1 or 2", op_label(call)));
            return Type::none();
        }
        case O::ReserveBuffer: {
            expect_str(call, "name");
            auto size = const_int(arg(call, "size"));
            if (!size || *size <= 0)
                raise(codes::kType, arg(call, "size")->loc,
                      "pl.system.reserve_buffer: size must be a positive constant (bytes)");
            if (const ExprPtr& b = arg(call, "base"); b && !const_int(b))
                raise(codes::kType, b->loc, "pl.system.reserve_buffer: base must be a constant address or pl.AUTO");
            return Type::scalar(DType::INT32);
        }
        case O::ImportPeerBuffer:
            expect_str(call, "name");
            expect_str(call, "peer_func");
            return Type::scalar(DType::INT32);
        case O::AicInitializePipe:
        case O::AivInitializePipe: {
            auto dm = const_int(arg(call, "dir_mask"));
            if (!dm || *dm < 1 || *dm > 3)
                raise(codes::kType, arg(call, "dir_mask")->loc,
                      fmt::format("{}: dir_mask must be 1 (C2V), 2 (V2C) or 3 (both)", op_label(call)));
            auto ss = const_int(arg(call, "slot_size"));
            if (!ss || *ss <= 0)
                raise(codes::kType, arg(call, "slot_size")->loc,
                      fmt::format("{}: slot_size must be a positive constant", op_label(call)));
            int64_t slots = *dm == 3 ? 4 : 8;  // PTOAS's default depth when slot_num is omitted
            if (auto sn = arg(call, "slot_num")) {
                auto v = const_int(sn);
                if (!v || *v <= 0 || *v > 64)
                    raise(codes::kType, sn->loc,
                          fmt::format("{}: slot_num must be a constant in 1..64", op_label(call)));
                slots = *v;
            }
            // a2a3's local resident window (<= slot_num); the ring keeps slot_num slots (docs/DECISIONS.md).
            if (auto ln = arg(call, "local_slot_num")) {
                auto v = const_int(ln);
                if (!v || *v <= 0 || *v > slots)
                    raise(codes::kType, ln->loc,
                          fmt::format("{}: local_slot_num must be a constant in 1..slot_num ({})", op_label(call),
                                      slots));
            }
            return Type::none();
        }
        case O::AivShard:
        case O::AicGather:
            return shard_gather_type(call, region_split);
        case O::Syncall: {
            if (auto ct = const_str(arg(call, "core_type"));
                ct && *ct != "mix" && *ct != "aiv_only" && *ct != "aic_only")
                raise(
                    codes::kType, arg(call, "core_type")->loc,
                    fmt::format("pl.system.syncall: core_type must be 'mix', 'aiv_only' or 'aic_only', got '{}'", *ct));
            if (auto m = const_str(arg(call, "mode")); m && *m != "hard" && *m != "soft")
                raise(codes::kType, arg(call, "mode")->loc,
                      fmt::format("pl.system.syncall: mode must be 'hard' or 'soft', got '{}'", *m));
            // used_cores (a soft barrier's participant count) is checked against the launch: compile() in
            // frontend/launch_compile.cpp (check_soft_barrier_counts).
            return Type::none();
        }
        case O::SyncSet:
        case O::SyncWait: {
            if (const ExprPtr& p = arg(call, "pipe");
                p && (p->kind != ExprKind::Enum || p->enum_kind != EnumKind::PipeType))
                raise(codes::kType, p->loc,
                      fmt::format("{}: pipe must be a pl.PipeType member, got {}", op_label(call), type_str(p->type)));
            auto id = const_int(arg(call, "event_id"));
            if (!id || *id < 0 || *id > 31)
                raise(codes::kType, arg(call, "event_id")->loc,
                      fmt::format("{}: event_id must be a constant in 0..31", op_label(call)));
            if (auto ct = const_str(arg(call, "core_type")); ct && *ct != "aic" && *ct != "aiv")
                raise(codes::kType, arg(call, "core_type")->loc,
                      fmt::format("{}: core_type must be 'aic' or 'aiv'", op_label(call)));
            // cvsim models the cluster-local AIC <-> AIV flag (FFTS mode 2); the chip-wide (0) and AIV-group (1)
            // modes order other cores, so they are refused, never run as mode 2.
            if (const ExprPtr& m = arg(call, "ffts_mode");
                m && m->kind != ExprKind::NoneLit && const_int(m).value_or(-1) != 2)
                raise(codes::kUnsupported, m->loc,
                      fmt::format("{}: ffts_mode other than 2 (the cluster's AIC <-> AIV flag) is not modelled",
                                  op_label(call)),
                      "omit ffts_mode: cvsim's flags are the cluster-local AIC <-> AIV ones");
            return Type::none();
        }
        case O::CacheInvalid:
            if (const ExprPtr& t = arg(call, "tensor"); t && t->type.kind != TypeKind::Tensor)
                raise(codes::kType, t->loc,
                      fmt::format("pl.system.cacheinvalid: expects a tensor, got {}", type_str(t->type)));
            return Type::none();
        case O::PrefetchMakeContext:
            return Type::opaque("pl.PrefetchAsyncContext");
        case O::PrefetchSession:
            if (const ExprPtr& x = arg(call, "ctx");
                x->type.kind != TypeKind::Opaque || x->type.name != "pl.PrefetchAsyncContext")
                raise(codes::kType, x->loc,
                      fmt::format("pl.prefetch.session: ctx must be a pl.PrefetchAsyncContext "
                                  "(pl.prefetch.make_context()), got {}",
                                  type_str(x->type)));
            return Type::opaque("pl.AsyncSession");
        case O::PrefetchAsync: {
            const ExprPtr& src = arg(call, "src");
            if (src->type.kind != TypeKind::Tensor)
                raise(codes::kType, src->loc,
                      fmt::format("pl.prefetch.async_prefetch: src must be a GM tensor, got {}", type_str(src->type)));
            for (size_t d = 0; d + 1 < src->type.shape.size(); ++d)
                if (src->type.shape[d] != 1)
                    raise(codes::kType, src->loc,
                          fmt::format("pl.prefetch.async_prefetch: src must be a flat contiguous 1-D GM region (every "
                                      "dimension but the last 1), got {}",
                                      type_str(src->type)));
            if (const ExprPtr& x = arg(call, "ctx");
                x->type.kind != TypeKind::Opaque || x->type.name != "pl.PrefetchAsyncContext")
                raise(codes::kType, x->loc,
                      fmt::format("pl.prefetch.async_prefetch: ctx must be a pl.PrefetchAsyncContext, got {}",
                                  type_str(x->type)));
            return Type::opaque("pl.AsyncEvent");
        }
        case O::PrefetchWait:
            if (const ExprPtr& x = arg(call, "event");
                x->type.kind != TypeKind::Opaque || x->type.name != "pl.AsyncEvent")
                raise(
                    codes::kType, x->loc,
                    fmt::format("pl.prefetch.wait: event must be a pl.AsyncEvent (pl.prefetch.async_prefetch), got {}",
                                type_str(x->type)));
            if (const ExprPtr& x = arg(call, "session");
                x->type.kind != TypeKind::Opaque || x->type.name != "pl.AsyncSession")
                raise(codes::kType, x->loc,
                      fmt::format("pl.prefetch.wait: session must be a pl.AsyncSession (pl.prefetch.session), got {}",
                                  type_str(x->type)));
            return Type::scalar(DType::BOOL);
        case O::SetFfts: {
            const ExprPtr& w = arg(call, "workspace");
            if (w->type.kind != TypeKind::Tensor && w->type.kind != TypeKind::Scalar)
                raise(codes::kType, w->loc,
                      fmt::format("pl.system.set_ffts: expects a workspace tensor or address, got {}",
                                  type_str(w->type)));
            return Type::none();
        }
        case O::Fence:
            return Type::none();
        default:
            return std::nullopt;
    }
}

}  // namespace cvsim::ir::typing
