// Entry selection, expansion and the launch plan.
#include "frontend/launch.h"

#include <fmt/format.h>

#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"

namespace cvsim {

using namespace ir;

namespace {

std::shared_ptr<Function> pick_entry(const Program& p, const std::string& name) {
    if (!name.empty()) {
        auto f = p.find(name);
        if (!f) {
            std::string names;
            for (auto& g : p.functions) names += (names.empty() ? "" : ", ") + g->name;
            raise("E-ENTRY", p.functions.empty() ? SourceLoc{} : p.functions[0]->loc,
                  fmt::format("--entry {}: the program has no such function", name), "functions: " + names);
        }
        return f;
    }
    std::vector<std::shared_ptr<Function>> groups, incore;
    for (auto& f : p.functions) {
        if (f->type == FuncType::Group) groups.push_back(f);
        if (f->type == FuncType::InCore) incore.push_back(f);
    }
    if (groups.size() == 1) return groups[0];
    if (groups.empty() && incore.size() == 1) return incore[0];
    SourceLoc loc = p.functions.empty() ? SourceLoc{} : p.functions[0]->loc;
    if (groups.size() > 1 || incore.size() > 1)
        raise("E-ENTRY", loc, "the program has several kernel functions; choose one with --entry NAME");
    raise("E-ENTRY", loc, "the program has no Group or InCore function to launch", "give the entry with --entry NAME");
}

rt::LaneProgram lane_from_call(const Function& entry, const Expr& call, std::shared_ptr<Function> callee) {
    rt::LaneProgram lp;
    lp.fn = std::move(callee);
    for (const auto& a : call.args) {
        int idx = -1;
        rt::ArgBinding b;
        if (a && a->kind == ExprKind::Var)
            for (size_t i = 0; i < entry.params.size(); ++i)
                if (entry.params[i].var.get() == a->var.get()) idx = static_cast<int>(i);
        if (idx < 0) {
            b.kind = rt::ArgBinding::Kind::Scalar;
            if (auto v = const_int(a)) b.scalar = rt::Scalar::of_int(*v);
            else if (auto d = const_number(a)) b.scalar = rt::Scalar::of_float(*d);
            else raise("E-UNSUPPORTED", a ? a->loc : call.loc, "a Group function may only pass its parameters or constants to its kernels");
        }
        lp.entry_param.push_back(idx);
        lp.args.push_back(b);
    }
    return lp;
}

rt::LaneProgram whole_function(const std::shared_ptr<Function>& f) {
    rt::LaneProgram lp;
    lp.fn = f;
    for (size_t i = 0; i < f->params.size(); ++i) {
        lp.entry_param.push_back(static_cast<int>(i));
        lp.args.emplace_back();
    }
    return lp;
}

bool aiv_splits(const Function& f) {
    const Attr* dual = f.attr("dual_aiv_dispatch");
    return f.split_mode() != SplitMode::NONE || (dual && dual->value && dual->value->ival != 0);
}

}  // namespace

Compiled compile(std::shared_ptr<Program> program, const CompileOptions& opt) {
    Compiled c;
    c.original = program;
    auto entry = pick_entry(*program, opt.entry);
    c.mixed = passes::is_mixed(*entry);
    c.expanded = c.mixed ? passes::expand_mixed_kernel(*program, opt.expand, c.stats) : program;
    auto& plan = c.plan;
    plan.program = c.expanded;
    plan.blocks = std::max(1, opt.expand.blocks);
    plan.entry = c.expanded->find(entry->name);
    if (c.mixed) plan.mixed = entry;
    const Function& e = *plan.entry;
    if (e.type == FuncType::Group) {
        passes::walk(e.body, [&](const StmtPtr& s) {
            const ExprPtr& v = s->value;
            if (!v || v->kind != ExprKind::FuncCall) return;
            auto callee = c.expanded->find(v->sval);
            if (!callee) return;
            if (callee->type == FuncType::AIC) plan.aic = lane_from_call(e, *v, callee);
            else if (callee->type == FuncType::AIV) plan.aiv = lane_from_call(e, *v, callee);
            else raise("E-UNSUPPORTED", v->loc, fmt::format("a Group function launches AIC and AIV functions; '{}' is {}", callee->name, func_type_name(callee->type)));
        });
        if (!plan.aic && !plan.aiv) raise("E-ENTRY", e.loc, fmt::format("Group function '{}' launches no AIC or AIV function", e.name));
    } else if (e.type == FuncType::AIC) {
        plan.aic = whole_function(plan.entry);
    } else if (e.type == FuncType::AIV || e.type == FuncType::InCore) {
        // A non-mixed InCore function runs on the core type its statements need.
        bool cube = false;
        passes::walk(e.body, [&](const StmtPtr& s) { cube |= passes::stmt_side(*s) == Side::Cube; });
        if (cube && e.type == FuncType::InCore) plan.aic = whole_function(plan.entry);
        else plan.aiv = whole_function(plan.entry);
    } else {
        raise("E-UNSUPPORTED", e.loc, fmt::format("launching a {} function is not supported yet", func_type_name(e.type)));
    }
    if (plan.aiv) {
        plan.aiv_split = aiv_splits(*plan.aiv->fn);
        plan.aiv_lane1_replay = !plan.aiv_split;
        plan.aiv_lane1_launched = plan.aiv_split;
    }
    return c;
}

int64_t ring_tensor_bytes(const rt::LaunchPlan& plan) {
    int64_t per_dir = 0;
    for (const auto* lane : {&plan.aic, &plan.aiv}) {
        if (!*lane) continue;
        passes::walk((*lane)->fn->body, [&](const StmtPtr& s) {
            const Expr* call = passes::stmt_call(*s);
            if (!call || (call->op->code != OpCode::AicInitializePipe && call->op->code != OpCode::AivInitializePipe)) return;
            auto size = const_int(arg(*call, "slot_size")).value_or(0);
            auto dm = const_int(arg(*call, "dir_mask")).value_or(1);
            auto num = const_int(arg(*call, "slot_num")).value_or(dm == 3 ? 4 : 8);
            per_dir = std::max(per_dir, size * num);
        });
    }
    return 2 * per_dir;
}

}  // namespace cvsim
