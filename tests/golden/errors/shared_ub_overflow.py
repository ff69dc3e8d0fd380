# The shared bad/ case ub_overflow (expected.toml gives its code and line).
# RUN: check %shared/kernels/bad/ub_overflow.py
# ERROR: E-CAPACITY 8:9
