# check of tpop_annotated_valid_region.py with its region unbound: the region's scalars (set_validshape's rows
# and cols, the tpop annotation's) bound the stores' GM windows, so they are control scalars and are sampled
# (before: not control uses, so the kernel was checked only at the default 0, an empty region: a vacuous PASS).
# RUN: check tests/golden/printed/tpop_annotated_valid_region.py --schedules 3
# CHECK: [pair rows=1, cols=1 (sampled)]
# CHECK: PASS: no finding in any explored schedule
# CHECK: [pair rows=2, cols=2 (sampled)]
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl
