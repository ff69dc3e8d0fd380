# The shared bad/ case load_out_of_bounds (expected.toml gives its code and line).
# RUN: check %shared/kernels/bad/load_out_of_bounds.py
# ERROR: E-OOB 8:13
