// The oracle's values and its scalar evaluator (internal): Python semantics for //, % and **, no code shared
// with frontend/runtime.h's eval_scalar.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "frontend/ir/ir.h"

namespace cvsim::oracle::detail {

// A value of the oracle's walk: a scalar, a GM tensor view, a tile (storage + valid region) or a tuple.
struct Val {
    enum K : uint8_t { None, Int, Float, Tensor, Tile, Tuple } k = None;
    int64_t i = 0;
    double f = 0;
    int tensor = -1;                  // Tensor: GM tensor (TensorStore index)
    std::vector<int64_t> off, shape;  // Tensor: view origin (absolute) and shape
    int storage = -1;                 // Tile: storage it names (views alias their base)
    int64_t vr = 0, vc = 0;           // Tile: valid rows / cols
    Mem mem = Mem::Vec;
    std::shared_ptr<std::vector<Val>> tup;
    static Val of_int(int64_t v) {
        Val x;
        x.k = Int;
        x.i = v;
        return x;
    }
    static Val of_float(double v) {
        Val x;
        x.k = Float;
        x.f = v;
        return x;
    }
    int64_t as_int() const { return k == Float ? static_cast<int64_t>(f) : i; }
    double as_num() const { return k == Float ? f : static_cast<double>(i); }
};

// Evaluates a scalar expression; `var` gives a variable's value, `call` the value of an op call (block and
// subblock index).
Val scalar_value(const ir::ExprPtr& e, const std::function<Val(const ir::Var&)>& var,
                 const std::function<Val(const ir::Expr&)>& call);

}  // namespace cvsim::oracle::detail
