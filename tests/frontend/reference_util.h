// Helpers for tests that run a program text through the reference interpreter on seeded inputs.
#pragma once

#include <cstdint>
#include <string>

#include "frontend/launch.h"
#include "frontend/reference.h"
#include "frontend_util.h"

namespace cvsim::test {

struct RefRun {
    rt::TensorStore in;  // the inputs as given (outputs poisoned)
    ref::Result out;     // the final GM and the run's error, if any
};

// Compile TEXT, bind its entry, fill the inputs from SEED, poison the outputs, interpret.
inline RefRun run_reference(const std::string& text, uint64_t seed) {
    CompileOptions co;
    Compiled c = compile(parse_text(text), co);
    RefRun r;
    rt::bind_entry(c.plan, r.in, {});
    rt::fill_inputs(r.in, seed);
    rt::poison_outputs(r.in);
    r.out = ref::interpret(c.plan, r.in);
    return r;
}

// Element I of T, decoded from its dtype.
inline double element_at(const rt::TensorBuffer& t, int64_t i) {
    return decode_element(t.dtype, t.bytes.data() + i * dtype_bytes(t.dtype));
}

}  // namespace cvsim::test
