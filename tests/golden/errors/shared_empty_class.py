# The shared bad/ case empty_class (expected.toml gives its code and line).
# RUN: check %shared/kernels/bad/empty_class.py
# ERROR: E-PARSE 5:13
