// DSL printer: banner, import, program class, functions callee-before-caller, annotated assignments,
// fully qualified op names, keyword arguments in the op's parameter order, single-quoted strings.
#include "frontend/printer.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>

#include "frontend/ops.h"

namespace cvsim {

using namespace ir;

namespace {

// Length of the well-formed UTF-8 sequence starting at s[i] (0 if it is not one).
size_t utf8_len(const std::string& s, size_t i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c < 0xF0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
    return n;
}

// Strings hold UTF-8 (the lexer decodes escapes to code points): non-ASCII text is printed as is, so that
// print -> parse -> print is the identity; only control characters are escaped.
std::string py_str(const std::string& s) {
    std::string out = "'";
    for (size_t i = 0; i < s.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            size_t n = utf8_len(s, i);
            if (n > 0) {
                out.append(s, i, n);
                i += n - 1;
            } else {
                out += fmt::format("\\x{:02x}", c);  // not UTF-8 (cannot come from parsed text)
            }
            continue;
        }
        switch (c) {
            case '\'':
                out += "\\'";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20 || c >= 0x7f)
                    out += fmt::format("\\x{:02x}", c);
                else
                    out += static_cast<char>(c);
        }
    }
    return out + "'";
}

std::string py_float(double v) {
    std::string s = fmt::format("{}", v);
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
}

int precedence(const Expr& e) {
    switch (e.kind) {
        case ExprKind::BoolOp:
            return e.sval == "or" ? 1 : 2;
        case ExprKind::Unary:
            return e.sval == "not" ? 3 : (e.sval == "cast" || e.sval == "abs") ? 20 : 9;
        case ExprKind::Compare:
            return 4;
        case ExprKind::Binary:
            if (e.sval == "min" || e.sval == "max") return 20;
            if (e.sval == "|") return 5;
            if (e.sval == "^") return 6;
            if (e.sval == "&") return 7;
            if (e.sval == "<<" || e.sval == ">>") return 8;
            if (e.sval == "+" || e.sval == "-") return 10;
            if (e.sval == "**") return 12;
            return 11;
        default:
            return 20;
    }
}

std::string enum_str(const Expr& e) {
    switch (e.enum_kind) {
        case EnumKind::Mem:
            return fmt::format("pl.Mem.{}", mem_name(static_cast<Mem>(e.ival)));
        case EnumKind::SplitMode:
            return fmt::format("pl.SplitMode.{}", split_mode_name(static_cast<SplitMode>(e.ival)));
        case EnumKind::TileLayout:
            return fmt::format("pl.TileLayout.{}", tile_layout_name(static_cast<TileLayout>(e.ival)));
        case EnumKind::PipeType:
            return fmt::format("pl.PipeType.{}", pipe_type_name(static_cast<PipeType>(e.ival)));
        case EnumKind::FuncType:
            return fmt::format("pl.FunctionType.{}", func_type_name(static_cast<FuncType>(e.ival)));
        case EnumKind::Other:
            return "pl." + e.sval;
        default:
            return fmt::format("pl.{}.{}", enum_kind_name(e.enum_kind), e.sval);
    }
}

std::string expr_str(const ExprPtr& ep, int parent_prec = 0);

std::string list_str(const std::vector<ExprPtr>& v, const char* open, const char* close, bool tuple) {
    std::string s = open;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + expr_str(v[i]);
    if (tuple && v.size() == 1) s += ",";
    return s + close;
}

std::string call_args(const Expr& e) {
    std::vector<std::string> parts;
    bool positional_ok = true;
    const auto& ps = e.op->params;
    for (size_t i = 0; i < ps.size(); ++i) {
        const ExprPtr& a = i < e.args.size() ? e.args[i] : nullptr;
        if (!a) {
            positional_ok = false;
            continue;
        }
        if (positional_ok && ps[i].positional)
            parts.push_back(expr_str(a));
        else {
            positional_ok = false;
            parts.push_back(ps[i].name + "=" + expr_str(a));
        }
    }
    if (e.attrs) parts.push_back("attrs=" + expr_str(e.attrs));
    return fmt::format("{}", fmt::join(parts, ", "));
}

