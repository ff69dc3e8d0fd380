# The shared bad/ case matmul_shape_mismatch (expected.toml gives its code and line).
# RUN: check %shared/kernels/bad/matmul_shape_mismatch.py
# ERROR: E-TYPE 12:13
