# The shared bad/ case undefined_name (expected.toml gives its code and line).
# RUN: check %shared/kernels/bad/undefined_name.py
# ERROR: E-NAME 9:24