std::string expr_str(const ExprPtr& ep, int parent_prec) {
    if (!ep) return "None";
    const Expr& e = *ep;
    switch (e.kind) {
        case ExprKind::Int:
            return e.sval == "pl.AUTO" ? e.sval : std::to_string(e.ival);
        case ExprKind::Float:
            return py_float(e.fval);
        case ExprKind::Bool:
            return e.ival ? "True" : "False";
        case ExprKind::Str:
            return py_str(e.sval);
        case ExprKind::NoneLit:
            return "None";
        case ExprKind::Const:
            return fmt::format(
                "pl.const({}, pl.{})",
                dtype_is_float(e.dtype) ? py_float(e.fval) : std::to_string(static_cast<int64_t>(e.fval)),
                dtype_name(e.dtype));
        case ExprKind::DTypeLit:
            return fmt::format("pl.{}", dtype_name(e.dtype));
        case ExprKind::Enum:
            return enum_str(e);
        case ExprKind::Var:
            return e.var->name;
        case ExprKind::List:
            return list_str(e.args, "[", "]", false);
        case ExprKind::Tuple:
            return list_str(e.args, "(", ")", true);
        case ExprKind::Dict: {
            std::string s = "{";
            for (size_t i = 0; i < e.args.size(); ++i)
                s += (i ? ", " : "") + expr_str(e.args[i]) + ": " + expr_str(e.args2[i]);
            return s + "}";
        }
        case ExprKind::Binary:
        case ExprKind::Compare:
        case ExprKind::BoolOp: {
            if (e.kind == ExprKind::Binary && (e.sval == "min" || e.sval == "max"))
                return fmt::format("pl.{}({}, {})", e.sval, expr_str(e.args[0]), expr_str(e.args[1]));
            int p = precedence(e);
            // Left-associative: the right operand needs parentheses at equal precedence.
            std::string s = expr_str(e.args[0], p) + " " + e.sval + " " + expr_str(e.args[1], p + 1);
            return p < parent_prec ? "(" + s + ")" : s;
        }
        case ExprKind::Unary: {
            if (e.sval == "cast") return fmt::format("pl.cast({}, pl.{})", expr_str(e.args[0]), dtype_name(e.dtype));
            if (e.sval == "abs") return fmt::format("abs({})", expr_str(e.args[0]));
            int p = precedence(e);
            std::string s = e.sval == "not" ? "not " + expr_str(e.args[0], p) : e.sval + expr_str(e.args[0], p);
            return p < parent_prec ? "(" + s + ")" : s;
        }
        case ExprKind::Call:
            return fmt::format("pl.{}({})", e.op->name(), call_args(e));
        case ExprKind::FuncCall: {
            if (e.ival == kFuncRef) return "self." + e.sval;
            std::vector<std::string> a;
            for (auto& x : e.args) a.push_back(expr_str(x));
            if (is_host_op_call(e)) {  // orchestration host op: keywords kept in order as a dict
                if (e.attrs)
                    for (size_t i = 0; i < e.attrs->args.size(); ++i)
                        a.push_back(e.attrs->args[i]->sval + "=" + expr_str(e.attrs->args2[i]));
                return fmt::format("{}({})", e.sval, fmt::join(a, ", "));
            }
            if (e.attrs) a.push_back("attrs=" + expr_str(e.attrs));
            if (!e.args2.empty())
                a.push_back("device=" + expr_str(e.args2[0]));  // a host orchestrator's per-rank dispatch
            return fmt::format("self.{}({})", e.sval, fmt::join(a, ", "));
        }
        case ExprKind::Index:
            return expr_str(e.args[0], 20) + "[" + std::to_string(e.ival) + "]";
    }
    return "?";
}

class Printer {
  public:
    std::string out;

    void line(int indent, const std::string& s) {
        out.append(static_cast<size_t>(indent) * 4, ' ');
        out += s;
        out += '\n';
    }

    void block(const Block& b, int indent) {
        if (b.empty()) {
            line(indent, "pass");
            return;
        }
        for (const auto& s : b) stmt(*s, indent);
    }

    // The printed valid_shape of each tile whose region is set at run time (Type::valid_dynamic), so the printed
    // program reads back with the same region: the scalar valid_shape of the op that sets it, else the region of
    // the value it comes from (an op's first tile operand, an alias, a loop's initial value, a branch's yield).
    std::map<const Var*, std::string> m_dyn_valid;

    void collect_dyn_valid(const Block& b) {
        auto from = [&](const ExprPtr& e) -> const std::string* {
            if (!e || e->kind != ExprKind::Var) return nullptr;
            auto it = m_dyn_valid.find(e->var.get());
            return it == m_dyn_valid.end() ? nullptr : &it->second;
        };
        auto give = [&](const VarPtr& v, const std::string* text) {
            if (v && v->type.valid_dynamic && text && !m_dyn_valid.count(v.get())) m_dyn_valid[v.get()] = *text;
        };
        for (const auto& sp : b) {
            const Stmt& s = *sp;
            if (s.kind == StmtKind::Assign && s.targets.size() == 1 && s.value && s.targets[0]->type.valid_dynamic) {
                const Expr& v = *s.value;
                std::string text;
                if (v.kind == ExprKind::Call) {
                    if (const ExprPtr& vs = arg(v, "valid_shape"))
                        text = expr_str(vs);
                    else if (v.op->code == OpCode::SetValidShape)
                        text = "[" + expr_str(arg(v, "rows")) + ", " + expr_str(arg(v, "cols")) + "]";
                    else if (!v.args2.empty()) {  // a tpop's annotated region (Expr::args2)
                        std::vector<std::string> d;
                        for (const auto& a : v.args2) d.push_back(expr_str(a));
                        text = fmt::format("[{}]", fmt::join(d, ", "));
                    } else
                        for (const auto& a : v.args)
                            if (const std::string* t = from(a)) {
                                text = *t;
                                break;
                            }
                } else if (const std::string* t = from(s.value)) {
                    text = *t;
                }
                if (!text.empty()) give(s.targets[0], &text);
            }
            if (s.kind == StmtKind::Yield)
                for (size_t k = 0; k < s.targets.size() && k < s.values.size(); ++k)
                    give(s.targets[k], from(s.values[k]));
            if (s.kind == StmtKind::For)
                for (size_t k = 0; k < s.iter_args.size() && k < s.init_values.size(); ++k)
                    give(s.iter_args[k], from(s.init_values[k]));
            collect_dyn_valid(s.body);
            collect_dyn_valid(s.orelse);
            if (s.kind == StmtKind::For)
                for (size_t k = 0; k < s.iter_args.size() && k < s.targets.size(); ++k)
                    if (auto it = m_dyn_valid.find(s.iter_args[k].get()); it != m_dyn_valid.end())
                        give(s.targets[k], &it->second);
        }
    }

    std::string typed(const Var& v) const {
        auto it = m_dyn_valid.find(&v);
        return type_str(v.type, it == m_dyn_valid.end() ? nullptr : &it->second);
    }

    std::string targets_with_types(const std::vector<VarPtr>& ts) const {
        if (ts.size() == 1) return ts[0]->name + ": " + typed(*ts[0]);
        std::vector<std::string> n;
        for (auto& v : ts) n.push_back(v->name);
        return fmt::format("{}", fmt::join(n, ", "));
    }

    static std::string range_str(const Stmt& s) {
        std::vector<std::string> a;
        if (s.start) a.push_back(expr_str(s.start));
        a.push_back(expr_str(s.stop));
        if (s.step) a.push_back(expr_str(s.step));
        const char* fn = "pl.range";
        switch (s.loop_kind) {
            case LoopKind::Range:
                fn = "pl.range";
                break;
            case LoopKind::Parallel:
                fn = "pl.parallel";
                break;
            case LoopKind::Unroll:
                fn = "pl.unroll";
                break;
            case LoopKind::SplitAiv:
                fn = "pl.split_aiv";
                break;
            case LoopKind::Spmd:
                fn = "pl.spmd";
                break;
            case LoopKind::Pipeline:
                fn = "pl.pipeline";
                break;
        }
        if (s.loop_kind == LoopKind::SplitAiv)
            a.push_back(fmt::format("mode=pl.SplitMode.{}", split_mode_name(s.split_mode)));
        for (size_t i = 0; i < s.loop_extra.size() && i < s.loop_extra_keys.size(); ++i)
            a.push_back(s.loop_extra_keys[i] + "=" + expr_str(s.loop_extra[i]));
        if (!s.init_values.empty()) a.push_back("init_values=" + list_str(s.init_values, "(", ")", true));
        return fmt::format("{}({})", fn, fmt::join(a, ", "));
    }

    void stmt(const Stmt& s, int indent) {
        switch (s.kind) {
            case StmtKind::Assign:
            case StmtKind::Yield: {
                std::string rhs = s.kind == StmtKind::Yield
                                      ? fmt::format("pl.yield_({})", fmt::join(values(s.values), ", "))
                                      : expr_str(s.value);
                if (s.targets.empty())
                    line(indent, rhs);
                else
                    line(indent, targets_with_types(s.targets) + " = " + rhs);
                return;
            }
            case StmtKind::Eval:
                line(indent, expr_str(s.value));
                return;
            case StmtKind::Return:
                line(indent, s.values.empty() ? "return" : fmt::format("return {}", fmt::join(values(s.values), ", ")));
                return;
            case StmtKind::Pass:
                line(indent, "pass");
                return;
            case StmtKind::For: {
                std::string target = s.loop_var->name;
                if (!s.iter_args.empty()) {
                    std::vector<std::string> n;
                    for (auto& v : s.iter_args) n.push_back(v->name);
                    target += fmt::format(", ({}{})", fmt::join(n, ", "), n.size() == 1 ? "," : "");
                }
                line(indent, fmt::format("for {} in {}:", target, range_str(s)));
                block(s.body, indent + 1);
                return;
            }
            case StmtKind::If:
                line(indent, "if " + expr_str(s.value) + ":");
                block(s.body, indent + 1);
                if (!s.orelse.empty()) {
                    line(indent, "else:");
                    block(s.orelse, indent + 1);
                }
                return;
        }
    }

