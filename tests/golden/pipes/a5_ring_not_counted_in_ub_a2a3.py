# Twin: a5_ring_not_counted_in_ub.py on a2a3, where the ring is in GM and 128 KiB of tiles fit. Clean.
# RUN: check tests/golden/pipes/a5_ring_not_counted_in_ub.py
# CHECK: PASS: no finding in any explored schedule
