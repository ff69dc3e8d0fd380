# The shared bad/ case bad_indent (expected.toml gives its code and line).
# RUN: check %shared/kernels/bad/bad_indent.py
# ERROR: E-PARSE 9:11
