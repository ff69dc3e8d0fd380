# The shared bad/ case unknown_op (expected.toml gives its code and line).
# RUN: check %shared/kernels/bad/unknown_op.py
# ERROR: E-UNSUPPORTED 9:13
