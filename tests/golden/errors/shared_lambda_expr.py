# The shared bad/ case lambda_expr (expected.toml gives its code and line).
# RUN: check %shared/kernels/bad/lambda_expr.py
# ERROR: E-UNSUPPORTED 9:13
