# The shared bad/ case binary_garbage (expected.toml gives its code and line).
# RUN: check %shared/kernels/bad/binary_garbage.py
# ERROR: E-PARSE 1:1