    static std::vector<std::string> values(const std::vector<ExprPtr>& v) {
        std::vector<std::string> out;
        for (auto& e : v) out.push_back(expr_str(e));
        return out;
    }

    void function(const Function& f) {
        if (f.is_unread()) {  // not read: printed back as written, after a note saying why
            const Diagnostic& d = *f.unread.diag;
            line(1, fmt::format("# cvsim: not read: {}:{}: {}", d.loc.line, d.loc.col, d.code));
            out += f.unread.text;
            return;
        }
        if (!f.specialised_from.empty())  // parity compares it with upstream's function of that name (sim/parity.cpp)
            line(1, fmt::format("# cvsim: '{}' is a per-call copy of '{}'", f.name, f.specialised_from));
        std::vector<std::string> deco;
        deco.push_back(fmt::format("type=pl.FunctionType.{}", func_type_name(f.type)));
        for (size_t i = 0; i < f.deco_extra.size(); ++i)
            deco.push_back(f.deco_extra_keys[i] + "=" + expr_str(f.deco_extra[i]));
        line(1, fmt::format("@pl.function({})", fmt::join(deco, ", ")));
        std::vector<std::string> params = {"self"};
        for (const auto& p : f.params) {
            std::string t = type_str(p.var->type);
            if (p.dir == ParamDir::Out) t = "pl.Out[" + t + "]";
            if (p.dir == ParamDir::InOut) t = "pl.InOut[" + t + "]";
            params.push_back(p.var->name + ": " + t);
        }
        std::string ret;
        if (!f.ret_types.empty()) {
            if (f.ret_is_tuple || f.ret_types.size() > 1) {
                std::vector<std::string> r;
                for (auto& t : f.ret_types) r.push_back(type_str(t));
                ret = fmt::format(" -> tuple[{}]", fmt::join(r, ", "));
            } else {
                ret = " -> " + type_str(f.ret_types[0]);
            }
        }
        m_dyn_valid.clear();
        collect_dyn_valid(f.body);
        line(1, fmt::format("def {}({}){}:", f.name, fmt::join(params, ", "), ret));
        if (!f.attrs.empty()) {
            std::vector<std::string> kv;
            for (auto& a : f.attrs) kv.push_back(py_str(a.key) + ": " + expr_str(a.value));
            line(2, fmt::format("pl.func_attr({{{}}})", fmt::join(kv, ", ")));
            if (f.body.empty()) return;
        }
        block(f.body, 2);
    }
};

// Callee-before-caller order, stable with respect to source order.
std::vector<const Function*> print_order(const Program& p) {
    std::vector<const Function*> order;
    std::set<std::string> done, active;
    std::function<void(const Function&)> visit = [&](const Function& f) {
        if (done.count(f.name) || active.count(f.name)) return;
        active.insert(f.name);
        std::function<void(const Block&)> scan = [&](const Block& b) {
            for (const auto& s : b) {
                std::function<void(const ExprPtr&)> ex = [&](const ExprPtr& e) {
                    if (!e) return;
                    if (e->kind == ExprKind::FuncCall)
                        if (auto callee = p.find(e->sval)) visit(*callee);
                    for (auto& a : e->args) ex(a);
                };
                ex(s->value);
                for (auto& v : s->values) ex(v);
                scan(s->body);
                scan(s->orelse);
            }
        };
        scan(f.body);
        active.erase(f.name);
        done.insert(f.name);
        order.push_back(&f);
    };
    for (const auto& f : p.functions) visit(*f);
    return order;
}

}  // namespace

std::string print_expr(const ExprPtr& e) {
    return expr_str(e);
}

std::string print_stmt(const Stmt& s) {
    Printer pr;
    Stmt shallow = s;
    shallow.body.clear();
    shallow.orelse.clear();
    pr.stmt(shallow, 0);
    std::string out = pr.out;
    auto nl = out.find('\n');
    return nl == std::string::npos ? out : out.substr(0, nl);
}

std::string print_function(const Function& f) {
    Printer pr;
    pr.function(f);
    return pr.out;
}

std::string print_program(const Program& p) {
    Printer pr;
    pr.out =
        fmt::format("# pypto.program: {}\nimport pypto.language as pl\n\n\n@pl.program\nclass {}:\n", p.name, p.name);
    bool first = true;
    for (const Function* f : print_order(p)) {
        if (!first) pr.out += "\n";
        first = false;
        pr.function(*f);
    }
    return pr.out;
}

}  // namespace cvsim
